/**
 * No raw session token in a JSON answer of /api/auth (issue 28 item 5), over real HTTP: the sign-in
 * answer, get-session, list-sessions and the second factor's verify answers (TOTP at enrolment, a
 * backup code at sign-in). The session is the signed HttpOnly cookie alone; the check is against
 * every token the database holds for the user, and against any `token` key at any depth.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  Client,
  createTestApp,
  STRONG_PASSWORD,
  signUpAndSignIn,
  type TestApp,
  totpCode,
} from '../../tests/harness.ts';
import { stripSessionTokens } from './fetch-glue.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

/** Every session token the database holds for `userId` (live or not). */
async function sessionTokensOf(userId: string): Promise<string[]> {
  const { rows } = await app.runtime.deps.database.pool.query<{ token: string }>(
    'select token from session where user_id = $1',
    [userId],
  );
  return rows.map((row) => row.token);
}

/** The paths of every `token` key in a parsed JSON value. */
function tokenKeys(value: unknown, path = ''): string[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => [
    ...(key === 'token' ? [`${path}${key}`] : []),
    ...tokenKeys(item, `${path}${key}.`),
  ]);
}

/** Send one request and return its status and raw text, checked for tokens by `expectNoToken`. */
async function call(client: Client, method: string, url: string, body?: unknown) {
  const response = await client.request(method, url, body);
  return { status: response.status, text: await response.text() };
}

async function expectNoToken(userId: string, what: string, answer: { status: number; text: string }) {
  expect(answer.status, what).toBe(200);
  const tokens = await sessionTokensOf(userId);
  expect(tokens.length, `${what}: the user has sessions`).toBeGreaterThan(0);
  for (const token of tokens) expect(answer.text, what).not.toContain(token);
  expect(tokenKeys(JSON.parse(answer.text)), what).toEqual([]);
}

it('answers sign-in, get-session and list-sessions without the session token, and the web still works', async () => {
  // First, Alice signs up and signs in again on a fresh client.
  const alice = await signUpAndSignIn(app, { firstName: 'Alice' });
  const client = new Client(app);
  const signIn = await call(client, 'POST', '/api/auth/sign-in/email', {
    email: alice.email,
    password: STRONG_PASSWORD,
  });
  await expectNoToken(alice.userId, 'sign-in', signIn);
  expect(JSON.parse(signIn.text)).toMatchObject({ user: { id: alice.userId } });

  // Second, what a script reads of her sessions: still there, without the token.
  const session = await call(client, 'GET', '/api/auth/get-session');
  await expectNoToken(alice.userId, 'get-session', session);
  expect(JSON.parse(session.text)).toMatchObject({
    user: { id: alice.userId },
    session: { userId: alice.userId },
  });
  const sessions = await call(client, 'GET', '/api/auth/list-sessions');
  await expectNoToken(alice.userId, 'list-sessions', sessions);
  expect(JSON.parse(sessions.text)).toHaveLength(2);

  // Third, the cookie alone still carries the session.
  expect((await client.json('GET', '/api/me')).status).toBe(200);
});

it('answers the second factor verify steps without the session token', async () => {
  // First, Bea enrols a second factor: the confirming verify-totp answer.
  const bea = await signUpAndSignIn(app, { firstName: 'Bea' });
  const enabled = await bea.json<{ totpURI: string; backupCodes: string[] }>(
    'POST',
    '/api/auth/two-factor/enable',
    { password: STRONG_PASSWORD },
  );
  expect(enabled.status).toBe(200);
  const confirmed = await call(bea, 'POST', '/api/auth/two-factor/verify-totp', {
    code: totpCode(enabled.body.totpURI),
  });
  await expectNoToken(bea.userId, 'verify-totp', confirmed);

  // Second, a new sign-in: the password step, then a backup code.
  const client = new Client(app);
  const passwordStep = await client.json('POST', '/api/auth/sign-in/email', {
    email: bea.email,
    password: STRONG_PASSWORD,
  });
  expect(passwordStep.body).toMatchObject({ twoFactorRedirect: true });
  const backup = await call(client, 'POST', '/api/auth/two-factor/verify-backup-code', {
    code: enabled.body.backupCodes[0],
  });
  await expectNoToken(bea.userId, 'verify-backup-code', backup);
  expect((await client.json('GET', '/api/me')).status).toBe(200);
});

it('strips `token` at any depth from JSON bodies only', () => {
  const json = 'application/json; charset=utf-8';
  expect(JSON.parse(stripSessionTokens('{"token":"a","user":{"id":"u"}}', json))).toEqual({
    user: { id: 'u' },
  });
  expect(JSON.parse(stripSessionTokens('[{"token":"a","id":1},{"id":2}]', json))).toEqual([
    { id: 1 },
    { id: 2 },
  ]);
  expect(JSON.parse(stripSessionTokens('{"session":{"token":"a","id":"s"}}', json))).toEqual({
    session: { id: 's' },
  });
  expect(stripSessionTokens('{"token":"a"}', 'text/plain')).toBe('{"token":"a"}');
  expect(stripSessionTokens('not json', json)).toBe('not json');
  expect(stripSessionTokens('', json)).toBe('');
});
