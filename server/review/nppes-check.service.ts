/**
 * 'Check NPPES' (issue 15): the NPI checklist item looked up in the NPI Registry (nppes.ts), its raw
 * record kept on the item as evidence, and the record's mismatches with the application answered.
 */

import { and, eq } from 'drizzle-orm';
import type { NppesCheck } from '../../domain/api/nppes.ts';
import { AppError } from '../../domain/app-error.ts';
import type { ApplicationStatus } from '../../domain/application-status.ts';
import { isoDay } from '../../domain/calendar.ts';
import { npiDeactivatedNote } from '../../domain/review/verification-checklist.ts';
import { isUuid } from '../../domain/uuid.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { publishedFacts } from '../credential/published-credential.ts';
import { openMonitoringFinding } from '../credential/standing.ts';
import type { Database } from '../db/client.ts';
import { providerApplications } from '../db/schema/core.ts';
import { verificationItems } from '../db/schema/review.ts';
import { newestSnapshot } from '../notifications/application-snapshot.ts';
import { compareWithApplication, type NppesClient } from './nppes.ts';
import { applicationNotFound, type ReviewCaller } from './review-transaction.ts';
import { assertVerificationsOpen } from './verification-items.service.ts';

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
  await assertVerificationsOpen(db, applicationId, item.status as ApplicationStatus);
  const snapshot = await newestSnapshot(db, applicationId);
  const npi = String(snapshot?.personalInformation?.npi_number ?? '').trim();
  const lookup = await nppes.lookup(npi, now);
  const mismatches = snapshot ? compareWithApplication(lookup.record, lookup.raw as object, snapshot) : [];
  const deactivated = lookup.record.status === 'Deactivated';
  await db.transaction(async (tx) => {
    await tx
      .update(verificationItems)
      .set({
        sourceRecord: lookup.raw,
        sourceRecordAt: lookup.fetchedAt,
        // Issue 52 item 2: a deactivated NPI is a finding on the item, recorded as the check found it.
        ...(deactivated
          ? {
              status: 'discrepancy',
              verifiedAt: null,
              source: 'NPPES NPI Registry',
              validatorId: caller.actor.userId,
              note: npiDeactivatedNote(isoDay(now), lookup.record.statusNote),
              updatedAt: now,
            }
          : {}),
      })
      .where(eq(verificationItems.id, itemId));
    // Issue 49 item 2: the NPI on a running credential is deactivated: the credential is suspended.
    if (deactivated && npi === (await publishedFacts(tx, item.userId))?.npi) {
      await openMonitoringFinding(tx, {
        userId: item.userId,
        kind: 'npi_deactivated',
        subjectKey: npi,
        detail: npi,
        now,
      });
    }
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
