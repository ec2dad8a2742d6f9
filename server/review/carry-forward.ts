/**
 * Verifications carried forward between cycles (issue 29 item 6; NCQA: education and training are
 * primary-source verified once, they do not change between cycles). When 'Start Review' generates
 * the checklist of a copied application (`provider_applications.copied_from_id`), each pending item
 * of a carried-forward kind (domain/review/verification-checklist.ts `carriedForwardKinds`) whose
 * covered values (domain/review/verification-fingerprint.ts `coveredValues`) equal those a verified
 * item of the source application recorded starts verified with that item's date, source, validator
 * and note, `carried_forward_from` = its id, and bound (`bindingColumns`) to the new version, so a
 * later change still makes it 'Needs re-verification'. Every other item starts pending.
 *
 * Only verified items are carried: a waiver is not a verification, and the next cycle decides again.
 */
import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import { type ApplicationSnapshot, canonicalJson } from '../../domain/review/application-snapshot.ts';
import { carriedForwardKinds, type VerificationKind } from '../../domain/review/verification-checklist.ts';
import { coveredValues } from '../../domain/review/verification-fingerprint.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Queryable } from '../db/client.ts';
import { providerApplications } from '../db/schema/core.ts';
import { verificationItems } from '../db/schema/review.ts';
import { bindingColumns } from './verification-binding.ts';

/**
 * Carry the source application's verifications forward onto `application`'s pending items of the
 * carried-forward kinds, as described above; audited per item 'review.verification_carried_forward'
 * (details: applicationId, fromItemId, fromApplicationId). Call inside 'Start Review's transaction,
 * after the checklist items were added from `at` (the version the review starts on).
 * @returns how many items were carried forward (0 for an application that is not a copy)
 */
export async function carryForwardVerifications(
  tx: Queryable,
  application: { id: string; userId: string },
  at: { version: number; snapshot: ApplicationSnapshot },
  now: Date,
  actor: { userId: string | null; ipAddress: string | null },
): Promise<number> {
  const [copy] = await tx
    .select({ copiedFromId: providerApplications.copiedFromId })
    .from(providerApplications)
    .where(eq(providerApplications.id, application.id));
  const sourceId = copy?.copiedFromId;
  if (!sourceId) return 0;
  const kinds = [...carriedForwardKinds];
  const sources = await tx
    .select()
    .from(verificationItems)
    .where(
      and(
        eq(verificationItems.applicationId, sourceId),
        inArray(verificationItems.kind, kinds),
        eq(verificationItems.status, 'verified'),
        isNotNull(verificationItems.verifiedValues),
      ),
    );
  const pending = await tx
    .select()
    .from(verificationItems)
    .where(
      and(
        eq(verificationItems.applicationId, application.id),
        inArray(verificationItems.kind, kinds),
        eq(verificationItems.status, 'pending'),
        isNull(verificationItems.carriedForwardFrom),
      ),
    );
  let carried = 0;
  for (const item of pending) {
    const current = coveredValues(
      { kind: item.kind as VerificationKind, itemKey: item.itemKey, rowKey: item.rowKey },
      at.snapshot,
      now,
    );
    if (!current) continue;
    const values = canonicalJson(current);
    const same = (s: (typeof sources)[number]) =>
      s.kind === item.kind && canonicalJson(s.verifiedValues) === values;
    // The same row (its row_key survives the copy) first, then any verified entry with the same values.
    const source =
      sources.find((s) => same(s) && item.rowKey !== null && s.rowKey === item.rowKey) ?? sources.find(same);
    if (!source) continue;
    await tx
      .update(verificationItems)
      .set({
        ...bindingColumns(item, at, now),
        status: 'verified',
        source: source.source,
        verifiedAt: source.verifiedAt,
        validatorId: source.validatorId,
        note: source.note,
        carriedForwardFrom: source.id,
        updatedAt: now,
      })
      .where(eq(verificationItems.id, item.id));
    await recordAudit(tx, {
      action: 'review.verification_carried_forward',
      actorUserId: actor.userId,
      subjectUserId: application.userId,
      resourceType: 'verification_item',
      resourceId: item.id,
      ipAddress: actor.ipAddress,
      details: {
        applicationId: application.id,
        fromItemId: source.id,
        fromApplicationId: sourceId,
        fromStatus: 'pending',
        toStatus: 'verified',
      },
    });
    carried += 1;
  }
  return carried;
}
