/**
 * Test helper: every exclusion list applied today, so a file's screening covers its provider (issue
 * 51 item 1: 'Exclusion screening' is verified only against current lists). Each source gets an
 * applied full import of an empty file, as if an administrator had imported it; a source applied
 * within the last day is left as it is. Tests of screening itself import real files instead.
 */
import { and, eq, gt } from 'drizzle-orm';
import { exclusionSources } from '../../../domain/screening/exclusion-formats.ts';
import type { Queryable } from '../../db/client.ts';
import { exclusionImports } from '../../db/schema/screening.ts';

/** Apply an empty full list of every source at `now` unless one was applied in the day before. */
export async function loadCurrentExclusionLists(db: Queryable, now = new Date()): Promise<void> {
  const dayBefore = new Date(now.getTime() - 24 * 60 * 60 * 1000);
  for (const source of exclusionSources) {
    const [recent] = await db
      .select({ id: exclusionImports.id })
      .from(exclusionImports)
      .where(
        and(
          eq(exclusionImports.source, source.id),
          eq(exclusionImports.status, 'applied'),
          gt(exclusionImports.appliedAt, dayBefore),
        ),
      )
      .limit(1);
    if (recent) continue;
    await db.insert(exclusionImports).values({
      source: source.id,
      kind: 'full',
      status: 'applied',
      fileName: `${source.id}-test.csv`,
      encoding: 'utf-8',
      rowCount: 0,
      stagedAt: now,
      appliedAt: now,
      rowsBefore: 0,
      rowsAfter: 0,
      changedRows: 0,
    });
  }
}
