/**
 * Clean and non-clean credentialing files (issue 32 item 4; NCQA CR 2: files that meet the
 * organization's criteria may be approved by the medical director or a designated physician, every
 * other file goes to the credentialing committee). One function decides it, for the review page's
 * flag today and for the routing of 'Send for Decision'.
 *
 * A file is clean when none of these holds, each a reason a person reads on the review page:
 * - a checklist item is in discrepancy ('Discrepancy: <item>');
 * - the attestation in force answers Yes to a disclosure question ('Yes to: <question>');
 * - the provider's exclusion screening stands at a match or a possible match
 *   ('Exclusion screening: Match' / 'Exclusion screening: Possible match'), or a list the provider
 *   needs is missing or stale (issue 51 item 1: 'Exclusion screening incomplete: SAM.gov exclusions
 *   (never imported)'; domain/screening/coverage.ts);
 * - a malpractice claim was paid in the last 5 years ('A malpractice claim was paid in the last 5
 *   years'; domain/sections/malpractice-claims.ts `paidClaimInLastFiveYears`).
 */
import {
  type AttestationRecord,
  type CommitteeReview,
  committeeReviewOfAttestation,
} from '../attestation.ts';
import { isoDay } from '../calendar.ts';
import type { ApplicationSnapshot } from '../review/application-snapshot.ts';
import { claimAmount, type VerificationStatus } from '../review/verification-checklist.ts';
import { type ScreeningGap, screeningGapReason } from '../screening/coverage.ts';
import { screeningOutcomeLabel } from '../screening/matching.ts';
import { paidClaimInLastFiveYears } from '../sections/malpractice-claims.ts';

/** What a clean file has none of, as the review page lists the criteria (issue 32 item 4). */
export const CLEAN_FILE_CRITERIA = [
  'No checklist item in discrepancy',
  'No Yes to a disclosure question',
  'No exclusion match or possible match, on every list the provider needs, each current',
  'No malpractice claim paid in the last 5 years',
] as const;

/** The facts of one file the criteria read. */
export interface CleanFileFacts {
  /** The attestation in force (the latest signed), or undefined when there is none. */
  attestation: Pick<AttestationRecord, 'answers'> | undefined;
  /** Whether the newest snapshot has a claim paid in the last five years (`snapshotPaidClaim`). */
  paidClaim: boolean;
  /** The checklist, in its order: what each item is about and its status (`VerificationStatus`). */
  checklist: readonly { kind: string; target: string; status: VerificationStatus | (string & {}) }[];
  /** The exclusion screening standing: 'match', 'possible_match', or null (no match, not screened). */
  exclusion: 'match' | 'possible_match' | null;
  /** The lists the provider needs that are missing or stale now (`screeningCoverage`); [] when none. */
  screeningGaps: readonly ScreeningGap[];
}

/** 'Discrepancy: <item>': a checklist item in discrepancy keeps a file from being clean. */
export const discrepancyReason = (target: string) => `Discrepancy: ${target}`;

/** 'Exclusion screening: Match' or '... Possible match'. */
export const exclusionReason = (standing: 'match' | 'possible_match') =>
  `Exclusion screening: ${screeningOutcomeLabel[standing]}`;

/**
 * Whether the file needs the committee (`needed`: it is not clean) and why, one reason per fact in
 * this order: each Yes disclosure, a paid claim, the exclusion standing, the screening's gaps, each item in discrepancy
 * (but the exclusion item, when the standing already names the match).
 */
export function cleanFileReview(facts: CleanFileFacts): CommitteeReview {
  const { reasons } = committeeReviewOfAttestation(facts.attestation, facts.paidClaim);
  if (facts.exclusion) reasons.push(exclusionReason(facts.exclusion));
  if (facts.screeningGaps.length > 0) reasons.push(screeningGapReason(facts.screeningGaps));
  for (const item of facts.checklist) {
    // A match puts the exclusion item in discrepancy: the standing above says it once.
    if (facts.exclusion && item.kind === 'exclusions') continue;
    if (item.status === 'discrepancy') reasons.push(discrepancyReason(item.target));
  }
  return { needed: reasons.length > 0, reasons };
}

/**
 * Whether a claim of `snapshot`'s Malpractice Claims was paid in the last five years at `now` (issue
 * 31 item 4, domain/sections/malpractice-claims.ts `paidClaimInLastFiveYears`). Read from the newest snapshot, not the current rows:
 * the flag is about the file the provider submitted and attested, and a draft's unsent edits do not
 * move it. Snapshots from before issue 31 have no claims: false.
 */
export function snapshotPaidClaim(snapshot: ApplicationSnapshot, now: Date): boolean {
  const day = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  const claims = (snapshot.lists?.malpracticeClaims ?? []).map((row) => ({
    noClaims: row.no_claims === true,
    amountPaid: claimAmount(row),
    claimDate: day(row.claim_date),
    incidentDate: day(row.incident_date),
  }));
  return paidClaimInLastFiveYears(claims, isoDay(now));
}
