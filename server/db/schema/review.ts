/**
 * The credentialing review's tables (issue 13, docs/decisions/018-review-workflow.md). The review
 * columns of provider_applications (submitted_at, review_started_at, reviewer_id, decided_at,
 * decision_reason) are in core.ts, with the table.
 *
 * - application_versions: immutable JSON snapshots of an application (version 1 at completion, one
 *   more per response to an information request); a trigger refuses UPDATE and DELETE (the migration).
 * - information_requests: the reviewer's requests and the provider's responses; at most one open per
 *   application (partial unique index).
 * - verification_items: the checklist, modelled on FHIR R4 VerificationResult (target, status, primary
 *   source, validator, date, note).
 */
import { sql } from 'drizzle-orm';
import {
  bigserial,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { user } from './auth.ts';
import { providerApplications } from './core.ts';

export const applicationVersions = pgTable(
  'application_versions',
  {
    applicationId: uuid('application_id')
      .notNull()
      .references(() => providerApplications.id, { onDelete: 'cascade' }),
    /** 1 at completion, +1 per response. */
    version: integer('version').notNull(),
    /** domain/review/application-snapshot.ts `ApplicationSnapshot`; SSN masked, no file content. */
    snapshot: jsonb('snapshot').notNull(),
    /** Hex SHA-256 of the canonical JSON of `snapshot` (keys sorted). */
    sha256: text('sha256').notNull(),
    /** Why this version exists: 'completion' or 'response'. */
    reason: text('reason').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.applicationId, t.version] }),
    check('application_versions_version_check', sql`${t.version} >= 1`),
  ],
);

export const informationRequests = pgTable(
  'information_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => providerApplications.id, { onDelete: 'cascade' }),
    message: text('message').notNull(),
    /** Section keys of domain/sections/registry.ts the provider may edit again. */
    sections: text('sections').array().notNull(),
    requestedBy: text('requested_by').references(() => user.id, { onDelete: 'set null' }),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    response: text('response'),
    respondedAt: timestamp('responded_at', { withTimezone: true }),
    /** The version the response stored. */
    versionAfter: integer('version_after'),
  },
  (t) => [
    uniqueIndex('information_requests_one_open_idx').on(t.applicationId).where(sql`${t.respondedAt} is null`),
    index('information_requests_application_idx').on(t.applicationId, t.requestedAt),
  ],
);

export const verificationItems = pgTable(
  'verification_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => providerApplications.id, { onDelete: 'cascade' }),
    /** domain/review/verification-checklist.ts `verificationKinds`. */
    kind: text('kind').notNull(),
    /** Stable key of the item within the application (kind + what it verifies). */
    itemKey: text('item_key').notNull(),
    /** What is verified, as the reviewer reads it (e.g. "MD license CA 12345"). */
    target: text('target').notNull(),
    /** Suggested primary source (e.g. "State board"). */
    primarySource: text('primary_source').notNull(),
    status: text('status').notNull().default('pending'),
    /** The source the reviewer actually used. */
    source: text('source'),
    verifiedAt: date('verified_at'),
    validatorId: text('validator_id').references(() => user.id, { onDelete: 'set null' }),
    note: text('note'),
    waiverReason: text('waiver_reason'),
    position: integer('position').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** The primary source's raw record as fetched (issue 15: the NPPES answer of 'Check NPPES'). */
    sourceRecord: jsonb('source_record'),
    sourceRecordAt: timestamp('source_record_at', { withTimezone: true }),
    /**
     * What a verification or waiver covered (issue 29, domain/review/verification-fingerprint.ts): the
     * item's fields as they were in the snapshot it was recorded on, `{ label: value }`, compared
     * field by field with every later version. Null while pending or in discrepancy. (Migration 0021
     * dropped the `fingerprint` column beside it: a hash of these values that nothing compared.)
     */
    verifiedValues: jsonb('verified_values'),
    /**
     * The `row_key` of the section row the item verifies (a license, a board certification, the
     * highest education, the current malpractice policy; issue 29), so a changed number or name
     * still finds its row; null for items about the whole application (NPI, work history, screening).
     */
    rowKey: uuid('row_key'),
    /** The snapshot version the outcome was recorded on (issue 29). */
    verifiedVersion: integer('verified_version'),
    /**
     * While `needs_reverification`: what changed since the verification, `[{ field, before, after }]`
     * (domain/review/verification-fingerprint.ts `FieldChange`).
     */
    changes: jsonb('changes'),
    /**
     * The previous cycle's item whose verification this one carries forward (issue 29: education and
     * training do not change between cycles), or null.
     */
    carriedForwardFrom: uuid('carried_forward_from'),
  },
  (t) => [
    uniqueIndex('verification_items_key_idx').on(t.applicationId, t.itemKey),
    // Checklist progress of the review queue: counts per application and status from the index.
    index('verification_items_progress_idx').on(t.applicationId, t.status),
    // The Workload report (issue 34 item 6): verified items by verification day and validator, index-only.
    index('verification_items_verified_idx')
      .on(t.verifiedAt, t.validatorId)
      .where(sql`${t.status} = 'verified'`),
    check(
      'verification_items_status_check',
      sql`${t.status} in ('pending', 'verified', 'discrepancy', 'waived', 'needs_reverification')`,
    ),
  ],
);

/**
 * The outbox of `application.status_changed` events (issue 13 "Integration"): one row per change of
 * an application's status after completion (the completion notification announces draft ->
 * submitted), inserted in the transaction of the change and delivered to NOTIFY_WEBHOOK_URL with the
 * completion notification's signing, retry policy and leases (server/review/status-events.ts).
 * `payload` is the whole event body (ids, statuses, actor, time: no PHI).
 */
export const statusEvents = pgTable(
  'status_events',
  {
    /**
     * The first message's Standard Webhooks `webhook-id` (stable across its retries, so receivers
     * de-duplicate), and the `resendOf` of every re-send.
     */
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => providerApplications.id, { onDelete: 'cascade' }),
    /**
     * The `webhook-id` of the current message when an administrator re-sent the event (issue 28 item
     * 8, as completions: a re-send is a new message); null for the first, whose `webhook-id` is `id`.
     */
    messageId: uuid('message_id'),
    /** domain/api/integration.ts `statusChangedEventSchema`. */
    payload: jsonb('payload').notNull(),
    /** pending | delivered | failed (attempts used up or a final refusal). */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** pending: when the next attempt is due, or the end of the running attempt's lease. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).defaultNow(),
    leaseId: uuid('lease_id'),
    /** Why the last attempt did not deliver (never PHI). */
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    index('status_events_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('status_events_application_idx').on(t.applicationId, t.createdAt),
    check('status_events_status_check', sql`${t.status} in ('pending', 'delivered', 'failed')`),
  ],
);

/**
 * One delivery attempt of a status event (issue 53 item 4: the same attempt log as completion
 * notifications). Written when the attempt is claimed ('interrupted' until its outcome is known).
 */
export const statusEventAttempts = pgTable(
  'status_event_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    statusEventId: uuid('status_event_id')
      .notNull()
      .references(() => statusEvents.id, { onDelete: 'cascade' }),
    /** The `webhook-id` of the send this attempt belonged to (the first message or a re-send). */
    messageId: uuid('message_id').notNull(),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
    /** The receiver's HTTP status; null when no answer came. */
    httpStatus: integer('http_status'),
    /** Milliseconds from the start of the attempt to the answer; null while running or if interrupted. */
    durationMs: integer('duration_ms'),
    /** null on success. */
    error: text('error'),
  },
  (t) => [index('status_event_attempts_event_idx').on(t.statusEventId, t.attemptedAt)],
);

/**
 * Inbound webhook messages already applied (issue 13: "each `webhook-id` applied once"): inserted in
 * the transaction of the change, so a replay finds its id and gets the first answer back.
 */
export const inboundWebhooks = pgTable('inbound_webhooks', {
  /** The sender's `webhook-id` header (at most 200 characters). */
  webhookId: text('webhook_id').primaryKey(),
  /** The HTTP status of the first answer. */
  status: integer('status').notNull(),
  /** The first answer's JSON body. */
  response: jsonb('response').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Evidence files of checklist items (issue 13: "can attach an evidence file (stored like documents,
 * visible to admins only)"): a primary source's printout or screenshot. The bytes are in the same
 * object storage as documents, under `evidence/<applicationId>/...` keys, with the same type checks
 * and size limit; a table of their own (not `documents`), so the provider's document list, the
 * completion payload and the snapshot can never include one.
 */
export const verificationEvidence = pgTable(
  'verification_evidence',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => providerApplications.id, { onDelete: 'cascade' }),
    itemId: uuid('item_id')
      .notNull()
      .references(() => verificationItems.id, { onDelete: 'cascade' }),
    /** The uploaded file's name, sanitised (never used in a path). */
    fileName: text('file_name').notNull(),
    mimeType: text('mime_type').notNull(),
    fileSize: integer('file_size').notNull(),
    sha256: text('sha256').notNull(),
    objectKey: text('object_key').notNull().unique(),
    uploadedBy: text('uploaded_by').references(() => user.id, { onDelete: 'set null' }),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('verification_evidence_item_idx').on(t.itemId, t.uploadedAt)],
);
