/**
 * Core credentialing tables: profiles, user_roles, provider_applications (spec §3, §4, §6).
 */
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  date,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { applicationStatuses } from '../../../domain/application-status.ts';
import { grantedStaffRoles, roles } from '../../../domain/roles.ts';
import { user } from './auth.ts';

/** One profile per user (spec §3 profiles). Created when the account is created. */
export const profiles = pgTable(
  'profiles',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => user.id, { onDelete: 'cascade' }),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Admin search by name or email substring (issue 6): trigram GIN index.
    index('profiles_search_trgm_idx').using(
      'gin',
      sql`(lower(${t.firstName} || ' ' || ${t.lastName} || ' ' || ${t.email})) gin_trgm_ops`,
    ),
    // Newest-first paging of the admin list (issue 6): user_id makes deep pages index-only scans.
    index('profiles_created_at_idx').on(t.createdAt.desc(), t.userId),
  ],
);

export const roleEnum = pgEnum('app_role', roles);

/** Role per user (spec §6). A missing row means role `user`. */
export const userRoles = pgTable('user_roles', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  role: roleEnum('role').notNull().default('user'),
});

export const staffRoleEnum = pgEnum('staff_role', grantedStaffRoles);

/**
 * Staff roles granted besides `admin` (issue 32 item 1, domain/roles.ts): several per person, one row
 * each. Who granted it and when; the audit log keeps every grant and revocation.
 */
export const staffRoleGrants = pgTable(
  'staff_roles',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    role: staffRoleEnum('role').notNull(),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
    /** The administrator who granted it; null when granted from the command line. */
    grantedBy: text('granted_by').references(() => user.id, { onDelete: 'set null' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.role] })],
);

export const applicationStatusEnum = pgEnum('application_status', applicationStatuses);

/** A credentialing application (spec §3 provider_applications; new ones are draft, spec §4). */
export const providerApplications = pgTable(
  'provider_applications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    applicationStatus: applicationStatusEnum('application_status').notNull().default('draft'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the provider completed it (draft -> submitted; issue 13, decision 018). */
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    /** When 'Start Review' moved it to under_review (issue 13). */
    reviewStartedAt: timestamp('review_started_at', { withTimezone: true }),
    /** The assigned administrator ('Start Review'; issue 13). */
    reviewerId: text('reviewer_id').references(() => user.id, { onDelete: 'set null' }),
    /** When it was approved or rejected (issue 13). */
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** The reason of a rejection, shown to the provider (issue 13). */
    decisionReason: text('decision_reason'),
    /**
     * Who decided (issue 32, domain/committee/committee-decisions.ts `deciders`): decisions made before
     * staff roles were the administrators' (migration 0024 records them so).
     */
    decidedByRole: text('decided_by_role'),
    /** The medical director who approved a clean file, or the committee meeting's recorder. */
    decidedBy: text('decided_by').references(() => user.id, { onDelete: 'set null' }),
    /** When the credential takes effect (the committee's, or the approval's day); YYYY-MM-DD. */
    effectiveDate: date('effective_date', { mode: 'string' }),
    /** The committee's conditions of an 'Approve with Conditions'. */
    decisionConditions: text('decision_conditions'),
    /**
     * An approved application's standing on the OIG LEIE after the latest import (issue 15 ongoing
     * monitoring): 'match', 'possible_match', or null (no match, or not screened).
     */
    exclusionMatch: text('exclusion_match'),
    exclusionCheckedAt: timestamp('exclusion_checked_at', { withTimezone: true }),
    /**
     * The application this one was pre-filled from ('Start Recredentialing' / 'Start New Application',
     * issue 14 copy-forward); null for one started empty. Set null if that one is ever deleted.
     */
    copiedFromId: uuid('copied_from_id').references((): AnyPgColumn => providerApplications.id, {
      onDelete: 'set null',
    }),
    /**
     * Which credentialing cycle this application is (issue 29): 'initial', or 'recredentialing' when it
     * was opened for a provider who held a credential (domain/credentials/provider-credential.ts).
     */
    cycle: text('cycle').notNull().default('initial'),
    /** When the cycle was closed without a decision (status `withdrawn`, issue 29), by whom and why. */
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    withdrawnBy: text('withdrawn_by').references(() => user.id, { onDelete: 'set null' }),
    /** The administrator's reason ('Close Without Decision'); null when the provider withdrew a draft. */
    withdrawalReason: text('withdrawal_reason'),
    /**
     * The provider's current application (issue 14's rule, decisions 023 and 024): not rejected nor
     * withdrawn, and first of theirs in the order non-drafts before drafts, newest first, larger id
     * first; exactly one per provider who has such an application. Kept by the database (migration
     * 0032's triggers, over every insert, update of status, owner or creation time, and delete), so
     * the 'Expiring' tab, the daily expiry job and the expirables forecast read a flag instead of
     * comparing every provider's applications (issue 34 bench:reports).
     */
    isCurrent: boolean('is_current').notNull().default(false),
    /**
     * The latest attestation's signing (application_attestations, NCQA CR 3), kept by the database
     * (migration 0033's trigger on every attestation signed); null before the first. The backlog
     * report ages open files from it (issue 34).
     */
    lastAttestedAt: timestamp('last_attested_at', { withTimezone: true }),
  },
  (t) => [
    index('provider_applications_user_created_idx').on(t.userId, t.createdAt.desc()),
    // The review queue (issue 13, decision 018): oldest submission first over the two review statuses.
    index('provider_applications_review_queue_idx')
      .on(t.submittedAt, t.id)
      .where(sql`${t.applicationStatus} in ('submitted', 'under_review')`),
    // The decision reports (issue 34: Turnaround, Timeliness, Workload): decided files by decision time;
    // decided_by makes Workload's count of decisions an index-only scan.
    index('provider_applications_decided_idx')
      .on(t.decidedAt, t.decidedBy)
      .where(sql`${t.applicationStatus} in ('approved', 'rejected')`),
    // The backlog report (issue 34 item 2): open files by the day their clock started, oldest first.
    index('provider_applications_open_age_idx')
      .on(sql`coalesce(${t.lastAttestedAt}, ${t.submittedAt})`, t.id)
      .where(sql`${t.applicationStatus} in ('submitted', 'under_review')`),
    // The current applications (about one per provider): joined by id from the dated credentials.
    index('provider_applications_current_idx').on(t.id).where(sql`${t.isCurrent}`),
    check('provider_applications_cycle_check', sql`${t.cycle} in ('initial', 'recredentialing')`),
    check(
      'provider_applications_decided_by_role_check',
      sql`${t.decidedByRole} in ('administrator', 'medical_director', 'committee', 'integration')`,
    ),
  ],
);

/**
 * The organization's settings (issue 50 item 7): one row (`id` = 1), kept by administrators on the
 * 'Settings' tab; the decision letters carry them.
 */
export const organizationSettings = pgTable(
  'organization_settings',
  {
    id: integer('id').primaryKey().default(1),
    organizationName: text('organization_name').notNull().default(''),
    address: text('address').notNull().default(''),
    signerName: text('signer_name').notNull().default(''),
    signerTitle: text('signer_title').notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: text('updated_by').references(() => user.id, { onDelete: 'set null' }),
  },
  (t) => [check('organization_settings_one_row', sql`${t.id} = 1`)],
);
