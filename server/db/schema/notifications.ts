/**
 * Completion notifications (issue 5, spec §4 and §7 "Completion notification") and their delivery
 * attempts. A `completion_notifications` row is both the record that the provider completed the
 * application and the outbox entry of its delivery (docs/decisions/004-completion-delivery.md): a
 * `pending` row whose `next_attempt_at` has passed is due; while an attempt runs, `lease_id` is set and
 * `next_attempt_at` is the end of the lease (a crashed attempt becomes due again when it ends).
 * No PHI is stored here: the payload is built from the section tables at delivery time.
 */
import { sql } from 'drizzle-orm';
import { bigserial, index, integer, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { type CompletionStatus, completionStatuses } from '../../../domain/completion-status.ts';
import { user } from './auth.ts';
import { providerApplications } from './core.ts';

/** The states (domain/completion-status.ts), re-exported for the server's queries. */
export { type CompletionStatus, completionStatuses };

export const completionStatusEnum = pgEnum('completion_status', completionStatuses);

export const completionNotifications = pgTable(
  'completion_notifications',
  {
    /**
     * The first message's Standard Webhooks `webhook-id` (stable across its retries, so receivers
     * de-duplicate), and the payload's `resendOf` of every re-send.
     */
    id: uuid('id').primaryKey().defaultRandom(),
    /** One completion per application (a second click returns this one). */
    applicationId: uuid('application_id')
      .notNull()
      .unique()
      .references(() => providerApplications.id, { onDelete: 'cascade' }),
    /** The provider who completed the application. */
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    status: completionStatusEnum('status').notNull().default('pending'),
    /** Attempts started since creation or the last resend (a crashed attempt counts). */
    attempts: integer('attempts').notNull().default(0),
    /** pending: when the next attempt is due, or the end of the running attempt's lease. Else null. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** Set while an attempt runs; the attempt only writes its outcome if the lease is still its own. */
    leaseId: uuid('lease_id'),
    /**
     * The `webhook-id` of the current message when an administrator re-sent it (issue 28 item 7: a
     * re-send is a new message, or the receiver drops it as a duplicate); null for the first message,
     * whose `webhook-id` is `id`. Set anew by each re-send, kept by the retries of one message.
     */
    messageId: uuid('message_id'),
    /** Why the last attempt did not deliver (never PHI), or 'no endpoint configured'. */
    lastError: text('last_error'),
    /** When the provider completed the application; the payload's `timestamp`. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The worker's "what is due" scan touches pending rows only.
    index('completion_notifications_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('completion_notifications_created_idx').on(t.createdAt.desc()),
  ],
);

/** One delivery attempt. Written when the attempt starts ('interrupted' until its outcome is known). */
export const notificationAttempts = pgTable(
  'notification_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    notificationId: uuid('notification_id')
      .notNull()
      .references(() => completionNotifications.id, { onDelete: 'cascade' }),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
    /** The receiver's HTTP status; null when no answer came (network error, timeout, too large). */
    httpStatus: integer('http_status'),
    /** Milliseconds from the start of the attempt to the answer; null while running or if interrupted. */
    durationMs: integer('duration_ms'),
    /** null on success. */
    error: text('error'),
  },
  (t) => [index('notification_attempts_notification_idx').on(t.notificationId, t.attemptedAt)],
);

/**
 * The receiver's record of the notifications it has processed (issue 53 item 2, decision 040): the
 * shipped n8n workflows claim a message's `webhook-id` here before processing it and mark it done
 * after, through `POST /api/notifications/receipts`. The primary key makes a claim atomic, so of
 * messages that arrive together with one id exactly one is processed. A claim not marked done within
 * its lease (a failed execution) may be claimed again by the portal's retry.
 */
export const notificationReceipts = pgTable('notification_receipts', {
  /** The notification's `webhook-id` (at most 200 characters). */
  webhookId: text('webhook_id').primaryKey(),
  /** 'processing' while claimed, 'done' once the receiver finished it. */
  state: text('state', { enum: ['processing', 'done'] }).notNull(),
  /** Until when the claim holds; after it, a 'processing' row may be claimed again. */
  claimedUntil: timestamp('claimed_until', { withTimezone: true }).notNull(),
  claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
  doneAt: timestamp('done_at', { withTimezone: true }),
});
