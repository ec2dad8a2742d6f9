/**
 * The steps every transition of the credentialing review takes inside its one transaction (issue 13,
 * docs/decisions/018-review-workflow.md): lock the application row (FOR UPDATE) with its open
 * information request, ask the state machine (domain/review/review-workflow.ts `nextStatus`), move the
 * row with a conditional UPDATE (`WHERE application_status = $from`), write the audit row (actor,
 * before/after status) and the status event. Shared by the review's services in this folder; other
 * features reach the lock and the decisions through review-decisions.service.ts.
 */

import { and, eq, isNull } from 'drizzle-orm';
import { AppError } from '../../domain/app-error.ts';
import type { ApplicationStatus } from '../../domain/application-status.ts';
import type { AuditAction } from '../../domain/audit-actions.ts';
import type { ApplicationSnapshot } from '../../domain/review/application-snapshot.ts';
import { nextStatus, type ReviewAction, type ReviewActor } from '../../domain/review/review-workflow.ts';
import { isUuid } from '../../domain/uuid.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Actor } from '../auth/actor.ts';
import type { Queryable } from '../db/client.ts';
import { user } from '../db/schema/auth.ts';
import { providerApplications } from '../db/schema/core.ts';
import { applicationVersions, informationRequests } from '../db/schema/review.ts';
import type { ReviewMail } from '../mail/review-mail.ts';
import { enqueueStatusEvent } from './status-events.ts';

/** Who acts on the server side of the review: an administrator ('reviewer') or the provider. */
export interface ReviewCaller {
  /** An administrator's or provider's session; for the integration, its address and no user. */
  actor: Pick<Actor, 'ipAddress'> & { userId: string | null };
  role: ReviewActor;
  /** The integration's name (audit and events), when `role` is 'integration'. */
  integration?: string;
}

/** A transition's result: the status it left the application in and the mails to send once committed. */
export interface TransitionOutcome {
  applicationStatus: ApplicationStatus;
  mails: ReviewMail[];
}

/** 404 for an application id that is not one, or names no application. */
export const applicationNotFound = () =>
  new AppError('not_found', 'Application not found. Return to the list and choose an application.');

/** The application row as `lockApplication` read it under its lock, with its open request. */
export interface LockedApplication {
  id: string;
  userId: string;
  applicationStatus: ApplicationStatus;
  reviewerId: string | null;
  submittedAt: Date | null;
  openRequest: { id: string; sections: string[] } | null;
}

/** The application row locked for update, with its open information request. @throws 404 */
export async function lockApplication(tx: Queryable, applicationId: string): Promise<LockedApplication> {
  if (!isUuid(applicationId)) throw applicationNotFound();
  const [row] = await tx
    .select({
      id: providerApplications.id,
      userId: providerApplications.userId,
      applicationStatus: providerApplications.applicationStatus,
      reviewerId: providerApplications.reviewerId,
      submittedAt: providerApplications.submittedAt,
    })
    .from(providerApplications)
    .where(eq(providerApplications.id, applicationId))
    .for('update');
  if (!row) throw applicationNotFound();
  const [open] = await tx
    .select({ id: informationRequests.id, sections: informationRequests.sections })
    .from(informationRequests)
    .where(
      and(eq(informationRequests.applicationId, applicationId), isNull(informationRequests.respondedAt)),
    );
  return { ...row, openRequest: open ?? null };
}

/**
 * `action` by `role` from the application's state: the next status.
 * @throws AppError conflict (409) with the state machine's message, forbidden (403) when the actor may
 *   never take it
 */
export function decide(
  application: LockedApplication,
  action: ReviewAction,
  role: ReviewActor,
): ApplicationStatus {
  const result = nextStatus(
    { status: application.applicationStatus, openRequest: application.openRequest !== null },
    action,
    role,
  );
  if (result.ok) return result.to;
  throw new AppError(result.reason === 'not_allowed_for_actor' ? 'forbidden' : 'conflict', result.message);
}

/** Conditional move `from` -> `to`; 0 rows means someone else moved it first. @throws 409 */
export async function move(
  tx: Queryable,
  applicationId: string,
  from: ApplicationStatus,
  to: ApplicationStatus,
  set: Partial<typeof providerApplications.$inferInsert> = {},
): Promise<void> {
  const moved = await tx
    .update(providerApplications)
    .set({ ...set, applicationStatus: to })
    .where(and(eq(providerApplications.id, applicationId), eq(providerApplications.applicationStatus, from)))
    .returning({ id: providerApplications.id });
  if (moved.length === 0) {
    throw new AppError(
      'conflict',
      'Someone else changed this application first. Reload to see its current status.',
    );
  }
}

/** The outbox row of a status change (status-events.ts), in the caller's transaction. */
export function announce(
  tx: Queryable,
  caller: ReviewCaller,
  application: LockedApplication,
  to: ApplicationStatus,
  now: Date,
): Promise<void> {
  return enqueueStatusEvent(tx, {
    applicationId: application.id,
    from: application.applicationStatus,
    to,
    actor: {
      type: caller.role,
      id: caller.role === 'integration' ? (caller.integration ?? null) : caller.actor.userId,
    },
    occurredAt: now,
  });
}

/** The audit row of a transition: who (`caller`), from which status to `to`, and `details`. */
export async function auditTransition(
  tx: Queryable,
  caller: ReviewCaller,
  application: LockedApplication,
  action: AuditAction,
  to: ApplicationStatus,
  details: Record<string, string | number | boolean | null> = {},
): Promise<void> {
  await recordAudit(tx, {
    action,
    actorUserId: caller.actor.userId,
    subjectUserId: application.userId,
    resourceType: 'application',
    resourceId: application.id,
    ipAddress: caller.actor.ipAddress,
    details: {
      applicationId: application.id,
      actor: caller.role,
      fromStatus: application.applicationStatus,
      toStatus: to,
      // Issue 53 item 5: a change the workflow tool made names it, as the README says.
      ...(caller.integration ? { integration: caller.integration } : {}),
      ...details,
    },
  });
}

/** The email address of `userId`, or null (no user, or none found). */
export async function emailOf(tx: Queryable, userId: string | null): Promise<string | null> {
  if (!userId) return null;
  const [row] = await tx.select({ email: user.email }).from(user).where(eq(user.id, userId));
  return row?.email ?? null;
}

/** Version `version` of the application's snapshot, or null when it has none such. */
export async function snapshotOf(
  tx: Queryable,
  applicationId: string,
  version: number,
): Promise<ApplicationSnapshot | null> {
  const [row] = await tx
    .select({ snapshot: applicationVersions.snapshot })
    .from(applicationVersions)
    .where(
      and(eq(applicationVersions.applicationId, applicationId), eq(applicationVersions.version, version)),
    );
  return (row?.snapshot as ApplicationSnapshot | undefined) ?? null;
}
