/**
 * What a decision reads of a file (issue 32 items 4, 5, 7): its clean-file verdict now
 * (domain/committee/clean-file.ts), its decision clock, who verified it, and the summary the
 * committee reads. One read per fact, in parallel.
 */
import { and, asc, eq, inArray, isNotNull, max, min } from 'drizzle-orm';
import type { FileSummary } from '../../domain/api/committee.ts';
import type { AttestationRecord, CommitteeReview } from '../../domain/attestation.ts';
import { cleanFileReview, snapshotPaidClaim } from '../../domain/committee/clean-file.ts';
import {
  type DecisionClockLimits,
  type DecisionDue,
  decisionDue,
} from '../../domain/committee/timeliness.ts';
import type { ScreeningGap } from '../../domain/screening/coverage.ts';
import { listAttestations } from '../attestations/attestation.service.ts';
import { type Queryable, readAll } from '../db/client.ts';
import { applicationAttestations } from '../db/schema/attestations.ts';
import { verificationItems } from '../db/schema/review.ts';
import { newestSnapshot } from '../notifications/application-snapshot.ts';
import { coverageOf } from '../screening/coverage.ts';
import { standingOf } from '../screening/screening.ts';
import type { FieldCipher } from '../security/field-cipher.ts';

/** A file's clean-file verdict now, with the checklist and the attestation in force it read. */
export interface CleanFileVerdict extends CommitteeReview {
  checklist: (typeof verificationItems.$inferSelect)[];
  /** Lists the provider needs that are missing or stale now (issue 51 item 1). */
  screeningGaps: readonly ScreeningGap[];
  attestation: AttestationRecord | undefined;
}

/** The clean-file verdict of `applicationId` as its data stands now (issue 32 item 4). */
export async function cleanFileNow(
  db: Queryable,
  cipher: FieldCipher,
  applicationId: string,
  now: Date,
): Promise<CleanFileVerdict> {
  // In parallel on the pool; one after the other in a transaction, which is one connection (readAll).
  const [attestations, snapshot, checklist, exclusion, coverage] = await readAll(db, [
    () => listAttestations(db, cipher, applicationId),
    () => newestSnapshot(db, applicationId),
    () =>
      db
        .select()
        .from(verificationItems)
        .where(eq(verificationItems.applicationId, applicationId))
        .orderBy(asc(verificationItems.position)),
    () => standingOf(db, applicationId),
    () => coverageOf(db, applicationId, now),
  ]);
  const attestation = attestations.at(-1);
  const verdict = cleanFileReview({
    attestation,
    paidClaim: snapshot ? snapshotPaidClaim(snapshot, now) : false,
    checklist,
    exclusion,
    screeningGaps: coverage.gaps,
  });
  return { ...verdict, checklist, attestation, screeningGaps: coverage.gaps };
}

/**
 * The people who recorded an outcome (verified or waived) on `checklist`: issue 32 item 4, "the
 * specialist who verified a file cannot be its only decider".
 */
export function verifiersIn(checklist: readonly { status: string; validatorId: string | null }[]): string[] {
  const ids = checklist
    .filter((item) => (item.status === 'verified' || item.status === 'waived') && item.validatorId)
    .map((item) => item.validatorId as string);
  return [...new Set(ids)];
}

/** `verifiersIn` of the file's checklist, read from the database (one distinct query). */
export async function verifiersOf(db: Queryable, applicationId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ id: verificationItems.validatorId })
    .from(verificationItems)
    .where(
      and(
        eq(verificationItems.applicationId, applicationId),
        inArray(verificationItems.status, ['verified', 'waived']),
        isNotNull(verificationItems.validatorId),
      ),
    );
  return rows.map((r) => r.id as string);
}

/**
 * The decision clock (domain `decisionDue`) of each of `applicationIds`: the latest attestation and
 * the oldest verification, two grouped reads for the whole list.
 */
export async function decisionClocks(
  db: Queryable,
  applicationIds: readonly string[],
  limits: DecisionClockLimits,
  now: Date,
): Promise<Map<string, DecisionDue | null>> {
  if (applicationIds.length === 0) return new Map();
  const ids = [...applicationIds];
  const [attested, verified] = await Promise.all([
    db
      .select({ id: applicationAttestations.applicationId, at: max(applicationAttestations.signedAt) })
      .from(applicationAttestations)
      .where(inArray(applicationAttestations.applicationId, ids))
      .groupBy(applicationAttestations.applicationId),
    db
      .select({ id: verificationItems.applicationId, on: min(verificationItems.verifiedAt) })
      .from(verificationItems)
      .where(
        and(
          inArray(verificationItems.applicationId, ids),
          eq(verificationItems.status, 'verified'),
          isNotNull(verificationItems.verifiedAt),
        ),
      )
      .groupBy(verificationItems.applicationId),
  ]);
  const attestedAt = new Map(attested.map((r) => [r.id, r.at]));
  const oldest = new Map(verified.map((r) => [r.id, r.on]));
  return new Map(
    ids.map((id) => [
      id,
      decisionDue(
        { attestedAt: attestedAt.get(id) ?? null, oldestVerifiedOn: oldest.get(id) ?? null },
        limits,
        now,
      ),
    ]),
  );
}

/** The committee's summary of a file (issue 32 item 5), minus the names the caller adds. */
export async function fileSummaryFacts(
  db: Queryable,
  cipher: FieldCipher,
  applicationId: string,
  limits: DecisionClockLimits,
  now: Date,
): Promise<Pick<FileSummary, 'reasons' | 'decisionDue' | 'checklist' | 'disclosures'>> {
  const [verdict, clocks] = await readAll(db, [
    () => cleanFileNow(db, cipher, applicationId, now),
    () => decisionClocks(db, [applicationId], limits, now),
  ]);
  return {
    reasons: verdict.reasons,
    decisionDue: clocks.get(applicationId) ?? null,
    checklist: verdict.checklist.map((item) => ({
      target: item.target,
      status: item.status,
      source: item.source,
      verifiedAt: item.verifiedAt,
      note: item.note ?? item.waiverReason,
    })),
    disclosures: (verdict.attestation?.answers ?? [])
      .filter((a) => a.answer === 'yes')
      .map((a) => ({ question: a.question, explanation: a.explanation ?? '' })),
  };
}
