/**
 * The 'Screening Matches' queue and its decisions (issue 30 item 4, decision 027).
 *
 * `screeningQueue` lists what waits for a reviewer: possible matches ('open') and findings whose row
 * left the list (`pending_change`) of applications under review or approved, oldest first, each with the provider's fields beside the list
 * row's (domain/screening/finding-comparison.ts). `decideFinding` records one decision:
 * - 'Confirm Match' (an open possible match): it becomes a match; the item shows 'Match';
 * - 'Not the Same Person' (an open possible match): cleared, and remembered for the provider: the
 *   same list row (same `row_hash`) does not flag them again, a changed row does;
 * - 'Accept Change' (a finding whose row left the list): cleared.
 * Each takes a reason, is audited, and refills the application's checklist item when screening owns
 * it. A decision on a finding already decided is a 409 (two reviewers at once: one wins).
 */
import { and, asc, eq, getTableColumns, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { FindingDecision, ScreeningFinding } from '../../domain/api/screening.ts';
import { AppError } from '../../domain/app-error.ts';
import type { SnapshotRow } from '../../domain/review/application-snapshot.ts';
import { compareFinding } from '../../domain/screening/finding-comparison.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { syncExclusionFindings } from '../credential/standing.ts';
import type { Database, Queryable } from '../db/client.ts';
import { providerApplications } from '../db/schema/core.ts';
import { screeningFindings } from '../db/schema/screening.ts';
import { newestSnapshot } from '../notifications/application-snapshot.ts';
import { appliedLists } from './coverage.ts';
import { sourceLabel } from './exclusion-imports.ts';
import { exclusionRowOf, type FindingEntry } from './exclusion-rows.ts';
import { fillScreeningItem, standingOf } from './screening.ts';

/** Most findings the queue shows at once (oldest first; the rest follow as these are decided). */
export const QUEUE_LIMIT = 200;

const text = (row: SnapshotRow | null | undefined, key: string) => String(row?.[key] ?? '');

/**
 * The open possible matches and pending changes of applications under review or approved, oldest
 * first (at most QUEUE_LIMIT).
 */
export async function screeningQueue(db: Queryable): Promise<ScreeningFinding[]> {
  const rows = await db
    .select(getTableColumns(screeningFindings))
    .from(screeningFindings)
    .innerJoin(providerApplications, eq(providerApplications.id, screeningFindings.applicationId))
    .where(
      and(
        // A finding of an application rejected, withdrawn or closed since waits for nobody.
        inArray(providerApplications.applicationStatus, ['under_review', 'approved']),
        or(
          eq(screeningFindings.status, 'open'),
          and(sql`${screeningFindings.status} <> 'cleared'`, isNotNull(screeningFindings.pendingChange)),
        ),
      ),
    )
    .orderBy(asc(screeningFindings.foundAt), asc(screeningFindings.id))
    .limit(QUEUE_LIMIT);
  const snapshots = new Map<string, Awaited<ReturnType<typeof newestSnapshot>>>();
  for (const id of new Set(rows.map((r) => r.applicationId))) {
    snapshots.set(id, await newestSnapshot(db, id));
  }
  return rows.map((row) => {
    const snapshot = snapshots.get(row.applicationId);
    const personal = snapshot?.personalInformation ?? {};
    const entry = row.entry as FindingEntry;
    const provider = {
      lastName: text(snapshot?.profile, 'last_name'),
      firstName: text(snapshot?.profile, 'first_name'),
      middleName: text(snapshot?.profile, 'middle_name'),
      npi: personal.npi_number ?? '',
      dob: personal.date_of_birth ?? '',
      state: personal.state ?? '',
      licenses: (snapshot?.lists.licenses ?? []).map((l) => ({
        number: text(l, 'license_number'),
        state: text(l, 'issuing_state'),
      })),
    };
    return {
      id: row.id,
      applicationId: row.applicationId,
      providerName: `${provider.firstName} ${provider.lastName}`.trim(),
      source: row.source,
      sourceLabel: sourceLabel(row.source),
      strength: row.strength as ScreeningFinding['strength'],
      matchedOn: row.matchedOn as ScreeningFinding['matchedOn'],
      status: row.status as ScreeningFinding['status'],
      pendingChange: row.pendingChange as ScreeningFinding['pendingChange'],
      foundAt: row.foundAt.toISOString(),
      comparison: compareFinding(provider, entry),
      entry: exclusionRowOf(entry),
    };
  });
}

/**
 * Record `decision` on finding `id` (see the module comment).
 * @throws AppError not_found; conflict (already decided, or the decision does not fit the finding)
 */
export async function decideFinding(
  db: Database,
  id: string,
  input: { decision: FindingDecision; reason: string; by: string; ipAddress?: string | null; now: Date },
): Promise<void> {
  await db.transaction(async (tx) => {
    const [finding] = await tx
      .select()
      .from(screeningFindings)
      .where(eq(screeningFindings.id, id))
      .for('update');
    if (!finding) throw new AppError('not_found', 'No such screening match. Reload the page.');
    const fits =
      input.decision === 'accept_change'
        ? finding.status !== 'cleared' && finding.pendingChange !== null
        : finding.status === 'open';
    if (!fits) {
      throw new AppError(
        'conflict',
        finding.status === 'cleared' || finding.status === 'confirmed'
          ? 'This screening match was decided already. Reload the page to see the queue as it is now.'
          : 'This decision does not fit this screening match. Reload the page.',
      );
    }
    await tx
      .update(screeningFindings)
      .set({
        status: input.decision === 'confirm_match' ? 'confirmed' : 'cleared',
        ...(input.decision === 'confirm_match' ? { strength: 'match' } : {}),
        ...(input.decision === 'accept_change' ? { pendingChange: null } : {}),
        decidedAt: input.now,
        decidedBy: input.by,
        reason: input.reason,
      })
      .where(eq(screeningFindings.id, id));
    await recordAudit(tx, {
      action: 'screening.finding_decided',
      actorUserId: input.by,
      subjectUserId: finding.userId,
      resourceType: 'application',
      resourceId: finding.applicationId,
      ipAddress: input.ipAddress ?? null,
      details: { findingId: id, source: finding.source, decision: input.decision, reason: input.reason },
    });
    const [application] = await tx
      .select({ status: providerApplications.applicationStatus })
      .from(providerApplications)
      .where(eq(providerApplications.id, finding.applicationId));
    await tx
      .update(providerApplications)
      .set({ exclusionMatch: await standingOf(tx, finding.applicationId) })
      .where(eq(providerApplications.id, finding.applicationId));
    if (
      application?.status === 'under_review' ||
      (application?.status === 'approved' && input.decision !== 'not_same_person')
    ) {
      await fillScreeningItem(tx, finding.applicationId, await appliedLists(tx), input.now, {
        force: input.decision === 'confirm_match',
      });
    }
    // Issue 49 item 2: a confirmed match suspends a running credential; a reinstatement or 'Not the
    // Same Person' resolves what it had opened, and the credential is published as active again.
    await syncExclusionFindings(tx, [finding.userId], input.now, {
      resolution: input.decision === 'not_same_person' ? 'not_same_person' : 'reinstated',
      by: input.by,
    });
  });
}
