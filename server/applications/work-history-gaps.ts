/**
 * An application's work-history gaps (issue 29 item 7, NCQA CR 3: an explanation of each gap of
 * 6 months or more). The rules are domain/sections/work-history-gaps.ts, the same the work-history
 * screen shows live; this reads the application's saved positions and graduation dates. Read by the
 * completion (refused while a gap is unexplained) and by the provider's applications list, whose
 * dashboard card for Work History shows no green check while one is (issue 51 item 6).
 */
import { asc, eq } from 'drizzle-orm';
import { AppError } from '../../domain/app-error.ts';
import { isoDay } from '../../domain/calendar.ts';
import {
  unexplainedGaps,
  unexplainedGapsMessage,
  type WorkHistoryGap,
} from '../../domain/sections/work-history-gaps.ts';
import type { Queryable } from '../db/client.ts';
import { education, workHistory } from '../db/schema/sections.ts';
import type { ApplicationSummary } from './applications.service.ts';

/** The gaps of `applicationId`'s work history that have no explanation as of `now`, oldest first. */
export async function findUnexplainedGaps(
  db: Queryable,
  applicationId: string,
  now: Date,
): Promise<WorkHistoryGap[]> {
  const [positions, schools] = await Promise.all([
    db
      .select({
        startDate: workHistory.startDate,
        endDate: workHistory.endDate,
        isCurrentPosition: workHistory.isCurrentPosition,
        gapExplanation: workHistory.gapExplanation,
      })
      .from(workHistory)
      .where(eq(workHistory.applicationId, applicationId))
      .orderBy(asc(workHistory.position), asc(workHistory.createdAt)),
    db
      .select({ graduationDate: education.graduationDate })
      .from(education)
      .where(eq(education.applicationId, applicationId)),
  ]);
  return unexplainedGaps(
    positions,
    schools.map((s) => s.graduationDate),
    isoDay(now),
  );
}

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
  const [first, ...others] = await findUnexplainedGaps(tx, applicationId, now);
  if (!first) return;
  throw new AppError('conflict', unexplainedGapsMessage(first, others.length));
}

/**
 * The drafts among `applications` whose saved work history has gaps without an explanation as of
 * `now`, with how many (GET /api/applications `workHistoryGaps`; issue 51 item 6). Only drafts with Work History complete are read: a provider
 * has at most one draft.
 */
export async function draftWorkHistoryGaps(
  db: Queryable,
  applications: readonly ApplicationSummary[],
  now: Date,
) {
  const drafts = applications.filter(
    (a) => a.applicationStatus === 'draft' && a.completeSections.includes('workHistory'),
  );
  const counted = await Promise.all(
    drafts.map(async (a) => ({
      applicationId: a.id,
      unexplained: (await findUnexplainedGaps(db, a.id, now)).length,
    })),
  );
  return counted.filter((c) => c.unexplained > 0);
}
