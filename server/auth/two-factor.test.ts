/**
 * Second factor (issue 16) through the real API: an administrator without one is refused on every
 * admin route; enrolment with TOTP; sign-in asks for a code; wrong codes fail and are audited;
 * backup codes work once; "trust this device" is never honoured; administrators cannot turn it off;
 * only the TOTP and backup-code endpoints are reachable; sessions end after SESSION_MAX_HOURS.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  createTestApp,
  grantAdmin,
  STRONG_PASSWORD,
  signUpAndSignIn,
  type TestApp,
  totpCode,
} from '../../tests/harness.ts';
import { TOTP_REUSED_MESSAGE } from '../security/rate-limits.ts';
import { TWO_FACTOR_REQUIRED_MESSAGE } from './actor.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

async function auditActions(userId: string): Promise<string[]> {
  const { rows } = await app.runtime.deps.database.pool.query<{ action: string }>(
    'select action from audit_log where subject_user_id = $1 order by id',
    [userId],
  );
  return rows.map((row) => row.action);
}

/** Password step of a sign-in with a fresh client. */
async function passwordStep(email: string) {
  const client = new Client(app);
  const response = await client.json<{ twoFactorRedirect?: boolean }>('POST', '/api/auth/sign-in/email', {
    email,
    password: STRONG_PASSWORD,
  });
  return { client, response };
}

describe('an administrator', () => {
  it('gets 403 two_factor_required on admin routes until enrolled, then signs in with a code or a backup code once', async () => {
    const ada = await signUpAndSignIn(app, { firstName: 'Ada' });
    await app.runtime.deps.database.pool.query(`update user_roles set role = 'admin' where user_id = $1`, [
      ada.userId,
    ]);
    // First, before enrolment: every admin read is refused, with what to do.
    const me = await ada.json<{ twoFactorRequired: boolean; user: { twoFactorEnabled: boolean } }>(
      'GET',
      '/api/me',
    );
    expect(me.body).toMatchObject({ twoFactorRequired: true, user: { twoFactorEnabled: false } });
    const refused = await ada.json('GET', '/api/admin/providers');
    expect(refused).toEqual({
      status: 403,
      body: { code: 'two_factor_required', message: TWO_FACTOR_REQUIRED_MESSAGE },
    });

    // A session Ada (or someone with her password) opened elsewhere before enrolling.
    const elsewhere = await passwordStep(ada.email);
    expect((await elsewhere.client.json('GET', '/api/me')).status).toBe(200);

    // Second, enrolment: password -> URI and ten backup codes; not active until a code confirms it.
    const enabled = await ada.json<{ totpURI: string; backupCodes: string[] }>(
      'POST',
      '/api/auth/two-factor/enable',
      { password: STRONG_PASSWORD },
    );
    expect(enabled.status).toBe(200);
    expect(enabled.body.totpURI).toMatch(/^otpauth:\/\/totp\/.+secret=[A-Z2-7]+/);
    expect(enabled.body.backupCodes).toHaveLength(10);
    expect((await ada.json('GET', '/api/admin/providers')).status).toBe(403);
    const wrongAtEnrolment = await ada.json('POST', '/api/auth/two-factor/verify-totp', { code: '000000' });
    expect(wrongAtEnrolment.status).toBe(401);
    // One code, kept: computing it again could cross a 30-second step and give the next, valid code.
    const enrolmentCode = totpCode(enabled.body.totpURI);
    const confirmed = await ada.json('POST', '/api/auth/two-factor/verify-totp', { code: enrolmentCode });
    expect(confirmed.status).toBe(200);
    expect((await ada.json('GET', '/api/admin/providers')).status).toBe(200);
    expect((await ada.json<{ twoFactorRequired: boolean }>('GET', '/api/me')).body.twoFactorRequired).toBe(
      false,
    );
    // The password-only session elsewhere ended with the enrolment; this one goes on.
    expect((await elsewhere.client.json('GET', '/api/admin/providers')).status).toBe(401);

    // Third, a new sign-in: the password alone gives no session.
    const first = await passwordStep(ada.email);
    expect(first.response).toMatchObject({ status: 200, body: { twoFactorRedirect: true } });
    expect((await first.client.json('GET', '/api/me')).status).toBe(401);
    const wrong = await first.client.json('POST', '/api/auth/two-factor/verify-totp', { code: '123456' });
    expect(wrong.status).toBe(401);
    // The code that confirmed the enrolment works once: used again (within its 90 s) it is refused.
    const reusedCode = await first.client.json<{ message: string }>(
      'POST',
      '/api/auth/two-factor/verify-totp',
      { code: enrolmentCode },
    );
    expect(reusedCode).toEqual({ status: 401, body: { code: 'unauthorized', message: TOTP_REUSED_MESSAGE } });
    // "Trust this device" is dropped: no trust cookie, and the next sign-in asks again. (The next
    // 30-second step's code: better-auth accepts the neighbouring steps.)
    const right = await first.client.request('POST', '/api/auth/two-factor/verify-totp', {
      code: totpCode(enabled.body.totpURI, Date.now() + 30_000),
      trustDevice: true,
    });
    expect(right.status).toBe(200);
    expect(right.headers.getSetCookie().join('\n')).not.toContain('trust_device');
    expect((await first.client.json('GET', '/api/admin/providers')).status).toBe(200);

    // Fourth, a backup code signs in once; the same code a second time fails.
    const backupCode = enabled.body.backupCodes[0]!;
    const second = await passwordStep(ada.email);
    expect(second.response.body).toMatchObject({ twoFactorRedirect: true });
    const withBackup = await second.client.json('POST', '/api/auth/two-factor/verify-backup-code', {
      code: backupCode,
    });
    expect(withBackup.status).toBe(200);
    expect((await second.client.json('GET', '/api/admin/stats')).status).toBe(200);
    const third = await passwordStep(ada.email);
    const reused = await third.client.json('POST', '/api/auth/two-factor/verify-backup-code', {
      code: backupCode,
    });
    expect(reused.status).toBe(401);
    expect((await third.client.json('GET', '/api/me')).status).toBe(401);

    // Fifth, an administrator cannot turn it off.
    const disable = await first.client.json('POST', '/api/auth/two-factor/disable', {
      password: STRONG_PASSWORD,
    });
    expect(disable.status).toBe(403);

    // Everything is in the audit log, attributed to Ada.
    const actions = await auditActions(ada.userId);
    expect(actions.filter((a) => a === 'auth.two_factor_enabled')).toHaveLength(1);
    expect(actions.filter((a) => a === 'auth.two_factor_failed')).toHaveLength(4);
    expect(actions.filter((a) => a === 'auth.sign_in_two_factor')).toHaveLength(2);
    expect(actions.filter((a) => a === 'auth.backup_code_used')).toHaveLength(1);
  });
});

describe('a provider', () => {
  it('may turn a second factor on and off; admin pages stay closed to them', async () => {
    const paula = await signUpAndSignIn(app, { firstName: 'Paula' });
    expect((await paula.json<{ twoFactorRequired: boolean }>('GET', '/api/me')).body.twoFactorRequired).toBe(
      false,
    );
    const enabled = await paula.json<{ totpURI: string }>('POST', '/api/auth/two-factor/enable', {
      password: STRONG_PASSWORD,
    });
    await paula.json('POST', '/api/auth/two-factor/verify-totp', { code: totpCode(enabled.body.totpURI) });
    expect((await paula.json('GET', '/api/admin/providers')).status).toBe(403);
    const signIn = await passwordStep(paula.email);
    expect(signIn.response.body).toMatchObject({ twoFactorRedirect: true });

    const wrongPassword = await paula.json('POST', '/api/auth/two-factor/disable', {
      password: 'not it at all 99',
    });
    expect(wrongPassword.status).toBeGreaterThanOrEqual(400);
    const off = await paula.json('POST', '/api/auth/two-factor/disable', { password: STRONG_PASSWORD });
    expect(off.status).toBe(200);
    const again = await passwordStep(paula.email);
    expect(again.response.body).not.toHaveProperty('twoFactorRedirect');
    expect((await again.client.json('GET', '/api/me')).status).toBe(200);
    expect(await auditActions(paula.userId)).toContain('auth.two_factor_disabled');
  });

  it('cannot reach the one-time-code-by-mail endpoints, and a malformed code is a 400', async () => {
    const client = await signUpAndSignIn(app);
    expect((await client.json('POST', '/api/auth/two-factor/send-otp', {})).status).toBe(404);
    expect((await client.json('POST', '/api/auth/two-factor/verify-otp', { code: '123456' })).status).toBe(
      404,
    );
    const malformed = await client.json<{ code: string; message: string }>(
      'POST',
      '/api/auth/two-factor/verify-totp',
      { code: '12ab' },
    );
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBe('Enter the 6-digit code from your authenticator app.');
  });
});

describe('SESSION_MAX_HOURS', () => {
  it('ends a session 12 hours after sign-in however active it was', async () => {
    const admin = await signUpAndSignIn(app);
    await grantAdmin(app, admin);
    expect((await admin.json('GET', '/api/admin/stats')).status).toBe(200);
    const pool = app.runtime.deps.database.pool;
    // Active all along (renewed a minute ago) but signed in 12 hours ago.
    await pool.query(
      `update session set created_at = now() - interval '12 hours', expires_at = now() + interval '29 minutes'
       where user_id = $1`,
      [admin.userId],
    );
    // Twelve hours also outlast the instance's few seconds' memory of the session (decision 015).
    app.runtime.deps.sessionCache.clear();
    expect((await admin.json('GET', '/api/admin/stats')).status).toBe(401);
    const left = await pool.query('select 1 from session where user_id = $1', [admin.userId]);
    expect(left.rowCount).toBe(0);
  });

  it('reports the earlier of the idle expiry and the absolute end as sessionExpiresAt', async () => {
    const provider = await signUpAndSignIn(app);
    const pool = app.runtime.deps.database.pool;
    await pool.query(
      `update session set created_at = now() - interval '11 hours 50 minutes' where user_id = $1`,
      [provider.userId],
    );
    const me = await provider.json<{ sessionExpiresAt: string }>('GET', '/api/me');
    const remainingMinutes = (Date.parse(me.body.sessionExpiresAt) - Date.now()) / 60_000;
    expect(remainingMinutes).toBeGreaterThan(9);
    expect(remainingMinutes).toBeLessThan(11);
  });
});
