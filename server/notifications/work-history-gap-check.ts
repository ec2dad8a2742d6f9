/**
 * The completion's work-history gap check (issue 29 item 7, NCQA CR 3: an explanation of each gap of
 * 6 months or more). The rules are domain/sections/work-history-gaps.ts, the same the work-history
 * screen shows live; this reads the application's saved positions and graduation dates.
 */
import { asc, eq } from 'drizzle-orm';
import { AppError } from '../../domain/app-error.ts';
import { isoDay } from '../../domain/calendar.ts';
import { unexplainedGaps, unexplainedGapsMessage } from '../../domain/sections/work-history-gaps.ts';
import type { Queryable } from '../db/client.ts';
import { education, workHistory } from '../db/schema/sections.ts';

/**
 * Refuse to complete `applicationId` while a gap of its work history has no explanation, as of `now`.
 * The message names the oldest such gap ("Work history: explain the gap from 2024-01-31 to 2024-09-30
 * (8 months) in Work History before completing.") and counts any others.
 * @throws AppError conflict (409)
 */
export async function assertWorkHistoryGapsExplained(
  tx: Queryable,
  applicationId: string,
  now: Date,
): Promise<void> {
  const [positions, schools] = await Promise.all([
    tx
      .select({
        startDate: workHistory.startDate,
        endDate: workHistory.endDate,
        isCurrentPosition: workHistory.isCurrentPosition,
        gapExplanation: workHistory.gapExplanation,
      })
      .from(workHistory)
      .where(eq(workHistory.applicationId, applicationId))
      .orderBy(asc(workHistory.position), asc(workHistory.createdAt)),
    tx
      .select({ graduationDate: education.graduationDate })
      .from(education)
      .where(eq(education.applicationId, applicationId)),
  ]);
  const [first, ...others] = unexplainedGaps(
    positions,
    schools.map((s) => s.graduationDate),
    isoDay(now),
  );
  if (!first) return;
  throw new AppError('conflict', unexplainedGapsMessage(first, others.length));
}
