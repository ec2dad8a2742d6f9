/**
 * Exclusion screening (issue 30, docs/decisions/027-exclusion-screening.md): the lists a provider is
 * screened against (OIG LEIE, SAM.gov exclusions, state Medicaid lists; domain/screening/
 * exclusion-formats.ts `exclusionSources`), each import of one of their files, and what screening found
 * for each application.
 *
 * An import is staged first ('Import'): its rows are written to `exclusion_entries` with the import's
 * id and `staged = true`, invisible to screening, and the import's summary (kind, row count, skipped
 * lines, a sample) is shown. 'Apply' then makes them the list in one transaction (server/screening/
 * exclusion-imports.ts): a full file replaces the source's rows, a monthly supplement adds rows, a
 * reinstatement file ends rows by their reinstatement date.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { user } from './auth.ts';
import { providerApplications } from './core.ts';

/** One file given to a source: staged, then applied or discarded. */
export const exclusionImports = pgTable(
  'exclusion_imports',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** domain/screening/exclusion-formats.ts `ExclusionSourceId`. */
    source: text('source').notNull(),
    /** 'full' | 'additions' | 'reinstatements' (`ExclusionFileKind`). */
    kind: text('kind').notNull(),
    /** 'staged' | 'applied' | 'discarded'. */
    status: text('status').notNull().default('staged'),
    fileName: text('file_name').notNull(),
    /** 'utf-8' | 'windows-1252': how the file's bytes were read. */
    encoding: text('encoding').notNull(),
    /** Rows read into the import (skipped lines not counted). */
    rowCount: integer('row_count').notNull(),
    skippedCount: integer('skipped_count').notNull().default(0),
    /** The first skipped lines: [{ line, reason }] (reasons name the field, never the row's values). */
    skipped: jsonb('skipped').notNull().default(sql`'[]'::jsonb`),
    stagedAt: timestamp('staged_at', { withTimezone: true }).notNull().defaultNow(),
    stagedBy: text('staged_by').references(() => user.id, { onDelete: 'set null' }),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
    appliedBy: text('applied_by').references(() => user.id, { onDelete: 'set null' }),
    /** Rows the source had before the apply, and after. */
    rowsBefore: integer('rows_before'),
    rowsAfter: integer('rows_after'),
    /** Reinstatement files: rows ended; supplements: rows added. */
    changedRows: integer('changed_rows'),
    /** Why a shrinking or empty full file was applied anyway (issue 30 item 2; audited). */
    confirmReason: text('confirm_reason'),
  },
  (t) => [index('exclusion_imports_source_idx').on(t.source, t.status, t.appliedAt)],
);

/**
 * The rows of every list, and of staged imports (`staged`). Text fields are the file's, trimmed ('' when
 * none); `name_key` (normalised last + first name), `npi` and `dob` are what screening matches on;
 * `entry_key` is the row's identity across the source's files (a reinstatement finds its exclusion by it);
 * `row_hash` changes when any field changes (a cleared possible match flags again only then).
 */
export const exclusionEntries = pgTable(
  'exclusion_entries',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    source: text('source').notNull(),
    importId: integer('import_id')
      .notNull()
      .references(() => exclusionImports.id, { onDelete: 'cascade' }),
    staged: boolean('staged').notNull().default(true),
    /** The file's line the row came from. */
    line: integer('line').notNull(),
    lastName: text('last_name').notNull(),
    firstName: text('first_name').notNull(),
    middleName: text('middle_name').notNull(),
    businessName: text('business_name').notNull(),
    npi: text('npi'),
    dob: date('dob'),
    address: text('address').notNull(),
    city: text('city').notNull(),
    state: text('state').notNull(),
    zip: text('zip').notNull(),
    licenseNumber: text('license_number').notNull(),
    providerType: text('provider_type').notNull(),
    exclusionType: text('exclusion_type').notNull(),
    exclusionDate: date('exclusion_date'),
    /** When the exclusion ended (LEIE REINDATE, SAM termination date); null while it runs. */
    reinstatementDate: date('reinstatement_date'),
    waiverDate: date('waiver_date'),
    waiverState: text('waiver_state').notNull(),
    /** The file's fields by column, for the side-by-side view. */
    fields: jsonb('fields').notNull(),
    nameKey: text('name_key').notNull(),
    entryKey: text('entry_key').notNull(),
    rowHash: text('row_hash').notNull(),
  },
  (t) => [
    index('exclusion_entries_npi_idx').on(t.npi).where(sql`not ${t.staged}`),
    index('exclusion_entries_name_idx').on(t.nameKey).where(sql`not ${t.staged}`),
    index('exclusion_entries_entry_idx').on(t.source, t.entryKey),
    index('exclusion_entries_import_idx').on(t.importId),
  ],
);

/**
 * What screening found for one application: one row per list row that matched or possibly matched.
 * `strength` 'match' (NPI, or name + birth date) is confirmed by screening itself; 'possible_match'
 * (name only) waits in the 'Screening Matches' queue as 'open' for 'Confirm Match' or 'Not the Same
 * Person'. Rows are never cleared by an import (issue 30 item 2): when a list row ends or leaves the list
 * the finding gets `pending_change` for a reviewer to accept.
 */
export const screeningFindings = pgTable(
  'screening_findings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => providerApplications.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    source: text('source').notNull(),
    rowHash: text('row_hash').notNull(),
    entryKey: text('entry_key').notNull(),
    /** The list row as it was found (server/screening/screening.ts `FindingEntry`). */
    entry: jsonb('entry').notNull(),
    /** 'match' | 'possible_match'. */
    strength: text('strength').notNull(),
    /** How it matched: 'npi' | 'name_dob' | 'name'. */
    matchedOn: text('matched_on').notNull(),
    /** 'open' | 'confirmed' | 'cleared'. */
    status: text('status').notNull(),
    /** 'no_longer_listed' when the row ended or left the list after it was found; null otherwise. */
    pendingChange: text('pending_change'),
    foundAt: timestamp('found_at', { withTimezone: true }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: text('decided_by').references(() => user.id, { onDelete: 'set null' }),
    reason: text('reason'),
  },
  (t) => [
    unique('screening_findings_application_row_key').on(t.applicationId, t.rowHash),
    index('screening_findings_open_idx')
      .on(t.foundAt)
      .where(sql`${t.status} = 'open' or ${t.pendingChange} is not null`),
    index('screening_findings_user_idx').on(t.userId, t.rowHash),
    // The screening report (issue 34 item 5): findings per month by strength, an index-only range.
    index('screening_findings_found_at_idx').on(t.foundAt, t.strength),
  ],
);
