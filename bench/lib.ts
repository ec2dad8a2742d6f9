/** Helpers shared by the benchmarks (this file is not a benchmark: run-all only runs *.bench.ts). */
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { MailMessage } from '../server/mail/mailer.ts';
import { packageRoot } from '../server/paths.ts';
import { type ScheduledJobName, scheduledJobPeriods } from '../server/runtime.ts';
import {
  enrolSecondFactor,
  HttpClient,
  linkFromMessages,
  signUpConfirmSignIn,
} from '../tests/http-client.ts';

/** The password of the providers the load benchmarks sign up (bench:api, bench:cluster). */
export const BENCH_PASSWORD = 'bench provider passphrase 2026!';

/** The part of autocannon 9's programmatic API the benchmarks use (the package ships no types). */
export interface AutocannonClient {
  setHeaders(headers: Record<string, string>): void;
  setRequests(requests: { method: string; path: string; headers: Record<string, string> }[]): void;
}
/** autocannon's result: requests per second (average), latency in ms, and counts. */
export interface AutocannonResult {
  requests: { average: number };
  /** p97_5: autocannon's percentile nearest p95 (it reports p90 and p97.5). */
  latency: { p50: number; p90: number; p97_5: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  '2xx': number;
}
/** Runs `connections` connections against `url` (one or several, taken in turn) for `duration` s. */
export const autocannon = createRequire(import.meta.url)('autocannon') as (options: {
  url: string | string[];
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  setupClient?: (client: AutocannonClient) => void;
}) => Promise<AutocannonResult>;

/**
 * Node's arguments that run the production server: compiles it first (`npm run build:server`, about
 * 5 s) so the bench measures the current sources as `npm start` runs them, `node dist/server/main.js`
 * (decision 032). Spawn with `process.execPath` (this bench's Node: the pinned 24).
 */
export function compiledServerArgs(): string[] {
  execFileSync(process.execPath, [path.join(packageRoot, 'scripts', 'build-server.ts')], {
    cwd: packageRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return [path.join(packageRoot, 'dist', 'server', 'main.js')];
}

/** The nearest-rank `p`th percentile (0-100) of `sorted`, which is in ascending order. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Resident set size of `pid` in bytes, from VmRSS in /proc/<pid>/status (Linux). */
export function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0) * 1024;
}

/**
 * Peak resident set size of `pid` in bytes, from VmHWM in /proc/<pid>/status (Linux). Writing '5' to
 * /proc/<pid>/clear_refs resets it (see resetPeakRss).
 */
export function peakRssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0) * 1024;
}

/** Reset this process's peak RSS to its current RSS (Linux 4.0+), so a later peak measures one step. */
export function resetPeakRss(): void {
  fs.writeFileSync('/proc/self/clear_refs', '5');
}

/**
 * A new empty database named `<prefix>_<random hex>` on the server of `adminUrl` (a URL whose role may
 * create databases); `drop()` removes it.
 */
export async function createDatabaseOn(
  adminUrl: string,
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/**
 * The volume benchmarks' database (bench:admin, bench:reports): BENCH_DATABASE_URL; else, when
 * DATABASE_URL names a server, the dedicated database `cred_bench` on it (created when missing,
 * kept between runs so the 100,000-provider seed is written once); else undefined (embedded).
 */
export async function benchDatabaseUrl(): Promise<string | undefined> {
  if (process.env.BENCH_DATABASE_URL) return process.env.BENCH_DATABASE_URL;
  if (!process.env.DATABASE_URL) return undefined;
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = '/cred_bench';
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  try {
    const exists = await admin.query(`select 1 from pg_database where datname = 'cred_bench'`);
    if (exists.rowCount === 0) await admin.query('create database cred_bench');
  } finally {
    await admin.end();
  }
  return url.toString();
}

/**
 * Mark the current period's run of each scheduled job in `jobs` (its period from server/runtime.ts
 * `scheduledJobPeriods`) as finished, so the runtime started next does not run it over the whole seed
 * while the benchmark measures. Nothing to do before the first migration.
 */
export async function markScheduledRunsDone(
  databaseUrl: string,
  jobs: readonly ScheduledJobName[],
  now = new Date(),
): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(`select to_regclass('scheduled_job_runs') is not null as present`);
    if (!rows[0]?.present) return;
    for (const job of jobs) {
      await client.query(
        `insert into scheduled_job_runs (job, period, instance_id, started_at, lease_until, finished_at)
         values ($1, $2, $3, now(), now(), now())
         on conflict (job, period) do update set finished_at = now(), lease_until = now()`,
        [job, scheduledJobPeriods[job](now), randomUUID()],
      );
    }
  } finally {
    await client.end();
  }
}

/**
 * An administrator signed up, confirmed and signed in through the real auth routes, with a second
 * factor enrolled (admin routes need one, issue 16), on the app at `baseUrl`. The benchmark database
 * is kept between runs: earlier runs' admins are deleted first (their rows cascade) and each run
 * signs up a new address (the mail rate limits count per address). `mail` is the runtime's outbox.
 */
export async function signInBenchAdmin(options: {
  baseUrl: string;
  origin: string;
  pool: pg.Pool;
  mail: MailMessage[];
}): Promise<{ client: HttpClient; userId: string }> {
  const { baseUrl, origin, pool, mail } = options;
  await pool.query(`delete from "user" where email like 'bench-admin%@bench.example'`);
  const client = new HttpClient({ baseUrl, origin });
  const { userId } = await signUpConfirmSignIn(
    client,
    {
      email: `bench-admin.${randomBytes(4).toString('hex')}@bench.example`,
      password: BENCH_ADMIN_PASSWORD,
      firstName: 'Bench',
      lastName: 'Admin',
    },
    linkFromMessages(mail),
  );
  // Roles are read on every request: granting after sign-in takes effect at once.
  await pool.query(
    `insert into user_roles (user_id, role) values ($1, 'admin')
     on conflict (user_id) do update set role = 'admin'`,
    [userId],
  );
  await enrolSecondFactor(client, BENCH_ADMIN_PASSWORD);
  return { client, userId };
}

const BENCH_ADMIN_PASSWORD = 'bench admin passphrase 2026!';

/**
 * `count` sequential GETs of `urlPath` after `warmUp` unmeasured ones, each timed from sending to the
 * last byte of the body; a status other than 200 throws with the body. Returns the timings (ms,
 * ascending) and the last body's size in characters.
 */
export async function timeRequests(
  client: HttpClient,
  urlPath: string,
  count: number,
  warmUp: number,
): Promise<{ timings: number[]; bytes: number }> {
  const timings: number[] = [];
  let bytes = 0;
  for (let i = 0; i < warmUp + count; i++) {
    const started = performance.now();
    const response = await client.request('GET', urlPath);
    const text = await response.text();
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new Error(`${urlPath} answered ${response.status}: ${text}`);
    bytes = text.length;
    if (i >= warmUp) timings.push(elapsed);
  }
  return { timings: timings.sort((x, y) => x - y), bytes };
}
