/**
 * GET /api/session (the web app's session check: 200 with the /api/me body, or 200 null when signed
 * out, never a 401) and GET /api/profile (the dashboard's profile: null when absent, 5xx only when the
 * lookup fails), against the real PostgreSQL over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestApp, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

/** Runs `action` while `table` is renamed away: every query on it fails, as with a database outage. */
async function withTableMissing<T>(table: string, action: () => Promise<T>): Promise<T> {
  const pool = app.runtime.deps.database.pool;
  await pool.query(`alter table "${table}" rename to "${table}_away"`);
  try {
    return await action();
  } finally {
    await pool.query(`alter table "${table}_away" rename to "${table}"`);
  }
}

describe('GET /api/session', () => {
  it('answers 200 null to a visitor without a session, or with a cookie that is no session', async () => {
    const visitor = new Client(app);
    const response = await visitor.request('GET', '/api/session');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toBe('null');

    visitor.cookie = 'better-auth.session_token=not-a-session.signature';
    expect(await visitor.json('GET', '/api/session')).toEqual({ status: 200, body: null });
  });

  it('answers a signed-in provider with the same body as /api/me', async () => {
    const alice = await signUpAndSignIn(app, { firstName: 'Alice', lastName: 'Nguyen' });
    const session = await alice.json<Record<string, unknown>>('GET', '/api/session');
    const me = await alice.json<Record<string, unknown>>('GET', '/api/me');
    expect(session.status).toBe(200);
    expect(session.body).toEqual(me.body);
    expect(session.body).toMatchObject({
      user: { id: alice.userId, email: alice.email, emailVerified: true },
      profile: { firstName: 'Alice', lastName: 'Nguyen', email: alice.email },
      role: 'user',
    });
  });

  it('answers 200 null once the session has expired or ended', async () => {
    // First, Bob's session expires on the server (as after SESSION_IDLE_MINUTES without activity).
    const bob = await signUpAndSignIn(app);
    await app.runtime.deps.database.pool.query(
      `update "session" set expires_at = now() - interval '1 minute' where user_id = $1`,
      [bob.userId],
    );
    expect(await bob.json('GET', '/api/session')).toEqual({ status: 200, body: null });
    expect((await bob.json('GET', '/api/me')).status).toBe(401);

    // Then Carol signs out: her old cookie is no session either.
    const carol = await signUpAndSignIn(app);
    const cookie = carol.cookie;
    expect((await carol.request('POST', '/api/auth/sign-out', {})).status).toBe(200);
    carol.cookie = cookie;
    expect(await carol.json('GET', '/api/session')).toEqual({ status: 200, body: null });
  });

  it('answers 500, never "signed out", when the session cannot be looked up', async () => {
    const dana = await signUpAndSignIn(app);
    const failed = await withTableMissing('session', () =>
      dana.json<{ code: string }>('GET', '/api/session'),
    );
    expect(failed.status).toBe(500);
    expect(failed.body.code).toBe('internal');
    // With the table back, the same session answers again.
    expect((await dana.json<{ user: { id: string } }>('GET', '/api/session')).body.user.id).toBe(dana.userId);
  });

  it('answers 500 when the profile lookup fails', async () => {
    const erin = await signUpAndSignIn(app);
    const failed = await withTableMissing('profiles', () =>
      erin.json<{ code: string }>('GET', '/api/session'),
    );
    expect(failed.status).toBe(500);
  });
});

describe('GET /api/profile', () => {
  it("answers the caller's profile, and null (not an error) when there is none", async () => {
    const frank = await signUpAndSignIn(app, { firstName: 'Frank', lastName: 'Osei' });
    const found = await frank.json<{ profile: unknown }>('GET', '/api/profile');
    expect(found.status).toBe(200);
    expect(found.body.profile).toEqual({
      firstName: 'Frank',
      lastName: 'Osei',
      email: frank.email,
      createdAt: expect.any(String),
    });

    // Spec §8: a missing profile is tolerated.
    await app.runtime.deps.database.pool.query('delete from profiles where user_id = $1', [frank.userId]);
    expect(await frank.json('GET', '/api/profile')).toEqual({ status: 200, body: { profile: null } });
    expect((await frank.json<{ profile: unknown }>('GET', '/api/session')).body.profile).toBeNull();
  });

  it('answers 401 to a visitor and 500 when the lookup fails', async () => {
    expect((await new Client(app).json('GET', '/api/profile')).status).toBe(401);
    const gina = await signUpAndSignIn(app);
    const failed = await withTableMissing('profiles', () =>
      gina.json<{ code: string }>('GET', '/api/profile'),
    );
    expect(failed.status).toBe(500);
    expect(failed.body.code).toBe('internal');
  });
});
