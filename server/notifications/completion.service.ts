/**
 * Completion of an application (spec §4, §7; issue 5) and the administrators' view of deliveries.
 * SQL of the feature lives here and in delivery-lease.ts (claims and outcomes).
 */
import { randomUUID } from 'node:crypto';
import { desc, eq, inArray, sql } from 'drizzle-orm';
import type { AdminNotification, NotificationAttempt } from '../../domain/api/notifications.ts';
import { AppError } from '../../domain/app-error.ts';
import type { AttestationInput } from '../../domain/attestation.ts';
import { nextStatus } from '../../domain/review/review-workflow.ts';
import { SECTION_COUNT } from '../../domain/sections/registry.ts';
import { unconfirmedSectionsMessage } from '../../domain/sections/section-confirmation.ts';
import { isUuid } from '../../domain/uuid.ts';
import { findApplication, loadApplicationFor } from '../applications/applications.service.ts';
import { assertWorkHistoryGapsExplained } from '../applications/work-history-gaps.ts';
import { checkSignature, recordAttestation } from '../attestations/attestation.service.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Actor } from '../auth/actor.ts';
import { staffWithPermission } from '../auth/staff-recipients.ts';
import type { Database } from '../db/client.ts';
import { profiles, providerApplications } from '../db/schema/core.ts';
import {
  type CompletionStatus,
  completionNotifications,
  notificationAttempts,
} from '../db/schema/notifications.ts';
import type { ReviewMail } from '../mail/review-mail.ts';
import type { FieldCipher } from '../security/field-cipher.ts';
import { storeNextVersion } from './application-snapshot.ts';
import {
  type Claim,
  type CompletionDelivery,
  insertAttempt,
  NO_ENDPOINT_ERROR,
  type NotificationRow,
} from './completion-delivery.ts';
import { attemptView, groupByOwner, sendsOf } from './delivery-sends.ts';
import { documentFetchesOf } from './document-fetches.ts';
import { webhookMessageIds } from './webhook-signature.ts';

export interface CompletionRequest {
  row: NotificationRow;
  /** False when the application was already completed (the existing record is returned). */
  created: boolean;
  /** The first attempt, claimed in the same transaction; run it with `delivery.runClaim`. */
  claim?: Claim;
  /**
   * The completion delivered inside the product (issue 51 item 6): an email to each staff member who
   * reviews files, to send once the transaction has committed; [] when not `created`.
   */
  mails: ReviewMail[];
}

/** The signed attestation a completion needs (issue 14), and what it was signed with. */
export interface CompletionAttestation {
  /** Undefined only to ask again about an existing completion; a new completion is refused without it. */
  input: AttestationInput | undefined;
  /** The request's User-Agent header, if any (stored, at most 512 characters). */
  userAgent: string | null;
  cipher: FieldCipher;
}

/**
 * Record that the provider completed `applicationId` and queue its notification, in one transaction
 * (spec §4: only a draft at 100%; issue 14: only with a signed attestation, stored with the SHA-256
 * of the version 1 snapshot it signs). The application moves from draft to submitted with version 1 of
 * its snapshot (issue 13). Idempotent: a second call
 * returns the existing record. With an endpoint configured, the first attempt is claimed right away
 * (so the caller can run it inline); without one the record is `undelivered` ('no endpoint configured').
 * Either way the credentialing team has it inside the product (issue 51 item 6): the application is
 * on the 'Review Queue' (submitted), and `mails` tells each staff member who reviews files
 * (`review:application:any`), the provider excepted; the webhook is a further delivery.
 * @throws AppError not_found (404; not the caller's), forbidden (403; admins), conflict (409; not a
 *   draft, or not every section complete, or a copied section not confirmed (named; issue 29 item
 *   6), or a work-history gap of 6 months or more unexplained as
 *   of `now`: issue 29 item 7), validation_failed (400; the typed name is not the profile's full name)
 */
export async function requestCompletion(
  db: Database,
  delivery: Pick<CompletionDelivery, 'configured' | 'leaseMs'>,
  actor: Actor,
  applicationId: string,
  attestation: CompletionAttestation,
  now: Date = new Date(),
): Promise<CompletionRequest> {
  return db.transaction(async (tx) => {
    const application = await loadApplicationFor(tx, actor, applicationId, 'write');
    // Serialise double clicks on one application.
    await tx.execute(sql`select 1 from provider_applications where id = ${application.id} for update`);
    const [existing] = await tx
      .select()
      .from(completionNotifications)
      .where(eq(completionNotifications.applicationId, application.id));
    if (existing) return { row: existing, created: false, mails: [] };

    if (application.applicationStatus !== 'draft') {
      throw new AppError('conflict', 'Only a draft application can be completed.');
    }
    const summary = await findApplication(tx, application.id);
    // Issue 29 item 6: a copy is completed only once every copied section is confirmed, named here.
    if (summary && summary.unconfirmedSections.length > 0) {
      throw new AppError('conflict', unconfirmedSectionsMessage(summary.unconfirmedSections));
    }
    if (summary?.progress !== 100) {
      throw new AppError(
        'conflict',
        `Complete every section first: ${summary?.completeSections.length ?? 0} of ${SECTION_COUNT} are complete.`,
      );
    }
    await assertWorkHistoryGapsExplained(tx, application.id, now);
    const input = attestation.input;
    if (!input) {
      const message = 'Sign the attestation first: answer each question and type your full name.';
      throw new AppError('validation_failed', message, { issues: [{ path: ['signature'], message }] });
    }
    await checkSignature(tx, application.userId, input.signature);

    const leaseId = randomUUID();
    const [row] = await tx
      .insert(completionNotifications)
      .values(
        delivery.configured
          ? {
              applicationId: application.id,
              userId: application.userId,
              status: 'pending',
              attempts: 1,
              leaseId,
              nextAttemptAt: sql`now() + ${delivery.leaseMs} * interval '1 millisecond'`,
            }
          : {
              applicationId: application.id,
              userId: application.userId,
              status: 'undelivered',
              lastError: NO_ENDPOINT_ERROR,
            },
      )
      .returning();
    // Issue 13 (decision 018): completing moves draft -> submitted in this same transaction, with
    // version 1 of the frozen snapshot and its audit row (the payload and its delivery are unchanged).
    const submitted = nextStatus(
      { status: application.applicationStatus, openRequest: false },
      'complete',
      'provider',
    );
    if (!submitted.ok) throw new AppError('conflict', submitted.message);
    await tx
      .update(providerApplications)
      .set({ applicationStatus: submitted.to, submittedAt: row!.createdAt })
      .where(eq(providerApplications.id, application.id));
    const version = await storeNextVersion(tx, application, 'completion');
    const signed = await recordAttestation(tx, attestation.cipher, {
      application,
      kind: 'completion',
      input,
      ipAddress: actor.ipAddress,
      userAgent: attestation.userAgent,
      snapshot: version,
    });
    await recordAudit(tx, {
      action: 'review.submitted',
      actorUserId: actor.userId,
      subjectUserId: application.userId,
      resourceType: 'application',
      resourceId: application.id,
      ipAddress: actor.ipAddress,
      details: {
        applicationId: application.id,
        fromStatus: application.applicationStatus,
        toStatus: submitted.to,
        version: version.version,
        sha256: version.sha256,
        attestationId: signed.id,
      },
    });
    const reviewers = await staffWithPermission(tx, 'review:application:any', application.userId);
    const mails = reviewers.map(
      (staff): ReviewMail => ({
        kind: 'application_completed',
        to: staff.email,
        applicationId: application.id,
      }),
    );
    await recordAudit(tx, {
      action: 'notification.queued',
      actorUserId: actor.userId,
      subjectUserId: application.userId,
      resourceType: 'completion_notification',
      resourceId: row!.id,
      ipAddress: actor.ipAddress,
      // `status` is the webhook's; `staffNotified` the emails of the delivery inside the product.
      details: { applicationId: application.id, status: row!.status, staffNotified: mails.length },
    });
    if (!delivery.configured) return { row: row!, created: true, mails };
    const attemptId = await insertAttempt(tx, row!);
    return { row: row!, created: true, claim: { notification: row!, leaseId, attemptId }, mails };
  });
}

/** One delivery attempt as admins see it (domain/api/notifications.ts). */
export type AttemptView = NotificationAttempt;

/** One notification as admins see it (GET /api/admin/notifications; domain/api/notifications.ts). */
export type NotificationView = AdminNotification;

/**
 * Notifications, newest first, with their attempts.
 * @param options.status only this state; options.limit at most this many (1..500)
 */
export async function listNotifications(
  db: Database,
  options: { status?: CompletionStatus; limit: number; ids?: string[] },
): Promise<NotificationView[]> {
  const where = options.ids
    ? inArray(completionNotifications.id, options.ids)
    : options.status
      ? eq(completionNotifications.status, options.status)
      : undefined;
  const rows = await db
    .select({
      notification: completionNotifications,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      email: profiles.email,
    })
    .from(completionNotifications)
    .leftJoin(profiles, eq(profiles.userId, completionNotifications.userId))
    .where(where)
    .orderBy(desc(completionNotifications.createdAt), desc(completionNotifications.id))
    .limit(options.limit);
  const ids = rows.map((r) => r.notification.id);
  const attempts =
    ids.length === 0
      ? []
      : await db
          .select()
          .from(notificationAttempts)
          .where(inArray(notificationAttempts.notificationId, ids))
          .orderBy(notificationAttempts.attemptedAt, notificationAttempts.id);
  const byNotification = groupByOwner(attempts, (a) => a.notificationId);
  const fetches = await documentFetchesOf(db, ids);
  return rows.map(({ notification: n, firstName, lastName, email }) => ({
    id: n.id,
    webhookId: webhookMessageIds(n).webhookId,
    applicationId: n.applicationId,
    userId: n.userId,
    providerName: [firstName, lastName].filter(Boolean).join(' '),
    providerEmail: email ?? '',
    status: n.status,
    attempts: n.attempts,
    nextAttemptAt: n.nextAttemptAt?.toISOString() ?? null,
    lastError: n.lastError,
    requestedAt: n.createdAt.toISOString(),
    deliveredAt: n.deliveredAt?.toISOString() ?? null,
    attemptLog: (byNotification.get(n.id) ?? []).map(attemptView),
    sends: sendsOf(n, byNotification.get(n.id) ?? [], fetches),
  }));
}

/**
 * Queue a notification again (admin "re-send"), whatever its state: attempts start over, as a new
 * message (issue 28 item 7): a new `webhook-id` (`message_id`), the payload's `resendOf` naming the
 * first message, since receivers drop an id they have seen (Standard Webhooks; the shipped n8n
 * workflow). Its retries keep the new id. Audited as 'notification.resend' with both ids.
 * @returns with an endpoint configured, the new series' first attempt, claimed in the same transaction
 *   (run it with `delivery.runClaim`); otherwise undefined (the row waits as 'undelivered')
 * @throws AppError not_found (404)
 */
export async function resendNotification(
  db: Database,
  delivery: Pick<CompletionDelivery, 'configured' | 'leaseMs'>,
  actor: Actor,
  notificationId: string,
): Promise<Claim | undefined> {
  const notFound = new AppError('not_found', 'Notification not found. Reload the list and try again.');
  if (!isUuid(notificationId)) throw notFound;
  const messageId = randomUUID();
  // With an endpoint, the first attempt of the new series is claimed in this transaction (as at
  // completion), so the worker's poll cannot take it between the re-send and the attempt at once.
  const leaseId = randomUUID();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(completionNotifications)
      .set(
        delivery.configured
          ? {
              messageId,
              status: 'pending',
              attempts: 1,
              nextAttemptAt: sql`now() + ${delivery.leaseMs} * interval '1 millisecond'`,
              leaseId,
              lastError: null,
              deliveredAt: null,
              updatedAt: new Date(),
            }
          : {
              // Sent as this new message once an endpoint is configured.
              messageId,
              status: 'undelivered',
              nextAttemptAt: null,
              leaseId: null,
              lastError: NO_ENDPOINT_ERROR,
              updatedAt: new Date(),
            },
      )
      .where(eq(completionNotifications.id, notificationId))
      .returning();
    if (!row) throw notFound;
    await recordAudit(tx, {
      action: 'notification.resend',
      actorUserId: actor.userId,
      subjectUserId: row.userId,
      resourceType: 'completion_notification',
      resourceId: row.id,
      ipAddress: actor.ipAddress,
      details: { applicationId: row.applicationId, webhookId: messageId, resendOf: row.id },
    });
    if (!delivery.configured) return undefined;
    const attemptId = await insertAttempt(tx, row);
    return { notification: row, leaseId, attemptId };
  });
}
