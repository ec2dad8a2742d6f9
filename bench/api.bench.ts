/**
 * `npm run bench:api` (issue 18): throughput and latency of the authenticated API against the real
 * server, next to a bare Fastify `{hello:'world'}` server measured in the same run.
 *
 * Both servers are child processes; the app is the compiled server as `npm start` runs it
 * (`node dist/server/main.js`, compiled first: bench/lib.ts `compiledServerArgs`).
 * The database is a fresh one on DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432/postgres),
 * dropped afterwards. BENCH_USERS providers (default 10) sign up, confirm and sign in, and each starts
 * one application; an administrator signs in and enrols a second factor (decision 014). Then, per
 * endpoint, autocannon keeps BENCH_CONNECTIONS connections (default 50) for BENCH_SECONDS (default 10)
 * after a 3 s warm-up; the connections take the providers' cookies in turn, each on its own
 * provider's application. Every answer must be 200.
 *
 * The administrator's reads (issue 35 goal 4) run on realistic data: BENCH_ADMIN_PROVIDERS (default
 * 5,000) providers of the volume seed (`seedVolume`, as `npm run seed:volume -- --providers N`:
 * applications in review, checklists, section rows with expiry dates, documents) are written into the
 * same database, so the provider list, a name search, the review queue and the 'Expiring' tab each
 * answer full pages; each row names the items its answer held, read once before it is measured.
 * Their answers are remembered while nothing they read changes (server/admin/list-cache.ts), so two
 * more rows (no goal) measure the first page while a writer bumps every list 10 and 500 times a
 * second: the cost when answers are read from the database again.
 *
 * Prints req/s, p50/p97.5/p99 latency (ms; p97.5 is autocannon's percentile nearest a p95), the ratio to bare Fastify and the server's CPU time per request,
 * with the core count and the load average before and after (other work on the machine skews it).
 * Goals, a verdict per row, exit code 1 when a goal row misses: issue 18, GET /api/me and GET
 * /api/applications >= 2,500 req/s with p99 < 50 ms; issue 35 goal 4, the four administrator reads
 * (second factor done) >= 2,000 req/s with p99 < 50 ms.
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
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { seedVolume } from '../scripts/seed-volume/seed-database.ts';
import { freePort } from '../server/db/embedded-postgres.ts';
import { createFieldCipher, parseKeyList } from '../server/security/field-cipher.ts';
import {
  enrolSecondFactor,
  HttpClient,
  linkFromOutbox,
  pollFor,
  signUpConfirmSignIn,
} from '../tests/http-client.ts';
import {
  type AutocannonResult,
  autocannon,
  BENCH_PASSWORD,
  compiledServerArgs,
  createDatabaseOn,
  markScheduledRunsDone,
} from './lib.ts';

const USERS = Number(process.env.BENCH_USERS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARM_UP_SECONDS = 3;
const ADMIN_PROVIDERS = Number(process.env.BENCH_ADMIN_PROVIDERS ?? 5_000);

/** A row's goal: at least `requestsPerSecond` with a p99 under `p99Ms`; `source` names the issue. */
interface Goal {
  requestsPerSecond: number;
  p99Ms: number;
  source: string;
}
/** Issue 18: the provider's reads. */
const PROVIDER_GOAL: Goal = { requestsPerSecond: 2_500, p99Ms: 50, source: 'issue 18' };
/** Issue 35 goal 4: the administrator's reads, second factor done. */
const ADMIN_GOAL: Goal = { requestsPerSecond: 2_000, p99Ms: 50, source: 'issue 35' };

/** The scheduled jobs (server/runtime.ts) whose run today would read the whole seed while measuring. */
const SEED_READING_JOBS = ['credential-expiry', 'provider-reminders', 'exclusion-screening'] as const;

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
  /** The goal this row is held to, if any. */
  goal?: Goal;
  /** What an answer holds, e.g. '20 of 2,000 providers', from its JSON body (read once before measuring). */
  describe?: (body: unknown) => string;
  /**
   * Writes per second to a table every admin list reads, made while this row is measured (each a
   * statement that changes no row, which still bumps the lists' versions: list-cache.ts): how the
   * remembered answers hold up on a database being written to.
   */
  writesPerSecond?: number;
}

/**
 * Write to `databaseUrl` about `perSecond` times a second until the returned stop is called (a write
 * still running skips its tick). Each write is an UPDATE of profiles that changes no row.
 * @returns stop, which resolves with the number of writes made
 */
async function startListWrites(databaseUrl: string, perSecond: number): Promise<() => Promise<number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let writes = 0;
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = client
      .query('update profiles set first_name = first_name where false')
      .then(() => writes++)
      .finally(() => {
        running = undefined;
      });
  }, 1000 / perSecond);
  return async () => {
    clearInterval(timer);
    await running;
    await client.end();
    return writes;
  };
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

/**
 * The search term of the search row: the most common last name of the seeded providers, lower-cased
 * as an administrator would type it, so the search fills a page (it also matches its email addresses).
 */
/** A seeded application under review (its review page has a checklist and the seeded attestation to read). */
async function fileUnderReview(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `select a.id from provider_applications a
        where a.application_status = 'under_review'
          and exists (select 1 from verification_items i where i.application_id = a.id)
        order by a.id limit 1`,
    );
    if (!rows[0]) throw new Error('the volume seed has no application under review');
    return rows[0].id;
  } finally {
    await client.end();
  }
}

async function commonLastName(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ last_name: string }>(
      `select last_name from profiles group by last_name order by count(*) desc, last_name limit 1`,
    );
    return rows[0]!.last_name.toLowerCase();
  } finally {
    await client.end();
  }
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
  // The server's field key; the volume seed encrypts its attestations' answers with it too.
  const fieldKeys = `k1:${randomBytes(32).toString('base64')}`;
  fs.mkdirSync(dataDir, { recursive: true });
  const children: ChildProcess[] = [];
  try {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const profileDir = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : undefined;
    let output = '';
    const server = spawn(
      process.execPath,
      [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), ...compiledServerArgs()],
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
          FIELD_ENCRYPTION_KEYS: fieldKeys,
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

    // Third, the administrator's data: the volume seed at BENCH_ADMIN_PROVIDERS providers.
    process.stdout.write(`Seeding ${ADMIN_PROVIDERS.toLocaleString('en-US')} providers (volume seed)... `);
    const seedStarted = performance.now();
    await markScheduledRunsDone(database.url, SEED_READING_JOBS);
    const seedPool = new pg.Pool({ connectionString: database.url, max: 1 });
    try {
      await seedVolume(seedPool, {
        providers: ADMIN_PROVIDERS,
        log: () => {},
        cipher: createFieldCipher(parseKeyList(fieldKeys)),
      });
    } finally {
      await seedPool.end();
    }
    console.log(`done in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s.`);

    const own = (suffix: string): Target[] =>
      providers.map(({ cookie, applicationId }) => ({
        path: `/api/applications/${applicationId}${suffix}`,
        cookie,
      }));
    const serverCase = (name: string, targets: Target[], goal?: Goal): Case => ({
      name,
      url: baseUrl,
      targets,
      pid: server.pid!,
      goal,
    });
    // The administrator's reads as the web app sends them (web/features/admin/admin-api.ts): the
    // 'Users & Applications' tab's first page, a name search, the 'Review Queue' tab and the
    // 'Expiring' tab, each with its default filter.
    const adminCase = (name: string, urlPath: string, list: string, noun: string): Case => ({
      ...serverCase(name, [{ path: urlPath, cookie: admin.cookie }], ADMIN_GOAL),
      describe: (body) => {
        const page = body as Record<string, unknown> & { total: number; totalCapped: boolean };
        const items = page[list];
        if (!Array.isArray(items)) throw new Error(`${name}: the answer has no ${list} list`);
        return `${items.length} of ${page.total.toLocaleString('en-US')}${page.totalCapped ? '+' : ''} ${noun}`;
      },
    });
    const searchTerm = await commonLastName(database.url);
    const reviewed = await fileUnderReview(database.url);
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
        PROVIDER_GOAL,
      ),
      serverCase(
        'GET /api/applications',
        providers.map(({ cookie }) => ({ path: '/api/applications', cookie })),
        PROVIDER_GOAL,
      ),
      serverCase('GET .../sections/payors', own('/sections/payors')),
      serverCase('GET .../sections/personal-information', own('/sections/personal-information')),
      adminCase(
        'GET /api/admin/providers page 1 (admin)',
        '/api/admin/providers?page=1&pageSize=20',
        'providers',
        'providers',
      ),
      adminCase(
        `GET /api/admin/providers search "${searchTerm}"`,
        `/api/admin/providers?search=${encodeURIComponent(searchTerm)}&page=1&pageSize=20`,
        'providers',
        'providers',
      ),
      adminCase(
        'GET /api/admin/review-queue (admin)',
        '/api/admin/review-queue?page=1',
        'items',
        'in review',
      ),
      // Issue 51 item 5: the review page, each read of which is now an audit event (one insert).
      {
        ...serverCase('GET /api/admin/applications/:id/review page (admin)', [
          { path: `/api/admin/applications/${reviewed}/review`, cookie: admin.cookie },
        ]),
        describe: (body) => `${(body as { checklist: unknown[] }).checklist.length} checklist items`,
      },
      adminCase(
        'GET /api/admin/expiring-credentials (admin)',
        '/api/admin/expiring-credentials?window=90&page=1&pageSize=20',
        'credentials',
        'credentials',
      ),
      // The same first page while the lists are written to (no goal): 10 writes a second is a busy
      // credentialing office; at 500 almost every answer is read from the database again.
      ...[10, 500].map(
        (writesPerSecond): Case => ({
          ...adminCase(
            `GET /api/admin/providers page 1, ${writesPerSecond} writes/s`,
            '/api/admin/providers?page=1&pageSize=20',
            'providers',
            'providers',
          ),
          goal: undefined,
          writesPerSecond,
        }),
      ),
    ];

    const only = process.env.BENCH_ONLY;
    if (only) cases.splice(1, cases.length, ...cases.slice(1).filter((c) => c.name.includes(only)));
    const loadBefore = loadAverage();
    const rows: {
      benchCase: Case;
      result: AutocannonResult;
      cpuMsPerRequest: number;
      load: string;
      items: string;
    }[] = [];
    for (const benchCase of cases) {
      // What one answer holds, so the row shows it read real data (and a refusal stops the bench).
      let items = '';
      if (benchCase.describe) {
        const target = benchCase.targets[0]!;
        const answer = await fetch(`${benchCase.url}${target.path}`, {
          headers: target.cookie ? { cookie: target.cookie } : {},
        });
        const text = await answer.text();
        if (answer.status !== 200) {
          throw new Error(`${benchCase.name} answered ${answer.status}: ${text}\n${output.slice(-3000)}`);
        }
        items = benchCase.describe(JSON.parse(text));
      }
      const stopWrites = benchCase.writesPerSecond
        ? await startListWrites(database.url, benchCase.writesPerSecond)
        : undefined;
      await run(benchCase, WARM_UP_SECONDS);
      const cpuBefore = cpuMs(benchCase.pid);
      const result = await run(benchCase, SECONDS);
      const cpuMsPerRequest = (cpuMs(benchCase.pid) - cpuBefore) / Math.max(1, result['2xx']);
      const writes = await stopWrites?.();
      if (writes !== undefined) items += `; ${writes.toLocaleString('en-US')} writes`;
      if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
        throw new Error(
          `${benchCase.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`,
        );
      }
      rows.push({ benchCase, result, cpuMsPerRequest, load: loadAverage().split(' ')[0]!, items });
    }

    const cores = os.availableParallelism();
    console.log(
      `${CONNECTIONS} connections, ${SECONDS} s per endpoint after ${WARM_UP_SECONDS} s warm-up; ${USERS} signed-in providers with one application each; ` +
        `an administrator (second factor done) over ${ADMIN_PROVIDERS.toLocaleString('en-US')} seeded providers; ` +
        `server, PostgreSQL and autocannon on one machine of ${cores} cores. Load average before: ${loadBefore}.`,
    );
    const width = Math.max(42, ...rows.map((r) => r.benchCase.name.length));
    console.log(
      `${'endpoint'.padEnd(width)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p97.5'.padStart(7)} ${'p99 ms'.padStart(7)} ${'vs bare'.padStart(8)} ${'CPU ms/req'.padStart(11)} ${'load1'.padStart(6)}  ${'goal'.padEnd(24)} answer`,
    );
    const bareRate = rows[0]!.result.requests.average;
    let missed = 0;
    for (const { benchCase, result, cpuMsPerRequest, load, items } of rows) {
      const rate = result.requests.average;
      const { goal } = benchCase;
      const met = goal && rate >= goal.requestsPerSecond && result.latency.p99 < goal.p99Ms;
      if (goal && !met) missed += 1;
      const verdict = goal
        ? `${met ? 'met' : 'MISSED'} (${goal.source}: ${goal.requestsPerSecond.toLocaleString('en-US')}/s, p99<${goal.p99Ms})`
        : '';
      console.log(
        `${benchCase.name.padEnd(width)} ${rate.toFixed(0).padStart(8)} ${String(result.latency.p50).padStart(7)} ${String(result.latency.p97_5).padStart(7)} ${String(result.latency.p99).padStart(7)} ${`${((100 * rate) / bareRate).toFixed(1)}%`.padStart(8)} ${cpuMsPerRequest.toFixed(3).padStart(11)} ${load.padStart(6)}  ${verdict.padEnd(24)} ${items}`,
      );
    }
    console.log(
      `Goals: the rows marked, each >= its req/s with p99 under its ms. Load average at the end: ${loadAverage()} ` +
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
