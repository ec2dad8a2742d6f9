/**
 * `npm run bench:cluster` (issue 12): throughput of an authenticated `GET /api/applications` through
 * one instance, and through two instances of the real server on one PostgreSQL.
 *
 * Each instance is a child process (`node --import tsx server/main.ts`, as bench:notify starts it)
 * with the same DATABASE_URL, DATA_DIR, AUTH_SECRET and FIELD_ENCRYPTION_KEYS. BENCH_USERS providers
 * (default 20) sign up, confirm and sign in through instance A, and each starts an application. Then
 * autocannon keeps one connection per provider, each with its own session cookie, for BENCH_SECONDS
 * (default 10) after a 3 s warm-up, in three set-ups:
 *   1. one instance, directly;
 *   2. two instances, directly: the connections split between A and B (what a load balancer does);
 *   3. two instances through the start:cluster round-robin proxy (scripts/start-cluster.ts), which
 *      adds a hop in this process.
 * Prints requests/s, p50/p99 latency (ms) and the instances' CPU time per request (ms, from /proc) for
 * each, the core count and the load average. Every answer must be 200.
 *
 * Database: a fresh database on DATABASE_URL's server (dropped afterwards), else an embedded cluster
 * started here in a temporary DATA_DIR under .data-test/.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { createRoundRobinProxy } from '../scripts/start-cluster.ts';
import { type EmbeddedDatabase, freePort, startEmbeddedPostgres } from '../server/db/embedded-postgres.ts';
import { HttpClient, linkFromOutbox, pollFor, signUpConfirmSignIn } from '../tests/http-client.ts';
import { type AutocannonResult, autocannon, BENCH_PASSWORD, createDatabaseOn } from './lib.ts';

const USERS = Number(process.env.BENCH_USERS ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARM_UP_SECONDS = 3;

interface Row {
  setup: string;
  result: AutocannonResult;
  /** CPU time the instances spent per answered request, ms (user + system, both instances). */
  cpuMsPerRequest: number;
}

/** CPU time (user + system) `pids` have used so far, in ms, from /proc/<pid>/stat (Linux; 100 ticks/s). */
function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10;
}

async function main() {
  // First, one database and one DATA_DIR for both instances, and the secrets they must share.
  const database = process.env.DATABASE_URL
    ? await createDatabaseOn(process.env.DATABASE_URL, 'bench_cluster')
    : undefined;
  // Under the project (like the e2e data): an embedded cluster run as root cannot use a 0700 mkdtemp dir.
  const dataDir = path.resolve('.data-test', `bench-cluster-${randomBytes(4).toString('hex')}`);
  fs.mkdirSync(dataDir, { recursive: true });
  let embedded: EmbeddedDatabase | undefined;
  const children: ChildProcess[] = [];
  let targets: { host: string; port: number }[] = [];
  const proxy = createRoundRobinProxy({ targets: () => targets });
  try {
    embedded = database ? undefined : await startEmbeddedPostgres(dataDir, pino({ level: 'warn' }));
    const databaseUrl = database?.url ?? embedded!.url;
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const appUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const sharedEnv = {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      APP_URL: appUrl,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      AUTH_IP_RATE_LIMIT: 'false',
      AUTH_SECRET: randomBytes(32).toString('base64url'),
      FIELD_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    };

    // Second, instance A (it migrates), then B.
    const start = async (name: string) => {
      const port = await freePort();
      let output = '';
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        env: { ...sharedEnv, PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      child.stdout!.on('data', (d) => (output += d));
      child.stderr!.on('data', (d) => (output += d));
      const url = `http://127.0.0.1:${port}`;
      await pollFor(
        async () => {
          if (child.exitCode !== null) throw new Error(`instance ${name} exited:\n${output}`);
          return (
            (await fetch(`${url}/api/ready`).then(
              (r) => r.ok,
              () => false,
            )) || undefined
          );
        },
        `instance ${name} to start`,
        { timeoutMs: 60_000, intervalMs: 100 },
      );
      return { url, port, pid: child.pid };
    };
    const a = await start('A');
    const b = await start('B');
    targets = [a, b].map(({ port }) => ({ host: '127.0.0.1', port }));

    // Third, the providers: each signs up through A and starts an application.
    process.stdout.write(`Signing up ${USERS} providers... `);
    const cookies: string[] = [];
    for (let i = 0; i < USERS; i++) {
      const client = new HttpClient({ baseUrl: a.url, origin: appUrl });
      await signUpConfirmSignIn(
        client,
        {
          email: `bench-cluster.${i}.${randomBytes(3).toString('hex')}@bench.example`,
          password: BENCH_PASSWORD,
          firstName: 'Bench',
          lastName: `Provider${i}`,
        },
        linkFromOutbox(path.join(dataDir, 'mail'), { timeoutMs: 30_000 }),
      );
      const created = await client.json('POST', '/api/applications', {});
      if (created.status !== 201 && created.status !== 200) {
        throw new Error(`starting an application answered ${created.status}`);
      }
      cookies.push(client.cookie);
    }
    // A session made through A is honoured by B (shared secret, one database).
    const check = await fetch(`${b.url}/api/applications`, { headers: { cookie: cookies[0]! } });
    if (check.status !== 200) throw new Error(`instance B refused A's session: ${check.status}`);
    console.log('done.');

    // One connection per provider, each with its own session cookie.
    const run = async (url: string | string[], seconds: number) => {
      let next = 0;
      return autocannon({
        url,
        connections: USERS,
        duration: seconds,
        setupClient: (client) => client.setHeaders({ cookie: cookies[next++ % cookies.length]! }),
      });
    };
    const setups: [string, string | string[]][] = [
      ['1 instance, direct', `${a.url}/api/applications`],
      ['2 instances, direct (connections split)', [`${a.url}/api/applications`, `${b.url}/api/applications`]],
      ['2 instances via start:cluster proxy', `${appUrl}/api/applications`],
    ];
    const rows: Row[] = [];
    for (const [setup, url] of setups) {
      await run(url, WARM_UP_SECONDS);
      const cpuBefore = cpuMs([a.pid!, b.pid!]);
      const result = await run(url, SECONDS);
      const cpuMsPerRequest = (cpuMs([a.pid!, b.pid!]) - cpuBefore) / Math.max(1, result['2xx']);
      if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
        throw new Error(
          `${setup}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`,
        );
      }
      rows.push({ setup, result, cpuMsPerRequest });
    }

    const cores = os.availableParallelism();
    console.log(
      `GET /api/applications, ${USERS} signed-in providers (one connection and cookie each), ${SECONDS} s per set-up after ${WARM_UP_SECONDS} s warm-up; ${cores} cores.`,
    );
    console.log(
      `${'set-up'.padEnd(42)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'vs 1'.padStart(6)} ${'server CPU ms/req'.padStart(18)}`,
    );
    const base = rows[0]!.result.requests.average;
    for (const { setup, result, cpuMsPerRequest } of rows) {
      console.log(
        `${setup.padEnd(42)} ${result.requests.average.toFixed(0).padStart(8)} ${String(result.latency.p50).padStart(7)} ${String(result.latency.p99).padStart(7)} ${`${(result.requests.average / base).toFixed(2)}x`.padStart(6)} ${cpuMsPerRequest.toFixed(2).padStart(18)}`,
      );
    }
    const [load1] = os.loadavg();
    console.log(
      `Caveat: on ${cores} cores the instances share the CPU with PostgreSQL, autocannon and (set-up 3) the proxy, all on this machine;` +
        ' a second instance can only use a core that is idle, so here the ratio measures contention, not how a second machine scales.' +
        ` Load average at the end: ${load1!.toFixed(1)} (over ${cores} means other work competed too; run on a quiet machine).`,
    );
  } finally {
    await Promise.all(
      children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }),
    );
    proxy.closeAllConnections();
    await new Promise((resolve) => proxy.close(resolve));
    await embedded?.stop();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
