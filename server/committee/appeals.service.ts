/**
 * Appeals (issue 32 item 6, docs/decisions/029): a provider whose application was denied may request
 * an appeal within APPEAL_WINDOW_DAYS, with a statement. The appeal waits on 'Ready for Committee' for
 * a meeting held after the denial; that meeting's decision on it is final (one appeal per denial).
 */
import { and, eq, isNull } from 'drizzle-orm';
import { AppError } from '../../domain/app-error.ts';
import { formatIsoDay, isoDay } from '../../domain/calendar.ts';
import { APPEAL_WINDOW_DAYS, appealDeadline, appealOpen } from '../../domain/committee/decision-letters.ts';
import { loadApplicationFor } from '../applications/applications.service.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Actor } from '../auth/actor.ts';
import type { Database, Queryable } from '../db/client.ts';
import { appealAttachments, committeeAppeals, decisionReferrals } from '../db/schema/committee.ts';
import { providerApplications } from '../db/schema/core.ts';
import { lockApplication } from '../review/review-decisions.service.ts';

/** The reason an appeal stands on 'Ready for Committee': 'Appeal of the denial of Dec 1, 2026'. */
export const appealReason = (deniedOn: string) => `Appeal of the denial of ${formatIsoDay(deniedOn)}`;

/**
 * The day of the denial whose appeal may be requested at `now`; call under the application's lock.
 * @throws AppError conflict (409) unless `application` was denied no more than APPEAL_WINDOW_DAYS ago
 *   and has no appeal yet, each with its own message
 */
export async function assertAppealOpen(
  tx: Queryable,
  application: { id: string; applicationStatus: string },
  now: Date,
): Promise<string> {
  if (application.applicationStatus !== 'rejected') {
    throw new AppError('conflict', 'Only a denied application can be appealed. Reload to see its status.');
  }
  const [row] = await tx
    .select({ decidedAt: providerApplications.decidedAt })
    .from(providerApplications)
    .where(eq(providerApplications.id, application.id));
  const deniedOn = isoDay(row?.decidedAt ?? now);
  if (!appealOpen(deniedOn, isoDay(now))) {
    throw new AppError(
      'conflict',
      `An appeal is requested within ${APPEAL_WINDOW_DAYS} days of the denial; that time ended on ${formatIsoDay(appealDeadline(deniedOn))}.`,
    );
  }
  const [earlier] = await tx
    .select({ id: committeeAppeals.id })
    .from(committeeAppeals)
    .where(eq(committeeAppeals.applicationId, application.id));
  if (earlier) {
    throw new AppError(
      'conflict',
      'You have requested an appeal of this decision already: its decision is final.',
    );
  }
  return deniedOn;
}

/**
 * 'Request Appeal' by the provider who owns `applicationId`: refused (409) unless it was denied no more
 * than APPEAL_WINDOW_DAYS ago and has no appeal yet; 404 for anyone else's application.
 */
export async function requestAppeal(
  db: Database,
  actor: Actor,
  applicationId: string,
  statement: string,
  now: Date,
): Promise<void> {
  // The owner only: staff may read an application but never act for its provider (spec §6).
  await loadApplicationFor(db, actor, applicationId, 'write');
  await db.transaction(async (tx) => {
    const application = await lockApplication(tx, applicationId);
    const deniedOn = await assertAppealOpen(tx, application, now);
    const [appeal] = await tx
      .insert(committeeAppeals)
      .values({ applicationId: application.id, statement, requestedAt: now })
      .returning({ id: committeeAppeals.id });
    // Issue 50 item 8: the files attached while it was written are now part of the appeal.
    const attached = await claimAppealAttachments(tx, application.id, appeal!.id);
    // A denial closed the file's referral: the appeal opens a new one, on the committee's list.
    const [open] = await tx
      .select({ id: decisionReferrals.id })
      .from(decisionReferrals)
      .where(and(eq(decisionReferrals.applicationId, application.id), isNull(decisionReferrals.closedAt)));
    if (open)
      throw new AppError('conflict', 'This file is waiting for a decision already. Reload to see it.');
    await tx.insert(decisionReferrals).values({
      applicationId: application.id,
      track: 'committee',
      kind: 'appeal',
      reasons: [appealReason(deniedOn)],
      sentAt: now,
      sentBy: actor.userId,
    });
    await recordAudit(tx, {
      action: 'review.appeal_requested',
      actorUserId: actor.userId,
      subjectUserId: application.userId,
      resourceType: 'application',
      resourceId: application.id,
      ipAddress: actor.ipAddress,
      details: { applicationId: application.id, statementLength: statement.length, attachments: attached },
    });
  });
}

/** Take every waiting attachment of `applicationId` into `appealId` ('Request Appeal'); their count. */
export async function claimAppealAttachments(
  tx: Queryable,
  applicationId: string,
  appealId: string,
): Promise<number> {
  const rows = await tx
    .update(appealAttachments)
    .set({ appealId })
    .where(and(eq(appealAttachments.applicationId, applicationId), isNull(appealAttachments.appealId)))
    .returning({ id: appealAttachments.id });
  return rows.length;
}
