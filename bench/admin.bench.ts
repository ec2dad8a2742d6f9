import { performance } from 'node:perf_hooks';
import pg from 'pg';
import pino from 'pino';
import {
  credentialKinds,
  DEFAULT_EXPIRING_WINDOW,
  expiringWindows,
} from '../domain/credentials/expiring-credentials.ts';
import { seedUserId } from '../scripts/seed-volume/seed-ids.ts';
import { runExpiryMonitor } from '../server/credentials/expiry-monitor.ts';
import { openDatabase } from '../server/db/client.ts';
import type { HttpClient } from '../tests/http-client.ts';
import { peakRssBytes, percentile, resetPeakRss, rssBytes, signInBenchAdmin, timeRequests } from './lib.ts';
import { BENCH_ORIGIN, startVolumeBench } from './volume.ts';

const ORIGIN = BENCH_ORIGIN;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const WARM_UP = 20;
const ONLY_EXPIRING = process.env.BENCH_ONLY === 'expiring';
const MB = 1024 * 1024;

async function main() {
  // Today's 'credential-expiry' run would read every seeded dated credential while the bench measures.
  const bench = await startVolumeBench(['credential-expiry'], 'cred-bench-');
  const { databaseUrl, pool, baseUrl, mail } = bench;
  try {
    const { client, userId } = await signInBenchAdmin({ baseUrl, origin: ORIGIN, pool, mail });
    // 'Assigned to me' (issue 13): this admin takes over the reviews of seeded reviewer 1 (1 in 20).
    const assigned = await pool.query(
      `update provider_applications set reviewer_id = $1
       where application_status = 'under_review' and (reviewer_id = $2 or reviewer_id is null)`,
      [userId, seedUserId(1)],
    );

    // Targets from the seed: a provider in the middle of the list (with two applications), part of
    // their email, and part of a common last name.
    const { rows } = await pool.query<{ user_id: string; email: string; last_name: string; total: number }>(
      `select user_id, email, last_name, (select count(*)::int from profiles) as total
       from profiles where user_id = $1`,
      [seedUserId(54_320)],
    );
    const target = rows[0];
    if (!target)
      throw new Error('The seeded provider 54320 is missing; reseed with npm run seed:volume -- --replace');
    const emailPart = target.email.split('@')[0]!.slice(2);
    const namePart = target.last_name.toLowerCase().slice(1);
    const middlePage = Math.floor(target.total / 20 / 2);
    const lastPage = Math.ceil(target.total / 20);
    const cases: [string, string][] = [
      ['counters         /stats', '/api/admin/stats'],
      ['list page 1      /providers', '/api/admin/providers'],
      [`list page ${middlePage}   /providers`, `/api/admin/providers?page=${middlePage}`],
      [`list page ${lastPage}   /providers`, `/api/admin/providers?page=${lastPage}`],
      [`search email "${emailPart}"`, `/api/admin/providers?search=${encodeURIComponent(emailPart)}`],
      [`search name "${namePart}"`, `/api/admin/providers?search=${encodeURIComponent(namePart)}`],
      // Under three characters the trigram index cannot help: the worst case, a rare pair of letters.
      ['search 2 letters "qx" (no index)', '/api/admin/providers?search=qx'],
      ['details          /providers/:id', `/api/admin/providers/${target.user_id}`],
      ['documents page 1 /documents', '/api/admin/documents'],
      ['audit log page 1 /audit-log', '/api/admin/audit-log'],
      // The review queue (issue 13): oldest completion first, 25 a page, total capped at 10,000.
      ['queue page 1     /review-queue', '/api/admin/review-queue'],
      ['queue page 400   /review-queue', '/api/admin/review-queue?page=400'],
      ['queue page 2000  /review-queue', '/api/admin/review-queue?page=2000'],
      ['queue under review', '/api/admin/review-queue?status=under_review'],
      ['queue submitted page 400', '/api/admin/review-queue?status=submitted&page=400'],
      [`queue assigned to me (${assigned.rowCount})`, '/api/admin/review-queue?assigned=me'],
    ];
    const counts = await pool.query<Record<string, number>>(
      `select (select count(*)::int from profiles) as providers,
              (select count(*)::int from provider_applications) as applications,
              (select count(*)::int from documents) as documents,
              (select count(*)::int from provider_applications
                where application_status in ('submitted', 'under_review')) as in_review,
              (select count(*)::int from verification_items) as checklist_items`,
    );
    console.log(
      `Data: ${JSON.stringify(counts.rows[0])}; ${REQUESTS} sequential requests per endpoint after ${WARM_UP} warm-up; ms.`,
    );
    console.log(
      `${'endpoint'.padEnd(40)} ${'p50'.padStart(7)} ${'p95'.padStart(7)} ${'max'.padStart(7)}  result`,
    );
    for (const [name, urlPath] of ONLY_EXPIRING ? [] : cases) {
      const { timings, bytes } = await timeRequests(client, urlPath, REQUESTS, WARM_UP);
      console.log(
        `${name.padEnd(40)} ${percentile(timings, 50).toFixed(1).padStart(7)} ${percentile(timings, 95)
          .toFixed(1)
          .padStart(7)} ${timings.at(-1)!.toFixed(1).padStart(7)}  200, ${bytes} bytes`,
      );
    }
    await benchExpiring(client, pool);
  } finally {
    await bench.close();
  }
  if (databaseUrl) await benchExpiryJob(databaseUrl);
}

/**
 * Issue 14: the daily 'credential-expiry' job at volume, on a copy of the benchmark database (it
 * records notices and reopens verification items: the seed stays as it was). A first run records
 * every threshold crossed and emails each provider once (to a counting mailer); a second run the
 * same day records and sends nothing. Database servers only.
 */
async function benchExpiryJob(databaseUrl: string) {
  const copyName = `cred_bench_job_${process.pid}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  const source = new URL(databaseUrl).pathname.slice(1);
  const copyUrl = new URL(databaseUrl);
  copyUrl.pathname = `/${copyName}`;
  let started = performance.now();
  await admin.query(`create database ${copyName} template ${source}`);
  console.log(
    `\ncredential-expiry job (issue 14) on a copy of the seed (copied in ${((performance.now() - started) / 1000).toFixed(1)} s):`,
  );
  const handle = openDatabase(copyUrl.toString(), { max: 4 });
  try {
    let sent = 0;
    const deps = {
      db: handle.db,
      mailer: { send: async () => void sent++ },
      appUrl: ORIGIN,
      logger: pino({ level: 'warn' }),
    };
    const now = new Date();
    for (const label of ['first run', 'second run']) {
      sent = 0;
      const rssBefore = rssBytes(process.pid);
      resetPeakRss();
      started = performance.now();
      const result = await runExpiryMonitor(deps, now);
      const elapsed = performance.now() - started;
      console.log(
        `  ${label}: ${result.recorded.toLocaleString('en-US')} notices recorded, ${result.providersEmailed.toLocaleString('en-US')} providers emailed, ${result.reopened.toLocaleString('en-US')} verification items reopened, ${sent.toLocaleString('en-US')} emails in ${(elapsed / 1000).toFixed(1)} s; RSS ${(rssBefore / MB).toFixed(0)} MB before, peak ${(peakRssBytes(process.pid) / MB).toFixed(0)} MB`,
      );
    }
  } finally {
    await handle.close();
    await admin.query(`drop database if exists ${copyName} with (force)`);
    await admin.end();
  }
}

/** Issue 14: the 'Expiring' tab across filters and pages, then the CSV export's time and peak RSS. */
async function benchExpiring(client: HttpClient, pool: pg.Pool) {
  const { rows } = await pool.query<{ section_rows: number; dated: number }>(
    `select (select count(*) from personal_information) + (select count(*) from professional_licenses)
          + (select count(*) from education) + (select count(*) from work_history)
          + (select count(*) from malpractice_insurance) + (select count(*) from vaccinations)
          + (select count(*) from payors) + (select count(*) from certifications) + (select count(*) from cme)
          + (select count(*) from peer_references) as section_rows,
            (select count(*) from professional_licenses where expiration_date is not null)
          + (select count(*) from malpractice_insurance where expiration_date is not null)
          + (select count(*) from certifications where expiration_date is not null)
          + (select count(*) from vaccinations where expiration_date is not null)
          + (select count(*) from payors where contract_end_date is not null)
          + (select count(*) from personal_information where driver_license_expiration is not null) as dated`,
  );
  const { section_rows: sectionRows, dated } = rows[0]!;
  console.log(
    `\nExpiring tab (issue 14): ${Number(dated).toLocaleString('en-US')} of ${Number(sectionRows).toLocaleString('en-US')} section rows carry a date (${((100 * dated) / sectionRows).toFixed(0)}%).`,
  );
  if (Number(dated) === 0) {
    throw new Error('The seed has no dated credentials; reseed with npm run seed:volume -- --replace');
  }
  // The default window first, then the others; every kind alone, and all kinds.
  const windows = [DEFAULT_EXPIRING_WINDOW, ...expiringWindows.filter((w) => w !== DEFAULT_EXPIRING_WINDOW)];
  const kinds = [undefined, ...credentialKinds];
  const pages = [1, 2, 5, 10, 25, 50];
  const paths: string[] = [];
  for (let i = 0; paths.length < WARM_UP + REQUESTS; i++) {
    const params = new URLSearchParams({
      window: windows[i % windows.length]!,
      page: String(pages[i % pages.length]),
    });
    const kind = kinds[i % kinds.length];
    if (kind) params.set('kind', kind);
    paths.push(`/api/admin/expiring-credentials?${params}`);
  }
  const timings: number[] = [];
  let total = '';
  for (const [i, urlPath] of paths.entries()) {
    const started = performance.now();
    const response = await client.request('GET', urlPath);
    const text = await response.text();
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new Error(`${urlPath} answered ${response.status}: ${text}`);
    if (i === 0) {
      const first = JSON.parse(text) as { total: number; totalCapped: boolean };
      total = `${first.total}${first.totalCapped ? '+' : ''}`;
    }
    if (i >= WARM_UP) timings.push(elapsed);
  }
  timings.sort((x, y) => x - y);
  const ms = (p: number) => percentile(timings, p).toFixed(1);
  console.log(
    `${REQUESTS} requests over ${windows.length} windows x ${kinds.length} kinds x pages ${pages.join(', ')} (default window total ${total}):`,
  );
  console.log(`  p50 ${ms(50)} ms, p95 ${ms(95)} ms, p99 ${ms(99)} ms, max ${timings.at(-1)!.toFixed(1)} ms`);

  // The export of the default window, read to the last byte without keeping it.
  for (const window of ['90', 'expired']) {
    const rssBefore = rssBytes(process.pid);
    resetPeakRss();
    const started = performance.now();
    const response = await client.request('GET', `/api/admin/expiring-credentials/export?window=${window}`);
    if (response.status !== 200 || !response.body) throw new Error(`The export answered ${response.status}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of response.body) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) lines++;
    }
    const elapsed = performance.now() - started;
    const peak = peakRssBytes(process.pid);
    console.log(
      `CSV export window=${window}: ${(lines - 1).toLocaleString('en-US')} rows + header, ${(bytes / MB).toFixed(1)} MB in ${(elapsed / 1000).toFixed(2)} s; RSS ${(rssBefore / MB).toFixed(0)} MB before, peak ${(peak / MB).toFixed(0)} MB during`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
