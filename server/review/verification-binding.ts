/**
 * Verifications bound to the data they verified (issue 29 item 3, decision 025). A verified or
 * waived checklist item records the values it covers in the snapshot it was recorded on
 * (domain/review/verification-fingerprint.ts `coveredValues`, `verified_values`). Every later
 * version (a response to 'Request Information', a credential update) is compared item by item,
 * field by field (`changedFields`): an item whose covered values changed becomes
 * `needs_reverification` with the changes; one whose values are back to what was verified returns
 * to its outcome; the others stay as they were.
 */
import { and, desc, eq, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { ApplicationSnapshot } from '../../domain/review/application-snapshot.ts';
import type { VerificationKind } from '../../domain/review/verification-checklist.ts';
import {
  type CoveredValues,
  changedFields,
  coveredValues,
  type FieldChange,
} from '../../domain/review/verification-fingerprint.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Database, Queryable } from '../db/client.ts';
import { applicationVersions, verificationItems } from '../db/schema/review.ts';

/** The newest stored version of `applicationId`: its number and snapshot, or undefined. */
export async function newestVersion(
  tx: Queryable,
  applicationId: string,
): Promise<{ version: number; snapshot: ApplicationSnapshot } | undefined> {
  const [row] = await tx
    .select({ version: applicationVersions.version, snapshot: applicationVersions.snapshot })
    .from(applicationVersions)
    .where(eq(applicationVersions.applicationId, applicationId))
    .orderBy(desc(applicationVersions.version))
    .limit(1);
  return row ? { version: row.version, snapshot: row.snapshot as ApplicationSnapshot } : undefined;
}

/** The binding columns of a verified or waived item recorded on `version` (all null when unbound). */
export function bindingColumns(
  item: { kind: string; itemKey: string; rowKey: string | null },
  at: { version: number; snapshot: ApplicationSnapshot } | undefined,
  now: Date,
) {
  const values = at
    ? coveredValues(
        { kind: item.kind as VerificationKind, itemKey: item.itemKey, rowKey: item.rowKey },
        at.snapshot,
        now,
      )
    : null;
  return {
    verifiedValues: values,
    verifiedVersion: values && at ? at.version : null,
    changes: null,
  };
}

/**
 * Compare every bound item of `application` with `snapshot` (version `version`, just stored) and mark
 * those whose covered values changed `needs_reverification`, audited per item
 * ('review.reverification_needed', with the changed field labels, never their values). Call inside
 * the transaction that stored the version.
 * @returns the items that now need re-verification (their targets and changes)
 */
export async function rebindVerifications(
  tx: Queryable,
  application: { id: string; userId: string },
  version: number,
  snapshot: ApplicationSnapshot,
  now: Date,
  actor: { userId: string | null; ipAddress: string | null },
): Promise<{ target: string; changes: FieldChange[] }[]> {
  const items = await tx
    .select()
    .from(verificationItems)
    .where(
      and(
        eq(verificationItems.applicationId, application.id),
        inArray(verificationItems.status, ['verified', 'waived', 'needs_reverification']),
        isNotNull(verificationItems.verifiedValues),
      ),
    );
  const flagged: { target: string; changes: FieldChange[] }[] = [];
  for (const item of items) {
    const current = coveredValues(
      { kind: item.kind as VerificationKind, itemKey: item.itemKey, rowKey: item.rowKey },
      snapshot,
      now,
    );
    const changes = changedFields(item.verifiedValues as CoveredValues, current);
    if (changes.length === 0) {
      // Back to what was verified (a change undone): the recorded outcome stands again.
      if (item.status === 'needs_reverification') {
        await tx
          .update(verificationItems)
          .set({ status: item.waiverReason ? 'waived' : 'verified', changes: null, updatedAt: now })
          .where(eq(verificationItems.id, item.id));
      }
      continue;
    }
    flagged.push({ target: item.target, changes });
    await tx
      .update(verificationItems)
      .set({ status: 'needs_reverification', changes, updatedAt: now })
      .where(eq(verificationItems.id, item.id));
    if (item.status !== 'needs_reverification') {
      await recordAudit(tx, {
        action: 'review.reverification_needed',
        actorUserId: actor.userId,
        subjectUserId: application.userId,
        resourceType: 'verification_item',
        resourceId: item.id,
        ipAddress: actor.ipAddress,
        details: {
          applicationId: application.id,
          version,
          fromStatus: item.status,
          toStatus: 'needs_reverification',
          fields: changes.map((c) => c.field).join(', '),
        },
      });
    }
  }
  return flagged;
}

/** Items bound per batch by `backfillVerificationBindings`. */
const BACKFILL_BATCH = 500;

/**
 * Migration 0019's data step in code (issue 29): give every item verified or waived before bindings
 * existed the binding of the snapshot it was verified on (the newest version stored at or before its
 * last update; version 1 when none is older). Idempotent, in batches; run at start-up after the
 * migrations (server/runtime.ts).
 * @returns how many items were bound
 */
export async function backfillVerificationBindings(db: Database): Promise<number> {
  let bound = 0;
  for (;;) {
    const batch = await db
      .select({
        id: verificationItems.id,
        applicationId: verificationItems.applicationId,
        kind: verificationItems.kind,
        itemKey: verificationItems.itemKey,
        rowKey: verificationItems.rowKey,
        updatedAt: verificationItems.updatedAt,
      })
      .from(verificationItems)
      .where(
        and(
          inArray(verificationItems.status, ['verified', 'waived']),
          isNull(verificationItems.verifiedVersion),
        ),
      )
      .limit(BACKFILL_BATCH);
    if (batch.length === 0) return bound;
    for (const item of batch) {
      const [at] = await db
        .select({ version: applicationVersions.version, snapshot: applicationVersions.snapshot })
        .from(applicationVersions)
        .where(
          and(
            eq(applicationVersions.applicationId, item.applicationId),
            sql`(${lte(applicationVersions.createdAt, item.updatedAt)} or ${applicationVersions.version} = 1)`,
          ),
        )
        .orderBy(desc(applicationVersions.version))
        .limit(1);
      const columns = bindingColumns(
        item,
        at ? { version: at.version, snapshot: at.snapshot as ApplicationSnapshot } : undefined,
        item.updatedAt,
      );
      // verified_version 0 marks an item with no snapshot to bind to, so the loop moves on.
      await db
        .update(verificationItems)
        .set({ ...columns, verifiedVersion: columns.verifiedVersion ?? 0 })
        .where(eq(verificationItems.id, item.id));
      if (columns.verifiedValues) bound += 1;
    }
  }
}
