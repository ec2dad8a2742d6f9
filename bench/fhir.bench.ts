/**
 * `npm run bench:fhir` (issue 33 acceptance): the FHIR directory API at volume.
 *
 * For each size in BENCH_FHIR_SIZES (default `2500,10000` credentialed providers), on a fresh
 * database of DATABASE_URL's server (dropped afterwards), with the real app in this process (real
 * HTTP on a loopback port):
 * 1. Seeds the providers inside PostgreSQL (generate_series; no round trip per row): each with an
 *    account and profile, an approved application with personal information (NPI, DEA), a medical
 *    and a DEA license, a degree, a board certification, two specialties, two practice locations
 *    (one of a group practice), eight verified checklist items, and a running credential.
 * 2. `$export` of every type through the real async pattern (kick-off, status polling every 200 ms,
 *    then every NDJSON file downloaded and its lines counted): wall-clock time from kick-off to the
 *    manifest, and this process's peak RSS (VmHWM, reset before the export) against its RSS before.
 *    Goal: <= 60 s at 10,000; memory flat in the count (the peak over the baseline about the same at
 *    2,500 and 10,000).
 * 3. Searches, BENCH_FHIR_SEARCHES (default 400) of them, round-robin over four clients (each client
 *    may make 600 reads a minute): Practitioner by NPI with `_revinclude`, by name, PractitionerRole by
 *    practitioner with both includes, a read by id, and a page of 50 Practitioners. p50/p95/max wall
 *    clock per request. Goal: p95 < 50 ms at 10,000.
 * Each size runs in a process of its own with the same V8 heap limit (BENCH_FHIR_HEAP_MB).
 * Prints the figures and the load average; exits 1 when a goal is missed.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { basicAuthorization, registerTestClient, requestToken } from '../server/api-clients/testing.ts';
import { loadEnv } from '../server/env.ts';
import { createRuntime } from '../server/runtime.ts';
import { createDatabaseOn, peakRssBytes, percentile, resetPeakRss, rssBytes } from './lib.ts';

const SIZES = (process.env.BENCH_FHIR_SIZES ?? '2500,10000').split(',').map(Number);
const SEARCHES = Number(process.env.BENCH_FHIR_SEARCHES ?? 400);
const EXPORT_GOAL_S = 60;
const SEARCH_GOAL_MS = 50;
const MB = 1024 * 1024;
/**
 * The V8 heap limit of every size's process (BENCH_FHIR_HEAP_MB, default 256): the same for every
 * size, so the peaks compare what the export holds rather than how lazily the collector runs (with
 * no limit V8 lets garbage grow with the work done); an export whose memory grew with the count
 * would fail at the larger size under it.
 */
const HEAP_CAP_MB = Number(process.env.BENCH_FHIR_HEAP_MB ?? 256);

/** Seed `n` credentialed providers (ids `fb…`), all in one transaction. */
export const seedSql = (n: number) => `
begin;
create temporary table seed on commit drop as
  select i, 'fb' || lpad(i::text, 10, '0') as uid, gen_random_uuid() as app, gen_random_uuid() as cert
  from generate_series(1, ${n}) as i;
insert into "user" (id, name, email, email_verified)
  select uid, 'Provider ' || i, uid || '@fhir-bench.test', true from seed;
insert into profiles (user_id, first_name, last_name, email)
  select uid, (array['Ada','Grace','Alan','Mary','John','Rosa','Ivan','Lena'])[1 + i % 8],
    (array['Hopper','Turing','Lovelace','Curie','Noether','Banach','Euler','Gauss'])[1 + (i / 8) % 8] || i,
    uid || '@fhir-bench.test' from seed;
insert into provider_applications (id, user_id, application_status, submitted_at, decided_at, decided_by_role, effective_date)
  select app, uid, 'approved', now() - interval '40 days', now() - interval '10 days', 'medical_director', current_date - 10 from seed;
insert into personal_information (application_id, provider_type, gender, npi_number, dea_number, state)
  select app, 'MD', case when i % 2 = 0 then 'F' else 'M' end, (1000000000 + i)::text, 'AB' || lpad(i::text, 7, '0'), 'IL' from seed;
insert into professional_licenses (application_id, position, license_type, license_number, issuing_state, issue_date, expiration_date)
  select app, 0, 'medical_license'::license_type, 'MD-' || i, 'IL', date '2015-06-01', date '2030-06-01' from seed
  union all
  select app, 1, 'dea_license'::license_type, 'AB' || lpad(i::text, 7, '0'), 'IL', date '2020-01-01', date '2029-02-28' from seed;
insert into education (application_id, institution_name, degree_type, field_of_study, graduation_date)
  select app, 'University of Illinois', 'doctorate', 'Medicine', date '2009-05-15' from seed;
insert into certifications (id, application_id, certification_name, certifying_body, certification_number, issue_date, expiration_date)
  select cert, app, 'Board Certified, Internal Medicine', 'ABIM', 'C-' || i, date '2012-07-01', date '2032-12-31' from seed;
insert into specialties (application_id, position, specialty_rank, taxonomy_code, classification, specialization, board_certification_id)
  select app, 0, 'primary'::specialty_rank, '207R00000X', 'Internal Medicine', null, cert from seed
  union all
  select app, 1, 'secondary'::specialty_rank, '207RC0000X', 'Internal Medicine', 'Cardiovascular Disease', null from seed;
insert into practice_locations (application_id, position, practice_name, group_npi, address_line1, city, state, zip_code, phone, is_primary_location, accepting_new_patients)
  select app, 0, 'Group Practice ' || (i % 500), (1900000000 + i % 500)::text, i || ' Main Street', 'Springfield', 'IL', '62701', '(555) 010-' || lpad((i % 10000)::text, 4, '0'), true, 'yes'::accepting_new_patients from seed
  union all
  select app, 1, 'Solo Office ' || i, null, i || ' North Road', 'Chicago', 'IL', '60601', null, false, 'existing_only'::accepting_new_patients from seed;
insert into verification_items (application_id, kind, item_key, target, primary_source, status, source, verified_at, position)
  select s.app, k.kind, k.kind || ':' || s.i, k.target, k.source, 'verified', k.source, current_date - 20, k.pos
  from seed s cross join (values
    (0, 'license', 'Professional license: medical license IL', 'State licensing board (IL)'),
    (1, 'dea', 'DEA registration', 'DEA Diversion Control Division'),
    (2, 'npi', 'NPI', 'NPPES NPI Registry'),
    (3, 'board_certification', 'Board certification: ABIM', 'ABIM'),
    (4, 'education', 'Highest education: doctorate Medicine', 'University of Illinois'),
    (5, 'work_history', 'Work history (last 5 years)', 'Employers / CV review'),
    (6, 'malpractice', 'Current malpractice coverage', 'MedPro'),
    (7, 'exclusions', 'Exclusion screening', 'OIG LEIE')
  ) as k(pos, kind, target, source);
insert into provider_credentials (user_id, application_id, credentialed_at, approved_at, ends_on)
  select uid, app, now() - interval '10 days', now() - interval '10 days', current_date + 1000 from seed;
commit;
analyze;
`;

async function token(baseUrl: string, db: Parameters<typeof registerTestClient>[0]['runtime']['deps']['db']) {
  const client = await registerTestClient(
    { baseUrl, runtime: { deps: { db } } },
    ['system/*.read'],
    'FHIR bench',
  );
  const answer = await requestToken(
    { baseUrl, runtime: { deps: { db } } },
    { grant_type: 'client_credentials' },
    { authorization: basicAuthorization(client.clientId, client.clientSecret) },
  );
  if (answer.status !== 200) throw new Error(`token endpoint answered ${answer.status}`);
  return String(answer.body.access_token);
}

async function get(baseUrl: string, bearer: string, urlPath: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}${urlPath}`, {
    headers: { authorization: `Bearer ${bearer}`, ...headers },
  });
  return response;
}

interface Figures {
  size: number;
  exportSeconds: number;
  baselineMb: number;
  peakMb: number;
  heapBeforeMb: number;
  heapPeakMb: number;
  lines: Record<string, number>;
  p50: number;
  p95: number;
  max: number;
}

async function run(size: number): Promise<Figures> {
  if (!process.env.DATABASE_URL)
    throw new Error('bench:fhir needs DATABASE_URL (a PostgreSQL server that may create databases).');
  const scratch = await createDatabaseOn(process.env.DATABASE_URL, 'fhir_bench');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fhir-bench-'));
  const runtime = await createRuntime({
    env: loadEnv({
      ...process.env,
      DATABASE_URL: scratch.url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      AUTH_IP_RATE_LIMIT: 'false',
    }),
    logger: pino({ level: 'warn' }),
    serveWeb: false,
  });
  try {
    await runtime.app.listen({ port: 0, host: '127.0.0.1' });
    const address = runtime.app.server.address();
    const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const db = runtime.deps.db;
    let t = performance.now();
    await runtime.deps.database.pool.query(seedSql(size));
    console.log(
      `  seeded ${size} credentialed providers in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    const tokens = await Promise.all([1, 2, 3, 4].map(() => token(baseUrl, db)));

    // $export: kick-off, poll, manifest.
    global.gc?.();
    const baseline = rssBytes(process.pid);
    resetPeakRss();
    // The V8 heap in use, sampled: what the export holds live (RSS also counts garbage not yet collected).
    let heapPeak = process.memoryUsage().heapUsed;
    const heapBefore = heapPeak;
    const sampler = setInterval(() => {
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    }, 20);
    t = performance.now();
    const kickOff = await get(baseUrl, tokens[0]!, '/fhir/$export', { prefer: 'respond-async' });
    if (kickOff.status !== 202)
      throw new Error(`kick-off answered ${kickOff.status}: ${await kickOff.text()}`);
    const statusPath = new URL(kickOff.headers.get('content-location')!).pathname;
    let manifest: { output: { type: string; url: string; count: number }[] } | undefined;
    while (!manifest) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const polled = await get(baseUrl, tokens[0]!, statusPath);
      if (polled.status === 200) manifest = (await polled.json()) as typeof manifest;
      else if (polled.status !== 202)
        throw new Error(`status answered ${polled.status}: ${await polled.text()}`);
      else await polled.arrayBuffer();
    }
    const exportSeconds = (performance.now() - t) / 1000;
    const peak = peakRssBytes(process.pid);
    clearInterval(sampler);
    const lines: Record<string, number> = {};
    for (const file of manifest.output) {
      const response = await get(baseUrl, tokens[0]!, new URL(file.url).pathname);
      let count = 0;
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        for (const byte of chunk) if (byte === 10) count++;
      }
      if (count !== file.count) throw new Error(`${file.url}: ${count} lines, manifest says ${file.count}`);
      lines[file.type] = (lines[file.type] ?? 0) + count;
    }
    console.log(
      `  $export: ${exportSeconds.toFixed(1)} s to the manifest; RSS ${(baseline / MB).toFixed(0)} MB before, peak ${(peak / MB).toFixed(0)} MB (+${((peak - baseline) / MB).toFixed(0)} MB); V8 heap in use ${(heapBefore / MB).toFixed(0)} MB before, peak ${(heapPeak / MB).toFixed(0)} MB; lines ${JSON.stringify(lines)}`,
    );

    // Searches at this volume.
    const pick = () => 1 + Math.floor(Math.random() * size);
    const uid = (i: number) => `fb${String(i).padStart(10, '0')}`;
    const queries = [
      () =>
        `/fhir/Practitioner?identifier=http://hl7.org/fhir/sid/us-npi|${1000000000 + pick()}&_revinclude=PractitionerRole:practitioner`,
      () => `/fhir/Practitioner?name=${['ada', 'grace', 'hopper', 'turing', 'curie'][pick() % 5]}&_count=20`,
      () =>
        `/fhir/PractitionerRole?practitioner=Practitioner/${uid(pick())}&_include=PractitionerRole:practitioner&_include=PractitionerRole:location`,
      () => `/fhir/Practitioner/${uid(pick())}`,
      () => `/fhir/Practitioner?_count=50`,
      () => `/fhir/VerificationResult?target=${uid(pick())}`,
    ];
    for (let i = 0; i < 20; i++)
      await (await get(baseUrl, tokens[i % 4]!, queries[i % queries.length]!())).arrayBuffer();
    const times: number[] = [];
    const byKind: number[][] = queries.map(() => []);
    for (let i = 0; i < SEARCHES; i++) {
      const start = performance.now();
      const response = await get(baseUrl, tokens[i % 4]!, queries[i % queries.length]!());
      await response.arrayBuffer();
      const elapsed = performance.now() - start;
      times.push(elapsed);
      byKind[i % queries.length]!.push(elapsed);
      if (response.status !== 200) throw new Error(`search answered ${response.status}`);
    }
    const kinds = [
      'NPI+revinclude',
      'name',
      'role+includes',
      'read',
      'page of 50',
      'VerificationResult by target',
    ];
    console.log(
      `  p95 by kind: ${byKind
        .map(
          (k, i) =>
            `${kinds[i]} ${percentile(
              k.sort((a, b) => a - b),
              95,
            ).toFixed(1)} ms`,
        )
        .join(', ')}`,
    );
    times.sort((a, b) => a - b);
    const figures = {
      size,
      exportSeconds,
      baselineMb: baseline / MB,
      peakMb: peak / MB,
      heapBeforeMb: heapBefore / MB,
      heapPeakMb: heapPeak / MB,
      lines,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      max: times.at(-1)!,
    };
    console.log(
      `  search (${SEARCHES} requests, 6 kinds): p50 ${figures.p50.toFixed(1)} ms, p95 ${figures.p95.toFixed(1)} ms, max ${figures.max.toFixed(1)} ms`,
    );
    return figures;
  } finally {
    await runtime.close();
    await scratch.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Each size runs in a child process of its own, so every peak RSS starts from the same baseline. */
async function main() {
  const childSize = process.env.BENCH_FHIR_CHILD_SIZE;
  if (childSize) {
    const figures = await run(Number(childSize));
    console.log(`FIGURES ${JSON.stringify(figures)}`);
    return;
  }
  const results: Figures[] = [];
  for (const size of SIZES) {
    console.log(`FHIR directory with ${size} credentialed providers:`);
    const child = spawnSync(
      process.execPath,
      [...process.execArgv, `--max-old-space-size=${HEAP_CAP_MB}`, fileURLToPath(import.meta.url)],
      {
        env: { ...process.env, BENCH_FHIR_CHILD_SIZE: String(size) },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const out = child.stdout ?? '';
    const printed = out.split('\n').filter((l) => l.startsWith('  '));
    process.stdout.write(`${printed.join('\n')}\n`);
    const line = out.split('\n').find((l) => l.startsWith('FIGURES '));
    if (child.status !== 0 || !line) throw new Error(`the ${size} run failed (exit ${child.status})`);
    results.push(JSON.parse(line.slice('FIGURES '.length)) as Figures);
  }
  console.log(
    `\nV8 heap limit ${HEAP_CAP_MB} MB per run; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (other work on this machine slows every figure)`,
  );
  console.log(
    'size     export s   RSS before MB   peak MB   peak-before MB   heap peak-before MB   search p50 ms   search p95 ms',
  );
  for (const r of results) {
    console.log(
      `${String(r.size).padEnd(8)} ${r.exportSeconds.toFixed(1).padStart(8)}   ${r.baselineMb.toFixed(0).padStart(13)}   ${r.peakMb.toFixed(0).padStart(7)}   ${(r.peakMb - r.baselineMb).toFixed(0).padStart(14)}   ${(r.heapPeakMb - r.heapBeforeMb).toFixed(0).padStart(19)}   ${r.p50.toFixed(1).padStart(13)}   ${r.p95.toFixed(1).padStart(13)}`,
    );
  }
  const largest = results.at(-1)!;
  const failures = [
    ...(largest.exportSeconds > EXPORT_GOAL_S
      ? [`$export took ${largest.exportSeconds.toFixed(1)} s (goal <= ${EXPORT_GOAL_S} s)`]
      : []),
    ...(largest.p95 >= SEARCH_GOAL_MS
      ? [`search p95 ${largest.p95.toFixed(1)} ms (goal < ${SEARCH_GOAL_MS} ms)`]
      : []),
  ];
  console.log(failures.length === 0 ? 'bench:fhir: goals met' : `bench:fhir: ${failures.join('; ')}`);
  process.exitCode = failures.length === 0 ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
