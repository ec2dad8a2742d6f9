/**
 * Totals of the admin lists remembered between requests (issue 35 goal 4): the 'Users & Applications'
 * list and its searches, the 'Review Queue' and the 'Expiring' tab count up to thousands of rows for
 * every page they show (a capped `count(*)` reads up to 10,000 index entries; the 'Expiring' total
 * checks up to 1,000 credentials' applications), which made the count the dearest part of a page.
 *
 * Each list has a version: a PostgreSQL sequence (migration 0034) that statement-level triggers bump
 * on every INSERT, UPDATE, DELETE or TRUNCATE of a table its totals read (`admin_list_version_*`). A
 * page's statement reads the version with its rows; a total counted at the same version is served
 * from this memory, any write since makes it count again. So a total is exact once the write that
 * changed it has committed, on every instance (the sequence is shared), with one bound: a count that
 * ran while a write was in progress (bumped, not yet committed) may miss that write, and is then
 * served for at most LIST_TOTAL_TTL_MS. The rows of the page itself are always read fresh.
 *
 * Kept per database handle (the app's handle: one memory per instance), at most
 * LIST_TOTAL_MAX_ENTRIES keys, oldest out first. Keys hold the list's filter (a search term is kept
 * in this process's memory only, never logged).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.ts';

/** The lists whose totals are remembered, each with its version sequence (migration 0034). */
export const listVersionSequences = {
  providers: 'admin_list_version_providers',
  reviewQueue: 'admin_list_version_review_queue',
  expiring: 'admin_list_version_expiring',
} as const;
export type VersionedList = keyof typeof listVersionSequences;

/** The longest a total counted during a concurrent write is served (ms): the staleness bound. */
export const LIST_TOTAL_TTL_MS = 5_000;
/** The most totals kept per instance; the oldest go first. */
export const LIST_TOTAL_MAX_ENTRIES = 1_000;

/** A list's total as the pages present it (admin-list-query.ts `countRows`). */
export interface ListTotal {
  total: number;
  totalCapped: boolean;
}

interface Entry extends ListTotal {
  version: string;
  countedAt: number;
}

const memories = new WeakMap<Queryable, Map<string, Entry>>();

/**
 * A select expression (text) of `list`'s current version, to read with a page's rows: the
 * sequence's last value, '0' before its first bump.
 */
export function listVersion(list: VersionedList): SQL {
  return sql`(select case when is_called then last_value else 0 end::text from ${sql.identifier(listVersionSequences[list])})`;
}

/**
 * The total of `list` under `key` (its filter) at `version` (read by `listVersion` with the page,
 * before this call): remembered when counted at this version less than LIST_TOTAL_TTL_MS ago, else
 * `count()`, remembered. A failed count is not remembered.
 * @param db the app's database handle: the memory is this handle's
 * @param version undefined when the page did not read it (an empty page): counted, not remembered
 * @param now the clock in ms (tests move it)
 */
export async function rememberedTotal(
  db: Queryable,
  list: VersionedList,
  key: string,
  version: string | undefined,
  count: () => Promise<ListTotal>,
  now: () => number = Date.now,
): Promise<ListTotal> {
  if (version === undefined) return count();
  let memory = memories.get(db);
  if (!memory) {
    memory = new Map();
    memories.set(db, memory);
  }
  const fullKey = `${list}\u0000${key}`;
  const entry = memory.get(fullKey);
  if (entry && entry.version === version && now() - entry.countedAt < LIST_TOTAL_TTL_MS) {
    return { total: entry.total, totalCapped: entry.totalCapped };
  }
  const countedAt = now();
  const counted = await count();
  memory.delete(fullKey);
  if (memory.size >= LIST_TOTAL_MAX_ENTRIES) memory.delete(memory.keys().next().value!);
  memory.set(fullKey, { ...counted, version, countedAt });
  return counted;
}
