/**
 * The 'Users & Applications' tab of the admin dashboard (spec §2 /admin "Per-user card"): users
 * newest first, searched by name or email (or an exact NPI or license number, issue 28) on the server, one page of cards per query. Paging, counts
 * and the search expression: ./admin-list-query.ts.
 */

import { type SQL, sql } from 'drizzle-orm';
import { type CardDocument, DEFAULT_PAGE_SIZE } from '../../domain/api/admin.ts';
import type { ApplicationStatus } from '../../domain/application-status.ts';
import type { ApplicationCycle, CredentialRecord } from '../../domain/credentials/provider-credential.ts';
import type { Role } from '../../domain/roles.ts';
import type { Queryable } from '../db/client.ts';
import { preparedSql } from '../db/prepared-reads.ts';
import { profiles, providerApplications, userRoles } from '../db/schema/core.ts';
import { providerCredentials } from '../db/schema/credentials.ts';
import { documents } from '../db/schema/documents.ts';
import {
  countRows,
  normalizeSearch,
  offsetOf,
  type Page,
  type PageRequest,
  providerMatches,
} from './admin-list-query.ts';

/** Documents listed on one provider card (the card also shows the full count). */
export const CARD_DOCUMENT_LIMIT = 10;

/**
 * One card of the 'Users & Applications' tab (spec §2 /admin "Per-user card") as loaded, dates as
 * Date; the route presents it as `providerCardSchema` (domain/api/admin.ts).
 */
export interface ProviderCard {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  role: Role;
  /** profiles.created_at. */
  joinedAt: Date;
  /** Current application (spec §4: first draft, else newest), or null ('No Application'). */
  currentApplication: {
    id: string;
    applicationStatus: ApplicationStatus;
    createdAt: Date;
    /** When the provider completed it (issue 13), or null while a draft. */
    submittedAt: Date | null;
    /** Exclusion screening standing (issues 15, 30): 'match', 'possible_match' or null. */
    exclusionMatch: 'match' | 'possible_match' | null;
    /** Which credentialing cycle it is (issue 29). */
    cycle: ApplicationCycle;
  } | null;
  applicationCount: number;
  /** Documents of all the user's applications. */
  documentCount: number;
  /** The newest CARD_DOCUMENT_LIMIT of them, newest first. */
  documents: CardDocument[];
  /** The provider's stored credential (provider_credentials), or null when none was ever granted. */
  credential: CredentialRecord | null;
}

interface ProviderCardRow extends Record<string, unknown> {
  user_id: string;
  first_name: string;
  last_name: string;
  email: string;
  joined_at: string;
  role: Role | null;
  application_id: string | null;
  application_status: ApplicationStatus | null;
  application_created_at: string | null;
  application_submitted_at: string | null;
  application_exclusion_match: string | null;
  application_cycle: ApplicationCycle | null;
  application_count: number;
  document_count: number;
  documents: CardDocument[];
  credential_application_id: string | null;
  credentialed_at: string | null;
  approved_at: string | null;
  ends_on: string | null;
  ended_on: string | null;
}

/**
 * The cards of the profiles in `page_ids` (a CTE of `user_id`s the caller defines before this),
 * newest first: each card's role, current application, counts, newest documents and stored
 * credential, by one lateral lookup per card on indexed columns.
 */
function cardsOf(pageIds: SQL): SQL {
  const d = documents;
  const a = providerApplications;
  const c = providerCredentials;
  return sql`
    with page_ids as (${pageIds}), page as (
      select ${profiles.userId} as user_id, ${profiles.firstName} as first_name,
             ${profiles.lastName} as last_name, ${profiles.email} as email, ${profiles.createdAt} as joined_at
      from page_ids join ${profiles} on ${profiles.userId} = page_ids.user_id
    )
    select page.*, ${userRoles.role} as role,
           cur.id as application_id, cur.application_status, cur.created_at as application_created_at,
           cur.submitted_at as application_submitted_at, cur.exclusion_match as application_exclusion_match,
           cur.cycle as application_cycle,
           (select count(*)::int from ${a} where ${a.userId} = page.user_id) as application_count,
           docs.document_count, docs.documents,
           ${c.applicationId} as credential_application_id, ${c.credentialedAt} as credentialed_at,
           ${c.approvedAt} as approved_at, ${c.endsOn} as ends_on, ${c.endedOn} as ended_on
    from page
    left join ${userRoles} on ${userRoles.userId} = page.user_id
    left join ${c} on ${c.userId} = page.user_id
    left join lateral (
      select ${a.id} as id, ${a.applicationStatus} as application_status, ${a.createdAt} as created_at,
             ${a.submittedAt} as submitted_at, ${a.exclusionMatch} as exclusion_match, ${a.cycle} as cycle
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
    order by page.joined_at desc nulls last, page.user_id`;
}

/** One page of every profile, newest first, with its cards. */
function unfilteredPageSql(limit: SQL, offset: SQL): SQL {
  return cardsOf(sql`
    select ${profiles.userId} as user_id from ${profiles}
    order by ${profiles.createdAt} desc nulls last
    limit ${limit} offset ${offset}`);
}

/**
 * `unfilteredPageSql` for the web's page size as a prepared statement. Without a search, an
 * index-only scan of profiles_created_at_idx (created_at, user_id) skips the offset; the page's
 * profiles are then read by primary key. The limit is written in the statement: a generic plan that
 * does not know it expects a tenth of the table and joins it by hashing.
 */
const defaultSizePage = preparedSql<ProviderCardRow>(
  'admin_provider_cards_page',
  unfilteredPageSql(sql.raw(String(DEFAULT_PAGE_SIZE)), sql`${sql.placeholder('offset')}`),
);

/**
 * The cards of the profiles `ids` (a search's page, found by `searchPageIds`): a prepared statement,
 * whose generic plan suits any ids. The search itself is planned for its own term (a LIKE pattern's
 * selectivity decides between the trigram index and the created_at order).
 */
const cardsOfIds = preparedSql<ProviderCardRow>(
  'admin_provider_cards_of',
  cardsOf(sql`select unnest(${sql.placeholder('ids')}::text[]) as user_id`),
);

/** The user ids of one page of a search, newest first (planned per term). */
async function searchPageIds(db: Queryable, term: string, paging: PageRequest): Promise<string[]> {
  const result = await db.execute<{ user_id: string }>(sql`
    select ${profiles.userId} as user_id from ${profiles} where ${providerMatches(term)}
    order by ${profiles.createdAt} desc nulls last
    limit ${paging.pageSize} offset ${offsetOf(paging)}`);
  return result.rows.map((row) => row.user_id);
}

/**
 * Users newest first (by profiles.created_at), optionally filtered by a name or email substring or
 * an exact NPI or license number (`providerMatches`), with each card's current application, counts,
 * newest documents and stored credential, and the total (exact without a search, capped with one),
 * the page and the count read in parallel. Without a search: one prepared statement for the page;
 * with one: the page's ids (planned for the term), then their cards (prepared). The route remembers
 * the answer until a write changes the providers list (list-cache.ts).
 * @param search free text; '' lists everybody
 */
export async function listProviderCards(
  db: Queryable,
  { search, ...paging }: PageRequest & { search?: string },
): Promise<Page<ProviderCard>> {
  const term = normalizeSearch(search);
  const readRows = async (): Promise<ProviderCardRow[]> => {
    if (term) {
      const ids = await searchPageIds(db, term, paging);
      return ids.length === 0 ? [] : (await cardsOfIds(db, { ids })).rows;
    }
    return paging.pageSize === DEFAULT_PAGE_SIZE
      ? (await defaultSizePage(db, { offset: offsetOf(paging) })).rows
      : (
          await db.execute<ProviderCardRow>(
            unfilteredPageSql(sql`${paging.pageSize}`, sql`${offsetOf(paging)}`),
          )
        ).rows;
  };
  const where = term ? sql`where ${providerMatches(term)}` : sql``;
  const [rows, count] = await Promise.all([
    readRows(),
    countRows(db, sql`from ${profiles} ${where}`, Boolean(term)),
  ]);
  return {
    items: rows.map((row) => ({
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
              submittedAt: row.application_submitted_at ? new Date(row.application_submitted_at) : null,
              exclusionMatch:
                row.application_exclusion_match === 'match' ||
                row.application_exclusion_match === 'possible_match'
                  ? row.application_exclusion_match
                  : null,
              cycle: row.application_cycle ?? 'initial',
            }
          : null,
      applicationCount: row.application_count,
      documentCount: row.document_count,
      documents: row.documents,
      credential:
        row.credential_application_id && row.credentialed_at && row.approved_at && row.ends_on
          ? {
              applicationId: row.credential_application_id,
              credentialedAt: new Date(row.credentialed_at),
              approvedAt: new Date(row.approved_at),
              endsOn: row.ends_on,
              endedOn: row.ended_on,
            }
          : null,
    })),
    ...count,
    ...paging,
  };
}
