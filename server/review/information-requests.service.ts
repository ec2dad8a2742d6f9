/**
 * Information requests (issue 13, docs/decisions/018-review-workflow.md): the reviewer's 'Request
 * Information' on some sections, and the provider's 'Submit Response', which stores the next version
 * of the snapshot and locks the sections again. Neither changes the status (under_review stays).
 */

import { eq } from 'drizzle-orm';
import type { InformationRequestDto, RequestInformationBody } from '../../domain/api/review.ts';
import { AppError } from '../../domain/app-error.ts';
import { loadApplicationFor } from '../applications/applications.service.ts';
import type { Actor } from '../auth/actor.ts';
import type { Database } from '../db/client.ts';
import { informationRequests } from '../db/schema/review.ts';
import { storeNextVersion } from '../notifications/application-snapshot.ts';
import { screenApplications } from '../screening/screening.ts';
import {
  auditTransition,
  decide,
  emailOf,
  lockApplication,
  type ReviewCaller,
  snapshotOf,
  type TransitionOutcome,
} from './review-transaction.ts';
import { rebindVerifications } from './verification-binding.ts';
import { addChecklistItems } from './verification-checklist.ts';

/** 'Request Information' (issue 13): opens a request on `body.sections`; under_review stays. */
export async function requestInformation(
  db: Database,
  caller: ReviewCaller,
  applicationId: string,
  body: RequestInformationBody,
  now: Date,
): Promise<TransitionOutcome & { requestId: string }> {
  return db.transaction(async (tx) => {
    const application = await lockApplication(tx, applicationId);
    const to = decide(application, 'request_information', caller.role);
    const [request] = await tx
      .insert(informationRequests)
      .values({
        applicationId: application.id,
        message: body.message,
        sections: body.sections,
        requestedBy: caller.actor.userId,
        requestedAt: now,
      })
      .returning({ id: informationRequests.id });
    await auditTransition(tx, caller, application, 'review.information_requested', to, {
      requestId: request!.id,
      sections: body.sections.join(','),
    });
    const email = await emailOf(tx, application.userId);
    return {
      applicationStatus: to,
      requestId: request!.id,
      mails: email ? [{ kind: 'information_requested', to: email, applicationId: application.id }] : [],
    };
  });
}

/**
 * 'Submit Response' (issue 13): the provider answers the open request `requestId`; version n+1 of the
 * snapshot is stored, new credentials get checklist items, and the sections lock again.
 * @throws AppError not_found (404: not the caller's application, or not its open request),
 *   forbidden (403: an administrator), conflict (409: nothing to respond to)
 */
export async function submitResponse(
  db: Database,
  actor: Actor,
  applicationId: string,
  requestId: string,
  reply: string | undefined,
  now: Date,
): Promise<TransitionOutcome & { version: number }> {
  return db.transaction(async (tx) => {
    await loadApplicationFor(tx, actor, applicationId, 'write');
    const application = await lockApplication(tx, applicationId);
    const to = decide(application, 'submit_response', 'provider');
    if (application.openRequest?.id !== requestId) {
      throw new AppError('not_found', 'This information request is not open. Reload the dashboard.');
    }
    const version = await storeNextVersion(tx, application, 'response');
    await tx
      .update(informationRequests)
      .set({ response: reply || null, respondedAt: now, versionAfter: version.version })
      .where(eq(informationRequests.id, requestId));
    const snapshot = await snapshotOf(tx, application.id, version.version);
    const added = snapshot ? await addChecklistItems(tx, application.id, snapshot, now) : 0;
    // Issue 29: a verification never outlives the data it verified.
    const flagged = snapshot
      ? await rebindVerifications(tx, application, version.version, snapshot, now, actor)
      : [];
    // Issue 30: the response may change what screening matches on (NPI, name, birth date).
    await screenApplications(tx, now, { applicationIds: [application.id] });
    await auditTransition(tx, { actor, role: 'provider' }, application, 'review.response_submitted', to, {
      requestId,
      version: version.version,
      sha256: version.sha256,
      checklistItemsAdded: added,
      needsReverification: flagged.length,
    });
    const email = await emailOf(tx, application.reviewerId);
    return {
      applicationStatus: to,
      version: version.version,
      mails: email ? [{ kind: 'response_received', to: email, applicationId: application.id }] : [],
    };
  });
}

/** An information request as the provider and the reviewer read it. */
export function presentRequest(r: typeof informationRequests.$inferSelect): InformationRequestDto {
  return {
    id: r.id,
    message: r.message,
    sections: r.sections,
    requestedAt: r.requestedAt.toISOString(),
    response: r.response,
    respondedAt: r.respondedAt?.toISOString() ?? null,
    versionAfter: r.versionAfter,
  };
}
