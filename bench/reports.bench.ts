/**
 * `npm run bench:reports` (issue 34 acceptance): latency of the six reports of the 'Reports' tab on
 * the 100,000-provider volume seed (`seed:volume`: 100,000 files in review, 100,000 decided over the
 * last ~30 months with their checklists, referrals, attestations and credentials, 2,000 screening
 * findings; scripts/seed-volume/seed-history.ts).
 *
 * Database: as bench:admin (bench/lib.ts `benchDatabaseUrl`; seeded when it holds no seed yet). The
 * current period's scheduled runs are marked done first, so no job reads the seed while it measures.
 * Then the real app (createRuntime, real HTTP on a loopback port), an administrator signed in through
 * /api/auth with a second factor, and BENCH_REQUESTS (default 100) sequential requests per report
 * after 10 warm-up ones, each timed from sending to the last byte of the body: the default range (the
 * last 12 months), the widest (36 months), one specialist's, and each CSV of the default range.
 * Prints p50/p95/max in milliseconds and the load average; exits 1 when a p95 is over 150 ms.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { isoDay } from '../domain/calendar.ts';
import { isSeeded, seedVolume } from '../scripts/seed-volume/seed-database.ts';
import { seedUserId } from '../scripts/seed-volume/seed-ids.ts';
import { REVIEWERS } from '../scripts/seed-volume/seed-statements.ts';
import { loadEnv } from '../server/env.ts';
import type { MailMessage } from '../server/mail/mailer.ts';
import { createRuntime } from '../server/runtime.ts';
import {
  benchDatabaseUrl,
  markScheduledRunsDone,
  percentile,
  signInBenchAdmin,
  timeRequests,
} from './lib.ts';

const ORIGIN = 'http://localhost:3000';
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 100);
const WARM_UP = 10;
const GOAL_P95_MS = 150;

async function main() {
  const databaseUrl = await benchDatabaseUrl();
  if (databaseUrl)
    await markScheduledRunsDone(databaseUrl, [
      'expired-sessions',
      'credential-expiry',
      'exclusion-screening',
      'provider-reminders',
    ]);
  const dataDir = databaseUrl
    ? fs.mkdtempSync(path.join(os.tmpdir(), 'reports-bench-'))
    : path.resolve('.data-bench');
  const mail: MailMessage[] = [];
  const runtime = await createRuntime({
    env: loadEnv({
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl ?? '',
      DATA_DIR: dataDir,
      APP_URL: ORIGIN,
      LOG_LEVEL: 'warn',
      AUTH_IP_RATE_LIMIT: 'false',
    }),
    logger: pino({ level: 'warn' }),
    mailer: { send: async (message) => void mail.push(message) },
    serveWeb: false,
  });
  const missed: string[] = [];
  try {
    const pool = runtime.deps.database.pool;
    const connection = await pool.connect();
    const seeded = await isSeeded(connection).finally(() => connection.release());
    if (!seeded) {
      console.log('Seeding the volume data set (100,000 providers)...');
      await seedVolume(pool);
    }
    await runtime.app.listen({ port: 0, host: '127.0.0.1' });
    const address = runtime.app.server.address();
    const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const { client } = await signInBenchAdmin({ baseUrl, origin: ORIGIN, pool, mail });

    const today = new Date();
    const widest = `from=${isoDay(new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 35, 1)))}&to=${isoDay(today)}`;
    // A reviewer of the seed (their reviews and verifications) and a medical director (decisions).
    const reviewer = seedUserId(7);
    const director = seedUserId(REVIEWERS + 1);
    const cases: [string, string][] = [
      ['turnaround 12 months', '/api/admin/reports/turnaround'],
      ['turnaround 36 months', `/api/admin/reports/turnaround?${widest}`],
      ['timeliness 12 months', '/api/admin/reports/timeliness'],
      ['timeliness 36 months', `/api/admin/reports/timeliness?${widest}`],
      ['workload 12 months', '/api/admin/reports/workload'],
      ['workload 36 months', `/api/admin/reports/workload?${widest}`],
      ['workload 36 months, a director', `/api/admin/reports/workload?${widest}&specialist=${director}`],
      ['backlog', '/api/admin/reports/backlog'],
      ['backlog, a reviewer', `/api/admin/reports/backlog?specialist=${reviewer}`],
      ['expirables', '/api/admin/reports/expirables'],
      ['screening 12 months', '/api/admin/reports/screening'],
      ['screening 36 months', `/api/admin/reports/screening?${widest}`],
      ['turnaround.csv 12 months', '/api/admin/reports/turnaround.csv'],
      ['timeliness.csv 12 months', '/api/admin/reports/timeliness.csv'],
      ['workload.csv 12 months', '/api/admin/reports/workload.csv'],
      ['backlog.csv', '/api/admin/reports/backlog.csv'],
      ['expirables.csv', '/api/admin/reports/expirables.csv'],
      ['screening.csv 12 months', '/api/admin/reports/screening.csv'],
    ];
    const counts = await pool.query<Record<string, number>>(
      `select (select count(*)::int from profiles) as providers,
              (select count(*)::int from provider_applications
                where application_status in ('submitted', 'under_review')) as open_files,
              (select count(*)::int from provider_applications
                where application_status in ('approved', 'rejected')) as decided_files,
              (select count(*)::int from verification_items) as checklist_items,
              (select count(*)::int from application_attestations) as attestations,
              (select count(*)::int from provider_credentials) as credentials,
              (select count(*)::int from screening_findings) as findings`,
    );
    console.log(
      `Data: ${JSON.stringify(counts.rows[0])}; ${REQUESTS} sequential requests per report after ${WARM_UP} warm-up; ms.`,
    );
    console.log(
      `${'report'.padEnd(34)} ${'p50'.padStart(7)} ${'p95'.padStart(7)} ${'max'.padStart(7)}  body`,
    );
    for (const [name, urlPath] of cases) {
      const { timings, bytes } = await timeRequests(client, urlPath, REQUESTS, WARM_UP);
      const p95 = percentile(timings, 95);
      if (p95 > GOAL_P95_MS) missed.push(name);
      console.log(
        `${name.padEnd(34)} ${percentile(timings, 50).toFixed(1).padStart(7)} ${p95.toFixed(1).padStart(7)} ${timings
          .at(-1)!
          .toFixed(1)
          .padStart(7)}  ${bytes} chars`,
      );
    }
    console.log(
      `Load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} on ${os.cpus().length} CPUs.`,
    );
  } finally {
    await runtime.close();
    if (databaseUrl) fs.rmSync(dataDir, { recursive: true, force: true });
  }
  if (missed.length) {
    console.error(`p95 over ${GOAL_P95_MS} ms: ${missed.join(', ')}`);
    process.exitCode = 1;
  }
}

await main();
