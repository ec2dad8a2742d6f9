/**
 * The admin dashboard's counters (spec §2 /admin "Counters"), counted by PostgreSQL.
 */
import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { AdminStats } from '../../domain/api/admin.ts';
import type { Queryable } from '../db/client.ts';
import { profiles, providerApplications } from '../db/schema/core.ts';
import { documents } from '../db/schema/documents.ts';

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
