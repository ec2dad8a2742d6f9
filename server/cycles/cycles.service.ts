/**
 * Credentialing cycles started on purpose and withdrawable (issue 29 item 2, decision 025):
 *
 * - `withdrawDraft`: the provider's 'Withdraw' of their own draft: draft -> withdrawn.
 * - `closeWithoutDecision`: an administrator's 'Close Without Decision' of a completed application
 *   (submitted or under review) with a reason: -> withdrawn, with an `application.status_changed`
 *   event like every transition after completion (review/status-events.ts).
 * - `startRecredentialingNow`: an administrator opens a recredentialing draft for a credentialed
 *   provider at any date, by the provider's own copy-forward (applications/copy-forward.ts).
 *
 * None of them touches the provider's credential (credential/credential-record.ts): only a
 * decision does. Each status change is one conditional UPDATE (`where application_status = from`), so
 * of two concurrent requests exactly one wins and the other gets 409; each is audited in its
 * transaction. An information request still open when an application is closed stays in the record
 * unanswered: nothing can answer it any more (submit_response needs under_review), and the review
 * page shows the application as Withdrawn with the reason.
 */
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { BaseLogger } from 'pino';
import { AppError } from '../../domain/app-error.ts';
import { type ApplicationStatus, applicationStatusLabel } from '../../domain/application-status.ts';
import { credentialState } from '../../domain/credentials/provider-credential.ts';
import { reviewStatuses } from '../../domain/review/review-workflow.ts';
import { isUuid } from '../../domain/uuid.ts';
import { loadApplicationFor } from '../applications/applications.service.ts';
import { type StartedApplication, startApplication } from '../applications/copy-forward.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Actor } from '../auth/actor.ts';
import { findProviderCredential } from '../credential/credential-record.ts';
import type { Database, Queryable } from '../db/client.ts';
import { providerApplications } from '../db/schema/core.ts';
import { closeReferral } from '../review/review-decisions.service.ts';
import { enqueueStatusEvent } from '../review/status-events.ts';
import type { ObjectStorage } from '../storage/object-storage.ts';

const notFound = () =>
  new AppError('not_found', 'Application not found. Return to the list and choose an application.');

/**
 * Move `applicationId` from one of `from` to withdrawn, recording when, by whom and why.
 * @returns the status it left
 * @throws AppError conflict (409) when it is not in one of `from` (any more)
 */
async function withdraw(
  tx: Queryable,
  applicationId: string,
  from: readonly ApplicationStatus[],
  by: string,
  reason: string | null,
  now: Date,
  refusal: (status: ApplicationStatus) => string,
): Promise<{ from: ApplicationStatus; userId: string }> {
  const [current] = await tx
    .select({ status: providerApplications.applicationStatus, userId: providerApplications.userId })
    .from(providerApplications)
    .where(eq(providerApplications.id, applicationId));
  if (!current) throw notFound();
  if (!from.includes(current.status)) throw new AppError('conflict', refusal(current.status));
  const moved = await tx
    .update(providerApplications)
    .set({ applicationStatus: 'withdrawn', withdrawnAt: now, withdrawnBy: by, withdrawalReason: reason })
    .where(
      and(
        eq(providerApplications.id, applicationId),
        eq(providerApplications.applicationStatus, current.status),
      ),
    )
    .returning({ id: providerApplications.id });
  if (moved.length === 0) {
    throw new AppError(
      'conflict',
      'Someone else changed this application first. Reload to see its current status.',
    );
  }
  // Issue 32: a closed cycle leaves the decision lists and any agenda.
  await closeReferral(tx, applicationId, 'withdrawn', now);
  return { from: current.status, userId: current.userId };
}

/**
 * 'Withdraw' (provider, issue 29 item 2): the caller's own draft -> withdrawn. No status event: the
 * receiver hears of an application only from its completion on (review/status-events.ts).
 * @throws AppError not_found (404) for another provider's application, forbidden (403) for an
 *   administrator, conflict (409) unless it is a draft
 */
export async function withdrawDraft(db: Database, actor: Actor, applicationId: string, now: Date) {
  const application = await loadApplicationFor(db, actor, applicationId, 'write');
  return db.transaction(async (tx) => {
    const { from } = await withdraw(tx, application.id, ['draft'], actor.userId, null, now, (status) =>
      status === 'withdrawn'
        ? 'This application is already withdrawn.'
        : `Only a draft can be withdrawn; this application is ${applicationStatusLabel[status]}. The credentialing team can close it without a decision.`,
    );
    await recordAudit(tx, {
      action: 'application.withdrawn',
      actorUserId: actor.userId,
      subjectUserId: application.userId,
      resourceType: 'application',
      resourceId: application.id,
      ipAddress: actor.ipAddress,
      details: { applicationId: application.id, fromStatus: from, toStatus: 'withdrawn' },
    });
    return { applicationId: application.id, applicationStatus: 'withdrawn' as const };
  });
}

/**
 * 'Close Without Decision' (administrator, issue 29 item 2): submitted or under_review -> withdrawn
 * with `reason`, audited, its status event in the outbox in the same transaction.
 * @throws AppError not_found (404), conflict (409) unless submitted or under review
 */
export async function closeWithoutDecision(
  db: Database,
  actor: Actor,
  applicationId: string,
  reason: string,
  now: Date,
) {
  if (!isUuid(applicationId)) throw notFound();
  return db.transaction(async (tx) => {
    const { from, userId } = await withdraw(
      tx,
      applicationId,
      reviewStatuses,
      actor.userId,
      reason,
      now,
      (status) =>
        `'Close Without Decision' needs an application that is Submitted or Under Review; this one is ${applicationStatusLabel[status]}. Reload to see its current status.`,
    );
    await recordAudit(tx, {
      action: 'application.closed_without_decision',
      actorUserId: actor.userId,
      subjectUserId: userId,
      resourceType: 'application',
      resourceId: applicationId,
      ipAddress: actor.ipAddress,
      details: { applicationId, fromStatus: from, toStatus: 'withdrawn', reasonLength: reason.length },
    });
    await enqueueStatusEvent(tx, {
      applicationId,
      from,
      to: 'withdrawn',
      actor: { type: 'reviewer', id: actor.userId },
      occurredAt: now,
    });
    return { applicationId, applicationStatus: 'withdrawn' as const };
  });
}

/**
 * 'Start Recredentialing Now' (administrator, issue 29 item 2): on the provider's latest approved
 * application, while they hold a credential that has not ended, open a recredentialing draft for
 * them at any date, copied forward as the provider's own 'Start Recredentialing' (audited as
 * 'application.copied_forward' with the administrator as actor).
 * @throws AppError not_found (404), conflict (409) when the application is not the provider's latest
 *   approved one, the credential ended, or a cycle is open already
 */
export async function startRecredentialingNow(
  deps: { db: Database; storage: ObjectStorage; logger: Pick<BaseLogger, 'info' | 'warn' | 'error'> },
  actor: Actor,
  applicationId: string,
  now: Date,
): Promise<StartedApplication> {
  if (!isUuid(applicationId)) throw notFound();
  const [application] = await deps.db
    .select({ userId: providerApplications.userId, status: providerApplications.applicationStatus })
    .from(providerApplications)
    .where(eq(providerApplications.id, applicationId));
  if (!application) throw notFound();
  const [latestApproved] = await deps.db
    .select({ id: providerApplications.id })
    .from(providerApplications)
    .where(
      and(
        eq(providerApplications.userId, application.userId),
        inArray(providerApplications.applicationStatus, ['approved']),
      ),
    )
    .orderBy(desc(providerApplications.decidedAt), desc(providerApplications.id))
    .limit(1);
  if (application.status !== 'approved' || latestApproved?.id !== applicationId) {
    throw new AppError(
      'conflict',
      "'Start Recredentialing Now' is offered on the provider's latest approved application. Open that one from the provider's card.",
    );
  }
  const state = credentialState(await findProviderCredential(deps.db, application.userId), now);
  if (state.state !== 'credentialed' && state.state !== 'expired') {
    throw new AppError(
      'conflict',
      'This provider holds no current credential to recredential: their next application is an initial credentialing, which they start themselves.',
    );
  }
  return startApplication(deps, actor, { by: 'admin', now, providerId: application.userId });
}
