/**
 * Completion notifications (issue 5, spec §4 and §7 "Completion notification") and their delivery
 * attempts. A `completion_notifications` row is both the record that the provider completed the
 * application and the outbox entry of its delivery (docs/decisions/004-completion-delivery.md): a
 * `pending` row whose `next_attempt_at` has passed is due; while an attempt runs, `lease_id` is set and
 * `next_attempt_at` is the end of the lease (a crashed attempt becomes due again when it ends).
 * No PHI is stored here: the payload is built from the section tables at delivery time.
 */
import { sql } from 'drizzle-orm';
import {
  bigserial,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
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
    /**
     * The `webhook-id` of the send this attempt belonged to (issue 53 item 4: the first message, or an
     * administrator's re-send). Null only for attempts made before it was recorded, of a notification
     * that had been re-sent (which send they belonged to is not known).
     */
    messageId: uuid('message_id'),
  },
  (t) => [index('notification_attempts_notification_idx').on(t.notificationId, t.attemptedAt)],
);

/**
 * The documents a links-mode message offered (issue 53 item 3): one row per send (`message_id`, its
 * `webhook-id`) and document, written before the message goes out, with the latest expiry of its
 * links and when the receiver first fetched the document whole through one of them. A delivered
 * message with documents is 'Delivered (documents fetched)' only when every row has `fetched_at`.
 */
export const notificationDocumentLinks = pgTable(
  'notification_document_links',
  {
    notificationId: uuid('notification_id')
      .notNull()
      .references(() => completionNotifications.id, { onDelete: 'cascade' }),
    messageId: uuid('message_id').notNull(),
    /** documents.id (no foreign key: a deleted document's offer stays on the record). */
    documentId: uuid('document_id').notNull(),
    /** The latest expiry of the links of this document minted for this message. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** When the receiver first fetched it whole; null while not fetched. */
    fetchedAt: timestamp('fetched_at', { withTimezone: true }),
    /** When the administrators' digest listed the message as not fetched (once per message). */
    digestedAt: timestamp('digested_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.messageId, t.documentId] }),
    index('notification_document_links_document_idx').on(t.documentId, t.expiresAt),
    index('notification_document_links_notification_idx').on(t.notificationId),
  ],
);

/**
 * The receiver's record of the notifications it has processed (issue 53 item 2, decision 041): the
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
