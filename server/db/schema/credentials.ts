/**
 * Expiring-credential notices (issue 14, docs/decisions/023-expiring-credentials.md): one row per
 * credential per threshold it crossed, written by the daily `credential-expiry` job. The unique key
 * makes a threshold fire once, whatever re-runs or instances do; `emailed_at` and `digested_at`
 * record what was sent, so an interrupted run sends what is unsent and nothing twice.
 */
import { sql } from 'drizzle-orm';
import { date, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
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
