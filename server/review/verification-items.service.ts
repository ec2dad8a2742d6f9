/**
 * The verification checklist's items (issue 13, docs/decisions/018-review-workflow.md): the
 * reviewer's outcome of one item ('Verify', discrepancy, waive, back to pending) and how an item and
 * its evidence files are presented on the review page.
 */

import { and, eq, isNull } from 'drizzle-orm';
import type { VerificationItemDto, VerificationUpdate } from '../../domain/api/review.ts';
import { AppError } from '../../domain/app-error.ts';
import type { ApplicationStatus } from '../../domain/application-status.ts';
import {
  evidenceRequiredMessage,
  isoDay,
  type VerificationKind,
  type VerificationStatus,
} from '../../domain/review/verification-checklist.ts';
import type { FieldChange } from '../../domain/review/verification-fingerprint.ts';
import { screenedListsText, screeningGapMessage } from '../../domain/screening/coverage.ts';
import { isUuid } from '../../domain/uuid.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Database, Queryable } from '../db/client.ts';
import { credentialUpdates } from '../db/schema/credentials.ts';
import { verificationEvidence, verificationItems } from '../db/schema/review.ts';
import { appliedLists, coverageOf } from '../screening/coverage.ts';
import { lockApplication, type ReviewCaller } from './review-transaction.ts';
import { bindingColumns, newestVersion } from './verification-binding.ts';
import { itemTextsOn } from './verification-checklist.ts';

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

/** @throws AppError conflict (409) unless `verificationsOpen`: checklist changes are closed. */
export async function assertVerificationsOpen(
  tx: Queryable,
  applicationId: string,
  status: ApplicationStatus,
): Promise<void> {
  if (!(await verificationsOpen(tx, applicationId, status))) {
    throw new AppError('conflict', verificationsClosedMessage);
  }
}

/**
 * The exclusion item's source when every list `applicationId`'s provider needs is current at `now`
 * (domain/screening/coverage.ts): 'OIG LEIE of 2026-11-01 (80,412 rows), ...'.
 * @throws AppError conflict (409) naming each missing or stale list (issue 51 item 1)
 */
async function currentScreeningSource(tx: Queryable, applicationId: string, now: Date): Promise<string> {
  const lists = await appliedLists(tx);
  const coverage = await coverageOf(tx, applicationId, now, lists);
  if (coverage.gaps.length > 0) throw new AppError('conflict', screeningGapMessage(coverage.gaps));
  return screenedListsText(lists, coverage.required);
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

/** A checklist item as the review page shows it, with its evidence, warnings and details. */
export function presentItem(
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
 * 'verified' of the exclusion screening needs every list the provider needs current (issue 51 item 1),
 * and its source is the product's, naming the lists screened.
 * @throws AppError not_found (404), conflict (409: not under review, no open credential update, the
 *   evidence a kind needs not attached, a screening list missing or stale)
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
    await assertVerificationsOpen(tx, application.id, application.applicationStatus);
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
    // Issue 51 item 1: 'No match' only against every list the provider needs, current; the product
    // writes the source from the lists screened.
    const screenedSource =
      update.status === 'verified' && before.kind === 'exclusions'
        ? await currentScreeningSource(tx, application.id, now)
        : undefined;
    const pending = update.status === 'pending';
    // Issue 29: a verification or waiver records what it covered in the newest version.
    const recorded = update.status === 'verified' || update.status === 'waived';
    const newest = recorded ? await newestVersion(tx, application.id) : undefined;
    const binding = recorded
      ? bindingColumns(before, newest, now)
      : { verifiedValues: null, verifiedVersion: null, changes: null };
    // Issue 51 item 3: and its title names what it covered on `now` (the malpractice policy).
    const texts = newest ? (itemTextsOn(before.itemKey, newest.snapshot, now) ?? {}) : {};
    const [row] = await tx
      .update(verificationItems)
      .set({
        ...binding,
        ...texts,
        status: update.status,
        source: pending ? null : (screenedSource ?? update.source ?? null),
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
