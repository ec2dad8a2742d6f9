/**
 * Admin review (spec §2 /admin, §6, §7 "Admin"; issue 6), built for 100,000+ providers: counters are
 * counted by PostgreSQL, lists are paged and searched on the server, and one provider's details load
 * on demand. Every list is ONE query per page (plus one count), never one query per card.
 *
 * Index notes (measured on the volume seed, see bench/admin.bench.ts):
 * - Newest-first orders are written `desc nulls last` so they match the `… DESC NULLS LAST` indexes
 *   (a plain `desc` means NULLS FIRST and makes PostgreSQL sort the whole table).
 * - Name/email search is `lower(first_name || ' ' || last_name || ' ' || email) like '%term%'`: exactly
 *   the expression of the trigram GIN index `profiles_search_trgm_idx`, so a substring search is served
 *   by the index (terms of three characters or more).
 * - Search counts (and the counts of the documents and audit lists) stop at LIST_COUNT_CAP: a
 *   one-letter search would otherwise count most of the table. The counters stay exact.
 */
import { eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { AppError } from '../../domain/app-error.ts';
import { type ApplicationStatus, pickCurrentApplication } from '../../domain/application-status.ts';
import type { Role } from '../../domain/roles.ts';
import type { DocumentType } from '../../domain/sections/documents.ts';
import { maskSsn } from '../../domain/sections/personal-information.ts';
import { type SectionKey, sections } from '../../domain/sections/registry.ts';
import { type ApplicationSummary, listApplicationsOfUser } from '../applications/applications.service.ts';
import type { Queryable } from '../db/client.ts';
import { auditLog } from '../db/schema/audit.ts';
import { user } from '../db/schema/auth.ts';
import { profiles, providerApplications, userRoles } from '../db/schema/core.ts';
import { documents } from '../db/schema/documents.ts';
import { sectionTables } from '../db/schema/sections.ts';
import { sectionOrderBy } from '../sections/section-columns.ts';

/** Rows per page when the caller does not say (spec: none; ours). */
export const DEFAULT_PAGE_SIZE = 20;
/** Largest page a caller may ask for. */
export const MAX_PAGE_SIZE = 100;
/** Documents listed on one provider card (the card also shows the full count). */
export const CARD_DOCUMENT_LIMIT = 10;
/** Searches and the documents and audit lists are counted up to this number; beyond it the total reads "10,000+". */
export const LIST_COUNT_CAP = 10_000;
/** Longest search term kept, in characters. */
export const SEARCH_MAX_LENGTH = 100;

export interface PageRequest {
  /** 1-based page number. */
  page: number;
  /** Rows per page, 1..MAX_PAGE_SIZE. */
  pageSize: number;
}

/** One page of results. `totalCapped` means `total` is LIST_COUNT_CAP and more rows match. */
export interface Page<T> {
  items: T[];
  total: number;
  totalCapped: boolean;
  page: number;
  pageSize: number;
}

// ---- Counters --------------------------------------------------------------------------------------

export interface AdminStats {
  totalUsers: number;
  totalApplications: number;
  totalDocuments: number;
}

/**
 * Exact totals (spec §2 /admin counters). Three counts run concurrently on separate pool connections
 * (each is a scan of one table or index: about 10-20 ms at 100k-200k rows).
 */
export async function getAdminStats(db: Queryable): Promise<AdminStats> {
  const count = async (table: PgTable) => {
    const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(table);
    return row!.n;
  };
  const [totalUsers, totalApplications, totalDocuments] = await Promise.all([
    count(profiles),
    count(providerApplications),
    count(documents),
  ]);
  return { totalUsers, totalApplications, totalDocuments };
}

// ---- Search -----------------------------------------------------------------------------------------

/** Lower-cased, trimmed, inner whitespace collapsed, at most SEARCH_MAX_LENGTH characters; '' = none. */
export function normalizeSearch(search: string | undefined): string {
  return (search ?? '').trim().replace(/\s+/g, ' ').toLowerCase().slice(0, SEARCH_MAX_LENGTH);
}

/** `%term%` with LIKE's wildcards in the term escaped (backslash is PostgreSQL's default escape). */
function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `term` is a substring of a profile's name or email: the expression of profiles_search_trgm_idx,
 * matched with LIKE so the trigram index serves it. Exported for the EXPLAIN test.
 * @param term a normalized (lower-cased) search term
 */
export function profileMatches(term: string): SQL {
  return sql`lower(${profiles.firstName} || ' ' || ${profiles.lastName} || ' ' || ${profiles.email}) like ${containsPattern(term)}`;
}

/** count(*) of `from` (a FROM ... WHERE fragment): exact, or when `capped` counted up to LIST_COUNT_CAP only. */
async function countRows(
  db: Queryable,
  from: SQL,
  capped: boolean,
): Promise<{ total: number; totalCapped: boolean }> {
  if (!capped) {
    const result = await db.execute<{ n: number }>(sql`select count(*)::int as n ${from}`);
    return { total: result.rows[0]!.n, totalCapped: false };
  }
  const result = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 ${from} limit ${LIST_COUNT_CAP + 1}) matched`,
  );
  const n = result.rows[0]!.n;
  return { total: Math.min(n, LIST_COUNT_CAP), totalCapped: n > LIST_COUNT_CAP };
}

function offsetOf({ page, pageSize }: PageRequest): number {
  return (page - 1) * pageSize;
}

// ---- Provider list -----------------------------------------------------------------------------------

export interface CardDocument {
  id: string;
  documentName: string;
  documentType: DocumentType;
  /** Bytes. */
  fileSize: number;
  mimeType: string;
}

/** One card of the 'Users & Applications' tab (spec §2 /admin "Per-user card"). */
export interface ProviderCard {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  role: Role;
  /** profiles.created_at. */
  joinedAt: Date;
  /** Current application (spec §4: first draft, else newest), or null ('No Application'). */
  currentApplication: { id: string; applicationStatus: ApplicationStatus; createdAt: Date } | null;
  applicationCount: number;
  /** Documents of all the user's applications. */
  documentCount: number;
  /** The newest CARD_DOCUMENT_LIMIT of them, newest first. */
  documents: CardDocument[];
}

interface ProviderCardRow extends Record<string, unknown> {
  user_id: string;
  first_name: string;
  last_name: string;
  email: string;
  joined_at: Date;
  role: Role | null;
  application_id: string | null;
  application_status: ApplicationStatus | null;
  application_created_at: Date | null;
  application_count: number;
  document_count: number;
  documents: CardDocument[];
}

/**
 * Users newest first (by profiles.created_at), optionally filtered by a name or email substring,
 * with each card's current application, counts and newest documents: one query for the page (the
 * page of profiles, then one lateral lookup per card on indexed columns) and one count.
 * @param search free text; '' lists everybody
 */
export async function listProviderCards(
  db: Queryable,
  { search, ...paging }: PageRequest & { search?: string },
): Promise<Page<ProviderCard>> {
  const term = normalizeSearch(search);
  const where = term ? sql`where ${profileMatches(term)}` : sql``;
  const d = documents;
  const a = providerApplications;
  const pageQuery = db.execute<ProviderCardRow>(sql`
    with page_ids as (
      -- Without a search, an index-only scan of profiles_created_at_idx (created_at, user_id) skips
      -- the offset; the page's 20 profiles are then read by primary key.
      select ${profiles.userId} as user_id from ${profiles} ${where}
      order by ${profiles.createdAt} desc nulls last
      limit ${paging.pageSize} offset ${offsetOf(paging)}
    ), page as (
      select ${profiles.userId} as user_id, ${profiles.firstName} as first_name,
             ${profiles.lastName} as last_name, ${profiles.email} as email, ${profiles.createdAt} as joined_at
      from page_ids join ${profiles} on ${profiles.userId} = page_ids.user_id
    )
    select page.*, ${userRoles.role} as role,
           cur.id as application_id, cur.application_status, cur.created_at as application_created_at,
           (select count(*)::int from ${a} where ${a.userId} = page.user_id) as application_count,
           docs.document_count, docs.documents
    from page
    left join ${userRoles} on ${userRoles.userId} = page.user_id
    left join lateral (
      select ${a.id} as id, ${a.applicationStatus} as application_status, ${a.createdAt} as created_at
      from ${a} where ${a.userId} = page.user_id
      order by (${a.applicationStatus} = 'draft') desc, ${a.createdAt} desc nulls last
      limit 1
    ) cur on true
    left join lateral (
      select count(*)::int as document_count,
             coalesce(json_agg(json_build_object('id', ud.id, 'documentName', ud.document_name,
                        'documentType', ud.document_type, 'fileSize', ud.file_size, 'mimeType', ud.mime_type)
                      order by ud.uploaded_at desc) filter (where ud.rn <= ${CARD_DOCUMENT_LIMIT}), '[]') as documents
      from (
        select ${d.id} as id, ${d.documentName} as document_name, ${d.documentType} as document_type,
               ${d.fileSize} as file_size, ${d.mimeType} as mime_type, ${d.uploadedAt} as uploaded_at,
               row_number() over (order by ${d.uploadedAt} desc) as rn
        from ${a} join ${d} on ${d.applicationId} = ${a.id}
        where ${a.userId} = page.user_id
      ) ud
    ) docs on true
    order by page.joined_at desc nulls last
  `);
  const [result, count] = await Promise.all([
    pageQuery,
    countRows(db, sql`from ${profiles} ${where}`, Boolean(term)),
  ]);
  return {
    items: result.rows.map((row) => ({
      userId: row.user_id,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      role: row.role ?? 'user',
      joinedAt: new Date(row.joined_at),
      currentApplication:
        row.application_id && row.application_status && row.application_created_at
          ? {
              id: row.application_id,
              applicationStatus: row.application_status,
              createdAt: new Date(row.application_created_at),
            }
          : null,
      applicationCount: row.application_count,
      documentCount: row.document_count,
      documents: row.documents,
    })),
    ...count,
    ...paging,
  };
}

// ---- Provider details ----------------------------------------------------------------------------------

/** A presented section value: what JSON carries (dates as 'YYYY-MM-DD' or ISO strings). */
export type SectionValue = string | number | boolean | null;
/** One row of a section: its `id` plus the registry's `fields` of that section (and `uploadedAt` for documents). */
export type SectionRowValues = { id: string } & Record<string, SectionValue>;

export interface SectionData {
  key: SectionKey;
  title: string;
  rows: SectionRowValues[];
}

export interface ProviderDetails {
  profile: { userId: string; firstName: string; lastName: string; email: string; role: Role; joinedAt: Date };
  /** All applications, newest first, with progress. */
  applications: ApplicationSummary[];
  /** The application whose sections are shown: the requested one, else the current one; null if none. */
  selectedApplicationId: string | null;
  /** Every section in registry order (empty when the user has no application). */
  sections: SectionData[];
}

/** Serialise a column value for JSON: dates become ISO strings; everything else is kept. */
function toSectionValue(value: unknown): SectionValue {
  if (value instanceof Date) return value.toISOString();
  if (value === undefined) return null;
  return value as SectionValue;
}

/**
 * Every section's rows of one application, in the order each screen shows them, queried concurrently.
 * The SSN ciphertext is never selected: the personal information row carries `ssn` as `***-**-1234`
 * built from `ssn_last4` (spec §6 "SSN is shown masked"; the server never decrypts it for an admin).
 */
export async function loadSectionData(db: Queryable, applicationId: string): Promise<SectionData[]> {
  return Promise.all(
    sections.map(async (section): Promise<SectionData> => {
      const table = sectionTables[section.key] as PgTable;
      const { ssnEncrypted: _neverSelected, ...columns } = getTableColumns(table) as Record<string, PgColumn>;
      const order = section.kind === 'list' ? sectionOrderBy(table, section.orderBy) : [];
      const rows = (await db
        .select(columns)
        .from(table)
        .where(eq(columns.applicationId!, applicationId))
        .orderBy(...order)) as Record<string, unknown>[];
      return {
        key: section.key,
        title: section.title,
        rows: rows.map((row) => {
          const values: SectionRowValues = { id: row.id as string };
          for (const field of section.fields) {
            values[field.name] =
              field.name === 'ssn'
                ? row.ssnLast4
                  ? maskSsn(row.ssnLast4 as string)
                  : null
                : toSectionValue(row[field.name]);
          }
          if (section.key === 'documents') values.uploadedAt = toSectionValue(row.uploadedAt);
          return values;
        }),
      };
    }),
  );
}

/**
 * One provider with all applications and every section of one application (spec §7 "per-user detail").
 * @param applicationId an application of this user; undefined = the current one (spec §4)
 * @throws AppError not_found (404) when the user or that application of the user does not exist
 */
export async function getProviderDetails(
  db: Queryable,
  userId: string,
  applicationId: string | undefined,
): Promise<ProviderDetails> {
  const [profileRow] = await db
    .select({
      userId: profiles.userId,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      email: profiles.email,
      joinedAt: profiles.createdAt,
      role: userRoles.role,
    })
    .from(profiles)
    .leftJoin(userRoles, eq(userRoles.userId, profiles.userId))
    .where(eq(profiles.userId, userId));
  if (!profileRow) throw new AppError('not_found', 'This user no longer exists. Reload the list.');
  const applications = await listApplicationsOfUser(db, userId);
  const selected = applicationId
    ? applications.find((application) => application.id === applicationId)
    : pickCurrentApplication(applications);
  if (applicationId && !selected) {
    throw new AppError(
      'not_found',
      'This application does not belong to this user. Choose one from the list.',
    );
  }
  return {
    profile: { ...profileRow, role: profileRow.role ?? 'user' },
    applications,
    selectedApplicationId: selected?.id ?? null,
    sections: selected ? await loadSectionData(db, selected.id) : [],
  };
}

// ---- All documents -------------------------------------------------------------------------------------

/** A row of the 'All Documents' tab. */
export interface DocumentListItem extends CardDocument {
  applicationId: string;
  uploadedAt: Date;
  owner: { userId: string; firstName: string; lastName: string; email: string } | null;
}

/**
 * Every document newest first (spec §7: all documents, uploaded_at descending), paged; with a search,
 * only the documents of users whose name or email contains it (served by the trigram index, then by
 * the applications and documents indexes).
 */
export async function listAllDocuments(
  db: Queryable,
  { search, ...paging }: PageRequest & { search?: string },
): Promise<Page<DocumentListItem>> {
  const term = normalizeSearch(search);
  const a = providerApplications;
  const where = term
    ? sql`where ${documents.applicationId} in (
        select ${a.id} from ${a} where ${a.userId} in (select ${profiles.userId} from ${profiles} where ${profileMatches(term)}))`
    : sql``;
  const pageQuery = db.execute<{
    id: string;
    document_name: string;
    document_type: DocumentType;
    file_size: number;
    mime_type: string;
    application_id: string;
    uploaded_at: Date;
    user_id: string;
    first_name: string | null;
    last_name: string | null;
    email: string | null;
  }>(sql`
    select ${documents.id} as id, ${documents.documentName} as document_name,
           ${documents.documentType} as document_type, ${documents.fileSize} as file_size,
           ${documents.mimeType} as mime_type, ${documents.applicationId} as application_id,
           ${documents.uploadedAt} as uploaded_at, ${documents.userId} as user_id,
           ${profiles.firstName} as first_name, ${profiles.lastName} as last_name, ${profiles.email} as email
    from ${documents} left join ${profiles} on ${profiles.userId} = ${documents.userId}
    ${where}
    order by ${documents.uploadedAt} desc nulls last
    limit ${paging.pageSize} offset ${offsetOf(paging)}
  `);
  // Capped even without a search: the exact total is on the counters, and 200,000 rows take ~20 ms
  // to count, more than the page itself.
  const [result, count] = await Promise.all([
    pageQuery,
    countRows(db, sql`from ${documents} ${where}`, true),
  ]);
  return {
    items: result.rows.map((row) => ({
      id: row.id,
      documentName: row.document_name,
      documentType: row.document_type,
      fileSize: Number(row.file_size),
      mimeType: row.mime_type,
      applicationId: row.application_id,
      uploadedAt: new Date(row.uploaded_at),
      owner:
        row.email !== null
          ? {
              userId: row.user_id,
              firstName: row.first_name ?? '',
              lastName: row.last_name ?? '',
              email: row.email,
            }
          : null,
    })),
    ...count,
    ...paging,
  };
}

// ---- Audit log ------------------------------------------------------------------------------------------

/** A person named in an audit event (from the account table: name and email only, no PHI). */
export interface AuditPerson {
  userId: string;
  name: string;
  email: string;
}

export interface AuditEventItem {
  id: number;
  occurredAt: Date;
  action: string;
  /** Null for anonymous events (a failed sign-in) and CLI changes; `deleted` when the account is gone. */
  actor: AuditPerson | null;
  subject: AuditPerson | null;
  resourceType: string | null;
  resourceId: string | null;
  ipAddress: string | null;
  details: Record<string, string | number | boolean | null> | null;
}

/**
 * Audit events newest first, optionally of one action and/or about one user (the indexes on
 * occurred_at and on (subject_user_id, occurred_at) serve both).
 */
export async function listAuditEvents(
  db: Queryable,
  { action, subjectUserId, ...paging }: PageRequest & { action?: string; subjectUserId?: string },
): Promise<Page<AuditEventItem>> {
  const filters: SQL[] = [];
  if (action) filters.push(sql`${auditLog.action} = ${action}`);
  if (subjectUserId) filters.push(sql`${auditLog.subjectUserId} = ${subjectUserId}`);
  const where = filters.length > 0 ? sql`where ${sql.join(filters, sql` and `)}` : sql``;
  const pageQuery = db.execute<{
    id: number;
    occurred_at: Date;
    action: string;
    actor_user_id: string | null;
    actor_name: string | null;
    actor_email: string | null;
    subject_user_id: string | null;
    subject_name: string | null;
    subject_email: string | null;
    resource_type: string | null;
    resource_id: string | null;
    ip_address: string | null;
    details: Record<string, string | number | boolean | null> | null;
  }>(sql`
    select l.id, l.occurred_at, l.action, l.actor_user_id, au.name as actor_name, au.email as actor_email,
           l.subject_user_id, su.name as subject_name, su.email as subject_email,
           l.resource_type, l.resource_id, l.ip_address, l.details
    from (
      select * from ${auditLog} ${where}
      order by ${auditLog.occurredAt} desc nulls last, ${auditLog.id} desc
      limit ${paging.pageSize} offset ${offsetOf(paging)}
    ) l
    left join ${user} au on au.id = l.actor_user_id
    left join ${user} su on su.id = l.subject_user_id
    order by l.occurred_at desc nulls last, l.id desc
  `);
  const person = (id: string | null, name: string | null, email: string | null): AuditPerson | null =>
    id ? { userId: id, name: name ?? '', email: email ?? '' } : null;
  // Capped like a search: the log only grows, and "10,000+ events" is all a pager needs.
  const [result, count] = await Promise.all([pageQuery, countRows(db, sql`from ${auditLog} ${where}`, true)]);
  return {
    items: result.rows.map((row) => ({
      id: Number(row.id),
      occurredAt: new Date(row.occurred_at),
      action: row.action,
      actor: person(row.actor_user_id, row.actor_name, row.actor_email),
      subject: person(row.subject_user_id, row.subject_name, row.subject_email),
      resourceType: row.resource_type,
      resourceId: row.resource_id,
      ipAddress: row.ip_address,
      details: row.details,
    })),
    ...count,
    ...paging,
  };
}
