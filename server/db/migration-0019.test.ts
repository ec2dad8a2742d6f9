/**
 * Migration 0019's data steps (issue 29 acceptance: "a migration brings existing data along"), run
 * against rows as they stood before it: the statements after its 'Issue 29: existing data' marker are
 * read from the migration file itself and run again on applications inserted the old way, with their
 * credentials removed first. Checks the cycle kind of copies and each provider's derived credential:
 * granted by the first approval, ending 36 months after the latest (the day clamped to the month's
 * end), ended by a later rejection, none for a provider never approved.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
}, 60_000);

afterAll(async () => {
  await app?.close();
});

/** The data statements of migration 0019, from its marker to the end. */
function dataStatements(): string[] {
  const file = readFileSync(new URL('./migrations/0019_credential-integrity.sql', import.meta.url), 'utf8');
  const start = file.indexOf('-- Issue 29: existing data');
  expect(start).toBeGreaterThan(0);
  return file
    .slice(start)
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter(Boolean);
}

async function insertApplication(
  userId: string,
  values: { status: string; createdAt: string; decidedAt?: string; copiedFromId?: string },
): Promise<string> {
  const result = await app.runtime.deps.database.pool.query<{ id: string }>(
    `insert into provider_applications (user_id, application_status, created_at, decided_at, copied_from_id)
     values ($1, $2, $3, $4, $5) returning id`,
    [userId, values.status, values.createdAt, values.decidedAt ?? null, values.copiedFromId ?? null],
  );
  return result.rows[0]!.id;
}

describe('migration 0019 brings existing data along', () => {
  it('derives each provider credential and the cycle of copies from decided applications', async () => {
    const pool = app.runtime.deps.database.pool;
    // Renewed: approved 2023-01-31, recredentialed (a copy) approved 2026-03-10.
    const renewed = await signUpAndSignIn(app);
    const first = await insertApplication(renewed.userId, {
      status: 'approved',
      createdAt: '2022-12-01T10:00:00Z',
      decidedAt: '2023-01-31T15:00:00Z',
    });
    const second = await insertApplication(renewed.userId, {
      status: 'approved',
      createdAt: '2026-01-05T10:00:00Z',
      decidedAt: '2026-03-10T09:00:00Z',
      copiedFromId: first,
    });
    // Denied: approved 2024-05-31, then a copy rejected 2026-02-02 (a recredentialing denial).
    const denied = await signUpAndSignIn(app);
    const approved = await insertApplication(denied.userId, {
      status: 'approved',
      createdAt: '2024-04-01T10:00:00Z',
      decidedAt: '2024-05-31T23:30:00Z',
    });
    const rejectedCopy = await insertApplication(denied.userId, {
      status: 'rejected',
      createdAt: '2025-12-01T10:00:00Z',
      decidedAt: '2026-02-02T12:00:00Z',
      copiedFromId: approved,
    });
    // Never approved: rejected, then a copy as a draft (a second initial cycle).
    const never = await signUpAndSignIn(app);
    const rejected = await insertApplication(never.userId, {
      status: 'rejected',
      createdAt: '2025-01-01T10:00:00Z',
      decidedAt: '2025-02-01T10:00:00Z',
    });
    const retry = await insertApplication(never.userId, {
      status: 'draft',
      createdAt: '2025-03-01T10:00:00Z',
      copiedFromId: rejected,
    });
    const users = [renewed.userId, denied.userId, never.userId];
    // Only this file's providers are in its database: start from no credential at all.
    await pool.query('delete from provider_credentials');
    await pool.query(`update provider_applications set cycle = 'initial' where user_id = any($1)`, [users]);

    for (const statement of dataStatements()) await pool.query(statement);

    const cycles = await pool.query<{ id: string; cycle: string }>(
      'select id, cycle from provider_applications where user_id = any($1)',
      [users],
    );
    const cycleOf = Object.fromEntries(cycles.rows.map((r) => [r.id, r.cycle]));
    expect(cycleOf).toEqual({
      [first]: 'initial',
      [second]: 'recredentialing',
      [approved]: 'initial',
      [rejectedCopy]: 'recredentialing',
      [rejected]: 'initial',
      [retry]: 'initial',
    });

    const credentials = await pool.query<{
      user_id: string;
      application_id: string;
      credentialed_at: Date;
      approved_at: Date;
      ends_on: string;
      ended_on: string | null;
    }>(
      `select user_id, application_id, credentialed_at, approved_at, ends_on::text, ended_on::text
       from provider_credentials where user_id = any($1)`,
      [users],
    );
    const byUser = Object.fromEntries(credentials.rows.map((r) => [r.user_id, r]));
    expect(Object.keys(byUser).sort()).toEqual([renewed.userId, denied.userId].sort());
    expect(byUser[renewed.userId]).toMatchObject({
      application_id: second,
      credentialed_at: new Date('2023-01-31T15:00:00Z'),
      approved_at: new Date('2026-03-10T09:00:00Z'),
      ends_on: '2029-03-10',
      ended_on: null,
    });
    // 36 months after May 31 is May 31; the UTC day of 23:30Z is the 31st.
    expect(byUser[denied.userId]).toMatchObject({
      application_id: approved,
      ends_on: '2027-05-31',
      ended_on: '2026-02-02',
    });
  });

  it('clamps the end to the month end as the domain does (approved Feb 29 -> Feb 28)', async () => {
    const pool = app.runtime.deps.database.pool;
    const provider = await signUpAndSignIn(app);
    await insertApplication(provider.userId, {
      status: 'approved',
      createdAt: '2024-01-01T10:00:00Z',
      decidedAt: '2024-02-29T10:00:00Z',
    });
    await pool.query('delete from provider_credentials');
    for (const statement of dataStatements()) await pool.query(statement);
    const result = await pool.query<{ ends_on: string }>(
      'select ends_on::text from provider_credentials where user_id = $1',
      [provider.userId],
    );
    expect(result.rows[0]?.ends_on).toBe('2027-02-28');
  });
});
