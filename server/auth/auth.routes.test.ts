import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  createTestApp,
  STRONG_PASSWORD,
  signUpAndSignIn,
  type TestApp,
} from '../../tests/harness.ts';

const run = promisify(execFile);
let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

describe('sign-up, confirmation, sign-in', () => {
  it('creates a profile with the names, confirms by mail and signs in as a provider', async () => {
    // First, Alice signs up and receives a confirmation message.
    const alice = await signUpAndSignIn(app, { firstName: 'Alice', lastName: 'Nguyen' });
    // Then her profile carries the sign-up names and she is a provider.
    const me = await alice.json<{ profile: { firstName: string; lastName: string }; role: string }>(
      'GET',
      '/api/me',
    );
    expect(me.status).toBe(200);
    expect(me.body.profile).toMatchObject({ firstName: 'Alice', lastName: 'Nguyen' });
    expect(me.body.role).toBe('user');
  });

  it('refuses sign-in before the email is confirmed', async () => {
    const client = new Client(app);
    const email = `unconfirmed.${Date.now()}@example.test`;
    const signUp = await client.json('POST', '/api/auth/sign-up/email', {
      email,
      password: STRONG_PASSWORD,
      name: 'Bob Lee',
      firstName: 'Bob',
      lastName: 'Lee',
    });
    expect(signUp.status).toBe(200);
    const signIn = await client.json<{ message: string }>('POST', '/api/auth/sign-in/email', {
      email,
      password: STRONG_PASSWORD,
    });
    expect(signIn.status).toBe(403);
    expect(signIn.body.message).toMatch(/verif/i);
  });

  it('answers a duplicate sign-up like a new one (no account enumeration)', async () => {
    const alice = await signUpAndSignIn(app);
    const again = await new Client(app).json('POST', '/api/auth/sign-up/email', {
      email: alice.email,
      password: STRONG_PASSWORD,
      name: 'Other Person',
      firstName: 'Other',
      lastName: 'Person',
    });
    expect(again.status).toBe(200);
  });

  it('refuses a weak password with code weak_password and reasons', async () => {
    const response = await new Client(app).json<{ code: string; reasons: string[] }>(
      'POST',
      '/api/auth/sign-up/email',
      {
        email: `weak.${Date.now()}@example.test`,
        password: 'password1234',
        name: 'Weak Pw',
        firstName: 'Weak',
        lastName: 'Pw',
      },
    );
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('weak_password');
    expect(response.body.reasons.length).toBeGreaterThan(0);
  });

  it('refuses a short password with the length reason', async () => {
    const response = await new Client(app).json<{ reasons: string[] }>('POST', '/api/auth/sign-up/email', {
      email: `short.${Date.now()}@example.test`,
      password: 'Xk9#qL2',
      name: 'Short Pw',
      firstName: 'Short',
      lastName: 'Pw',
    });
    expect(response.status).toBe(400);
    expect(response.body.reasons).toContain('Use at least 12 characters.');
  });

  it('ends the session on the server at sign-out: the old cookie gets 401', async () => {
    const alice = await signUpAndSignIn(app);
    const oldCookie = alice.cookie;
    expect((await alice.json('POST', '/api/auth/sign-out', {})).status).toBe(200);
    const replay = new Client(app);
    replay.cookie = oldCookie;
    expect((await replay.json('GET', '/api/me')).status).toBe(401);
  });

  it('resets a password by mail and ends existing sessions', async () => {
    const alice = await signUpAndSignIn(app);
    const oldCookie = alice.cookie;
    const anonymous = new Client(app);
    const request = await anonymous.json('POST', '/api/auth/request-password-reset', {
      email: alice.email,
      redirectTo: '/reset-password',
    });
    expect(request.status).toBe(200);
    const mail = [...app.mail].reverse().find((m) => m.to === alice.email && /reset/i.test(m.subject));
    const link = new URL(mail!.text.match(/https?:\/\/\S+/)![0]);
    const redirect = await anonymous.request('GET', `${link.pathname}${link.search}`);
    expect(redirect.status).toBe(302);
    const token = new URL(redirect.headers.get('location')!, app.baseUrl).searchParams.get('token');
    expect(token).toBeTruthy();
    const newPassword = 'violet tangerine submarine 77';
    const reset = await anonymous.json('POST', '/api/auth/reset-password', { newPassword, token });
    expect(reset.status).toBe(200);
    const replay = new Client(app);
    replay.cookie = oldCookie;
    expect((await replay.json('GET', '/api/me')).status).toBe(401);
    const signIn = await new Client(app).json('POST', '/api/auth/sign-in/email', {
      email: alice.email,
      password: newPassword,
    });
    expect(signIn.status).toBe(200);
  });

  it('answers malformed JSON and missing fields with 400 and a message, never 500', async () => {
    const client = new Client(app);
    const malformed = await client.request('POST', '/api/auth/sign-in/email', undefined, {
      'content-type': 'application/json',
    });
    expect(malformed.status).toBeGreaterThanOrEqual(400);
    expect(malformed.status).toBeLessThan(500);
    const broken = await fetch(`${app.baseUrl}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
      body: '{"email": ',
    });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { message: string }).message).toMatch(/not valid JSON/);
    const missing = await client.json<{ message: string }>('POST', '/api/auth/sign-in/email', {});
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBeTruthy();
  });

  it('limits sign-in attempts per account from one address (decision 010; more in hardening.test.ts)', async () => {
    const email = `target.${Date.now()}@example.test`;
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      // A fresh client (no cookies) per attempt; the harness turns the per-IP limit off, so only the
      // per-account limit can refuse.
      const response = await new Client(app).json('POST', '/api/auth/sign-in/email', {
        email,
        password: `wrong-${i}`,
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 5).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('npm run admin', () => {
  it('grants and revokes the admin role, which the next request sees', async () => {
    const alice = await signUpAndSignIn(app);
    const env = { ...process.env, DATABASE_URL: app.databaseUrl, DATA_DIR: app.dataDir };
    const grant = await run(process.execPath, ['server/cli/admin.ts', 'grant', alice.email], { env });
    expect(grant.stdout).toContain('now has the role admin');
    expect((await alice.json<{ role: string }>('GET', '/api/me')).body.role).toBe('admin');
    await run(process.execPath, ['server/cli/admin.ts', 'revoke', alice.email], { env });
    expect((await alice.json<{ role: string }>('GET', '/api/me')).body.role).toBe('user');
    const audit = await app.runtime.deps.database.pool.query(
      `select count(*)::int as n from audit_log where action = 'auth.role_changed' and subject_user_id = $1`,
      [alice.userId],
    );
    expect(audit.rows[0].n).toBe(2);
  });

  it('says when the email has no account', async () => {
    const env = { ...process.env, DATABASE_URL: app.databaseUrl, DATA_DIR: app.dataDir };
    await expect(
      run(process.execPath, ['server/cli/admin.ts', 'grant', 'nobody@example.test'], { env }),
    ).rejects.toMatchObject({
      stderr: expect.stringContaining('No account with the email'),
    });
  });
});
