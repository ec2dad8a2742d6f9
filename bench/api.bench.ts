/**
 * `npm run bench:api` (issue 18): throughput and latency of the authenticated API against the real
 * server, next to a bare Fastify `{hello:'world'}` server measured in the same run.
 *
 * Both servers are child processes (`node --import tsx server/main.ts`, as bench:cluster starts it).
 * The database is a fresh one on DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432/postgres),
 * dropped afterwards. BENCH_USERS providers (default 10) sign up, confirm and sign in, and each starts
 * one application; an administrator signs in and enrols a second factor (decision 014). Then, per
 * endpoint, autocannon keeps BENCH_CONNECTIONS connections (default 50) for BENCH_SECONDS (default 10)
 * after a 3 s warm-up; the connections take the providers' cookies in turn, each on its own
 * provider's application. Every answer must be 200.
 *
 * Prints req/s, p50/p99 latency (ms), the ratio to bare Fastify and the server's CPU time per request,
 * with the core count and the load average before and after (other work on the machine skews it).
 * Goal (issue 18): GET /api/me and GET /api/applications >= 2,500 req/s with p99 < 50 ms.
 *
 * BENCH_ONLY=<text> measures only the endpoints whose name contains it (bare Fastify always runs).
 * BENCH_CPU_PROF=<dir> starts the server with `node --cpu-prof --cpu-prof-dir=<dir>`: the profile is
 * written when the server exits at the end (summarise it with `tsx bench/cpu-profile-summary.ts <file>`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../server/db/embedded-postgres.ts';
import {
  enrolSecondFactor,
  HttpClient,
  linkFromOutbox,
  pollFor,
  signUpConfirmSignIn,
} from '../tests/http-client.ts';
import { type AutocannonResult, autocannon, BENCH_PASSWORD, createDatabaseOn } from './lib.ts';

const USERS = Number(process.env.BENCH_USERS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARM_UP_SECONDS = 3;
const GOAL_REQUESTS_PER_SECOND = 2_500;
const GOAL_P99_MS = 50;

/** A request each connection sends: its path and cookie (one per connection, taken in turn). */
interface Target {
  path: string;
  cookie?: string;
}

interface Case {
  name: string;
  url: string;
  targets: Target[];
  pid: number;
  /** Whether the goal of issue 18 applies to this row. */
  goal?: boolean;
}

/** CPU time (user + system) `pid` has used so far, in ms, from /proc/<pid>/stat (Linux; 100 ticks/s). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');
}

/** Waits until `url` answers 200, or fails with the child's output when it exits first. */
async function waitUntilUp(child: ChildProcess, url: string, output: () => string, name: string) {
  await pollFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`${name} exited:\n${output()}`);
      return (
        (await fetch(url).then(
          (r) => r.ok,
          () => false,
        )) || undefined
      );
    },
    `${name} to start`,
    { timeoutMs: 60_000, intervalMs: 100 },
  );
}

/** Stops `child` with SIGTERM (the server writes its CPU profile on the way out) and waits for it. */
async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A bare Fastify server answering `{hello:'world'}` on `port`, in its own process like the server. */
function startBareFastify(port: number): ChildProcess {
  const script = `
    import Fastify from 'fastify';
    const app = Fastify({ logger: false });
    app.get('/', async () => ({ hello: 'world' }));
    await app.listen({ port: ${port}, host: '127.0.0.1' });
    process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
  `;
  return spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function run(benchCase: Case, seconds: number): Promise<AutocannonResult> {
  let next = 0;
  return autocannon({
    url: benchCase.url,
    connections: CONNECTIONS,
    duration: seconds,
    setupClient: (client) => {
      const target = benchCase.targets[next++ % benchCase.targets.length]!;
      client.setRequests([
        { method: 'GET', path: target.path, headers: target.cookie ? { cookie: target.cookie } : {} },
      ]);
    },
  });
}

async function main() {
  const database = await createDatabaseOn(
    process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    'bench_api',
  );
  const dataDir = path.resolve('.data-test', `bench-api-${randomBytes(4).toString('hex')}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const children: ChildProcess[] = [];
  try {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const profileDir = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : undefined;
    let output = '';
    const server = spawn(
      process.execPath,
      [
        ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
        '--import',
        'tsx',
        'server/main.ts',
      ],
      {
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'test',
          HOST: '127.0.0.1',
          PORT: String(port),
          APP_URL: baseUrl,
          DATA_DIR: dataDir,
          DATABASE_URL: database.url,
          LOG_LEVEL: 'warn',
          AUTH_IP_RATE_LIMIT: 'false',
          AUTH_SECRET: randomBytes(32).toString('base64url'),
          FIELD_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    children.push(server);
    server.stdout!.on('data', (d) => (output += d));
    server.stderr!.on('data', (d) => (output += d));
    await waitUntilUp(server, `${baseUrl}/api/ready`, () => output, 'the server');

    const barePort = await freePort();
    const bare = startBareFastify(barePort);
    children.push(bare);
    let bareOutput = '';
    bare.stderr!.on('data', (d) => (bareOutput += d));
    await waitUntilUp(bare, `http://127.0.0.1:${barePort}/`, () => bareOutput, 'bare Fastify');

    // First, the providers: each signs up, confirms, signs in and starts one application.
    process.stdout.write(`Signing up ${USERS} providers and an administrator... `);
    const outbox = linkFromOutbox(path.join(dataDir, 'mail'), { timeoutMs: 30_000 });
    const providers: { cookie: string; applicationId: string }[] = [];
    for (let i = 0; i < USERS; i++) {
      const client = new HttpClient({ baseUrl, origin: baseUrl });
      await signUpConfirmSignIn(
        client,
        {
          email: `bench-api.${i}.${randomBytes(3).toString('hex')}@bench.example`,
          password: BENCH_PASSWORD,
          firstName: 'Bench',
          lastName: `Provider${i}`,
        },
        outbox,
      );
      const created = await client.json<{ id: string }>('POST', '/api/applications', {});
      if (created.status !== 201) throw new Error(`starting an application answered ${created.status}`);
      providers.push({ cookie: client.cookie, applicationId: created.body.id });
    }

    // Second, an administrator: granted the role in the database (as `npm run admin` does), then a
    // second factor through the real API (decision 014).
    const admin = new HttpClient({ baseUrl, origin: baseUrl });
    const { userId: adminId } = await signUpConfirmSignIn(
      admin,
      {
        email: `bench-api.admin.${randomBytes(3).toString('hex')}@bench.example`,
        password: BENCH_PASSWORD,
        firstName: 'Bench',
        lastName: 'Admin',
      },
      outbox,
    );
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    await db.query(
      `insert into user_roles (user_id, role) values ($1, 'admin') on conflict (user_id) do update set role = 'admin'`,
      [adminId],
    );
    await db.end();
    await enrolSecondFactor(admin, BENCH_PASSWORD);
    console.log('done.');

    const own = (suffix: string): Target[] =>
      providers.map(({ cookie, applicationId }) => ({
        path: `/api/applications/${applicationId}${suffix}`,
        cookie,
      }));
    const serverCase = (name: string, targets: Target[], goal = false): Case => ({
      name,
      url: baseUrl,
      targets,
      pid: server.pid!,
      goal,
    });
    const cases: Case[] = [
      {
        name: "bare Fastify {hello:'world'}",
        url: `http://127.0.0.1:${barePort}`,
        targets: [{ path: '/' }],
        pid: bare.pid!,
      },
      serverCase('GET /api/health', [{ path: '/api/health' }]),
      serverCase(
        'GET /api/me',
        providers.map(({ cookie }) => ({ path: '/api/me', cookie })),
        true,
      ),
      serverCase(
        'GET /api/applications',
        providers.map(({ cookie }) => ({ path: '/api/applications', cookie })),
        true,
      ),
      serverCase('GET .../sections/payors', own('/sections/payors')),
      serverCase('GET .../sections/personal-information', own('/sections/personal-information')),
      serverCase('GET /api/admin/providers (admin, 2FA)', [
        { path: '/api/admin/providers', cookie: admin.cookie },
      ]),
    ];

    const only = process.env.BENCH_ONLY;
    if (only) cases.splice(1, cases.length, ...cases.slice(1).filter((c) => c.name.includes(only)));
    const loadBefore = loadAverage();
    const rows: { benchCase: Case; result: AutocannonResult; cpuMsPerRequest: number; load: string }[] = [];
    for (const benchCase of cases) {
      await run(benchCase, WARM_UP_SECONDS);
      const cpuBefore = cpuMs(benchCase.pid);
      const result = await run(benchCase, SECONDS);
      const cpuMsPerRequest = (cpuMs(benchCase.pid) - cpuBefore) / Math.max(1, result['2xx']);
      if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
        throw new Error(
          `${benchCase.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`,
        );
      }
      rows.push({ benchCase, result, cpuMsPerRequest, load: loadAverage().split(' ')[0]! });
    }

    const cores = os.availableParallelism();
    console.log(
      `${CONNECTIONS} connections, ${SECONDS} s per endpoint after ${WARM_UP_SECONDS} s warm-up; ${USERS} signed-in providers with one application each; ` +
        `server, PostgreSQL and autocannon on one machine of ${cores} cores. Load average before: ${loadBefore}.`,
    );
    console.log(
      `${'endpoint'.padEnd(42)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'vs bare'.padStart(8)} ${'CPU ms/req'.padStart(11)} ${'load1'.padStart(6)}  goal`,
    );
    const bareRate = rows[0]!.result.requests.average;
    let missed = 0;
    for (const { benchCase, result, cpuMsPerRequest, load } of rows) {
      const rate = result.requests.average;
      const met = rate >= GOAL_REQUESTS_PER_SECOND && result.latency.p99 < GOAL_P99_MS;
      if (benchCase.goal && !met) missed += 1;
      console.log(
        `${benchCase.name.padEnd(42)} ${rate.toFixed(0).padStart(8)} ${String(result.latency.p50).padStart(7)} ${String(result.latency.p99).padStart(7)} ${`${((100 * rate) / bareRate).toFixed(1)}%`.padStart(8)} ${cpuMsPerRequest.toFixed(3).padStart(11)} ${load.padStart(6)}  ${benchCase.goal ? (met ? 'met' : 'MISSED') : ''}`,
      );
    }
    console.log(
      `Goal: >= ${GOAL_REQUESTS_PER_SECOND} req/s and p99 < ${GOAL_P99_MS} ms for the rows marked. Load average at the end: ${loadAverage()} ` +
        `(over ${cores} means other work competed for the CPU: compare runs made back to back).`,
    );
    if (missed > 0) process.exitCode = 1;
  } finally {
    for (const child of children) await stop(child);
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
