/**
 * The server survives its database going away (issue 19 items 1, 2 and 6): while it is down, requests
 * and /api/ready answer 503 with a message a person understands (never 500) and the log says so once;
 * when it is back the server serves again by itself. The embedded cluster, which the server owns, is
 * restarted by the server on the same port; an external one is waited for.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { type Client, signUpAndSignIn, TEST_ORIGIN, type TestApp } from '../../tests/harness.ts';
import { loadEnv } from '../env.ts';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../http/error-handler.ts';
import { loggerOptions } from '../logger.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { createRuntime } from '../runtime.ts';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './embedded-postgres.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** The real runtime on `databaseUrl` ('' = the embedded cluster), with short monitoring intervals. */
async function startApp(databaseUrl: string): Promise<TestApp & { lines(): LogLine[] }> {
  const dataDir = tempDir('cred-outage-app-');
  const logs: string[] = [];
  const mail: MailMessage[] = [];
  const runtime = await createRuntime({
    env: loadEnv({
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      APP_URL: TEST_ORIGIN,
      LOG_LEVEL: 'info',
      AUTH_IP_RATE_LIMIT: 'false',
      // The delivery worker polls the database every 100 ms; an outage must not log each poll.
      NOTIFY_WEBHOOK_URL: 'http://127.0.0.1:9/completion',
      NOTIFY_WEBHOOK_SECRET: 'whsec_pBPvcKLMACQL4VARJRDbv+AcGGhWm0/Z+vRh9SuUCrQ=',
      NOTIFY_POLL_INTERVAL_MS: '100',
    }),
    logger: pino(loggerOptions('info'), { write: (line: string) => void logs.push(line) }),
    mailer: { send: async (message) => void mail.push(message) },
    serveWeb: false,
    databaseMonitoring: { probeIntervalMs: 200, summaryIntervalMs: 1000, restartRetryMs: 100 },
  });
  cleanups.push(() => runtime.close());
  await runtime.app.listen({ port: 0, host: '127.0.0.1' });
  const address = runtime.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    runtime,
    baseUrl: `http://127.0.0.1:${port}`,
    databaseUrl,
    dataDir,
    mail,
    logs,
    realMailer: false,
    close: () => runtime.close(),
    lines: () => logs.map((line) => JSON.parse(line) as LogLine),
  };
}

/** Resolves once `condition()` holds, checking every 50 ms; rejects after `timeoutMs`. */
async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A signed-in provider reading /api/me (session and profile: both from the database) over and over. */
function startTraffic(client: Client) {
  const answers: { at: number; status: number; body: string }[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const response = await client.request('GET', '/api/me').catch(() => undefined);
      if (!response) break; // the app was closed under a failed test
      answers.push({ at: Date.now(), status: response.status, body: await response.text() });
    }
  })();
  const traffic = {
    answers,
    async stop() {
      running = false;
      await done;
    },
    /** Whether a request answered 200 after one answered 503 since `since`: it went down and came back. */
    servedAgain(since: number) {
      const refused = answers.findIndex((a) => a.at >= since && a.status === 503);
      return refused >= 0 && answers.slice(refused).some((a) => a.status === 200);
    },
  };
  cleanups.push(() => traffic.stop());
  return traffic;
}

async function statusOf(url: string): Promise<number> {
  return (await fetch(url)).status;
}

/** What the outage did, as the test reports it: counts and seconds. */
function summarise(answers: { at: number; status: number }[], downAt: number, lines: LogLine[]) {
  const after = answers.filter((a) => a.at >= downAt);
  const firstOkAfter = after.find(
    (a, i) => a.status === 200 && after.slice(0, i).some((b) => b.status !== 200),
  );
  return {
    requests: after.length,
    unavailable: after.filter((a) => a.status === 503).length,
    serverErrors: answers.filter((a) => a.status >= 500 && a.status !== 503).length,
    recoveredAfterSeconds: firstOkAfter ? (firstOkAfter.at - downAt) / 1000 : undefined,
    logLines: lines.length,
    errorLines: lines.filter((l) => l.level >= 50).length,
    summaryLines: lines.filter((l) => /requests refused/.test(l.msg)).length,
  };
}

function expectOneLinePerStateChange(rawLines: string[]) {
  const lines = rawLines.map((line) => JSON.parse(line) as LogLine);
  expect(lines.filter((l) => l.msg === 'database unreachable')).toHaveLength(1);
  const back = lines.filter((l) => l.msg.startsWith('database back'));
  expect(back).toHaveLength(1);
  expect(back[0]!.outageMs).toBeGreaterThan(0);
  // No line per refused request: nothing was an unhandled error, and the few error lines are those
  // of the change itself (a request already in flight when it went down may add one of its own).
  expect(lines.filter((l) => l.msg === 'unhandled error')).toHaveLength(0);
  expect(lines.filter((l) => l.level >= 50).length).toBeLessThanOrEqual(4);
  // No line carries two `pid` keys (pino's own and PostgreSQL's; JSON.parse would keep only one).
  for (const line of rawLines) expect(line.match(/"pid":/g)).toHaveLength(1);
}

describe('database outage', () => {
  it('embedded: a killed postmaster is restarted on the same port; 503 meanwhile, never 500', async () => {
    // First, a provider is signed in and reading their account.
    const app = await startApp('');
    const client = await signUpAndSignIn(app);
    expect((await client.request('GET', '/api/me')).status).toBe(200);
    const traffic = startTraffic(client);
    await waitFor('a first answer', () => traffic.answers.length > 0);

    // Second, the embedded PostgreSQL dies under it.
    const pidFile = path.join(app.dataDir, 'postgres', 'postmaster.pid');
    const postmasterPid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    const killedAt = Date.now();
    process.kill(postmasterPid, 'SIGKILL');

    // Meanwhile the server is not ready but alive, and says why.
    const readyStatuses: number[] = [];
    await waitFor('/api/ready to answer 503', async () => {
      readyStatuses.push(await statusOf(`${app.baseUrl}/api/ready`));
      return readyStatuses.includes(503);
    });
    expect(await statusOf(`${app.baseUrl}/api/health`)).toBe(200);

    // Then it serves again by itself, within 10 s.
    await waitFor('a 200 after the 503s', () => traffic.servedAgain(killedAt), 10_000);
    await waitFor(
      '/api/ready to answer 200',
      async () => (await statusOf(`${app.baseUrl}/api/ready`)) === 200,
    );
    await waitFor('the "database back" line', () =>
      app.lines().some((l) => l.msg.startsWith('database back')),
    );
    await traffic.stop();

    const outcome = summarise(traffic.answers, killedAt, app.lines());
    console.info('embedded outage', JSON.stringify(outcome));
    expect(outcome.serverErrors).toBe(0);
    expect(outcome.unavailable).toBeGreaterThan(0);
    const refused = traffic.answers.find((a) => a.status === 503)!;
    expect(JSON.parse(refused.body)).toEqual({
      code: 'service_unavailable',
      message: DATABASE_UNAVAILABLE_MESSAGE,
    });
    expect(Date.now() - killedAt).toBeLessThan(15_000);
    expectOneLinePerStateChange(app.logs);
    const lines = app.lines();
    const restarted = lines.find((l) => l.msg === 'embedded PostgreSQL restarted');
    expect(restarted?.postgresPid).toEqual(expect.any(Number));
    expect(restarted?.postgresPid).not.toBe(postmasterPid);
    // Same port: the pool's URL is the one it started with.
    expect(new URL(app.runtime.deps.database.pool.options.connectionString!).port).toBe(
      fs.readFileSync(pidFile, 'utf8').split('\n')[3],
    );
  }, 60_000);

  it('external: stopped and started again on the same port, the app serves again without a restart', async () => {
    // First, an "external" PostgreSQL the app does not own.
    const databaseDir = tempDir('cred-outage-external-');
    const quiet = pino({ level: 'silent' });
    let external: EmbeddedDatabase | undefined = await startEmbeddedPostgres(databaseDir, quiet);
    cleanups.push(async () => external?.stop());
    const port = Number(new URL(external.url).port);
    const app = await startApp(external.url);
    const client = await signUpAndSignIn(app);
    const traffic = startTraffic(client);
    await waitFor('a first answer', () => traffic.answers.length > 0);

    // Second, it is stopped: requests and /api/ready answer 503.
    const stoppedAt = Date.now();
    await external.stop();
    external = undefined;
    await waitFor('a 503 after the stop', () =>
      traffic.answers.some((a) => a.at > stoppedAt && a.status === 503),
    );
    expect(await statusOf(`${app.baseUrl}/api/ready`)).toBe(503);
    expect(await statusOf(`${app.baseUrl}/api/health`)).toBe(200);
    // An outage longer than one summary interval: the refused requests are summed up, not listed.
    await waitFor('a summary line', () =>
      app.lines().some((l) => /requests refused while the database is unreachable$/.test(l.msg)),
    );

    // Third, it is back on the same port: the app serves again by itself.
    const restartedAt = Date.now();
    external = await startEmbeddedPostgres(databaseDir, quiet, { port });
    await waitFor('a 200 after the 503s', () => traffic.servedAgain(stoppedAt), 10_000);
    await waitFor(
      '/api/ready to answer 200',
      async () => (await statusOf(`${app.baseUrl}/api/ready`)) === 200,
    );
    await waitFor('the "database back" line', () =>
      app.lines().some((l) => l.msg.startsWith('database back')),
    );
    await traffic.stop();

    const outcome = summarise(traffic.answers, stoppedAt, app.lines());
    console.info(
      'external outage',
      JSON.stringify({ ...outcome, backAfterStartSeconds: (Date.now() - restartedAt) / 1000 }),
    );
    expect(outcome.serverErrors).toBe(0);
    expectOneLinePerStateChange(app.logs);
    const lines = app.lines();
    const summaries = lines.filter((l) => /requests refused/.test(l.msg));
    expect(summaries.length).toBeLessThan(outcome.unavailable);
    // The worker polled every 100 ms through an outage of more than a second, silently.
    expect(lines.filter((l) => /completion delivery poll failed/.test(l.msg))).toEqual([]);
  }, 60_000);
});
