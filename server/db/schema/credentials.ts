/**
 * Expiring-credential notices (issue 14, docs/decisions/023-expiring-credentials.md): one row per
 * credential per threshold it crossed, written by the daily `credential-expiry` job. The unique key
 * makes a threshold fire once, whatever re-runs or instances do; `emailed_at` and `digested_at`
 * record what was sent, so an interrupted run sends what is unsent and nothing twice.
 */
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
