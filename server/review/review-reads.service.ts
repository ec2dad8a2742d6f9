/**
 * What the credentialing review reads (issue 13, docs/decisions/018-review-workflow.md): the
 * provider's view of their review, the reviewer's whole file (checklist, requests, timeline,
 * attestations, clean-file flag, decision clock, decision lists, letters, credential and cycle
 * actions), and one version of the snapshot with what changed. "Now" is a parameter.
 */

import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { providerFullName } from '../../domain/account.ts';
import type { AdminReview, ProviderReview, VerificationItemDto } from '../../domain/api/review.ts';
import { AppError } from '../../domain/app-error.ts';
import { cleanFileReview, snapshotPaidClaim } from '../../domain/committee/clean-file.ts';
import type { Decider, DecisionTrack } from '../../domain/committee/committee-decisions.ts';
import { decisionDue, defaultDecisionClockLimits } from '../../domain/committee/timeliness.ts';
import {
  type ApplicationCycle,
  availableCycleActions,
  credentialState,
} from '../../domain/credentials/provider-credential.ts';
import { hasPermission, type Permission } from '../../domain/permissions.ts';
import { type ApplicationSnapshot, diffByRow } from '../../domain/review/application-snapshot.ts';
import { availableActions, type ReviewAction } from '../../domain/review/review-workflow.ts';
import { isoDay, type VerificationKind } from '../../domain/review/verification-checklist.ts';
import type { AccessRole } from '../../domain/roles.ts';
import { screeningCoverage } from '../../domain/screening/coverage.ts';
import { deaWarnings, npiWarning } from '../../domain/sections/identifier-checks.ts';
import { workHistoryGapLines } from '../../domain/sections/work-history-gaps.ts';
import { isUuid } from '../../domain/uuid.ts';
import { loadApplicationFor } from '../applications/applications.service.ts';
import {
  listAttestations,
  reattestationDue,
  reattestationDueAt,
} from '../attestations/attestation.service.ts';
import type { Actor } from '../auth/actor.ts';
import { findProviderCredential, presentCredential } from '../credential/credential-record.ts';
import type { Database } from '../db/client.ts';
import { auditLog } from '../db/schema/audit.ts';
import { user } from '../db/schema/auth.ts';
import { decisionReferrals } from '../db/schema/committee.ts';
import { profiles, providerApplications } from '../db/schema/core.ts';
import {
  applicationVersions,
  informationRequests,
  verificationEvidence,
  verificationItems,
} from '../db/schema/review.ts';
import { newestSnapshot } from '../notifications/application-snapshot.ts';
import { appliedLists, providerStates } from '../screening/coverage.ts';
import { standingOf } from '../screening/screening.ts';
import type { FieldCipher } from '../security/field-cipher.ts';
import { appealStateOf, deciderOf, lettersOf } from './decision-letter.ts';
import { presentRequest } from './information-requests.service.ts';
import { applicationNotFound } from './review-transaction.ts';
import { presentEvidence, presentItem } from './verification-items.service.ts';

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
  /** The caller: none of the actions of their own file is offered (issue 50 item 1). */
  callerUserId?: string,
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
          // Issue 29: a withdrawal and a close without decision are part of the application's story too;
          // issue 51 item 6: so is who opened the draft ('application.copied_forward'). Reads of the
          // file (issue 51 item 5) are in the audit log, not the story.
          sql`(${auditLog.action} like 'review.%' or ${auditLog.action} like 'notification.%' or ${auditLog.action} in ('application.withdrawn', 'application.closed_without_decision', 'application.copied_forward'))`,
          sql`${auditLog.action} <> 'review.file_viewed'`,
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
  const [
    people,
    [profile],
    credentialRecord,
    [openCycle],
    exclusionStanding,
    lists,
    referrals,
    letters,
    appeal,
  ] = await Promise.all([
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
    // Issue 51 item 1: the lists screened, for the clean-file criterion's coverage.
    appliedLists(db),
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
        row.userId !== callerUserId &&
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
      screeningGaps: screeningCoverage(providerStates(newest), lists, attestation.now).gaps,
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
          // Issue 50 item 7: who decided, named, and for the committee its own votes.
          signedBy: await deciderOf(db, row.id, row.decidedByRole as Decider, row.decidedBy ?? null),
          decidedAt: row.decidedAt?.toISOString() ?? null,
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
