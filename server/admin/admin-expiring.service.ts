/**
 * The 'Expiring' tab of the admin dashboard (issue 14, decision 023): one page of the dated
 * credentials of every provider's current application that have expired or expire within a window,
 * soonest (most overdue) first, optionally of one kind. The query, and the batches of the CSV
 * export, are server/credentials/current-credentials.ts's; this adds the page and the capped total
 * (see EXPIRING_COUNT_CAP: every window holds what has expired, a large share of the rows at volume).
 */
import { sql } from 'drizzle-orm';
import { DEFAULT_PAGE_SIZE, type ExpiringListItem } from '../../domain/api/admin.ts';
import type { CredentialKind } from '../../domain/credentials/expiring-credentials.ts';
import {
  type ExpiringFilter,
  type ExpiringRow,
  expiringFrom,
  expiringFromBound,
  presentCredential,
  readRowsSql,
  serial,
  windowBound,
} from '../credentials/current-credentials.ts';
import type { Queryable } from '../db/client.ts';
import { preparedSql } from '../db/prepared-reads.ts';
import { countRows, offsetOf, type Page, type PageRequest } from './admin-list-query.ts';

/**
 * The tab's totals stop at this many credentials ("1,000+"), and its pages reach this far; the CSV
 * export has every row. Lower than LIST_COUNT_CAP because each counted row costs the check that its
 * application is the provider's current one (two index lookups): on the volume seed 1,000 rows
 * count in 10-25 ms, 10,000 took 160 ms.
 */
export const EXPIRING_COUNT_CAP = 1_000;

/**
 * One page of DEFAULT_PAGE_SIZE credentials of `kind` (undefined: every kind) in a window ending
 * before (`exclusive`) or on the placeholder `day`, as a prepared statement: planned once per
 * connection, its generic plan the same merge of index scans in (date, id) order that the LIMIT stops
 * early. The limit is written in the statement (a generic plan that does not know it expects a tenth
 * of the rows and joins the profiles by hashing the table). Placeholders: `day`, `offset`.
 */
function pageStatement(kind: CredentialKind | undefined, exclusive: boolean) {
  const from = expiringFromBound(kind, exclusive, sql`${sql.placeholder('day')}`);
  return preparedSql<ExpiringRow>(
    `admin_expiring_${exclusive ? 'before' : 'through'}_${kind ?? 'all'}`,
    readRowsSql(from, sql.raw(String(DEFAULT_PAGE_SIZE)), sql`${sql.placeholder('offset')}`),
  );
}

const pageStatements = new Map<string, ReturnType<typeof pageStatement>>();

/**
 * One page of the 'Expiring' tab (issue 14): credentials of current applications in `filter`'s
 * window at `now`, by expiry date ascending then row id; `total` counted up to EXPIRING_COUNT_CAP
 * (the page and the count read in parallel); pages past the cap are empty. The route remembers the
 * answer until a write changes the list or the UTC day changes (list-cache.ts).
 * @param now the clock (the route passes `new Date()`; tests move it). Days are UTC calendar days.
 */
export async function listExpiringCredentials(
  db: Queryable,
  { window, kind, ...paging }: ExpiringFilter & PageRequest,
  now: Date,
): Promise<Page<ExpiringListItem>> {
  const { day, exclusive } = windowBound({ window, kind }, now);
  const offset = offsetOf(paging);
  const name = `${exclusive}:${kind ?? 'all'}`;
  let statement = pageStatements.get(name);
  if (!statement) {
    statement = pageStatement(kind, exclusive);
    pageStatements.set(name, statement);
  }
  const readRows = async (): Promise<ExpiringRow[]> =>
    // Beyond the cap there is no page to show (and an OFFSET that deep would check every skipped row).
    offset >= EXPIRING_COUNT_CAP
      ? []
      : paging.pageSize === DEFAULT_PAGE_SIZE
        ? (await statement(db, { day, offset })).rows
        : await serial(db, (tx) =>
            tx
              .execute<ExpiringRow>(
                readRowsSql(expiringFrom({ window, kind }, now), sql`${paging.pageSize}`, sql`${offset}`),
              )
              .then((result) => result.rows),
          );
  const [rows, count] = await Promise.all([
    readRows(),
    // Counted in the page's order so PostgreSQL walks the same index path and stops at the cap.
    serial(db, (tx) =>
      countRows(
        tx,
        sql`${expiringFrom({ window, kind }, now)} order by c.expires_on, c.row_id`,
        EXPIRING_COUNT_CAP,
      ),
    ),
  ]);
  return { items: rows.map((row) => presentCredential(row, now)), ...count, ...paging };
}
