/**
 * `npm run bench:leie` (issue 15): the OIG LEIE import and exclusion screening at volume.
 *
 * - Import: a synthetic LEIE full file of BENCH_LEIE_ROWS rows (default 100,000; invented names,
 *   every tenth row with an NPI, the LEIE's 18 columns) written to a temporary file, then imported
 *   with `importLeie` (csv-parse stream, one transaction). Prints the time and this process's peak
 *   RSS during the import (sampled every 20 ms) against its RSS before.
 * - Screening: BENCH_SCREEN_PROVIDERS providers (default 100,000; one in a hundred on the list by NPI,
 *   one in a hundred by name only) screened one after the other with `screenSnapshot`, the query the
 *   review runs at Start Review. Prints the total and p50/p95/max per provider.
 *
 * Database: a fresh one on DATABASE_URL's server (dropped afterwards), else the embedded cluster in a
 * temporary directory.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import type { ApplicationSnapshot } from '../domain/review/application-snapshot.ts';
import { LEIE_COLUMNS } from '../domain/review/leie-screening.ts';
import { FIRST_NAMES, LAST_NAMES } from '../scripts/seed-volume/sample-values.ts';
import { type DatabaseHandle, openDatabase, runMigrations } from '../server/db/client.ts';
import { loadEnv } from '../server/env.ts';
import { importLeie, screenSnapshot } from '../server/review/leie.ts';
import { openConfiguredDatabase } from '../server/runtime.ts';
import { createDatabaseOn, percentile } from './lib.ts';

const ROWS = Number(process.env.BENCH_LEIE_ROWS ?? 100_000);
const PROVIDERS = Number(process.env.BENCH_SCREEN_PROVIDERS ?? 100_000);

/** An invented NPI for row `i` (ten digits; the check digit is not needed by the list). */
const npiOf = (i: number) => String(1_500_000_000 + i);
const nameOf = (i: number) => ({
  first: FIRST_NAMES[i % FIRST_NAMES.length]!,
  last: `${LAST_NAMES[(i * 7) % LAST_NAMES.length]!}${i}`,
});

function writeSyntheticFile(file: string): void {
  const lines = [LEIE_COLUMNS.join(',')];
  for (let i = 1; i <= ROWS; i++) {
    const { first, last } = nameOf(i);
    lines.push(
      [
        last.toUpperCase(),
        first.toUpperCase(),
        '',
        '',
        'IND- LIC HC SERV PRO',
        'NURSE/NURSES AIDE',
        '',
        i % 10 === 0 ? npiOf(i) : '0000000000',
        `19${50 + (i % 50)}0${1 + (i % 9)}1${i % 10}`,
        `${i} INVENTED RD`,
        'NOWHERE',
        'IL',
        '60000',
        '1128b4',
        '20200115',
        '00000000',
        '00000000',
        '',
      ].join(','),
    );
  }
  fs.writeFileSync(file, `${lines.join('\r\n')}\r\n`);
}

/** Provider `p`'s snapshot: on the list by NPI (p % 100 == 0), by name only (p % 100 == 1), else not. */
function snapshotOf(p: number): ApplicationSnapshot {
  const listed = (p * 10) % ROWS || 10;
  const byNpi = p % 100 === 0;
  const byName = p % 100 === 1;
  const name = byName ? nameOf(listed) : { first: 'Nobody', last: `Unlisted${p}` };
  return {
    applicationId: '00000000-0000-4000-8000-000000000000',
    userId: 'bench',
    personalInformation: {
      npi_number: byNpi ? npiOf(listed) : String(1_900_000_000 + p),
      date_of_birth: '1985-05-05',
    },
    profile: { first_name: name.first, last_name: name.last },
    lists: {},
    documents: [],
  };
}

async function main() {
  const env = loadEnv({ ...process.env, LOG_LEVEL: 'warn' });
  const logger = pino({ level: 'warn' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leie-bench-'));
  const scratch = process.env.DATABASE_URL
    ? await createDatabaseOn(process.env.DATABASE_URL, 'leie_bench')
    : undefined;
  const { database, embedded }: { database: DatabaseHandle; embedded?: { stop(): Promise<void> } } = scratch
    ? { database: openDatabase(scratch.url, { max: 4, logger }) }
    : await openConfiguredDatabase({ ...env, DATABASE_URL: undefined, dataDir: dir }, logger);
  try {
    await runMigrations(database.db);
    const file = path.join(dir, 'UPDATED.csv');
    writeSyntheticFile(file);
    const bytes = fs.statSync(file).size;

    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 20);
    const started = performance.now();
    const imported = await importLeie(database.db, fs.createReadStream(file), {
      fileName: 'UPDATED.csv',
      importedBy: null,
      now: new Date(),
    });
    const importMs = performance.now() - started;
    clearInterval(sampler);
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
    console.log(
      `Import: ${imported.rowCount} rows (${mb(bytes)} MB file) in ${(importMs / 1000).toFixed(2)} s ` +
        `(${Math.round(imported.rowCount / (importMs / 1000))} rows/s); RSS ${mb(rssBefore)} MB before, peak ${mb(rssPeak)} MB (+${mb(rssPeak - rssBefore)} MB).`,
    );

    const timings: number[] = [];
    const outcomes = { no_match: 0, possible_match: 0, match: 0 };
    const screeningStarted = performance.now();
    for (let p = 1; p <= PROVIDERS; p++) {
      const t = performance.now();
      const result = await screenSnapshot(database.db, snapshotOf(p));
      timings.push(performance.now() - t);
      if (result) outcomes[result.outcome] += 1;
    }
    const totalMs = performance.now() - screeningStarted;
    timings.sort((a, b) => a - b);
    console.log(
      `Screening: ${PROVIDERS} providers one after the other in ${(totalMs / 1000).toFixed(1)} s; per provider ms ` +
        `p50 ${percentile(timings, 50).toFixed(2)}, p95 ${percentile(timings, 95).toFixed(2)}, max ${timings.at(-1)!.toFixed(1)}; ` +
        `outcomes ${JSON.stringify(outcomes)}.`,
    );
  } finally {
    await database.close();
    await embedded?.stop();
    await scratch?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
