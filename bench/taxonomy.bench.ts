/**
 * `npm run bench:taxonomy`: the Specialties screen's search of the NUCC code set (issue 31 item 1:
 * "searchable in under 50 ms on this machine"). Loads the shipped file as the server does
 * (server/sections/taxonomy.ts), times `searchableTaxonomy` (run once when the screen gets the code
 * set), then runs `searchTaxonomy` (run on every keystroke) for realistic queries, each
 * BENCH_ITERATIONS times (default 200): one letter, word starts, whole and partial codes, a query
 * that matches nothing. Prints p50, p99 and max wall-clock ms per query and the load average; exits 1
 * when a query's p99 is 50 ms or more. The verdict is on p99, not max: on a loaded 2-CPU machine a
 * single run can be descheduled for tens of milliseconds whatever the code does (the max shows it).
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import {
  NUCC_TAXONOMY_VERSION,
  searchableTaxonomy,
  searchTaxonomy,
} from '../domain/sections/taxonomy/nucc-taxonomy.ts';
import { parseTaxonomyFile, taxonomyFileUrl } from '../server/sections/taxonomy.ts';
import { percentile } from './lib.ts';

/** The bar for one search, in milliseconds. */
const GOAL_MS = 50;
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);

/** What a provider types: a letter, the start of words, codes whole and in part, and no match. */
const queries = [
  'a',
  'c',
  'cardio',
  'cardiovascular disease',
  'family med',
  'fam',
  'internal medicine',
  'nurse pract',
  'nurse practitioner family',
  'psych',
  'pediatric',
  'physician assistant',
  'ob gyn',
  'surgery orthopaedic',
  'emergency',
  'anesth',
  '2',
  '207',
  '207RC0000X',
  '363lf',
  'zzzz no such specialty',
];

const ms = (start: number) => performance.now() - start;

let start = performance.now();
const text = readFileSync(taxonomyFileUrl, 'utf8');
const { entries } = parseTaxonomyFile(text);
const loadMs = ms(start);
start = performance.now();
const searchable = searchableTaxonomy(entries);
const prepareMs = ms(start);
console.log(
  `NUCC taxonomy ${NUCC_TAXONOMY_VERSION}: ${entries.length} codes, ${text.length} characters; read and parsed in ${loadMs.toFixed(1)} ms, searchableTaxonomy in ${prepareMs.toFixed(1)} ms (once)`,
);
console.log(`searchTaxonomy, ${ITERATIONS} runs per query (limit 50):`);

// A first pass so the timings are of the optimized code, as after the screen's first keystrokes.
for (const query of queries) searchTaxonomy(searchable, query);

let worstP99 = 0;
let worstMax = 0;
for (const query of queries) {
  const times: number[] = [];
  let found = 0;
  for (let i = 0; i < ITERATIONS; i++) {
    const t = performance.now();
    found = searchTaxonomy(searchable, query).length;
    times.push(ms(t));
  }
  times.sort((a, b) => a - b);
  const p99 = percentile(times, 99);
  const max = times.at(-1)!;
  worstP99 = Math.max(worstP99, p99);
  worstMax = Math.max(worstMax, max);
  console.log(
    `  ${JSON.stringify(query).padEnd(28)} ${String(found).padStart(3)} found  p50 ${percentile(times, 50).toFixed(3)} ms  p99 ${p99.toFixed(3)} ms  max ${max.toFixed(3)} ms`,
  );
}
const met = worstP99 < GOAL_MS;
const load = os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
console.log(
  `slowest p99 ${worstP99.toFixed(3)} ms, slowest single search ${worstMax.toFixed(3)} ms (goal < ${GOAL_MS} ms per search: ${met ? 'met' : 'NOT met'}); load average ${load} on ${os.availableParallelism()} CPUs`,
);
process.exit(met ? 0 : 1);
