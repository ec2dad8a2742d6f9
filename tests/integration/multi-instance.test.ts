/**
 * Issue 12 acceptance: two real server processes (server/main.ts in child processes) on one
 * PostgreSQL database behave as one product.
 *
 * - Sessions: signed in through A, read and written through B; a sign-out through B ends it on A.
 * - Limits hold in total: the per-(account, address) sign-in limit (server/security/rate-limits.ts
 *   SIGN_IN) and the per-IP sign-up limit (5 per 60 s, the number better-auth kept in each process's
 *   memory before issue 12), with requests alternating between A and B.
 * - Delivery: 50 completions alternating A and B, a receiver that fails ~30% of requests, A killed
 *   with SIGKILL part-way; every notification is delivered, and a webhook-id is answered 2xx more than
 *   once only where A died between the receiver's answer and recording it (Standard Webhooks is
 *   at-least-once). The figures are printed with console.log.
 * - Start-up: two instances started at the same moment on an empty database both come up, and each
 *   migration is applied once.
 *
 * Every instance gets the same AUTH_SECRET, FIELD_ENCRYPTION_KEYS and DATA_DIR, as a deployment must
 * give them (issue 12: instances whose secrets differ refuse to start).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompletedApplication } from '../../server/notifications/testing/completed-application.ts';
import { WebhookReceiver, waitUntil } from '../../server/notifications/testing/webhook-receiver.ts';
import { AUTH_REQUESTS_PER_ADDRESS, SIGN_IN } from '../../server/security/rate-limits.ts';
import {
  createTestApp,
  createTestDatabase,
  STRONG_PASSWORD,
  signUpAndSignIn,
  TEST_ORIGIN,
  type TestApp,
} from '../harness.ts';
import { HttpClient, linkFromOutbox, signedAttestation, signUpConfirmSignIn } from '../http-client.ts';
import {
  isRunning,
  type ServerProcess,
  spawnServer as spawnServerProcess,
  waitReady,
} from '../server-process.ts';

/** The secrets every instance of this file shares (and the in-process app that prepares data). */
const sharedSecrets = {
  AUTH_SECRET: randomBytes(32).toString('base64url'),
  FIELD_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
};
const WEBHOOK_SECRET = `whsec_${randomBytes(32).toString('base64')}`;
/** Short retry timing, as in completion-restart.test.ts: a dead instance's lease ends after 6.5 s. */
const notifyEnv = {
  NOTIFY_WEBHOOK_SECRET: WEBHOOK_SECRET,
  NOTIFY_TIMEOUT_MS: '1500',
  NOTIFY_RETRY_BASE_MS: '100',
  NOTIFY_RETRY_MAX_MS: '1000',
  NOTIFY_POLL_INTERVAL_MS: '200',
};
const MIGRATIONS_JOURNAL = path.resolve('server/db/migrations/meta/_journal.json');

/** Every child this file started; afterAll kills those still running. */
const children: ServerProcess[] = [];
/** Cleanups run by afterAll, last registered first. */
const cleanups: (() => Promise<void> | void)[] = [];

afterAll(async () => {
  for (const server of children) {
    if (isRunning(server.child)) server.child.kill('SIGKILL');
  }
  await Promise.all(children.map((server) => server.exited));
  for (const cleanup of cleanups.reverse()) await cleanup();
}, 60_000);

/** Start an instance with the shared secrets and `env`; does not wait for it to be ready. */
async function spawnServer(
  name: string,
  env: { DATABASE_URL: string; DATA_DIR: string } & Record<string, string>,
): Promise<ServerProcess> {
  const server = await spawnServerProcess(name, { APP_URL: TEST_ORIGIN, ...sharedSecrets, ...env });
  children.push(server);
  return server;
}

async function startServer(
  name: string,
  env: { DATABASE_URL: string; DATA_DIR: string } & Record<string, string>,
): Promise<ServerProcess> {
  const server = await spawnServer(name, env);
  await waitReady(server);
  return server;
}

function temporaryDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cred-multi-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function temporaryDatabase(): Promise<string> {
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  return database.url;
}

/** A client of `server` holding `cookie` (a cookie from any instance works on every instance). */
function clientOf(server: ServerProcess, cookie = ''): HttpClient {
  return Object.assign(new HttpClient({ baseUrl: server.baseUrl, origin: TEST_ORIGIN }), { cookie });
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so a failing run can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('two instances on a prepared database: sessions, then delivery with faults', () => {
  const PROVIDERS = 50;
  const KILL_AFTER = 20;
  let app: TestApp;
  let receiver: WebhookReceiver;
  let db: pg.Pool;
  let a: ServerProcess;
  let b: ServerProcess;
  /** The 50 providers of the delivery test: their session cookie and complete application. */
  const providers: { cookie: string; applicationId: string }[] = [];
  let preparing = 0;

  beforeAll(async () => {
    receiver = new WebhookReceiver({ secret: WEBHOOK_SECRET });
    await receiver.listen();
    cleanups.push(() => receiver.close());
    // First, 50 providers with a complete application, prepared in-process on a fresh database. Its
    // runtime is then closed, so that only A and B deliver.
    app = await createTestApp({ ...sharedSecrets, LOG_LEVEL: 'warn' });
    cleanups.push(() => app.close());
    const prepare = async () => {
      const provider = await signUpAndSignIn(app);
      const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
      expect(created.status).toBe(201);
      await createCompletedApplication({
        ...app.runtime.deps,
        userId: provider.userId,
        applicationId: created.body.id,
      });
      providers.push({ cookie: provider.cookie, applicationId: created.body.id });
    };
    // Four at a time (each waits on hashing, mail and the database in turn).
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (providers.length + preparing < PROVIDERS) {
          preparing += 1;
          await prepare().finally(() => {
            preparing -= 1;
          });
        }
      }),
    );
    await app.runtime.close();
    db = new pg.Pool({ connectionString: app.databaseUrl, max: 2 });
    cleanups.push(() => db.end());
    // Second, A and B on that (migrated) database and data directory, started side by side.
    const env = {
      DATABASE_URL: app.databaseUrl,
      DATA_DIR: app.dataDir,
      AUTH_IP_RATE_LIMIT: 'false',
      NOTIFY_WEBHOOK_URL: receiver.url,
      ...notifyEnv,
    };
    [a, b] = await Promise.all([startServer('A', env), startServer('B', env)]);
  }, 120_000);

  it('signs in through A, reads and writes through B, and signs out through B for both', {
    timeout: 30_000,
  }, async () => {
    // First, Alice signs up, confirms and signs in through A (the mail is a .eml in the shared DATA_DIR).
    const onA = clientOf(a);
    const { userId } = await signUpConfirmSignIn(
      onA,
      {
        email: `alice.${randomBytes(3).toString('hex')}@example.test`,
        password: STRONG_PASSWORD,
        firstName: 'Alice',
        lastName: 'Cluster',
      },
      linkFromOutbox(path.join(app.dataDir, 'mail')),
    );
    const created = await onA.json<{ id: string }>('POST', '/api/applications', {});
    expect(created.status).toBe(201);
    const applicationId = created.body.id;

    // Second, B answers her requests with the cookie A set, with the same data.
    const onB = clientOf(b, onA.cookie);
    const listA = await onA.json<{ applications: { id: string }[] }>('GET', '/api/applications');
    const listB = await onB.json<{ applications: { id: string }[] }>('GET', '/api/applications');
    expect(listB.status).toBe(200);
    expect(listB.body).toEqual(listA.body);
    expect(listB.body.applications.map((x) => x.id)).toEqual([applicationId]);
    const sessionA = await onA.json<{ user: { id: string } }>('GET', '/api/session');
    const sessionB = await onB.json<{ user: { id: string } }>('GET', '/api/session');
    expect(sessionB.status).toBe(200);
    expect(sessionB.body.user.id).toBe(userId);
    expect(sessionB.body).toEqual(sessionA.body);

    // Third, a write through B (CSRF: Origin = APP_URL) is read back through A.
    const saved = await onB.json<{ id: string; payorName: string }>(
      'POST',
      `/api/applications/${applicationId}/sections/payors`,
      { payorName: 'Medicare', credentialingStatus: 'approved' },
    );
    expect(saved.status).toBe(201);
    const payorsOnA = await onA.json<{ rows: { id: string; payorName: string }[] }>(
      'GET',
      `/api/applications/${applicationId}/sections/payors`,
    );
    expect(payorsOnA.status).toBe(200);
    expect(payorsOnA.body.rows.map((row) => [row.id, row.payorName])).toEqual([[saved.body.id, 'Medicare']]);

    // Fourth, she signs out through B: at once on B, and on A as soon as B's NOTIFY arrives (decision
    // 015: normally milliseconds; at most SESSION_CACHE_SECONDS, 5 s, if the notification is lost).
    const cookie = onB.cookie;
    const signOut = await onB.json('POST', '/api/auth/sign-out', {});
    expect(signOut.status).toBe(200);
    expect((await clientOf(b, cookie).json('GET', '/api/me')).status).toBe(401);
    const signedOutAt = performance.now();
    await waitUntil(
      async () => (await clientOf(a, cookie).json('GET', '/api/me')).status === 401,
      5_500,
      'the sign-out through B to reach A',
    );
    console.log(`sign-out through B refused on A after ${Math.round(performance.now() - signedOutAt)} ms`);
    expect((await clientOf(a, cookie).json('GET', '/api/session')).body).toBeNull();
  });

  it('delivers 50 completions made through A and B while the receiver fails 30% and A is killed', {
    timeout: 75_000,
  }, async () => {
    // The receiver's script: ~30% answers 500 or 503, each answer after 20-120 ms (so attempts are
    // in flight when A dies), from a fixed seed.
    const random = seededRandom(12);
    let holding = 0;
    receiver.answerFor = () => {
      const status = random() < 0.3 ? (random() < 0.5 ? 500 : 503) : 200;
      holding += 1;
      const until = sleep(20 + Math.floor(random() * 100)).then(() => {
        holding -= 1;
      });
      return { status, until };
    };

    // First, the providers click "complete", alternating A and B, five at a time. After 20 answers
    // A is killed (once the receiver holds an answer, i.e. an attempt is in flight somewhere); the
    // requests aimed at A then go to B, and one that A's death cut off is made again through B.
    const started = performance.now();
    let answered = 0;
    let resentThroughB = 0;
    let killedAt: number | undefined;
    const statuses: number[] = [];
    const complete = async (index: number) => {
      const { cookie, applicationId } = providers[index]!;
      const target = index % 2 === 0 && killedAt === undefined ? a : b;
      const url = `/api/applications/${applicationId}/completion`;
      // Read through B, which is never killed; the completion itself goes to the chosen instance.
      const attestation = await signedAttestation(clientOf(b, cookie));
      let response = await clientOf(target, cookie)
        .json('POST', url, attestation)
        .catch((error: Error) => error);
      if (response instanceof Error) {
        expect(target.name).toBe('A'); // Only the killed instance may fail to answer.
        resentThroughB += 1;
        response = await clientOf(b, cookie).json('POST', url, attestation);
      }
      statuses.push(response.status);
      answered += 1;
    };
    let next = 0;
    const lanes = Array.from({ length: 5 }, async () => {
      while (next < PROVIDERS) {
        const index = next++;
        await complete(index);
      }
    });
    const killer = (async () => {
      await waitUntil(() => answered >= KILL_AFTER, 30_000, `${KILL_AFTER} completions`);
      await waitUntil(() => holding > 0, 2_000, 'an attempt in flight').catch(() => {});
      a.child.kill('SIGKILL');
      killedAt = performance.now();
      await a.exited;
    })();
    await Promise.all([...lanes, killer]);
    expect(statuses.every((status) => status === 200 || status === 202)).toBe(true);
    expect(statuses).toHaveLength(PROVIDERS);

    // Second, every notification ends up delivered (A's claims are taken over when their lease ends).
    // The figures are printed even when that times out.
    const notificationRows = async () =>
      (await db.query<{ id: string; status: string }>('select id, status from completion_notifications'))
        .rows;
    const allDelivered = await waitUntil(
      async () => {
        const rows = await notificationRows();
        return rows.length === PROVIDERS && rows.every((row) => row.status === 'delivered');
      },
      45_000,
      'every notification to be delivered',
    ).then(
      () => true,
      () => false,
    );
    const allDeliveredMs = performance.now() - started;
    const notifications = await notificationRows();

    // Third, what the receiver saw. A duplicate is a webhook-id answered 2xx more than once.
    const twoXxById = new Map<string, number>();
    for (const request of receiver.delivered) {
      const id = String(request.headers['webhook-id']);
      twoXxById.set(id, (twoXxById.get(id) ?? 0) + 1);
    }
    const duplicated = [...twoXxById].filter(([, count]) => count > 1).map(([id]) => id);
    // Attempts whose outcome the sender never saw: A's, cut off when it was killed ('interrupted'),
    // and any that timed out on the sender's side on a loaded machine after the receiver had
    // answered. Only these can turn into a duplicate.
    const outcomeUnknown = await db.query<{ notification_id: string; interrupted: boolean }>(
      `select notification_id, error like 'interrupted:%' as interrupted from notification_attempts
       where http_status is null`,
    );
    const interrupted = outcomeUnknown.rows
      .filter((row) => row.interrupted)
      .map((row) => row.notification_id);
    const unknown = outcomeUnknown.rows.map((row) => row.notification_id);
    const attempts = await db.query<{ count: string }>('select count(*) from notification_attempts');
    const killedAfterMs = (killedAt ?? started) - started;
    const figures = {
      applications: PROVIDERS,
      completionAnswers: {
        delivered200: statuses.filter((s) => s === 200).length,
        queued202: statuses.filter((s) => s === 202).length,
        cutOffOnAResentThroughB: resentThroughB,
      },
      notificationsDelivered: notifications.filter((row) => row.status === 'delivered').length,
      requestsReceived: receiver.requests.length,
      answered2xx: receiver.requests.filter((r) => typeof r.answer === 'number' && r.answer < 300).length,
      failuresInjected: receiver.requests.filter((r) => typeof r.answer === 'number' && r.answer >= 500)
        .length,
      attemptsRecorded: Number(attempts.rows[0]!.count),
      duplicates: duplicated.length,
      interruptedAttempts: interrupted.length,
      attemptsWithoutAnswer: unknown.length,
      killedAfterMs: Math.round(killedAfterMs),
      allDeliveredAfterMs: Math.round(allDeliveredMs),
      allDeliveredAfterKillMs: Math.round(allDeliveredMs - killedAfterMs),
    };
    console.log(`multi-instance delivery figures: ${JSON.stringify(figures)}`);

    expect(allDelivered).toBe(true);
    for (const notification of notifications) expect(twoXxById.get(notification.id) ?? 0).toBeGreaterThan(0);
    expect(receiver.requests.every((request) => request.verified)).toBe(true);
    // Duplicates only where the sender never learnt of the receiver's 2xx (at-least-once): at most
    // one per such attempt, and only of a notification that has one.
    expect(duplicated.length).toBeLessThanOrEqual(unknown.length);
    for (const id of duplicated) expect(unknown).toContain(id);
  });
});

describe('two instances with per-IP limits on: the limits hold in total', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let dataDir: string;
  /** Emails that signed up (the sign-in test uses the first). */
  const signedUp: string[] = [];

  beforeAll(async () => {
    dataDir = temporaryDataDir();
    const env = { DATABASE_URL: await temporaryDatabase(), DATA_DIR: dataDir, AUTH_IP_RATE_LIMIT: 'true' };
    a = await startServer('limits-A', env);
    b = await startServer('limits-B', env);
  }, 120_000);

  it('refuses the 6th sign-up from one address within a minute (5 per 60 s), alternating A and B', {
    timeout: 30_000,
  }, async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= AUTH_REQUESTS_PER_ADDRESS.paths['/sign-up/email']!; i++) {
      const email = `signup${i}.${randomBytes(3).toString('hex')}@example.test`;
      const response = await clientOf(i % 2 === 0 ? a : b).json('POST', '/api/auth/sign-up/email', {
        email,
        password: STRONG_PASSWORD,
        name: 'Sam Signup',
        firstName: 'Sam',
        lastName: 'Signup',
        callbackURL: '/auth?confirmed=1',
      });
      if (response.status === 200) signedUp.push(email);
      statuses.push(response.status);
    }
    expect(statuses).toEqual([
      ...Array<number>(AUTH_REQUESTS_PER_ADDRESS.paths['/sign-up/email']!).fill(200),
      429,
    ]);
  });

  it('refuses the 11th wrong password for one account from one address, alternating A and B', {
    timeout: 30_000,
  }, async () => {
    // First, Bob's account exists and is confirmed (the first sign-up above, or a new one).
    const client = clientOf(a);
    let email = signedUp[0];
    if (!email) {
      email = `bob.${randomBytes(3).toString('hex')}@example.test`;
      await signUpConfirmSignIn(
        client,
        { email, password: STRONG_PASSWORD, firstName: 'Bob', lastName: 'Limits' },
        linkFromOutbox(path.join(dataDir, 'mail')),
      );
    } else {
      const link = new URL(await linkFromOutbox(path.join(dataDir, 'mail'))(email));
      const verify = await client.request('GET', `${link.pathname}${link.search}`);
      await verify.arrayBuffer();
      expect(verify.status).toBeLessThan(400);
    }

    // Second, someone tries wrong passwords from one address, alternating A and B.
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN.pairAttempts + 2; i++) {
      const response = await clientOf(i % 2 === 0 ? a : b).json('POST', '/api/auth/sign-in/email', {
        email,
        password: `wrong password number ${i}!`,
      });
      statuses.push(response.status);
    }
    // 10 answered (401), then refused whichever instance is asked (the 11th on A, the 12th on B).
    expect(statuses).toEqual([...Array<number>(SIGN_IN.pairAttempts).fill(401), 429, 429]);
  });
});

describe('two instances started at the same moment on an empty database', () => {
  it('both become ready and each migration is applied once', { timeout: 60_000 }, async () => {
    const databaseUrl = await temporaryDatabase();
    const env = { DATABASE_URL: databaseUrl, DATA_DIR: temporaryDataDir(), AUTH_IP_RATE_LIMIT: 'false' };
    const [first, second] = await Promise.all([spawnServer('empty-A', env), spawnServer('empty-B', env)]);
    const outcomes = await Promise.allSettled([waitReady(first), waitReady(second)]);

    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    // No table (both failed before migrating) reads as no migration applied.
    const applied = await client
      .query<{ hash: string; count: string }>(
        `select hash, count(*) from drizzle.__drizzle_migrations group by hash order by min(id)`,
      )
      .catch(() => ({ rows: [] as { hash: string; count: string }[] }))
      .finally(() => client.end());
    const journal = JSON.parse(fs.readFileSync(MIGRATIONS_JOURNAL, 'utf8')) as { entries: unknown[] };
    console.log(
      `simultaneous start-up: ${JSON.stringify({
        ready: outcomes.map((o) => o.status === 'fulfilled'),
        migrationsInJournal: journal.entries.length,
        migrationRows: applied.rows.map((row) => Number(row.count)),
        failures: outcomes.flatMap((o) => (o.status === 'rejected' ? [String(o.reason).slice(0, 1500)] : [])),
      })}`,
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(applied.rows.map((row) => Number(row.count))).toEqual(journal.entries.map(() => 1));
  });
});
