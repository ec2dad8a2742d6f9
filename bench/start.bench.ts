/**
 * `npm run bench:start` (issue 35): how long the server takes from process start to healthy, and its
 * resident memory once idle, for each way it has been run, measured interleaved in one run:
 *
 * - 'Node 20, tsx (npm start before issue 35)': the machine's Node 20 (`/usr/bin/node`, when it is
 *   a 20) running `--import tsx server/main.ts`, as `npm start` did (on today's code);
 * - 'Node 24, tsx': the pinned Node 24 (this process's own, from node_modules/.bin) with tsx, as the
 *   tests and benches run the sources;
 * - 'Node 24, dist (npm start)': `node dist/server/main.js`, compiled by `npm run build:server` first.
 *
 * Each is started BENCH_RUNS times (default 5) in turn, in production mode (random AUTH_SECRET and
 * FIELD_ENCRYPTION_KEYS, SMTP_URL naming a port where nothing listens: start-up does not send mail)
 * on one database that a first, uncounted start has migrated: a fresh database on DATABASE_URL's
 * server (default postgres://postgres@127.0.0.1:5432/postgres), dropped afterwards, else an embedded
 * cluster in a temporary folder. Start-up time: spawn to the first 200 from GET /api/ready, polled
 * every 10 ms. Idle RSS: VmRSS of the process BENCH_IDLE_MS (default 3,000) ms after that.
 * Prints the median, fastest and slowest start and the median idle RSS per way. No goal: it reports.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import pino from 'pino';
import { type EmbeddedDatabase, freePort, startEmbeddedPostgres } from '../server/db/embedded-postgres.ts';
import { packageRoot } from '../server/paths.ts';
import { createDatabaseOn, rssBytes } from './lib.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 3_000);
const ADMIN_DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SYSTEM_NODE = '/usr/bin/node';

interface Way {
  name: string;
  node: string;
  args: string[];
}

interface Sample {
  startMs: number;
  idleRss: number;
}

/** The ways to run the server that this machine has (the Node 20 row only where /usr/bin/node is 20). */
function waysToRun(): Way[] {
  const ways: Way[] = [];
  if (fs.existsSync(SYSTEM_NODE)) {
    const version = execFileSync(SYSTEM_NODE, ['-v'], { encoding: 'utf8' }).trim();
    if (version.startsWith('v20.')) {
      ways.push({
        name: `Node ${version}, tsx (npm start before issue 35)`,
        node: SYSTEM_NODE,
        args: ['--import', 'tsx', 'server/main.ts'],
      });
    }
  }
  ways.push(
    {
      name: `Node ${process.version}, tsx`,
      node: process.execPath,
      args: ['--import', 'tsx', 'server/main.ts'],
    },
    {
      name: `Node ${process.version}, dist (npm start)`,
      node: process.execPath,
      args: ['dist/server/main.js'],
    },
  );
  return ways;
}

/** The server's environment: production, its own random secrets, a free port. */
function serverEnv(databaseUrl: string, dataDir: string, port: number, smtpPort: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    AUTH_SECRET: randomBytes(32).toString('base64url'),
    FIELD_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    LOG_LEVEL: 'warn',
  };
}

/** Start `way` once: milliseconds from spawn to GET /api/ready answering 200, then idle RSS; stops it. */
async function startOnce(way: Way, env: NodeJS.ProcessEnv): Promise<Sample> {
  let output = '';
  const started = performance.now();
  const child: ChildProcess = spawn(way.node, way.args, {
    cwd: packageRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const deadline = started + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${way.name}: the server exited:\n${output}`);
      if (performance.now() > deadline) throw new Error(`${way.name}: not ready in 120 s:\n${output}`);
      const ready = await fetch(`${env.APP_URL}/api/ready`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) break;
      await sleep(10);
    }
    const startMs = performance.now() - started;
    await sleep(IDLE_MS);
    return { startMs, idleRss: rssBytes(child.pid!) };
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-start-'));
  let database: Awaited<ReturnType<typeof createDatabaseOn>> | undefined;
  let embedded: EmbeddedDatabase | undefined;
  try {
    process.stdout.write('Compiling the server (npm run build:server)... ');
    execFileSync(process.execPath, ['scripts/build-server.ts'], {
      cwd: packageRoot,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    console.log('done.');
    try {
      const probe = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
      await probe.connect();
      await probe.end();
      database = await createDatabaseOn(ADMIN_DATABASE_URL, 'bench_start');
    } catch {
      embedded = await startEmbeddedPostgres(path.join(work, 'pg'), pino({ level: 'warn' }));
    }
    const databaseUrl = database?.url ?? embedded!.url;
    const smtpPort = await freePort();
    const ways = waysToRun();
    const envFor = async () => serverEnv(databaseUrl, path.join(work, 'data'), await freePort(), smtpPort);

    // Uncounted: the first start applies every migration.
    const migrating = await startOnce(ways.at(-1)!, await envFor());
    console.log(`First start (applies the migrations, not counted): ${migrating.startMs.toFixed(0)} ms`);

    const samples = new Map<string, Sample[]>(ways.map((way) => [way.name, []]));
    for (let run = 1; run <= RUNS; run++) {
      for (const way of ways) samples.get(way.name)!.push(await startOnce(way, await envFor()));
      process.stdout.write(`run ${run}/${RUNS} done\r`);
    }

    const [load1] = os.loadavg();
    console.log(
      `\n${os.cpus().length} cores, load average ${load1!.toFixed(2)}; ${RUNS} starts each, interleaved`,
    );
    console.log('| Way | Start to healthy, median (fastest-slowest) | Idle RSS, median |');
    console.log('| --- | --- | --- |');
    for (const way of ways) {
      const list = samples.get(way.name)!;
      const starts = list.map((s) => s.startMs);
      console.log(
        `| ${way.name} | ${median(starts).toFixed(0)} ms (${Math.min(...starts).toFixed(0)}-${Math.max(...starts).toFixed(0)}) | ${(median(list.map((s) => s.idleRss)) / 1e6).toFixed(1)} MB |`,
      );
    }
  } finally {
    await database?.drop().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
