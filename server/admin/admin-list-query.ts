/**
 * What the admin lists share (spec §2 /admin; docs/decisions/009-admin-at-scale.md): paging, capped
 * counts and the name/email search. Every list is ONE query per page (plus one count), never one
 * query per card.
 *
 * Index notes (measured on the volume seed, see bench/admin.bench.ts):
 * - Newest-first orders are written `desc nulls last` so they match the `… DESC NULLS LAST` indexes
 *   (a plain `desc` means NULLS FIRST and makes PostgreSQL sort the whole table).
 * - Name/email search is `lower(first_name || ' ' || last_name || ' ' || email) like '%term%'`: exactly
 *   the expression of the trigram GIN index `profiles_search_trgm_idx`, so a substring search is served
 *   by the index (terms of three characters or more).
 * - A term with a digit and no space may also be an identifier (issue 28): an exact NPI (ten digits,
 *   btree `personal_information_npi_number_idx`) or an exact license number, case-insensitive (btree
 *   `professional_licenses_license_number_idx` on `lower(license_number)`). Exact, not substring: an
 *   NPI prefix lists nobody, and each branch is one index probe. Other terms (names: the common case)
 *   keep the name/email query as it was: the union costs a hash join over profiles when a name matches
 *   hundreds of rows (measured on a 20,000-provider seed: see decision 009).
 * - Search counts (and the counts of the documents and audit lists) stop at LIST_COUNT_CAP: a
 *   one-letter search would otherwise count most of the table. The counters stay exact.
 */
import { type SQL, sql } from 'drizzle-orm';
import { type PageInfo, SEARCH_MAX_LENGTH } from '../../domain/api/admin.ts';
import type { Queryable } from '../db/client.ts';
import { profiles, providerApplications } from '../db/schema/core.ts';
import { personalInformation, professionalLicenses } from '../db/schema/sections.ts';

/** Searches and the documents and audit lists are counted up to this number; beyond it the total reads "10,000+". */
export const LIST_COUNT_CAP = 10_000;

export interface PageRequest {
  /** 1-based page number. */
  page: number;
  /** Rows per page, 1..MAX_PAGE_SIZE (domain/api/admin.ts). */
  pageSize: number;
}

/** One page of results. `totalCapped` means `total` is LIST_COUNT_CAP and more rows match. */
export interface Page<T> extends PageInfo {
  items: T[];
}

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

/** An NPI as the search box holds it: exactly ten digits (CMS NPI standard, 45 CFR 162.406). */
const NPI_TERM = /^[0-9]{10}$/;

/** A term that may be an NPI or a license number: one word with at least one digit. */
const IDENTIFIER_TERM = /^\S*[0-9]\S*$/;

/**
 * A user the admin search finds (issue 28): `term` is a substring of their name or email
 * (`profileMatches`), or, for a term with a digit and no space, exactly the NPI of one of their
 * applications (ten digits only) or exactly one of their license numbers, case-insensitive. A
 * condition on `profiles.user_id`, for a query over `profiles`.
 *
 * Written as `user_id in (… union …)`, not as an OR of the three: PostgreSQL cannot combine the
 * trigram index with the identifier subqueries in one OR and would read every profile.
 * @param term a normalized (lower-cased) search term, not ''
 */
export function providerMatches(term: string): SQL {
  // NPIs and license numbers hold digits and no spaces; names and most emails do not need the union.
  if (!IDENTIFIER_TERM.test(term)) return profileMatches(term);
  const a = providerApplications;
  const pi = personalInformation;
  const l = professionalLicenses;
  const byNpi = NPI_TERM.test(term)
    ? sql`union select ${a.userId} from ${pi} join ${a} on ${a.id} = ${pi.applicationId} where ${pi.npiNumber} = ${term}`
    : sql``;
  return sql`${profiles.userId} in (
    select ${profiles.userId} from ${profiles} where ${profileMatches(term)}
    ${byNpi}
    union select ${a.userId} from ${l} join ${a} on ${a.id} = ${l.applicationId}
      where lower(${l.licenseNumber}) = ${term}
  )`;
}

/**
 * count(*) of `from` (a FROM ... WHERE fragment): exact, or when `capped` counted up to a cap only
 * (`true`: LIST_COUNT_CAP; a number: that cap).
 */
export async function countRows(
  db: Queryable,
  from: SQL,
  capped: boolean | number,
): Promise<{ total: number; totalCapped: boolean }> {
  if (capped === false) {
    const result = await db.execute<{ n: number }>(sql`select count(*)::int as n ${from}`);
    return { total: result.rows[0]!.n, totalCapped: false };
  }
  const cap = capped === true ? LIST_COUNT_CAP : capped;
  const result = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 ${from} limit ${cap + 1}) matched`,
  );
  const n = result.rows[0]!.n;
  return { total: Math.min(n, cap), totalCapped: n > cap };
}

/** Rows skipped before `page`. */
export function offsetOf({ page, pageSize }: PageRequest): number {
  return (page - 1) * pageSize;
}
