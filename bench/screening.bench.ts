/**
 * `npm run bench:screening` (issue 30 acceptance): exclusion list imports and screening at volume.
 *
 * - Import: a synthetic OIG LEIE full file of BENCH_LEIE_ROWS rows (default 80,000, about the real
 *   list's size; invented names, every tenth row with an NPI, the LEIE's 18 quoted columns) staged with
 *   `stageExclusionFile` (read twice from disk: encoding, then csv-parse into staged rows) and applied
 *   with `applyExclusionImport`. Prints each step's time and this process's peak RSS (sampled every
 *   20 ms) against its RSS before. Goal: <= 10 s and <= 300 MB.
 * - Then the two other sources as they are published today (issue 52): a SAM.gov V2 extract of
 *   BENCH_SAM_ROWS (default 80,000, about the real extract) in its ZIP (deflate, one CSV inside, made
 *   with Python's zipfile as the fixture was), and a New York OMIG workbook (XLSX, the current five
 *   columns, dates as date cells) of BENCH_NY_ROWS (default 10,000) rows, each staged through the file
 *   it holds and applied the same way: three sources. Same goal for each: <= 10 s and <= 300 MB.
 * - Screening: BENCH_PROVIDERS approved applications (default 10,000; one in a hundred on the LEIE by
 *   NPI, one in a hundred sharing a LEIE name with another birth date, one in two hundred on SAM.gov by
 *   name, a possible match as SAM.gov has no birth date) screened by `screenApplications` against the three lists, twice: the first run
 *   records the findings, the second (a month later) finds nothing new. Goal: <= 30 s.
 *
 * Database: a fresh one on DATABASE_URL's server (dropped afterwards), else the embedded cluster in a
 * temporary directory.
 */

import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import pino from 'pino';
import { exclusionFormats, LEIE_COLUMNS } from '../domain/screening/exclusion-formats.ts';
import { FIRST_NAMES, LAST_NAMES } from '../scripts/seed-volume/sample-values.ts';
import { type DatabaseHandle, openDatabase, runMigrations } from '../server/db/client.ts';
import { loadEnv } from '../server/env.ts';
import { openConfiguredDatabase } from '../server/runtime.ts';
import { applyExclusionImport, stageExclusionFile } from '../server/screening/exclusion-imports.ts';
import { screenApplications } from '../server/screening/screening.ts';
import { createDatabaseOn } from './lib.ts';

const LEIE_ROWS = Number(process.env.BENCH_LEIE_ROWS ?? 80_000);
const SAM_ROWS = Number(process.env.BENCH_SAM_ROWS ?? 80_000);
const NY_ROWS = Number(process.env.BENCH_NY_ROWS ?? 10_000);
const PROVIDERS = Number(process.env.BENCH_PROVIDERS ?? 10_000);

/** An invented NPI for LEIE row `i` (ten digits; the list does not need the check digit). */
const npiOf = (i: number) => String(1_500_000_000 + i);
/** `i` in letters (A, B, ..., Z, BA, ...): names match on letters only, so a number would not tell them apart. */
export function letters(i: number): string {
  let out = '';
  let n = i;
  do {
    out = String.fromCharCode(65 + (n % 26)) + out;
    n = Math.floor(n / 26);
  } while (n > 0);
  return out;
}
const nameOf = (i: number) => ({
  first: FIRST_NAMES[i % FIRST_NAMES.length]!,
  last: `${LAST_NAMES[(i * 7) % LAST_NAMES.length]!}${letters(i)}`,
});
const dobOf = (i: number) => `19${50 + (i % 50)}0${1 + (i % 9)}1${i % 10}`;
const quote = (v: string) => `"${v.replace(/"/g, '""')}"`;

async function writeLeie(file: string) {
  const out = fs.createWriteStream(file);
  out.write(`${LEIE_COLUMNS.map(quote).join(',')}\r\n`);
  for (let i = 1; i <= LEIE_ROWS; i++) {
    const { first, last } = nameOf(i);
    const row = [
      last.toUpperCase(),
      first.toUpperCase(),
      '',
      '',
      'IND- LIC HC SERV PRO',
      'NURSE/NURSES AIDE',
      '',
      i % 10 === 0 ? npiOf(i) : '0000000000',
      dobOf(i),
      `${i} INVENTED RD`,
      'NOWHERE',
      'IL',
      '60000',
      '1128b4',
      '20200115',
      '00000000',
      '00000000',
      '',
    ];
    if (!out.write(`${row.map(quote).join(',')}\r\n`)) await once(out, 'drain');
  }
  return new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
}

/** A file of `rows` rows for the format of `source`, each row's fields from `fill(column, i)`. */
function writeFormat(
  file: string,
  source: string,
  rows: number,
  delimiter: string,
  fill: (column: string, i: number) => string,
) {
  const format = exclusionFormats.find((f) => f.source === source && f.kind === 'full')!;
  const encode = delimiter === ',' ? quote : (v: string) => v;
  const lines = [format.columns.map(encode).join(delimiter)];
  for (let i = 1; i <= rows; i++) lines.push(format.columns.map((c) => encode(fill(c, i))).join(delimiter));
  fs.writeFileSync(file, `${lines.join('\r\n')}\r\n`);
}

/** `file` alone in the ZIP `zip` (deflate), with Python's zipfile, as SAM.gov publishes its extract. */
function zipOne(file: string, zip: string) {
  const made = spawnSync(
    'python3',
    [
      '-c',
      'import sys, zipfile, os; z = zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED); z.write(sys.argv[1], os.path.basename(sys.argv[1])); z.close()',
      file,
      zip,
    ],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`python3 zipfile failed: ${made.stderr || made.error?.message}`);
}

/** New York OMIG's list as published today: one sheet, five columns, the effective date a date cell. */
async function writeNyWorkbook(file: string) {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file });
  const sheet = workbook.addWorksheet('Exclusion List');
  sheet
    .addRow(['provider_name', 'license_num', 'npi_num', 'provider_type', 'exclusion_effective_date'])
    .commit();
  for (let i = 1; i <= NY_ROWS; i++) {
    sheet
      .addRow([
        `NYLISTED${letters(i)} JORDAN`,
        String(100000 + i).padStart(8, '0'),
        '',
        'Physician',
        new Date(Date.UTC(2019, 1, 3)),
      ])
      .commit();
  }
  await workbook.commit();
}

const mb = (n: number) => (n / 1024 / 1024).toFixed(1);

async function measured<T>(label: string, work: () => Promise<T>): Promise<T> {
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  let heapPeak = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    const usage = process.memoryUsage();
    rssPeak = Math.max(rssPeak, usage.rss);
    heapPeak = Math.max(heapPeak, usage.heapUsed);
  }, 20);
  const started = performance.now();
  try {
    return await work();
  } finally {
    clearInterval(sampler);
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    console.log(
      `${label}: ${((performance.now() - started) / 1000).toFixed(2)} s; RSS ${mb(rssBefore)} MB before, peak ${mb(rssPeak)} MB (+${mb(rssPeak - rssBefore)} MB); JS heap peak ${mb(heapPeak)} MB.`,
    );
  }
}

async function main() {
  const env = loadEnv({ ...process.env, LOG_LEVEL: 'warn' });
  const logger = pino({ level: 'warn' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'screening-bench-'));
  const scratch = process.env.DATABASE_URL
    ? await createDatabaseOn(process.env.DATABASE_URL, 'screening_bench')
    : undefined;
  const { database, embedded }: { database: DatabaseHandle; embedded?: { stop(): Promise<void> } } = scratch
    ? { database: openDatabase(scratch.url, { max: 4, logger }) }
    : await openConfiguredDatabase({ ...env, DATABASE_URL: undefined, dataDir: dir }, logger);
  const db = database.db;
  try {
    await runMigrations(db);
    const leie = path.join(dir, 'UPDATED.csv');
    await writeLeie(leie);
    console.log(`LEIE file: ${LEIE_ROWS} rows, ${mb(fs.statSync(leie).size)} MB.`);
    const now = new Date();
    if (!scratch)
      throw new Error('bench:screening needs DATABASE_URL (the import runs in a child process on it).');
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'bench/screening-import.child.ts', leie, scratch.url],
      {
        encoding: 'utf8',
      },
    );
    if (child.status !== 0) throw new Error(`the import child failed: ${child.stderr.slice(0, 2000)}`);
    const leieRun = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Record<string, number>;
    console.log(
      `Import ${leieRun.rowCount} LEIE rows in a process of its own: stage ${(leieRun.stageMs! / 1000).toFixed(2)} s + apply ${(leieRun.applyMs! / 1000).toFixed(2)} s = ${((leieRun.stageMs! + leieRun.applyMs!) / 1000).toFixed(2)} s; ` +
        `RSS ${mb(leieRun.rssBeforeBytes!)} MB before, peak ${mb(leieRun.peakRssBytes!)} MB (+${mb(leieRun.peakRssBytes! - leieRun.rssBeforeBytes!)} MB); JS heap peak ${mb(leieRun.heapPeakBytes!)} MB.`,
    );

    const sam = path.join(dir, 'SAM_Exclusions_Public_Extract_V2_26001.CSV');
    writeFormat(sam, 'sam', SAM_ROWS, ',', (column, i) => {
      const person = { first: FIRST_NAMES[(i * 3) % FIRST_NAMES.length]!, last: `Samlisted${letters(i)}` };
      const values: Record<string, string> = {
        Classification: 'Individual',
        First: person.first.toUpperCase(),
        Last: person.last.toUpperCase(),
        City: 'NOWHERE',
        'State / Province': 'TX',
        Country: 'USA',
        'Zip Code': '75001',
        'Exclusion Program': 'Reciprocal',
        'Excluding Agency': 'HHS',
        'Exclusion Type': 'Prohibition/Restriction',
        'Active Date': '01/15/2024',
        'Termination Date': 'Indefinite',
        'Record Status': '',
        'SAM Number': `S4MR${String(i).padStart(5, '0')}`,
        Creation_Date: '2024-01-15',
      };
      return values[column] ?? '';
    });
    const samZip = path.join(dir, 'SAM_Exclusions_Public_Extract_V2_26001.ZIP');
    zipOne(sam, samZip);
    console.log(
      `SAM.gov ZIP: ${SAM_ROWS} rows, CSV ${mb(fs.statSync(sam).size)} MB, ZIP ${mb(fs.statSync(samZip).size)} MB.`,
    );
    const samStaged = await measured(`Import (stage) ${SAM_ROWS} SAM.gov rows from the ZIP`, () =>
      stageExclusionFile(db, samZip, { fileName: path.basename(samZip), stagedBy: null, now }),
    );
    if (samStaged.rowCount !== SAM_ROWS)
      throw new Error(`SAM.gov: staged ${samStaged.rowCount} of ${SAM_ROWS} rows`);
    await measured(`Import (apply) ${SAM_ROWS} SAM.gov rows`, () =>
      applyExclusionImport(db, samStaged.id, { appliedBy: null, now }),
    );

    const ny = path.join(dir, 'exclusion-list.xlsx');
    await writeNyWorkbook(ny);
    console.log(`NY OMIG workbook: ${NY_ROWS} rows, ${mb(fs.statSync(ny).size)} MB.`);
    const nyStaged = await measured(`Import (stage) ${NY_ROWS} NY OMIG rows from the XLSX`, () =>
      stageExclusionFile(db, ny, { fileName: path.basename(ny), stagedBy: null, now }),
    );
    if (nyStaged.skippedCount > 0)
      console.log(`  NY rows skipped: ${nyStaged.skippedCount} (${nyStaged.skipped[0]?.reason})`);
    if (nyStaged.rowCount !== NY_ROWS)
      throw new Error(`NY OMIG: staged ${nyStaged.rowCount} of ${NY_ROWS} rows`);
    await measured(`Import (apply) ${NY_ROWS} NY OMIG rows`, () =>
      applyExclusionImport(db, nyStaged.id, { appliedBy: null, now }),
    );

    // PROVIDERS approved applications with a snapshot each, inserted set-based.
    const seeded = performance.now();
    await db.execute(sql`
      insert into "user" (id, name, email, email_verified, first_name, last_name)
      select 'bench-' || p, 'Bench ' || p, 'bench' || p || '@example.test', true, 'Bench', 'Provider' || p
      from generate_series(1, ${PROVIDERS}) p`);
    await db.execute(sql`
      insert into provider_applications (user_id, application_status, submitted_at, decided_at)
      select 'bench-' || p, 'approved', now(), now() from generate_series(1, ${PROVIDERS}) p`);
    // Provider p: on the LEIE by NPI (p % 100 == 0), sharing a LEIE name with another birth date
    // (p % 100 == 1), on SAM.gov by name and birth date (p % 200 == 7), else on no list.
    const people = Array.from({ length: PROVIDERS }, (_, k) => {
      const p = k + 1;
      const listed = (p * 10) % LEIE_ROWS || 10;
      const leieName = nameOf(listed);
      return {
        p,
        npi: p % 100 === 0 ? npiOf(listed) : String(1_900_000_000 + p),
        dob: p % 200 === 7 ? '1980-01-01' : '1985-05-05',
        first:
          p % 100 === 1
            ? leieName.first
            : p % 200 === 7
              ? FIRST_NAMES[(p * 3) % FIRST_NAMES.length]!
              : 'Nobody',
        last:
          p % 100 === 1 ? leieName.last : p % 200 === 7 ? `Samlisted${letters(p)}` : `Unlisted${letters(p)}`,
      };
    });
    await db.execute(sql`
      insert into application_versions (application_id, version, snapshot, sha256, reason)
      select a.id, 1, jsonb_build_object(
          'applicationId', a.id, 'userId', a.user_id, 'lists', '{}'::jsonb, 'documents', '[]'::jsonb,
          'personalInformation', jsonb_build_object('npi_number', x.npi, 'date_of_birth', x.dob),
          'profile', jsonb_build_object('first_name', x.first, 'last_name', x.last)),
        'bench', 'completion'
      from provider_applications a
      join jsonb_to_recordset(${JSON.stringify(people)}::jsonb) as x(p int, npi text, dob text, first text, last text)
        on a.user_id = 'bench-' || x.p`);
    console.log(
      `Seeded ${PROVIDERS} approved applications in ${((performance.now() - seeded) / 1000).toFixed(1)} s.`,
    );

    const firstRun = await measured(
      `Screen ${PROVIDERS} approved providers against 3 lists (first run)`,
      async () => screenApplications(db, now),
    );
    console.log(
      `  screened ${firstRun?.screened}; new matches ${firstRun?.newMatches.length}; new possible matches ${firstRun?.newPossibleMatches}.`,
    );
    const later = new Date(now.getTime() + 31 * 24 * 60 * 60 * 1000);
    const secondRun = await measured('Screen again a month later (nothing new)', async () =>
      screenApplications(db, later),
    );
    console.log(
      `  screened ${secondRun?.screened}; new matches ${secondRun?.newMatches.length}; new possible matches ${secondRun?.newPossibleMatches}; pending changes ${secondRun?.newPendingChanges}.`,
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
