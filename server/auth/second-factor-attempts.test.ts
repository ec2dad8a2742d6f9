/**
 * The second step of a sign-in under attack (issue 28 items 1 and 2): a code works once even when
 * several sign-in challenges send it at the same moment, and wrong codes are counted per account
 * across challenges, so starting a new sign-in does not buy fresh guesses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  createTestApp,
  grantAdmin,
  type SecondFactor,
  STRONG_PASSWORD,
  signUpAndSignIn,
  type TestApp,
  totpCode,
} from '../../tests/harness.ts';
import { SECOND_FACTOR_ATTEMPTS, TOTP_REUSED_MESSAGE } from '../security/rate-limits.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

/** A new client that has passed the password step of `email`'s sign-in (a pending challenge). */
async function challenge(email: string): Promise<Client> {
  const client = new Client(app);
  const answer = await client.json<{ twoFactorRedirect?: boolean }>('POST', '/api/auth/sign-in/email', {
    email,
    password: STRONG_PASSWORD,
  });
  expect(answer).toMatchObject({ status: 200, body: { twoFactorRedirect: true } });
  return client;
}

async function newAdmin(): Promise<{ email: string; userId: string; factor: SecondFactor }> {
  const admin = await signUpAndSignIn(app, { firstName: 'Grace' });
  const factor = await grantAdmin(app, admin);
  return { email: admin.email, userId: admin.userId, factor };
}

/** The `rate_limits` row of `prefix` for one user (keys are `prefix:sha256(userId)`), if any. */
async function rateLimitRow(
  prefix: string,
  userId: string,
): Promise<{ points: number; expire: string } | undefined> {
  const { rows } = await app.runtime.deps.database.pool.query<{ points: number; expire: string }>(
    `select points, expire from rate_limits where key = $1 || ':' || encode(sha256(convert_to($2, 'UTF8')), 'hex')`,
    [prefix, userId],
  );
  return rows[0];
}

async function sessionCount(userId: string): Promise<number> {
  const { rows } = await app.runtime.deps.database.pool.query<{ count: string }>(
    'select count(*) from session where user_id = $1',
    [userId],
  );
  return Number(rows[0]!.count);
}

describe('one code, one session', () => {
  it('gives one session when four sign-in challenges send the same TOTP code at the same moment', async () => {
    // First, Grace is an administrator with an authenticator; her enrolment left one session.
    const grace = await newAdmin();
    expect(await sessionCount(grace.userId)).toBe(1);
    // Second, four password steps, each a pending challenge of its own.
    const clients = await Promise.all([1, 2, 3, 4].map(() => challenge(grace.email)));
    // Third, the same code (the next 30-second step's: the enrolment spent the current one) at once.
    const code = totpCode(grace.factor.totpURI, Date.now() + 30_000);
    const answers = await Promise.all(
      clients.map((client) => client.json('POST', '/api/auth/two-factor/verify-totp', { code })),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 401, 401, 401]);
    for (const refused of answers.filter((answer) => answer.status === 401)) {
      expect(refused.body).toEqual({ code: 'unauthorized', message: TOTP_REUSED_MESSAGE });
    }
    // One new session, and exactly one of the four clients can reach an admin page.
    expect(await sessionCount(grace.userId)).toBe(2);
    const reach = await Promise.all(clients.map((client) => client.json('GET', '/api/admin/stats')));
    expect(reach.map((answer) => answer.status).sort()).toEqual([200, 401, 401, 401]);
  });

  it('gives one session when three challenges send the same backup code at the same moment', async () => {
    const grace = await newAdmin();
    const clients = await Promise.all([1, 2, 3].map(() => challenge(grace.email)));
    const code = grace.factor.backupCodes[0]!;
    const answers = await Promise.all(
      clients.map((client) => client.json('POST', '/api/auth/two-factor/verify-backup-code', { code })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401, 401]);
    expect(await sessionCount(grace.userId)).toBe(2);
    // The other codes still work (the claim is per code, not per user).
    const next = await challenge(grace.email);
    const other = await next.json('POST', '/api/auth/two-factor/verify-backup-code', {
      code: grace.factor.backupCodes[1]!,
    });
    expect(other.status).toBe(200);
  });

  it('lets a code that was refused as wrong be entered again (a typo does not spend the right code)', async () => {
    const grace = await newAdmin();
    const client = await challenge(grace.email);
    const right = totpCode(grace.factor.totpURI, Date.now() + 30_000);
    const wrong = right === '000000' ? '111111' : '000000';
    expect((await client.json('POST', '/api/auth/two-factor/verify-totp', { code: wrong })).status).toBe(401);
    expect((await client.json('POST', '/api/auth/two-factor/verify-totp', { code: right })).status).toBe(200);
  });
});

describe('wrong codes across sign-in challenges', () => {
  it('are counted per account: a new sign-in does not reset them, and the owner waits at most a minute', async () => {
    const grace = await newAdmin();
    const right = () => totpCode(grace.factor.totpURI, Date.now() + 30_000);
    const wrongCode = (index: number) => {
      const candidate = String(100000 + index);
      return candidate === right() ? String(200000 + index) : candidate;
    };
    // First, someone with Grace's password spends the free wrong codes over several challenges
    // (better-auth ends one challenge after 5 wrong codes; a new sign-in starts another).
    let client = await challenge(grace.email);
    let sent = 0;
    while (sent < SECOND_FACTOR_ATTEMPTS.accountFreeFailures) {
      const answer = await client.json('POST', '/api/auth/two-factor/verify-totp', { code: wrongCode(sent) });
      expect([400, 401]).toContain(answer.status);
      sent += 1;
      if (sent % 4 === 0) client = await challenge(grace.email);
    }
    // Second, one more wrong code on a brand-new challenge is the first beyond the allowance: it is
    // counted with the others, and the account waits a second before its next code.
    client = await challenge(grace.email);
    const overAllowance = await client.json('POST', '/api/auth/two-factor/verify-totp', {
      code: wrongCode(99),
    });
    expect(overAllowance.status).toBe(401);
    expect(await rateLimitRow('second-factor-failures', grace.userId)).toMatchObject({
      points: SECOND_FACTOR_ATTEMPTS.accountFreeFailures + 1,
    });
    // Third, as if the guesser had gone on for a while, waiting out each delay (1, 2, 4, 8, 16 s): the
    // count stands six beyond the allowance and the last delay is over. One more wrong code then
    // makes the next wait 2^6 s, capped at a minute.
    await app.runtime.deps.database.pool.query(
      `update rate_limits set points = $2 where key = 'second-factor-failures:' || encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
      [grace.userId, SECOND_FACTOR_ATTEMPTS.accountFreeFailures + 6],
    );
    await app.runtime.deps.database.pool.query(
      `delete from rate_limits where key = 'second-factor-gate:' || encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
      [grace.userId],
    );
    client = await challenge(grace.email);
    expect(
      (await client.json('POST', '/api/auth/two-factor/verify-totp', { code: wrongCode(98) })).status,
    ).toBe(401);
    // Fourth, even the right code on yet another new challenge waits, and the answer says how long.
    const fresh = await challenge(grace.email);
    const delayed = await fresh.json<{ code: string; message: string }>(
      'POST',
      '/api/auth/two-factor/verify-totp',
      {
        code: right(),
      },
    );
    expect(delayed.status).toBe(429);
    expect(delayed.body.code).toBe('rate_limited');
    expect(delayed.body.message).toMatch(/wrong codes.*Wait \d+ seconds?, then/);
    // A backup code waits too; the wait is bounded (decision 010: no lockout, at most a minute).
    const backup = await fresh.json('POST', '/api/auth/two-factor/verify-backup-code', {
      code: grace.factor.backupCodes[0]!,
    });
    expect(backup.status).toBe(429);
    const gate = await rateLimitRow('second-factor-gate', grace.userId);
    expect(Number(gate?.expire) - Date.now()).toBeGreaterThan(30_000);
    expect(Number(gate?.expire) - Date.now()).toBeLessThanOrEqual(
      SECOND_FACTOR_ATTEMPTS.accountMaxDelaySeconds * 1000,
    );
  });

  it('leave another account alone, and a success clears the count', async () => {
    const grace = await newAdmin();
    const linus = await newAdmin();
    const right = (factor: SecondFactor) => totpCode(factor.totpURI, Date.now() + 30_000);
    let client = await challenge(grace.email);
    for (let index = 0; index < SECOND_FACTOR_ATTEMPTS.accountFreeFailures; index += 1) {
      if (index % 4 === 0) client = await challenge(grace.email);
      await client.json('POST', '/api/auth/two-factor/verify-totp', { code: '000001' });
    }
    expect(await rateLimitRow('second-factor-failures', grace.userId)).toMatchObject({
      points: SECOND_FACTOR_ATTEMPTS.accountFreeFailures,
    });
    // Linus signs in at once.
    const linusClient = await challenge(linus.email);
    expect(
      (await linusClient.json('POST', '/api/auth/two-factor/verify-totp', { code: right(linus.factor) }))
        .status,
    ).toBe(200);
    // Grace, still within her allowance, signs in with her right code; her count starts again.
    const graceClient = await challenge(grace.email);
    expect(
      (await graceClient.json('POST', '/api/auth/two-factor/verify-totp', { code: right(grace.factor) }))
        .status,
    ).toBe(200);
    // Her count was cleared by the success; Linus never had one.
    expect(await rateLimitRow('second-factor-failures', grace.userId)).toBeUndefined();
    expect(await rateLimitRow('second-factor-failures', linus.userId)).toBeUndefined();
  });
});
