/**
 * Expiring-credential notices (issue 14, docs/decisions/023-expiring-credentials.md): one row per
 * credential per threshold it crossed, written by the daily `credential-expiry` job. The unique key
 * makes a threshold fire once, whatever re-runs or instances do; `emailed_at` and `digested_at`
 * record what was sent, so an interrupted run sends what is unsent and nothing twice.
 */
import { sql } from 'drizzle-orm';
import {
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { user } from './auth.ts';
import { providerApplications } from './core.ts';

export const credentialExpiryNotices = pgTable(
  'credential_expiry_notices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => providerApplications.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    /** domain/credentials/expiring-credentials.ts `CredentialKind`. */
    kind: text('kind').notNull(),
    /** The section row holding the date. */
    rowId: uuid('row_id').notNull(),
    expiresOn: date('expires_on', { mode: 'string' }).notNull(),
    /** '90', '60', '30', '7' (days before) or 'expired'. */
    threshold: text('threshold').notNull(),
    /** What the provider knows it by, as the email names it. */
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    emailedAt: timestamp('emailed_at', { withTimezone: true }),
    digestedAt: timestamp('digested_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('credential_expiry_notices_once_idx').on(
      t.applicationId,
      t.kind,
      t.rowId,
      t.expiresOn,
      t.threshold,
    ),
    index('credential_expiry_notices_unsent_idx').on(t.createdAt),
  ],
);

/**
 * Reminders a provider gets about their whole application (issue 14, decision 024): recredentialing
 * due 180, 90 and 30 days ahead ('recredentialing'; `due_on` is the due date), and an attestation
 * that has aged past ATTESTATION_VALID_DAYS while the application is under review ('reattestation';
 * `due_on` is the day it expired, threshold 'expired'). Written by the daily `provider-reminders` job;
 * the unique key makes each reminder fire once across re-runs and instances.
 */
export const providerReminders = pgTable(
  'provider_reminders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => providerApplications.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    /** 'recredentialing' or 'reattestation'. */
    kind: text('kind').notNull(),
    dueOn: date('due_on', { mode: 'string' }).notNull(),
    /** '180', '90', '30' (days before the due date) or 'expired'. */
    threshold: text('threshold').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    emailedAt: timestamp('emailed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('provider_reminders_once_idx').on(t.applicationId, t.kind, t.dueOn, t.threshold),
    index('provider_reminders_unsent_idx').on(t.createdAt).where(sql`${t.emailedAt} is null`),
  ],
);

/**
 * A provider's current credential, apart from the cycle in progress (issue 29, decision 025): set
 * only by a decision (approve, reject) in the transaction that records it; a draft, a submitted or a
 * withdrawn cycle never touches it. One row per provider; its state at a date is
 * domain/credentials/provider-credential.ts `credentialState`.
 */
export const providerCredentials = pgTable(
  'provider_credentials',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** The decided application that last set this credential. */
    applicationId: uuid('application_id')
      .notNull()
      .references(() => providerApplications.id, { onDelete: 'cascade' }),
    /** When the credential was first granted (the first approval). */
    credentialedAt: timestamp('credentialed_at', { withTimezone: true }).notNull(),
    /** The latest approval (initial or recredentialing). */
    approvedAt: timestamp('approved_at', { withTimezone: true }).notNull(),
    /** 36 months after the latest approval (NCQA CR 4), `YYYY-MM-DD`. */
    endsOn: date('ends_on').notNull(),
    /** The day a recredentialing denial ended it, or null. */
    endedOn: date('ended_on'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The expirables forecast (issue 34 item 4): running credentials' due dates in a date range.
    index('provider_credentials_ends_on_idx').on(t.endsOn).where(sql`${t.endedOn} is null`),
  ],
);

/**
 * Credential updates after approval (issue 29): an approved provider's change to a dated section
 * (licenses, DEA, certifications, malpractice insurance, vaccinations) or a new document becomes a
 * new version of the approved application; the update is listed in the review queue as 'Credential
 * Update' while `reviewed_at` is null. At most one open per application.
 */
export const credentialUpdates = pgTable(
  'credential_updates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => providerApplications.id, { onDelete: 'cascade' }),
    /** Section keys (domain/sections/registry.ts) changed by the update so far. */
    sections: text('sections').array().notNull(),
    /** The newest snapshot version the update stored. */
    version: integer('version').notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewedBy: text('reviewed_by').references(() => user.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('credential_updates_one_open_idx').on(t.applicationId).where(sql`${t.reviewedAt} is null`),
    index('credential_updates_queue_idx').on(t.openedAt, t.id).where(sql`${t.reviewedAt} is null`),
  ],
);

/**
 * Sections of a recredentialing cycle the provider confirmed after the copy (issue 29 'Review and
 * Confirm'): a copied section counts towards progress only once confirmed (or saved) in this cycle.
 */
export const sectionConfirmations = pgTable(
  'section_confirmations',
  {
    applicationId: uuid('application_id')
      .notNull()
      .references(() => providerApplications.id, { onDelete: 'cascade' }),
    /** domain/sections/registry.ts section key. */
    sectionKey: text('section_key').notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.applicationId, t.sectionKey] })],
);
