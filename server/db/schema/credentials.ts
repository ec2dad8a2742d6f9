/**
 * Expiring-credential notices (issue 14, docs/decisions/023-expiring-credentials.md): one row per
 * credential per threshold it crossed, written by the daily `credential-expiry` job. The unique key
 * makes a threshold fire once, whatever re-runs or instances do; `emailed_at` and `digested_at`
 * record what was sent, so an interrupted run sends what is unsent and nothing twice.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
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
import type { CredentialFacts } from '../../../domain/credentials/credential-facts.ts';
import { user } from './auth.ts';
import { providerApplications } from './core.ts';
import { documents } from './documents.ts';

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
    /**
     * The published record (issue 49 item 1, decision 035): the facts of the snapshot version a
     * decision approved or a credential update's review accepted (domain/credentials/credential-facts.ts
     * `CredentialFacts`). Null only for a credential granted before issue 49 until start-up publishes it.
     */
    facts: jsonb('facts').$type<CredentialFacts>(),
    /** When the published record last changed (facts or standing): the directory's lastUpdated. */
    publishedAt: timestamp('published_at', { withTimezone: true }),
    /** The published NPI (search). */
    npi: text('npi'),
    /** The published given and family names (search). */
    givenName: text('given_name'),
    familyName: text('family_name'),
    /**
     * Ongoing monitoring (issue 49 item 2, NCQA CR5): 'active', or 'suspended' while a monitoring
     * finding is open (credential_monitoring_findings); kept in step by server/credential/standing.ts.
     */
    standing: text('standing').notNull().default('active'),
    /** What suspended it, as the roster says it ('exclusion: OIG LEIE, 2026-11-28'), or null. */
    standingReason: text('standing_reason'),
    /** Since when it is suspended, or null. */
    standingSince: timestamp('standing_since', { withTimezone: true }),
  },
  (t) => [
    // The expirables forecast (issue 34 item 4): running credentials' due dates in a date range.
    index('provider_credentials_ends_on_idx').on(t.endsOn).where(sql`${t.endedOn} is null`),
    index('provider_credentials_npi_idx').on(t.npi),
    index('provider_credentials_published_idx').on(t.publishedAt),
    check('provider_credentials_standing_check', sql`${t.standing} in ('active', 'suspended')`),
  ],
);

/**
 * The published record's practice locations (issue 49), one row per location of a credential's
 * facts: how a FHIR Location or PractitionerRole id (the row key) and an Organization (the group
 * NPI) find their provider without reading every record. Rewritten with the facts.
 */
export const credentialLocations = pgTable(
  'credential_locations',
  {
    userId: text('user_id')
      .notNull()
      .references(() => providerCredentials.userId, { onDelete: 'cascade' }),
    rowKey: text('row_key').notNull(),
    groupNpi: text('group_npi'),
    isPrimary: boolean('is_primary').notNull(),
    /** The location's place in the facts (primary first). */
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.rowKey] }),
    index('credential_locations_row_key_idx').on(t.rowKey),
    index('credential_locations_group_npi_idx').on(t.groupNpi).where(sql`${t.groupNpi} is not null`),
  ],
);

/**
 * Ongoing monitoring findings of a credential (issue 49 item 2, NCQA CR5): an exclusion match, an NPI
 * NPPES reports deactivated, a license past its expiry with no verified renewal. While one is open the
 * credential is 'Suspended' and published as inactive; a reinstatement, a 'Not the Same Person', a
 * verified renewal or the committee's decision resolves it.
 */
export const credentialMonitoringFindings = pgTable(
  'credential_monitoring_findings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** The credential's application when found. */
    applicationId: uuid('application_id')
      .notNull()
      .references(() => providerApplications.id, { onDelete: 'cascade' }),
    /** domain/credentials/credential-standing.ts `MonitoringFindingKind`. */
    kind: text('kind').notNull(),
    /** What it is about, unique per kind while open (an exclusion finding's id, a license's row key, the NPI). */
    subjectKey: text('subject_key').notNull(),
    /** What was found, as the roster and the dashboard name it ('OIG LEIE', 'IL medical license 12345'). */
    detail: text('detail').notNull(),
    /** The day it was found (UTC). */
    foundOn: date('found_on', { mode: 'string' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    /** domain `MonitoringResolution`. */
    resolution: text('resolution'),
    resolvedBy: text('resolved_by').references(() => user.id, { onDelete: 'set null' }),
    /** When the monitoring digest listed it. */
    digestedAt: timestamp('digested_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('credential_monitoring_open_idx')
      .on(t.userId, t.kind, t.subjectKey)
      .where(sql`${t.resolvedAt} is null`),
    index('credential_monitoring_user_idx').on(t.userId, t.createdAt),
    check(
      'credential_monitoring_kind_check',
      sql`${t.kind} in ('exclusion', 'npi_deactivated', 'license_expired')`,
    ),
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

/**
 * A credentialed provider's legal name change (issue 49 item 1): the provider asks for it with a
 * document that shows the change (marriage certificate, court order); it is sent as a credential update
 * (the snapshot's profile carries the requested name, server/notifications/application-snapshot.ts),
 * and the account's names change only when a reviewer completes that update's review. At most one
 * waiting per application.
 */
export const legalNameChanges = pgTable(
  'legal_name_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => providerApplications.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    /** The document that shows the change, uploaded to the application in this update. */
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
    /** When 'Complete Update Review' applied it to the account; null while it waits. */
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedBy: text('accepted_by').references(() => user.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('legal_name_changes_one_waiting_idx').on(t.applicationId).where(sql`${t.acceptedAt} is null`),
  ],
);
