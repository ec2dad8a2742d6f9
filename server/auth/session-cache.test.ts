/**
 * Decision 015: an instance serves a session it verified in the last SESSION_CACHE_SECONDS from
 * memory. A revocation through the instance holds there at once; on another instance, and after a
 * change made outside the server, within the time to live; an expired session never works.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  createTwoInstances,
  STRONG_PASSWORD,
  signUpAndSignIn,
  type TestApp,
} from '../../tests/harness.ts';
import { createSessionCache, type SessionFacts, sessionCacheKey } from './session-cache.ts';
import { notifySessionsRevoked, SESSION_REVOCATION_CHANNEL } from './session-revocations.ts';

const TTL_SECONDS = 1;

function facts(overrides: Partial<SessionFacts> = {}): SessionFacts {
  return {
    userId: 'user-1',
    email: 'alice@example.test',
    role: 'user',
    roles: ['user'],
    sessionId: 'session-1',
    sessionExpiresAt: new Date(10_000_000),
    emailVerified: true,
    twoFactorEnabled: false,
    ...overrides,
  };
}

describe('createSessionCache', () => {
  it('serves a verified session until its time to live, then reads it again', async () => {
    let now = 1_000;
    const cache = createSessionCache({ ttlMs: 5_000, now: () => now });
    let reads = 0;
    const load = async () => {
      reads += 1;
      return facts();
    };
    await cache.lookup('token.signature', load);
    now += 4_999;
    await cache.lookup('token.signature', load);
    expect(reads).toBe(1);
    now += 1;
    await cache.lookup('token.signature', load);
    expect(reads).toBe(2);
  });

  it('never serves a session past its own end, however fresh the entry', async () => {
    let now = 1_000;
    const cache = createSessionCache({ ttlMs: 5_000, now: () => now });
    await cache.lookup('token.signature', async () => facts({ sessionExpiresAt: new Date(2_000) }));
    now = 2_000;
    expect(await cache.lookup('token.signature', async () => null)).toBeNull();
  });

  it('stores neither "no session" nor a lookup that began before clear()', async () => {
    const cache = createSessionCache({ ttlMs: 5_000 });
    await cache.lookup('unknown', async () => null);
    expect(cache.size).toBe(0);
    // A lookup in flight while a sign-out empties the memory may have read the session before the
    // sign-out committed: it answers its caller but is not kept.
    let release!: (value: SessionFacts) => void;
    const slow = cache.lookup('token.signature', () => new Promise((resolve) => (release = resolve)));
    cache.clear();
    release(facts());
    expect(await slow).toEqual(facts());
    expect(cache.size).toBe(0);
  });

  it('shares one read between concurrent requests of a session, and keeps no failure', async () => {
    const cache = createSessionCache({ ttlMs: 5_000 });
    let reads = 0;
    const load = async () => {
      reads += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return facts();
    };
    await Promise.all([1, 2, 3].map(() => cache.lookup('token.signature', load)));
    expect(reads).toBe(1);
    await expect(
      cache.lookup('other', async () => Promise.reject(new Error('database down'))),
    ).rejects.toThrow('database down');
    expect(cache.size).toBe(1);
  });

  it('keys entries by a hash, never the token', () => {
    expect(sessionCacheKey('token.signature')).not.toContain('token');
    expect(sessionCacheKey('token.signature')).toHaveLength(43);
  });

  it('reads every time with a time to live of 0', async () => {
    const cache = createSessionCache({ ttlMs: 0 });
    let reads = 0;
    for (let i = 0; i < 3; i++) {
      await cache.lookup('token.signature', async () => {
        reads += 1;
        return facts();
      });
    }
    expect(reads).toBe(3);
    expect(cache.size).toBe(0);
  });
});

/** `client`'s session cookie, sent to `app`. */
const on = (app: TestApp, client: Client) => {
  const other = new Client(app);
  other.cookie = client.cookie;
  return other;
};

/** Ms until `app` answers 401 to `client` on /api/me (polling every 50 ms, failing after 5 s). */
async function msUntilRefused(app: TestApp, client: Client): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < 5_000) {
    if ((await on(app, client).json('GET', '/api/me')).status === 401) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the session still works after 5 s');
}

describe('two instances on one database, time to live 1 s', () => {
  let a: TestApp;
  let b: TestApp;

  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ a, b, close } = await createTwoInstances({ SESSION_CACHE_SECONDS: String(TTL_SECONDS) }));
  });
  afterAll(async () => {
    await close?.();
  });

  it('ends a signed-out session at once on its instance and within the time to live on the other', async () => {
    // First, Alice signs in through A; both instances have verified her session.
    const alice = await signUpAndSignIn(a);
    const cookie = alice.cookie;
    expect((await on(a, alice).json('GET', '/api/me')).status).toBe(200);
    expect((await on(b, alice).json('GET', '/api/me')).status).toBe(200);

    // Second, she signs out through A, and someone replays her old cookie.
    expect((await alice.request('POST', '/api/auth/sign-out', {})).status).toBe(200);
    alice.cookie = cookie;
    expect((await on(a, alice).json('GET', '/api/me')).status).toBe(401);
    // B learns it from PostgreSQL when its memory of the session expires.
    expect(await msUntilRefused(b, alice)).toBeLessThanOrEqual(TTL_SECONDS * 1000 + 500);
  });

  it('ends the other sessions of a password change at once on that instance', async () => {
    const bob = await signUpAndSignIn(a);
    const laptop = new Client(a);
    const signIn = await laptop.json('POST', '/api/auth/sign-in/email', {
      email: bob.email,
      password: STRONG_PASSWORD,
    });
    expect(signIn.status).toBe(200);
    expect((await laptop.json('GET', '/api/me')).status).toBe(200);
    const changed = await bob.request('POST', '/api/auth/change-password', {
      currentPassword: STRONG_PASSWORD,
      newPassword: `${STRONG_PASSWORD} and more`,
    });
    expect(changed.status).toBe(200);
    expect((await laptop.json('GET', '/api/me')).status).toBe(401);
  });

  it('applies a role changed in the database without an announcement within the time to live', async () => {
    const carol = await signUpAndSignIn(a);
    expect((await on(a, carol).json<{ role: string }>('GET', '/api/me')).body.role).toBe('user');
    await a.runtime.deps.database.pool.query(`update user_roles set role = 'admin' where user_id = $1`, [
      carol.userId,
    ]);
    await new Promise((resolve) => setTimeout(resolve, TTL_SECONDS * 1000 + 50));
    expect((await on(a, carol).json<{ role: string }>('GET', '/api/me')).body.role).toBe('admin');
  });

  it('refuses a session deleted in the database without an announcement within the time to live', async () => {
    const dana = await signUpAndSignIn(a);
    expect((await on(b, dana).json('GET', '/api/me')).status).toBe(200);
    await a.runtime.deps.database.pool.query('delete from session where user_id = $1', [dana.userId]);
    expect(await msUntilRefused(b, dana)).toBeLessThanOrEqual(TTL_SECONDS * 1000 + 500);
  });
});

describe('two instances on one database, time to live 60 s: revocations are announced', () => {
  let a: TestApp;
  let b: TestApp;

  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ a, b, close } = await createTwoInstances({ SESSION_CACHE_SECONDS: '60' }));
  });
  afterAll(async () => {
    await close?.();
  });

  it('ends a session signed out through A on B long before the time to live (LISTEN/NOTIFY)', async () => {
    const erin = await signUpAndSignIn(a);
    const cookie = erin.cookie;
    expect((await on(b, erin).json('GET', '/api/me')).status).toBe(200);
    expect((await erin.request('POST', '/api/auth/sign-out', {})).status).toBe(200);
    erin.cookie = cookie;
    expect(await msUntilRefused(b, erin)).toBeLessThan(1_000);
  });

  it('applies a role change announced by npm run admin on every instance', async () => {
    const frank = await signUpAndSignIn(a);
    expect((await on(b, frank).json<{ role: string }>('GET', '/api/me')).body.role).toBe('user');
    // As server/cli/admin.ts does: the change and the announcement commit together.
    await a.runtime.deps.db.transaction(async (tx) => {
      await tx.execute(sql`update user_roles set role = 'admin' where user_id = ${frank.userId}`);
      await notifySessionsRevoked(tx);
    });
    const started = Date.now();
    while ((await on(b, frank).json<{ role: string }>('GET', '/api/me')).body.role !== 'admin') {
      expect(Date.now() - started).toBeLessThan(1_000);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });

  it('announces what may end sessions, never a sign-up, a sign-in or a refusal', async () => {
    const listener = new pg.Client({ connectionString: a.databaseUrl });
    await listener.connect();
    let announcements = 0;
    listener.on('notification', () => {
      announcements += 1;
    });
    await listener.query(`listen ${SESSION_REVOCATION_CHANNEL}`);
    const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
    try {
      const gina = await signUpAndSignIn(a);
      const wrong = await new Client(b).json('POST', '/api/auth/sign-in/email', {
        email: gina.email,
        password: `${STRONG_PASSWORD} not`,
      });
      expect(wrong.status).toBe(401);
      expect((await gina.json('GET', '/api/me')).status).toBe(200);
      await settle();
      expect(announcements).toBe(0);

      expect((await gina.request('POST', '/api/auth/sign-out', {})).status).toBe(200);
      await settle();
      expect(announcements).toBe(1);
    } finally {
      await listener.end();
    }
  });
});
