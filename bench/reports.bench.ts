import os from 'node:os';
import { isoDay } from '../domain/calendar.ts';
import { seedUserId } from '../scripts/seed-volume/seed-ids.ts';
import { REVIEWERS } from '../scripts/seed-volume/seed-statements.ts';
import { percentile, signInBenchAdmin, timeRequests } from './lib.ts';
import { BENCH_ORIGIN, startVolumeBench } from './volume.ts';

const ORIGIN = BENCH_ORIGIN;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 100);
const WARM_UP = 10;
const GOAL_P95_MS = 150;

async function main() {
  const bench = await startVolumeBench(
    ['expired-sessions', 'credential-expiry', 'exclusion-screening', 'provider-reminders'],
    'reports-bench-',
  );
  const { pool, baseUrl, mail } = bench;
  const missed: string[] = [];
  try {
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
    await bench.close();
  }
  if (missed.length) {
    console.error(`p95 over ${GOAL_P95_MS} ms: ${missed.join(', ')}`);
    process.exitCode = 1;
  }
}

await main();
