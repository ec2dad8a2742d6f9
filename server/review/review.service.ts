/**
 * The credentialing review's transitions and reads (issue 13, docs/decisions/018-review-workflow.md).
 * Every transition runs in one transaction through review-transaction.ts (lock the row, ask the state
 * machine, move conditionally, audit, announce); decisions are review-decisions.service.ts's.
 * "Now" is a parameter wherever a rule depends on the date.
 */

import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { providerFullName } from '../../domain/account.ts';
import type { NppesCheck } from '../../domain/api/nppes.ts';
import type {
  AdminReview,
  InformationRequestDto,
  ProviderReview,
  RequestInformationBody,
  ReviewQueue,
  ReviewQueueQuery,
  VerificationItemDto,
  VerificationUpdate,
} from '../../domain/api/review.ts';
import { REVIEW_QUEUE_PAGE_SIZE } from '../../domain/api/review.ts';
import { AppError } from '../../domain/app-error.ts';
import type { ApplicationStatus } from '../../domain/application-status.ts';
import { nextUtcDayStart } from '../../domain/calendar.ts';
import { cleanFileReview, snapshotPaidClaim } from '../../domain/committee/clean-file.ts';
import type { Decider, DecisionTrack } from '../../domain/committee/committee-decisions.ts';
import {
  type DecisionClockLimits,
  decisionDue,
  defaultDecisionClockLimits,
} from '../../domain/committee/timeliness.ts';
import {
  type ApplicationCycle,
  availableCycleActions,
  credentialState,
} from '../../domain/credentials/provider-credential.ts';
import { hasPermission, type Permission } from '../../domain/permissions.ts';
import { type ApplicationSnapshot, diffByRow } from '../../domain/review/application-snapshot.ts';
import { availableActions, type ReviewAction, reviewStatuses } from '../../domain/review/review-workflow.ts';
import {
  evidenceRequiredMessage,
  isoDay,
  type VerificationKind,
  type VerificationStatus,
} from '../../domain/review/verification-checklist.ts';
import type { FieldChange } from '../../domain/review/verification-fingerprint.ts';
import type { AccessRole } from '../../domain/roles.ts';
import { deaWarnings, npiWarning } from '../../domain/sections/identifier-checks.ts';
import { workHistoryGapLines } from '../../domain/sections/work-history-gaps.ts';
import { isUuid } from '../../domain/uuid.ts';
import { countRows } from '../admin/admin-list-query.ts';
import { loadApplicationFor } from '../applications/applications.service.ts';
import { findProviderCredential, presentCredential } from '../applications/provider-credential.ts';
import {
  listAttestations,
  reattestationDue,
  reattestationDueAt,
} from '../attestations/attestation.service.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Actor } from '../auth/actor.ts';
import type { Database, Queryable } from '../db/client.ts';
import { preparedSql } from '../db/prepared-reads.ts';
import { auditLog } from '../db/schema/audit.ts';
import { user } from '../db/schema/auth.ts';
import { decisionReferrals } from '../db/schema/committee.ts';
import { profiles, providerApplications } from '../db/schema/core.ts';
import { credentialUpdates } from '../db/schema/credentials.ts';
import {
  applicationVersions,
  informationRequests,
  verificationEvidence,
  verificationItems,
} from '../db/schema/review.ts';
import { newestSnapshot, storeNextVersion } from '../notifications/application-snapshot.ts';
import { screenApplications, standingOf } from '../screening/screening.ts';
import type { FieldCipher } from '../security/field-cipher.ts';
import { carryForwardVerifications } from './carry-forward.ts';
import { appealStateOf, lettersOf } from './decision-letter.ts';
import { compareWithApplication, type NppesClient } from './nppes.ts';
import {
  announce,
  applicationNotFound,
  auditTransition,
  decide,
  emailOf,
  lockApplication,
  move,
  type ReviewCaller,
  snapshotOf,
  type TransitionOutcome,
} from './review-transaction.ts';
import { bindingColumns, newestVersion, rebindVerifications } from './verification-binding.ts';
import { addChecklistItems } from './verification-checklist.ts';

/**
 * Whether checklist outcomes may be recorded on an application of `status` now: while it is under
 * review, and, for an approved application, while a credential update is open (issue 29 item 4: the
 * changed items are verified again after approval).
 */
async function verificationsOpen(tx: Queryable, applicationId: string, status: ApplicationStatus) {
  if (status === 'under_review') return true;
  if (status !== 'approved') return false;
  const [open] = await tx
    .select({ id: credentialUpdates.id })
    .from(credentialUpdates)
    .where(and(eq(credentialUpdates.applicationId, applicationId), isNull(credentialUpdates.reviewedAt)));
  return open !== undefined;
}

const verificationsClosedMessage =
  'Verifications can be recorded only while the application is Under Review or a Credential Update is open. Reload to see its current status.';

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

/** The evidence row as the review page shows it. */
export function presentEvidence(row: typeof verificationEvidence.$inferSelect) {
  return {
    id: row.id,
    itemId: row.itemId,
    fileName: row.fileName,
    mimeType: row.mimeType,
    fileSize: row.fileSize,
    uploadedAt: row.uploadedAt.toISOString(),
    uploadedBy: row.uploadedBy,
    downloadUrl: `/api/admin/applications/${row.applicationId}/evidence/${row.id}/download`,
  };
}

/** The NPI and DEA warnings of `snapshot`, by checklist kind (issue 15; judged as final values). */
function snapshotIdentifierWarnings(
  snapshot: ApplicationSnapshot,
): Partial<Record<VerificationKind, string[]>> {
  const personal = snapshot.personalInformation ?? {};
  const npi = npiWarning(String(personal.npi_number ?? ''), 'final');
  const lastName = snapshot.profile?.last_name;
  return {
    npi: npi ? [npi] : [],
    dea: deaWarnings(
      String(personal.dea_number ?? ''),
      typeof lastName === 'string' ? lastName : undefined,
      'final',
    ),
  };
}

function presentItem(
  row: typeof verificationItems.$inferSelect,
  evidence: VerificationItemDto['evidence'] = [],
  warnings: string[] = [],
  details: string[] = [],
): VerificationItemDto {
  return {
    evidence,
    warnings,
    details,
    changes: row.status === 'needs_reverification' ? ((row.changes as FieldChange[] | null) ?? []) : [],
    carriedForwardFrom: row.carriedForwardFrom,
    id: row.id,
    kind: row.kind as VerificationKind,
    target: row.target,
    primarySource: row.primarySource,
    status: row.status as VerificationStatus,
    source: row.source,
    verifiedAt: row.verifiedAt,
    validatorId: row.validatorId,
    note: row.note,
    waiverReason: row.waiverReason,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Record the reviewer's outcome of one checklist item ('Verify', discrepancy, waive; issue 13), audited
 * with the item's before/after status. Only while the application is under review, or approved with
 * an open credential update (issue 29 item 4). 'verified' of a kind that needs evidence (issue 31: the
 * claims history, domain `evidenceRequiredMessage`) needs a file attached to the item first.
 * @throws AppError not_found (404), conflict (409: not under review, no open credential update, the
 *   evidence a kind needs not attached)
 */
export async function updateVerificationItem(
  db: Database,
  caller: ReviewCaller,
  applicationId: string,
  itemId: string,
  update: VerificationUpdate,
  now: Date,
): Promise<VerificationItemDto> {
  const notFound = new AppError('not_found', 'Checklist item not found. Reload the review page.');
  if (!isUuid(itemId)) throw notFound;
  if (update.verifiedAt && update.verifiedAt > isoDay(now)) {
    throw new AppError('validation_failed', 'The verification date cannot be in the future.', {
      issues: [{ path: ['verifiedAt'], message: 'The verification date cannot be in the future' }],
    });
  }
  return db.transaction(async (tx) => {
    const application = await lockApplication(tx, applicationId);
    if (!(await verificationsOpen(tx, application.id, application.applicationStatus))) {
      throw new AppError('conflict', verificationsClosedMessage);
    }
    const [before] = await tx
      .select({
        status: verificationItems.status,
        kind: verificationItems.kind,
        itemKey: verificationItems.itemKey,
        rowKey: verificationItems.rowKey,
      })
      .from(verificationItems)
      .where(and(eq(verificationItems.id, itemId), eq(verificationItems.applicationId, application.id)));
    if (!before) throw notFound;
    // Issue 31 item 4: the claims history is verified with the NPDB query result attached.
    const needsEvidence = evidenceRequiredMessage[before.kind as VerificationKind];
    if (update.status === 'verified' && needsEvidence) {
      const [attached] = await tx
        .select({ id: verificationEvidence.id })
        .from(verificationEvidence)
        .where(eq(verificationEvidence.itemId, itemId))
        .limit(1);
      if (!attached) throw new AppError('conflict', needsEvidence);
    }
    const pending = update.status === 'pending';
    // Issue 29: a verification or waiver records what it covered in the newest version.
    const recorded = update.status === 'verified' || update.status === 'waived';
    const binding = recorded
      ? bindingColumns(before, await newestVersion(tx, application.id), now)
      : { verifiedValues: null, verifiedVersion: null, changes: null };
    const [row] = await tx
      .update(verificationItems)
      .set({
        ...binding,
        status: update.status,
        source: pending ? null : (update.source ?? null),
        verifiedAt: pending ? null : (update.verifiedAt ?? null),
        note: update.note ?? null,
        waiverReason: update.status === 'waived' ? (update.waiverReason ?? null) : null,
        validatorId: pending ? null : caller.actor.userId,
        // Issue 29 item 6: the reviewer's own outcome replaces a verification carried forward.
        carriedForwardFrom: null,
        updatedAt: now,
      })
      .where(eq(verificationItems.id, itemId))
      .returning();
    await recordAudit(tx, {
      action: 'review.verification_updated',
      actorUserId: caller.actor.userId,
      subjectUserId: application.userId,
      resourceType: 'verification_item',
      resourceId: itemId,
      ipAddress: caller.actor.ipAddress,
      details: {
        applicationId: application.id,
        actor: caller.role,
        fromStatus: before.status,
        toStatus: update.status,
      },
    });
    return presentItem(row!);
  });
}

function presentRequest(r: typeof informationRequests.$inferSelect): InformationRequestDto {
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

/**
 * What the provider sees of the review (issue 13): status, dates, the reason of a rejection, and the
 * open information request. The owner reads it; an administrator too (read:application:any).
 * @throws AppError not_found (404: another provider's application)
 */
export async function getProviderReview(
  db: Database,
  actor: Actor,
  applicationId: string,
  attestation: { validDays: number; now: Date },
): Promise<ProviderReview> {
  await loadApplicationFor(db, actor, applicationId, 'read');
  const [row] = await db
    .select()
    .from(providerApplications)
    .where(eq(providerApplications.id, applicationId));
  if (!row) throw applicationNotFound();
  const [open] = await db
    .select()
    .from(informationRequests)
    .where(
      and(eq(informationRequests.applicationId, applicationId), isNull(informationRequests.respondedAt)),
    );
  return {
    applicationStatus: row.applicationStatus,
    submittedAt: row.submittedAt?.toISOString() ?? null,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    decisionReason: row.applicationStatus === 'rejected' ? row.decisionReason : null,
    withdrawalReason: row.applicationStatus === 'withdrawn' ? row.withdrawalReason : null,
    openRequest: open ? presentRequest(open) : null,
    reattestationRequired: await reattestationDue(db, row, attestation.validDays, attestation.now),
    // Issue 32 item 6: the decision's letters, and the appeal of a denial.
    letters: await lettersOf(db, applicationId),
    appeal: await appealStateOf(db, row, attestation.now),
  };
}

/**
 * The reviewer's view (issue 13): status, reviewer, versions, checklist, requests and timeline; with
 * the attestations (issue 14), decrypted, and whether a fresh one is due at `attestation.now`.
 */
export async function getAdminReview(
  db: Database,
  applicationId: string,
  attestation: { cipher: FieldCipher; validDays: number; now: Date; verificationMaxAgeDays?: number },
  callerRoles: readonly AccessRole[] = ['admin'],
): Promise<AdminReview> {
  if (!isUuid(applicationId)) throw applicationNotFound();
  const [row] = await db
    .select()
    .from(providerApplications)
    .where(eq(providerApplications.id, applicationId));
  if (!row) throw applicationNotFound();
  const [versions, items, requests, timeline] = await Promise.all([
    db
      .select({
        version: applicationVersions.version,
        sha256: applicationVersions.sha256,
        reason: applicationVersions.reason,
        createdAt: applicationVersions.createdAt,
      })
      .from(applicationVersions)
      .where(eq(applicationVersions.applicationId, applicationId))
      .orderBy(asc(applicationVersions.version)),
    db
      .select()
      .from(verificationItems)
      .where(eq(verificationItems.applicationId, applicationId))
      .orderBy(asc(verificationItems.position)),
    db
      .select()
      .from(informationRequests)
      .where(eq(informationRequests.applicationId, applicationId))
      .orderBy(asc(informationRequests.requestedAt)),
    db
      .select({
        action: auditLog.action,
        actorUserId: auditLog.actorUserId,
        occurredAt: auditLog.occurredAt,
        details: auditLog.details,
      })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.subjectUserId, row.userId),
          // Issue 29: a withdrawal and a close without decision are part of the application's story too.
          sql`(${auditLog.action} like 'review.%' or ${auditLog.action} like 'notification.%' or ${auditLog.action} in ('application.withdrawn', 'application.closed_without_decision'))`,
          sql`(${auditLog.resourceId} = ${applicationId} or ${auditLog.details}->>'applicationId' = ${applicationId})`,
        ),
      )
      .orderBy(asc(auditLog.occurredAt), asc(auditLog.id))
      .limit(500),
  ]);
  const openRequest = requests.some((r) => r.respondedAt === null);
  const attestations = await listAttestations(db, attestation.cipher, applicationId);
  // From the list just read (oldest first), not a second query.
  const latestSignedAt = attestations.at(-1)?.signedAt;
  const reattestationRequired = reattestationDueAt(
    row.applicationStatus,
    latestSignedAt ? new Date(latestSignedAt) : undefined,
    attestation.validDays,
    attestation.now,
  );
  const evidenceRows = await db
    .select()
    .from(verificationEvidence)
    .where(eq(verificationEvidence.applicationId, applicationId))
    .orderBy(asc(verificationEvidence.uploadedAt));
  // Issue 15: the NPI and DEA format checks of the newest snapshot, shown on their items.
  const newest = await newestSnapshot(db, applicationId);
  const identifierWarnings = newest ? snapshotIdentifierWarnings(newest) : {};
  // Issue 29 item 7: the work-history item lists the gaps of the newest snapshot with their explanations.
  const gapLines = newest ? workHistoryGapLines(newest.lists, isoDay(attestation.now)) : [];
  const evidenceByItem = new Map<string, VerificationItemDto['evidence']>();
  for (const row of evidenceRows) {
    evidenceByItem.set(row.itemId, [...(evidenceByItem.get(row.itemId) ?? []), presentEvidence(row)]);
  }
  const mentioned = new Set<string>();
  if (row.reviewerId) mentioned.add(row.reviewerId);
  for (const item of items) if (item.validatorId) mentioned.add(item.validatorId);
  for (const entry of timeline) {
    if (entry.actorUserId) mentioned.add(entry.actorUserId);
    // 'review.assigned' (issue 32 item 3) names who had the file and who has it.
    for (const key of ['from', 'to'] as const) {
      const id = (entry.details as Record<string, unknown> | null)?.[key];
      if (entry.action === 'review.assigned' && typeof id === 'string') mentioned.add(id);
    }
  }
  for (const row of evidenceRows) if (row.uploadedBy) mentioned.add(row.uploadedBy);
  const [people, [profile], credentialRecord, [openCycle], exclusionStanding, referrals, letters, appeal] =
    await Promise.all([
      mentioned.size
        ? db
            .select({ id: user.id, name: user.name })
            .from(user)
            .where(inArray(user.id, [...mentioned]))
        : Promise.resolve([]),
      db
        .select({ firstName: profiles.firstName, lastName: profiles.lastName })
        .from(profiles)
        .where(eq(profiles.userId, row.userId)),
      findProviderCredential(db, row.userId),
      db
        .select({ id: providerApplications.id })
        .from(providerApplications)
        .where(
          and(
            eq(providerApplications.userId, row.userId),
            inArray(providerApplications.applicationStatus, ['draft', 'submitted', 'under_review']),
          ),
        )
        .limit(1),
      // Issue 32 item 4: the exclusion standing, one of the clean-file criteria.
      standingOf(db, applicationId),
      // Issue 32 item 4: the file's place on the decision lists, and the committee's last deferral.
      db
        .select()
        .from(decisionReferrals)
        .where(eq(decisionReferrals.applicationId, applicationId))
        .orderBy(desc(decisionReferrals.sentAt))
        .limit(20),
      // Issue 32 item 6: the decision's letters, and the appeal of a denial.
      lettersOf(db, applicationId),
      appealStateOf(db, row, attestation.now),
    ]);
  const openReferral = referrals.find((r) => r.closedAt === null);
  const deferred = referrals.find((r) => r.outcome === 'deferred');
  // Issue 29: the provider's credential apart from this cycle, and the cycle actions it allows.
  const credential = credentialState(credentialRecord, attestation.now);
  return {
    applicationId: row.id,
    userId: row.userId,
    providerName: providerFullName(profile),
    people: Object.fromEntries(people.map((p) => [p.id, p.name])),
    applicationStatus: row.applicationStatus,
    submittedAt: row.submittedAt?.toISOString() ?? null,
    reviewStartedAt: row.reviewStartedAt?.toISOString() ?? null,
    reviewerId: row.reviewerId,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    decisionReason: row.decisionReason,
    // Issue 32: only what the caller's roles may do. 'Approve' is the medical director's, of a file on
    // 'Clean Files'; a denial is the committee's, recorded at its meeting.
    availableActions: availableActions({ status: row.applicationStatus, openRequest }, 'reviewer').filter(
      (action) =>
        action !== 'reject' &&
        (action !== 'approve' || openReferral?.track === 'clean_files') &&
        hasPermission(callerRoles, reviewActionPermission[action]),
    ),
    versions: versions.map((v) => ({ ...v, createdAt: v.createdAt.toISOString() })),
    checklist: items.map((item) =>
      presentItem(
        item,
        evidenceByItem.get(item.id) ?? [],
        identifierWarnings[item.kind as VerificationKind] ?? [],
        item.kind === 'work_history' ? gapLines : [],
      ),
    ),
    requests: requests.map(presentRequest),
    timeline: timeline.map((t) => ({
      ...t,
      occurredAt: t.occurredAt.toISOString(),
      details: t.details ?? null,
    })),
    attestations,
    reattestationRequired,
    // Issue 32 item 4 (issue 31 item 4 before it): a file that is not clean asks for the committee: a
    // Yes in the attestation in force (the latest), a claim paid in the last five years in the newest
    // snapshot (what the provider submitted and signed), an exclusion standing, an item in discrepancy.
    committeeReview: cleanFileReview({
      attestation: attestations.at(-1),
      paidClaim: newest ? snapshotPaidClaim(newest, attestation.now) : false,
      checklist: items,
      exclusion: exclusionStanding,
    }),
    // Issue 32 item 7: the decision's clock, while the file waits for one.
    decisionDue:
      row.applicationStatus === 'submitted' || row.applicationStatus === 'under_review'
        ? decisionDue(
            {
              attestedAt: latestSignedAt ? new Date(latestSignedAt) : null,
              oldestVerifiedOn:
                items
                  .filter((item) => item.status === 'verified' && item.verifiedAt)
                  .map((item) => item.verifiedAt as string)
                  .sort()[0] ?? null,
            },
            {
              attestationValidDays: attestation.validDays,
              verificationMaxAgeDays:
                attestation.verificationMaxAgeDays ?? defaultDecisionClockLimits.verificationMaxAgeDays,
            },
            attestation.now,
          )
        : null,
    decisionRouting: {
      track: (openReferral?.track as DecisionTrack | undefined) ?? null,
      sentAt: openReferral?.sentAt.toISOString() ?? null,
      reasons: openReferral?.reasons ?? [],
      note: openReferral?.note ?? null,
      // Shown while the file is back with its specialist, until it is sent again.
      deferral:
        deferred?.closedAt && !openReferral
          ? { text: deferred.outcomeText ?? '', at: deferred.closedAt.toISOString() }
          : null,
    },
    letters,
    appeal,
    decision: row.decidedByRole
      ? {
          by: row.decidedByRole as Decider,
          effectiveDate: row.effectiveDate,
          conditions: row.decisionConditions,
        }
      : null,
    cycle: row.cycle as ApplicationCycle,
    withdrawnAt: row.withdrawnAt?.toISOString() ?? null,
    withdrawalReason: row.withdrawalReason,
    credential: presentCredential(credentialRecord, attestation.now),
    cycleActions: availableCycleActions({
      applicationId: row.id,
      status: row.applicationStatus,
      credential,
      credentialApplicationId: credentialRecord?.applicationId ?? null,
      openCycle: openCycle !== undefined,
    }),
  };
}

/** The permission a reviewer's action needs (issue 32, domain/permissions.ts). */
const reviewActionPermission: Record<ReviewAction, Permission> = {
  complete: 'send:notification:own',
  submit_response: 'write:section:own',
  start_review: 'review:application:any',
  request_information: 'review:application:any',
  approve: 'decide:application:any',
  reject: 'decide:application:any',
};

/**
 * One version of the snapshot and the rows that changed (issue 29 item 5, `diffByRow`): since the
 * previous version; for version 1 of a copied application (provider_applications.copied_from_id),
 * since the newest version of the application it was copied from ('Changes since the previous
 * cycle'); nothing to compare for version 1 of a first application.
 * @returns the applicationVersionSchema shape (domain/api/review.ts)
 * @throws AppError not_found (404) for an unknown application or version
 */
export async function getVersion(db: Database, applicationId: string, version: number) {
  const notFound = new AppError(
    'not_found',
    'This version of the application does not exist. Reload the review page.',
  );
  if (!isUuid(applicationId)) throw notFound;
  const rows = await db
    .select()
    .from(applicationVersions)
    .where(
      and(
        eq(applicationVersions.applicationId, applicationId),
        inArray(applicationVersions.version, [version - 1, version]),
      ),
    );
  const current = rows.find((r) => r.version === version);
  if (!current) throw notFound;
  let comparedWith:
    | { kind: 'previous_version'; version: number }
    | { kind: 'previous_cycle'; applicationId: string; version: number }
    | null = null;
  let previous = rows.find((r) => r.version === version - 1);
  if (previous) comparedWith = { kind: 'previous_version', version: previous.version };
  else if (version === 1) {
    const [copy] = await db
      .select({ copiedFromId: providerApplications.copiedFromId })
      .from(providerApplications)
      .where(eq(providerApplications.id, applicationId));
    const [source] = copy?.copiedFromId
      ? await db
          .select()
          .from(applicationVersions)
          .where(eq(applicationVersions.applicationId, copy.copiedFromId))
          .orderBy(desc(applicationVersions.version))
          .limit(1)
      : [];
    if (source) {
      previous = source;
      comparedWith = { kind: 'previous_cycle', applicationId: source.applicationId, version: source.version };
    }
  }
  return {
    version: current.version,
    sha256: current.sha256,
    reason: current.reason,
    createdAt: current.createdAt.toISOString(),
    snapshot: current.snapshot as Record<string, unknown>,
    comparedWith,
    changes: previous
      ? diffByRow(previous.snapshot as ApplicationSnapshot, current.snapshot as ApplicationSnapshot)
      : [],
  };
}

/** One row of the review queue's statement (`reviewQueueStatement`), as node-postgres reads it. */
interface ReviewQueueRow extends Record<string, unknown> {
  application_id: string;
  kind: 'application' | 'credential_update';
  user_id: string;
  application_status: ApplicationStatus;
  submitted_at: string | null;
  reviewer_id: string | null;
  provider_name: string | null;
  reviewer_name: string | null;
  open_request: boolean;
  checklist_done: number;
  checklist_needs_reverification: number;
  checklist_total: number;
  attested_at: string | null;
  oldest_verified_on: string | null;
  update_opened_at: string | null;
  update_sections: string[] | null;
}

/** The queue's filters that change its statement: one prepared statement per combination. */
interface ReviewQueueVariant {
  status: ApplicationStatus | undefined;
  assignedToMe: boolean;
}

/**
 * The WHERE of the queue's applications and of its open credential updates (issue 29 item 4) for
 * `variant`; `reviewer` is the caller's id (a placeholder in the prepared page, a value in a count).
 */
function reviewQueueWhere({ status, assignedToMe }: ReviewQueueVariant, reviewer: unknown) {
  const a = providerApplications;
  const statuses: ApplicationStatus[] = status ? [status] : [...reviewStatuses];
  return {
    applications: and(
      inArray(a.applicationStatus, statuses),
      assignedToMe ? sql`${a.reviewerId} = ${reviewer}` : undefined,
    ),
    updates: and(
      isNull(credentialUpdates.reviewedAt),
      assignedToMe ? sql`${a.reviewerId} = ${reviewer}` : undefined,
    ),
  };
}

/**
 * One page of the queue for `variant`, as one statement: the page's ids first, from the partial
 * indexes alone (an index-only scan that skips the offset without touching the rows: asking for the
 * names and counts in the same select evaluated them for every skipped row too, page 400 took 70 ms
 * p95 at 100,000 in review, bench/admin.bench.ts); only then the page's rows' names, open request,
 * checklist counts, attestation and open update. Placeholders: `offset`,
 * and `reviewer` when assigned to the caller.
 */
function reviewQueueStatement(variant: ReviewQueueVariant) {
  const a = providerApplications;
  const u = credentialUpdates;
  const where = reviewQueueWhere(variant, sql.placeholder('reviewer'));
  // Issue 29 item 4: open credential updates are listed too (no status filter), ordered with the
  // applications by when they were sent. Their rows come from the partial index
  // credential_updates_queue_idx (opened_at, id), the applications' from the review queue index.
  const updates = variant.status
    ? sql``
    : sql` union all
        select ${u.applicationId} as id, 'credential_update' as kind, ${u.openedAt} as sort_at
        from ${u} join ${a} on ${a.id} = ${u.applicationId} where ${where.updates}`;
  return preparedSql<ReviewQueueRow>(
    `admin_review_queue_${variant.status ?? 'all'}_${variant.assignedToMe ? 'mine' : 'everyone'}`,
    sql`
    with page as (
      select q.id, q.kind, q.sort_at from (
        select ${a.id} as id, 'application' as kind, ${a.submittedAt} as sort_at from ${a} where ${where.applications}
        ${updates}
      ) q order by q.sort_at, q.id limit ${REVIEW_QUEUE_PAGE_SIZE} offset ${sql.placeholder('offset')}
    )
    select page.id as application_id, page.kind, qa.user_id, qa.application_status, qa.submitted_at,
      qa.reviewer_id,
      (select p.first_name || ' ' || p.last_name from profiles p where p.user_id = qa.user_id) as provider_name,
      (select ru.name from "user" ru where ru.id = qa.reviewer_id) as reviewer_name,
      exists (select 1 from information_requests r where r.application_id = qa.id and r.responded_at is null) as open_request,
      (select count(*)::int from verification_items v where v.application_id = qa.id and v.status in ('verified', 'waived')) as checklist_done,
      -- Issue 29 follow-up: read from verification_items_progress_idx like the count above.
      (select count(*)::int from verification_items v where v.application_id = qa.id and v.status = 'needs_reverification') as checklist_needs_reverification,
      (select count(*)::int from verification_items v where v.application_id = qa.id) as checklist_total,
      -- Issue 32 item 7: what starts the decision's clock.
      (select max(t.signed_at) from application_attestations t where t.application_id = qa.id) as attested_at,
      (select min(v.verified_at)::text from verification_items v where v.application_id = qa.id and v.status = 'verified') as oldest_verified_on,
      upd.opened_at as update_opened_at, upd.sections as update_sections
    from page
    join ${a} qa on qa.id = page.id
    left join ${u} upd on page.kind = 'credential_update' and upd.application_id = page.id and upd.reviewed_at is null
    order by page.sort_at, page.id`,
  );
}

const reviewQueueStatements = new Map<string, ReturnType<typeof reviewQueueStatement>>();

/** One page of the queue's rows and its total (capped at LIST_COUNT_CAP), read in parallel. */
async function readReviewQueuePage(
  db: Database,
  variant: ReviewQueueVariant,
  statement: ReturnType<typeof reviewQueueStatement>,
  offset: number,
  reviewerId: string,
): Promise<{ rows: ReviewQueueRow[]; counted: { total: number; totalCapped: boolean } }> {
  const a = providerApplications;
  const where = reviewQueueWhere(variant, reviewerId);
  const [{ rows }, applications, updates] = await Promise.all([
    statement(db, variant.assignedToMe ? { offset, reviewer: reviewerId } : { offset }),
    // Counted up to LIST_COUNT_CAP like the other admin lists: the count reads the partial index row
    // by row, and past 10,000 the exact number helps no reviewer.
    countRows(db, sql`from ${a} where ${where.applications}`, true),
    variant.status
      ? Promise.resolve({ total: 0, totalCapped: false })
      : countRows(
          db,
          sql`from ${credentialUpdates} join ${a} on ${a.id} = ${credentialUpdates.applicationId} where ${where.updates}`,
          true,
        ),
  ]);
  return {
    rows,
    counted: {
      total: applications.total + updates.total,
      totalCapped: applications.totalCapped || updates.totalCapped,
    },
  };
}

/**
 * The review queue (issue 13): submitted and under-review applications, oldest submission first, and
 * (without a status filter) the open credential updates of approved applications by when they were
 * sent (issue 29 item 4, kind 'credential_update'), one page of REVIEW_QUEUE_PAGE_SIZE, with days
 * since submission (an update: since it was sent) as of `now`, the reviewer, whether a request is
 * open and checklist progress (verified or waived, needing re-verification, total). One prepared
 * statement per filter (`reviewQueueStatement`), served by the partial index
 * provider_applications_review_queue_idx (submitted_at, id) and, per row of the page only, the
 * verification_items_progress_idx and information_requests_one_open_idx (decision 018).
 * @returns the queue, and until when (ms since the epoch) it reads the same without a write: the next
 *   UTC day or a row's next whole day waiting, whichever is first (`now` itself when a row has no
 *   submission time); the route remembers the answer that long (admin/list-cache.ts)
 */
export async function reviewQueue(
  db: Database,
  actor: Actor,
  query: ReviewQueueQuery,
  now: Date,
  limits: DecisionClockLimits = defaultDecisionClockLimits,
): Promise<{ queue: ReviewQueue; validUntil: number }> {
  const variant: ReviewQueueVariant = { status: query.status, assignedToMe: query.assigned === 'me' };
  const name = `${variant.status ?? 'all'}:${variant.assignedToMe}`;
  let statement = reviewQueueStatements.get(name);
  if (!statement) {
    statement = reviewQueueStatement(variant);
    reviewQueueStatements.set(name, statement);
  }
  const offset = (query.page - 1) * REVIEW_QUEUE_PAGE_SIZE;
  const { rows, counted } = await readReviewQueuePage(db, variant, statement, offset, actor.userId);
  const day = 24 * 60 * 60 * 1000;
  // Every decision due moves at the next UTC day; each row's days waiting at its own next whole day.
  let validUntil = nextUtcDayStart(now);
  const queue: ReviewQueue = {
    items: rows.flatMap((r) => {
      const update =
        r.kind === 'credential_update' && r.update_opened_at
          ? { openedAt: new Date(r.update_opened_at), sections: r.update_sections ?? [] }
          : undefined;
      if (r.kind === 'credential_update' && !update) return [];
      const submittedAt = r.submitted_at ? new Date(r.submitted_at) : now;
      const waitingSince = update?.openedAt ?? submittedAt;
      const daysWaiting = Math.max(0, Math.floor((now.getTime() - waitingSince.getTime()) / day));
      // A row without a submission time says `now` itself: that answer holds for no later request.
      validUntil = r.submitted_at
        ? Math.min(validUntil, waitingSince.getTime() + (daysWaiting + 1) * day)
        : now.getTime();
      return [
        {
          applicationId: r.application_id,
          userId: r.user_id,
          applicationStatus: r.application_status,
          reviewerId: r.reviewer_id,
          reviewerName: r.reviewer_name,
          openRequest: r.open_request,
          checklistDone: r.checklist_done,
          checklistNeedsReverification: r.checklist_needs_reverification,
          checklistTotal: r.checklist_total,
          kind: r.kind,
          decisionDue:
            r.kind === 'application'
              ? decisionDue(
                  {
                    attestedAt: r.attested_at ? new Date(r.attested_at) : null,
                    oldestVerifiedOn: r.oldest_verified_on,
                  },
                  limits,
                  now,
                )
              : null,
          credentialUpdate: update
            ? { openedAt: update.openedAt.toISOString(), sections: update.sections }
            : null,
          providerName: r.provider_name ?? '',
          submittedAt: submittedAt.toISOString(),
          daysSinceSubmission: daysWaiting,
        },
      ];
    }),
    page: query.page,
    pageSize: REVIEW_QUEUE_PAGE_SIZE,
    total: counted.total,
    totalCapped: counted.totalCapped,
  };
  return { queue, validUntil };
}

/**
 * 'Check NPPES' (issue 15): look the newest snapshot's NPI up in the NPI Registry, keep the raw record
 * on the NPI checklist item (its evidence) and answer the record with its mismatches. While the
 * application is Under Review, like every checklist change; audited.
 * @throws AppError not_found (no such item, or NPPES has no such NPI), conflict (not under review, or
 *   not the NPI item), validation_failed (no 10-digit NPI), bad_gateway (NPPES answered with its own
 *   error, an error page, a redirect, too much or another NPI's record: issue 30 item 6),
 *   service_unavailable (NPPES unreachable)
 */
export async function checkNppes(
  db: Database,
  nppes: NppesClient,
  caller: ReviewCaller,
  applicationId: string,
  itemId: string,
  now: Date,
): Promise<NppesCheck> {
  if (!isUuid(applicationId) || !isUuid(itemId)) throw applicationNotFound();
  const [item] = await db
    .select({
      kind: verificationItems.kind,
      status: providerApplications.applicationStatus,
      userId: providerApplications.userId,
    })
    .from(verificationItems)
    .innerJoin(providerApplications, eq(providerApplications.id, verificationItems.applicationId))
    .where(and(eq(verificationItems.id, itemId), eq(verificationItems.applicationId, applicationId)));
  if (!item) throw new AppError('not_found', 'Checklist item not found. Reload the review page.');
  if (item.kind !== 'npi')
    throw new AppError('conflict', "'Check NPPES' belongs to the NPI item of the checklist.");
  if (!(await verificationsOpen(db, applicationId, item.status as ApplicationStatus))) {
    throw new AppError('conflict', verificationsClosedMessage);
  }
  const snapshot = await newestSnapshot(db, applicationId);
  const npi = String(snapshot?.personalInformation?.npi_number ?? '').trim();
  const lookup = await nppes.lookup(npi, now);
  const mismatches = snapshot ? compareWithApplication(lookup.record, lookup.raw as object, snapshot) : [];
  await db.transaction(async (tx) => {
    await tx
      .update(verificationItems)
      .set({ sourceRecord: lookup.raw, sourceRecordAt: lookup.fetchedAt })
      .where(eq(verificationItems.id, itemId));
    await recordAudit(tx, {
      action: 'review.nppes_checked',
      actorUserId: caller.actor.userId,
      subjectUserId: item.userId,
      resourceType: 'verification_item',
      resourceId: itemId,
      ipAddress: caller.actor.ipAddress,
      details: { applicationId, mismatches: mismatches.length, status: lookup.record.status },
    });
  });
  return { fetchedAt: lookup.fetchedAt.toISOString(), record: lookup.record, mismatches };
}
