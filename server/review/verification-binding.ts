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
import { scheduledJobRuns } from '../db/schema/instances.ts';
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
 * last update; version 1 when none is older). Idempotent, in batches; run once per database at
 * start-up by `backfillVerificationBindingsOnce`.
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

/**
 * The marker of the backfill in `scheduled_job_runs`: a one-off job's single period, recorded
 * finished once the backfill has run on this database.
 */
export const BACKFILL_MARKER = { job: 'verification-bindings-backfill', period: 'once' } as const;

/**
 * Recorded as the marker's instance: the backfill runs before the starting instance registers and
 * gets its id (server/cluster/instance-registry.ts `joinCluster`).
 */
const NO_INSTANCE = '00000000-0000-0000-0000-000000000000';

/**
 * `backfillVerificationBindings` once per database (issue 29 follow-up): skipped when the marker row
 * (`BACKFILL_MARKER`) says it finished, else run and the marker recorded finished at `now`. Every
 * item verified since migration 0019 is bound when it is recorded, so one pass over the items of
 * before is all there is to do; later starts no longer scan verification_items. Call under
 * `withStartupLock` (server/runtime.ts): instances starting at once take turns, and the second finds
 * the marker. A start that dies mid-way leaves no marker, and the next start runs the (idempotent)
 * backfill again.
 * @returns how many items were bound, or 'skipped' when the marker was there
 */
export async function backfillVerificationBindingsOnce(db: Database, now: Date): Promise<number | 'skipped'> {
  const marker = and(
    eq(scheduledJobRuns.job, BACKFILL_MARKER.job),
    eq(scheduledJobRuns.period, BACKFILL_MARKER.period),
    isNotNull(scheduledJobRuns.finishedAt),
  );
  const [done] = await db.select({ job: scheduledJobRuns.job }).from(scheduledJobRuns).where(marker);
  if (done) return 'skipped';
  const bound = await backfillVerificationBindings(db);
  await db
    .insert(scheduledJobRuns)
    .values({ ...BACKFILL_MARKER, instanceId: NO_INSTANCE, startedAt: now, leaseUntil: now, finishedAt: now })
    .onConflictDoUpdate({
      target: [scheduledJobRuns.job, scheduledJobRuns.period],
      set: { finishedAt: now, lastError: null },
    });
  return bound;
}
