/**
 * The 'Users & Applications' tab of the admin dashboard (spec §2 /admin "Per-user card"): users
 * newest first, searched by name or email (or an exact NPI or license number, issue 28) on the server, one page of cards per query. Paging, counts
 * and the search expression: ./admin-list-query.ts.
 */

import { sql } from 'drizzle-orm';
import type { CardDocument } from '../../domain/api/admin.ts';
import type { ApplicationStatus } from '../../domain/application-status.ts';
import type { ApplicationCycle } from '../../domain/credentials/provider-credential.ts';
import type { Role } from '../../domain/roles.ts';
import type { Queryable } from '../db/client.ts';
import { profiles, providerApplications, userRoles } from '../db/schema/core.ts';
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
  application_submitted_at: Date | null;
  application_exclusion_match: string | null;
  application_cycle: ApplicationCycle | null;
  application_count: number;
  document_count: number;
  documents: CardDocument[];
}

/**
 * Users newest first (by profiles.created_at), optionally filtered by a name or email substring or
 * an exact NPI or license number (`providerMatches`),
 * with each card's current application, counts and newest documents: one query for the page (the
 * page of profiles, then one lateral lookup per card on indexed columns) and one count.
 * @param search free text; '' lists everybody
 */
export async function listProviderCards(
  db: Queryable,
  { search, ...paging }: PageRequest & { search?: string },
): Promise<Page<ProviderCard>> {
  const term = normalizeSearch(search);
  const where = term ? sql`where ${providerMatches(term)}` : sql``;
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
           cur.submitted_at as application_submitted_at, cur.exclusion_match as application_exclusion_match,
           cur.cycle as application_cycle,
           (select count(*)::int from ${a} where ${a.userId} = page.user_id) as application_count,
           docs.document_count, docs.documents
    from page
    left join ${userRoles} on ${userRoles.userId} = page.user_id
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
    })),
    ...count,
    ...paging,
  };
}
