/**
 * Pruning the receiver's duplicate record (decision 041): receipts done, or whose claim lapsed, more
 * than 30 days before `now` are deleted; younger ones and claims still held stay. The daily job runs
 * it on every database.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/harness.ts';
import { deleteOldReceipts, RECEIPT_RETENTION_DAYS } from './receipt-retention.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

const DAY = 24 * 60 * 60 * 1000;

it('deletes receipts done or lapsed more than 30 days before now, and keeps the rest', async () => {
  expect(RECEIPT_RETENTION_DAYS).toBe(30);
  const now = new Date('2026-11-29T12:00:00Z');
  const ago = (days: number) => new Date(now.getTime() - days * DAY).toISOString();
  const { pool } = app.runtime.deps.database;
  await pool.query(
    `insert into notification_receipts (webhook_id, state, claimed_until, claimed_at, done_at) values
       ('done-31', 'done', $1, $1, $1),
       ('done-29', 'done', $2, $2, $2),
       ('lapsed-31', 'processing', $1, $3, null),
       ('held', 'processing', $4, $5, null),
       ('claimed-40-done-20', 'done', $6, $6, $7)`,
    [ago(31), ago(29), ago(31.01), ago(-0.01), ago(0), ago(40), ago(20)],
  );
  const ids = async () =>
    (
      await pool.query<{ webhook_id: string }>('select webhook_id from notification_receipts order by 1')
    ).rows.map((row) => row.webhook_id);

  expect(await deleteOldReceipts(app.runtime.deps.db, now)).toBe(2);
  expect(await ids()).toEqual(['claimed-40-done-20', 'done-29', 'held']);
  // Two days later the 29-day-old one has passed 30 days too; a second run the same day finds nothing.
  expect(await deleteOldReceipts(app.runtime.deps.db, new Date(now.getTime() + 2 * DAY))).toBe(1);
  expect(await deleteOldReceipts(app.runtime.deps.db, new Date(now.getTime() + 2 * DAY))).toBe(0);
  expect(await ids()).toEqual(['claimed-40-done-20', 'held']);
});

it('runs as the daily notification-receipts job', async () => {
  await expect
    .poll(
      async () =>
        (
          await app.runtime.deps.database.pool.query(
            `select count(*)::int as n from scheduled_job_runs where job = 'notification-receipts' and finished_at is not null`,
          )
        ).rows[0].n,
      { timeout: 10_000 },
    )
    .toBe(1);
});
