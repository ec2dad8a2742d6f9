/**
 * 'Start Review' (issue 13, docs/decisions/018-review-workflow.md): the transition that opens the
 * review of a submitted application: it assigns the reviewer and builds the verification checklist.
 */

import type { Database } from '../db/client.ts';
import { storeNextVersion } from '../notifications/application-snapshot.ts';
import { screenApplications, standingOf } from '../screening/screening.ts';
import { carryForwardVerifications } from './carry-forward.ts';
import {
  announce,
  auditTransition,
  decide,
  lockApplication,
  move,
  type ReviewCaller,
  snapshotOf,
  type TransitionOutcome,
} from './review-transaction.ts';
import { newestVersion } from './verification-binding.ts';
import { addChecklistItems } from './verification-checklist.ts';

/**
 * 'Start Review' (issue 13): submitted -> under_review, assigns the caller as reviewer and generates the
 * verification checklist from version 1 of the snapshot as of `now`.
 */
export async function startReview(
  db: Database,
  caller: ReviewCaller,
  applicationId: string,
  now: Date,
): Promise<TransitionOutcome> {
  return db.transaction(async (tx) => {
    const application = await lockApplication(tx, applicationId);
    const to = decide(application, 'start_review', caller.role);
    await move(tx, application.id, application.applicationStatus, to, {
      reviewStartedAt: now,
      reviewerId: caller.role === 'reviewer' ? caller.actor.userId : application.reviewerId,
    });
    // Applications completed before issue 13 have no version 1 (migration 0007): taken now.
    let snapshot = await snapshotOf(tx, application.id, 1);
    if (!snapshot) {
      const stored = await storeNextVersion(tx, application, 'completion');
      snapshot = await snapshotOf(tx, application.id, stored.version);
    }
    const added = snapshot ? await addChecklistItems(tx, application.id, snapshot, now) : 0;
    // Issue 29 item 6: in a copy, unchanged education keeps the previous cycle's verification.
    const newest = snapshot ? await newestVersion(tx, application.id) : undefined;
    const carried = newest ? await carryForwardVerifications(tx, application, newest, now, caller.actor) : 0;
    // Issues 15 and 30: the exclusion screening item is filled from the applied lists at once.
    const screening = await screenApplications(tx, now, { applicationIds: [application.id] });
    await auditTransition(tx, caller, application, 'review.started', to, {
      checklistItems: added,
      carriedForward: carried,
      exclusionScreening: screening ? ((await standingOf(tx, application.id)) ?? 'no_match') : null,
    });
    await announce(tx, caller, application, to, now);
    return { applicationStatus: to, mails: [] };
  });
}
