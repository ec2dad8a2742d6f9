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
 * - Search counts (and the counts of the documents and audit lists) stop at LIST_COUNT_CAP: a
 *   one-letter search would otherwise count most of the table. The counters stay exact.
 */
import { type SQL, sql } from 'drizzle-orm';
import { type PageInfo, SEARCH_MAX_LENGTH } from '../../domain/api/admin.ts';
import type { Queryable } from '../db/client.ts';
import { profiles } from '../db/schema/core.ts';

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
