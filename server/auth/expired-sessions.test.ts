/**
 * The daily housekeeping job deletes sessions and verification tokens past their expiry, and only
 * those: a live session keeps working.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { deleteExpiredSessions } from './expired-sessions.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

it('deletes expired sessions and tokens and keeps live ones', async () => {
  const alice = await signUpAndSignIn(app);
  const pool = app.runtime.deps.database.pool;
  const now = new Date('2030-01-01T00:00:00Z');
  await pool.query(
    `insert into session (id, expires_at, token, user_id) values
       ('expired-session', $1::timestamptz - interval '1 second', 'expired-token', $2),
       ('live-session', $1::timestamptz + interval '1 minute', 'live-token', $2)`,
    [now.toISOString(), alice.userId],
  );
  await pool.query(
    `insert into verification (id, identifier, value, expires_at) values
       ('expired-verification', 'x', 'y', $1::timestamptz - interval '1 second'),
       ('live-verification', 'x', 'y', $1::timestamptz + interval '1 minute')`,
    [now.toISOString()],
  );
  // Alice's real session expires within the idle timeout, i.e. long before 2030: it goes too.
  const before = await pool.query<{ n: number }>('select count(*)::int as n from session');
  expect(before.rows[0]!.n).toBe(3);

  const deleted = await deleteExpiredSessions(app.runtime.deps.db, now);
  expect(deleted.sessions).toBe(2);
  const left = await pool.query<{ id: string }>('select id from session');
  expect(left.rows.map((r) => r.id)).toEqual(['live-session']);
  const tokens = await pool.query<{ id: string }>('select id from verification order by id');
  expect(tokens.rows.map((r) => r.id)).toContain('live-verification');
  expect(tokens.rows.map((r) => r.id)).not.toContain('expired-verification');

  // With today's clock Alice's session is live and still works.
  await pool.query(`delete from session where id = 'live-session'`);
  const fresh = await signUpAndSignIn(app);
  await deleteExpiredSessions(app.runtime.deps.db, new Date());
  expect((await fresh.json('GET', '/api/session')).status).toBe(200);
});
