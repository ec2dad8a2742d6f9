/**
 * Migration 0032: `provider_applications.is_current`, the provider's current application, kept by the
 * database over every insert, status or creation-time change and delete (the rule of issue 14: not
 * rejected nor withdrawn; non-drafts before drafts, newest first, larger id first), including two
 * transactions adding applications for one provider at once.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/harness.ts';

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
}, 60_000);

afterAll(async () => {
  await app?.close();
});

const query = (text: string, values: unknown[] = []) => app.runtime.deps.database.pool.query(text, values);

async function provider() {
  const id = randomUUID();
  await query(`insert into "user" (id, name, email, email_verified) values ($1, 'P', $2, true)`, [
    id,
    `${id}@example.test`,
  ]);
  return id;
}

async function application(userId: string, status: string, createdAt: string, id: string = randomUUID()) {
  await query(
    `insert into provider_applications (id, user_id, application_status, created_at) values ($1, $2, $3, $4)`,
    [id, userId, status, createdAt],
  );
  return id;
}

/** The ids of the provider's applications marked current. */
async function current(userId: string): Promise<string[]> {
  const { rows } = await query(
    'select id from provider_applications where user_id = $1 and is_current order by id',
    [userId],
  );
  return rows.map((r) => r.id as string);
}

describe('the current application flag', () => {
  it('follows inserts, status changes and deletes: non-drafts first, newest first, never rejected or withdrawn', async () => {
    const user = await provider();
    const approved = await application(user, 'approved', '2025-01-01T00:00:00Z');
    expect(await current(user)).toEqual([approved]);

    // A newer draft does not replace an approved application; submitted, it does.
    const renewal = await application(user, 'draft', '2026-01-01T00:00:00Z');
    expect(await current(user)).toEqual([approved]);
    await query(`update provider_applications set application_status = 'submitted' where id = $1`, [renewal]);
    expect(await current(user)).toEqual([renewal]);

    // Rejected or withdrawn: the approved one is current again.
    await query(`update provider_applications set application_status = 'rejected' where id = $1`, [renewal]);
    expect(await current(user)).toEqual([approved]);
    await query(`update provider_applications set application_status = 'withdrawn' where id = $1`, [renewal]);
    expect(await current(user)).toEqual([approved]);

    // Deleted: none left to be current, until a new draft.
    await query('delete from provider_applications where id = $1', [approved]);
    expect(await current(user)).toEqual([]);
    const draft = await application(user, 'draft', '2026-02-01T00:00:00Z');
    expect(await current(user)).toEqual([draft]);

    // An update of other columns marks nothing and keeps the flag.
    await query(`update provider_applications set exclusion_checked_at = now() where user_id = $1`, [user]);
    expect(await current(user)).toEqual([draft]);
  });

  it('marks one of two applications created at the same instant, the larger id, also within one statement', async () => {
    const user = await provider();
    const [low, high] = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];
    await query(
      `insert into provider_applications (id, user_id, application_status, created_at)
       values ($1, $3, 'submitted', '2026-03-01T00:00:00Z'), ($2, $3, 'submitted', '2026-03-01T00:00:00Z')`,
      [low, high, user],
    );
    expect(await current(user)).toEqual([high]);
  });

  it('keeps exactly one current when two transactions add applications for one provider at once', async () => {
    const user = await provider();
    await application(user, 'approved', '2025-01-01T00:00:00Z');
    const clients = [new pg.Client(app.databaseUrl), new pg.Client(app.databaseUrl)];
    await Promise.all(clients.map((c) => c.connect()));
    try {
      await Promise.all(clients.map((c) => c.query('begin')));
      // Both insert before either commits: the second waits for the first's lock on the account.
      const insert = (i: number) =>
        clients[i]!.query<{ id: string }>(
          `insert into provider_applications (user_id, application_status, created_at)
           values ($1, 'submitted', $2) returning id`,
          [user, `2026-0${i + 4}-01T00:00:00Z`],
        );
      const first = await insert(0);
      let secondDone = false;
      const pending = insert(1).then((r) => {
        secondDone = true;
        return r;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(secondDone).toBe(false);
      await clients[0]!.query('commit');
      const second = await pending;
      await clients[1]!.query('commit');
      // The newer (created 2026-05-01, the second's) is the one current.
      expect(await current(user)).toEqual([second.rows[0]!.id]);
      expect(first.rows[0]!.id).not.toBe(second.rows[0]!.id);
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
  });
});
