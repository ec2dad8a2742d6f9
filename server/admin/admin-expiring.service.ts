/**
 * The 'Expiring' tab of the admin dashboard (issue 14, decision 023): one page of the dated
 * credentials of every provider's current application that have expired or expire within a window,
 * soonest (most overdue) first, optionally of one kind. The query, and the batches of the CSV
 * export, are server/credentials/current-credentials.ts's; this adds the page and the capped total
 * (see EXPIRING_COUNT_CAP: every window holds what has expired, a large share of the rows at volume).
 */
import { sql } from 'drizzle-orm';
import type { ExpiringListItem } from '../../domain/api/admin.ts';
import {
  type ExpiringFilter,
  type ExpiringRow,
  expiringFrom,
  presentCredential,
  readRows,
  serial,
} from '../credentials/current-credentials.ts';
import type { Queryable } from '../db/client.ts';
import { countRows, offsetOf, type Page, type PageRequest } from './admin-list-query.ts';

/**
 * The tab's totals stop at this many credentials ("1,000+"), and its pages reach this far; the CSV
 * export has every row. Lower than LIST_COUNT_CAP because each counted row costs the check that its
 * application is the provider's current one (two index lookups): on the volume seed 1,000 rows
 * count in 10-25 ms, 10,000 took 160 ms.
 */
export const EXPIRING_COUNT_CAP = 1_000;

/**
 * One page of the 'Expiring' tab (issue 14): credentials of current applications in `filter`'s
 * window at `now`, by expiry date ascending then row id; `total` counted up to EXPIRING_COUNT_CAP,
 * and pages past it are empty.
 * @param now the clock (the route passes `new Date()`; tests move it). Days are UTC calendar days.
 */
export async function listExpiringCredentials(
  db: Queryable,
  { window, kind, ...paging }: ExpiringFilter & PageRequest,
  now: Date,
): Promise<Page<ExpiringListItem>> {
  const from = expiringFrom({ window, kind }, now);
  const offset = offsetOf(paging);
  // Beyond the cap there is no page to show (and an OFFSET that deep would check every skipped row).
  const [rows, count] = await Promise.all([
    offset < EXPIRING_COUNT_CAP
      ? serial(db, (tx) => readRows(tx, from, paging.pageSize, offset))
      : ([] as ExpiringRow[]),
    // Counted in the page's order so PostgreSQL walks the same index path and stops at the cap.
    serial(db, (tx) => countRows(tx, sql`${from} order by c.expires_on, c.row_id`, EXPIRING_COUNT_CAP)),
  ]);
  return { items: rows.map((row) => presentCredential(row, now)), ...count, ...paging };
}
