/**
 * Leases and outcomes of completion notification attempts (docs/decisions/004-completion-delivery.md):
 * the SQL of claiming a due row with `FOR UPDATE SKIP LOCKED` (so several server processes never send
 * the same row at once), leasing it until `now + leaseMs`, and recording what the attempt achieved,
 * only while the lease is still held. A process that dies mid-attempt leaves the row to be claimed
 * again when the lease ends, and its attempt row says "interrupted".
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { recordAudit } from '../audit/audit.service.ts';
import type { Database } from '../db/client.ts';
import { completionNotifications, notificationAttempts } from '../db/schema/notifications.ts';
import type { Env } from '../env.ts';
import { type AttemptVerdict, retryDelayMs } from './delivery-policy.ts';
import { webhookMessageIds } from './webhook-signature.ts';

/** Extra lease beyond the attempt's timeout, for the database writes around it. */
export const LEASE_MARGIN_MS = 5_000;
/** `last_error` of a completion recorded while no endpoint is configured. */
export const NO_ENDPOINT_ERROR = 'no endpoint configured';
/** `error` of an attempt row whose process stopped before knowing the outcome. */
export const INTERRUPTED_ERROR = 'interrupted: the server stopped during the attempt';

export type NotificationRow = typeof completionNotifications.$inferSelect;

/** A claimed attempt: the notification as claimed, the lease and the attempt row to complete. */
export interface Claim {
  notification: NotificationRow;
  leaseId: string;
  attemptId: number;
}

/** Insert the attempt row of a claim, under the webhook-id of the notification's current send, and return its id. */
export async function insertAttempt(
  db: Pick<Database, 'insert'>,
  notification: Pick<NotificationRow, 'id' | 'messageId'>,
): Promise<number> {
  const [attempt] = await db
    .insert(notificationAttempts)
    .values({
      notificationId: notification.id,
      messageId: webhookMessageIds(notification).webhookId,
      error: INTERRUPTED_ERROR,
    })
    .returning({ id: notificationAttempts.id });
  return attempt!.id;
}

/**
 * Claim one row: a given id (when pending and no attempt holds it; its backoff is skipped), or the
 * most overdue pending row. Leases it for `leaseMs` (ms) and inserts its attempt row, in one transaction.
 * @returns undefined when nothing could be claimed
 */
export async function claimNotification(
  db: Database,
  leaseMs: number,
  notificationId?: string,
): Promise<Claim | undefined> {
  const leaseId = randomUUID();
  return db.transaction(async (tx) => {
    const candidate = notificationId
      ? sql`select id from ${completionNotifications}
            where id = ${notificationId} and status = 'pending'
              and (lease_id is null or next_attempt_at <= now())
            for update skip locked`
      : sql`select id from ${completionNotifications}
            where status = 'pending' and next_attempt_at <= now()
            order by next_attempt_at limit 1
            for update skip locked`;
    const claimed = await tx.execute<{ id: string }>(sql`
      update ${completionNotifications}
      set attempts = attempts + 1, lease_id = ${leaseId},
          next_attempt_at = now() + ${leaseMs} * interval '1 millisecond', updated_at = now()
      where id = (${candidate})
      returning id`);
    const id = claimed.rows[0]?.id;
    if (!id) return undefined;
    const [notification] = await tx
      .select()
      .from(completionNotifications)
      .where(eq(completionNotifications.id, id));
    const attemptId = await insertAttempt(tx, notification!);
    return { notification: notification!, leaseId, attemptId };
  });
}

/** The notification row `id`, or undefined. */
export async function readNotification(db: Database, id: string): Promise<NotificationRow | undefined> {
  const [row] = await db.select().from(completionNotifications).where(eq(completionNotifications.id, id));
  return row;
}

/**
 * When the first attempt of the notification's current series started: its attempt rows since
 * creation or the last resend are the `attempts` latest ones (every claim inserts one, and a resend
 * sets `attempts` to 0). Used for the 404/410 retry window (issue 20). Undefined when no row is found.
 */
export async function firstAttemptAt(
  db: Database,
  notification: Pick<NotificationRow, 'id' | 'attempts'>,
): Promise<Date | undefined> {
  const result = await db.execute<{ attempted_at: Date | string }>(sql`
    select attempted_at from ${notificationAttempts}
    where notification_id = ${notification.id}
    order by attempted_at desc, id desc
    offset ${Math.max(notification.attempts - 1, 0)} limit 1`);
  const value = result.rows[0]?.attempted_at;
  return value === undefined ? undefined : new Date(value);
}

/** The settings that decide what an outcome does to the notification. */
export type RetrySettings = Pick<Env, 'NOTIFY_MAX_ATTEMPTS' | 'NOTIFY_RETRY_BASE_MS' | 'NOTIFY_RETRY_MAX_MS'>;

/**
 * Record an attempt's outcome on its attempt row and, only if the lease is still ours, on the
 * notification: delivered; failed or undelivered (final verdicts, or NOTIFY_MAX_ATTEMPTS reached);
 * otherwise due again after the backoff (`retryDelayMs`), or at once when the attempt was interrupted.
 * @param durationMs the attempt's duration, ms
 */
export async function recordOutcome(
  db: Database,
  env: RetrySettings,
  { notification, leaseId, attemptId }: Claim,
  verdict: AttemptVerdict,
  httpStatus: number | null,
  durationMs: number,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(notificationAttempts)
      .set({ httpStatus, durationMs, error: verdict.kind === 'delivered' ? null : verdict.error })
      .where(eq(notificationAttempts.id, attemptId));
    const owned = and(
      eq(completionNotifications.id, notification.id),
      eq(completionNotifications.leaseId, leaseId),
    );
    const base = { leaseId: null, updatedAt: new Date() };
    if (verdict.kind === 'delivered') {
      const [delivered] = await tx
        .update(completionNotifications)
        .set({
          ...base,
          status: 'delivered',
          deliveredAt: new Date(),
          nextAttemptAt: null,
          lastError: null,
        })
        .where(owned)
        .returning({
          userId: completionNotifications.userId,
          applicationId: completionNotifications.applicationId,
        });
      // Issue 53 item 5: 'delivered' is audited when the receiver accepted it, not when it was queued.
      if (delivered) {
        await recordAudit(tx, {
          action: 'notification.delivered',
          actorUserId: null,
          subjectUserId: delivered.userId,
          resourceType: 'completion_notification',
          resourceId: notification.id,
          details: {
            applicationId: delivered.applicationId,
            webhookId: webhookMessageIds(notification).webhookId,
            attempts: notification.attempts,
            httpStatus,
          },
        });
      }
    } else if (verdict.kind === 'final') {
      const undelivered = verdict.error === NO_ENDPOINT_ERROR;
      await tx
        .update(completionNotifications)
        .set({
          ...base,
          status: undelivered ? 'undelivered' : 'failed',
          nextAttemptAt: null,
          lastError: verdict.error,
        })
        .where(owned);
    } else if (notification.attempts >= env.NOTIFY_MAX_ATTEMPTS && verdict.error !== INTERRUPTED_ERROR) {
      await tx
        .update(completionNotifications)
        .set({
          ...base,
          status: 'failed',
          nextAttemptAt: null,
          lastError: `Gave up after ${notification.attempts} attempts. Last error: ${verdict.error}`,
        })
        .where(owned);
    } else {
      // An interrupted attempt (shutdown) is due again at once; others wait out the backoff.
      const delay =
        verdict.error === INTERRUPTED_ERROR
          ? 0
          : retryDelayMs(
              notification.attempts,
              { baseMs: env.NOTIFY_RETRY_BASE_MS, maxMs: env.NOTIFY_RETRY_MAX_MS },
              verdict.retryAfterMs,
            );
      await tx
        .update(completionNotifications)
        .set({ ...base, nextAttemptAt: new Date(Date.now() + delay), lastError: verdict.error })
        .where(owned);
    }
  });
}
