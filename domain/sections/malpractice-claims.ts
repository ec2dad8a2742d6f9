/**
 * Malpractice Claims (issue 31 item 1; CAQH ProView "Professional Liability Claims History", the state
 * uniform applications' claims history section, NCQA CR 3 (malpractice history, verified with the
 * NPDB)). Repeatable cards, 'Add Claim'.
 *
 * The last 10 years of claims: incident date, claim date (when the claim was made), status, amount paid
 * (US dollars, on the provider's behalf), insurer, description. A provider with no claims answers 'No
 * claims in the last 10 years', the section's none answer (section.ts): a card with only `noClaims`.
 * A paid claim in the last 5 years marks the file for committee review (`paidClaimInLastFiveYears`).
 */
import { z } from 'zod';
import { addMonths } from '../calendar.ts';
import {
  defineListSection,
  flag,
  joinSummary,
  type NoneAnswer,
  numberInput,
  optionalDate,
  optionalEnum,
  optionalText,
  refineDateOrder,
  refineNoneAnswerRow,
  TEXT_MAX,
} from './section.ts';
import { sectionCatalog } from './section-catalog.ts';

export const claimStatuses = ['open', 'closed', 'dismissed', 'settled', 'judgment'] as const;
export type ClaimStatus = (typeof claimStatuses)[number];
export const claimStatusLabel: Record<ClaimStatus, string> = {
  open: 'Open',
  closed: 'Closed',
  dismissed: 'Dismissed',
  settled: 'Settled',
  judgment: 'Judgment',
};

/** How far back the claims history goes (issue 31; the uniform applications ask 10 years). */
export const CLAIMS_HISTORY_YEARS = 10;
/** A claim paid within this many years marks the file for committee review (issue 31 item 4). */
export const PAID_CLAIM_REVIEW_YEARS = 5;
/** Largest amount paid accepted, US dollars (a bound, not a rule of the field). */
export const CLAIM_AMOUNT_MAX = 100_000_000;

export const NO_CLAIMS: NoneAnswer = {
  field: 'noClaims',
  label: 'No claims in the last 10 years',
  noun: 'claims',
};

const AMOUNT_MESSAGE = 'Enter the amount paid in US dollars, e.g. 250000';

export const malpracticeClaimSchema = z
  .object({
    noClaims: flag(),
    incidentDate: optionalDate(),
    /** When the claim was made against the provider. */
    claimDate: optionalDate(),
    status: optionalEnum(claimStatuses, 'Choose a claim status from the list'),
    /** Paid on the provider's behalf, US dollars with cents; null when nothing was paid or not yet known. */
    amountPaid: numberInput(null, AMOUNT_MESSAGE).refine(
      (v) => v === null || (v >= 0 && v <= CLAIM_AMOUNT_MAX && Math.round(v * 100) === v * 100),
      AMOUNT_MESSAGE,
    ),
    insurer: optionalText(TEXT_MAX.name),
    description: optionalText(TEXT_MAX.long),
  })
  .superRefine((row, ctx) => {
    if (row.noClaims) {
      refineNoneAnswerRow(NO_CLAIMS, row, ctx);
      return;
    }
    if (!row.status) {
      ctx.addIssue({ code: 'custom', path: ['status'], message: 'Choose a claim status from the list' });
    }
    if (!row.incidentDate && !row.claimDate) {
      ctx.addIssue({
        code: 'custom',
        path: ['claimDate'],
        message: 'Enter the claim date or the incident date',
      });
    }
    refineDateOrder(
      ctx,
      row.incidentDate,
      row.claimDate,
      'claimDate',
      'The claim date is before the incident date',
    );
  });
export type MalpracticeClaimInput = z.input<typeof malpracticeClaimSchema>;
export type MalpracticeClaim = z.output<typeof malpracticeClaimSchema>;

/**
 * Whether any claim was paid (amount > 0) with a claim date (else incident date) within
 * PAID_CLAIM_REVIEW_YEARS years before `today` (issue 31 item 4: the committee review flag).
 * @param today ISO date 'YYYY-MM-DD' (time is an input)
 */
export function paidClaimInLastFiveYears(
  claims: readonly Pick<MalpracticeClaim, 'noClaims' | 'amountPaid' | 'claimDate' | 'incidentDate'>[],
  today: string,
): boolean {
  const since = addMonths(today, -12 * PAID_CLAIM_REVIEW_YEARS);
  return claims.some((claim) => {
    if (claim.noClaims || !claim.amountPaid || claim.amountPaid <= 0) return false;
    const dated = claim.claimDate ?? claim.incidentDate;
    return dated !== null && dated >= since;
  });
}

/** '$250,000.00' */
export function formatUsd(amount: number): string {
  return amount.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
}

export const malpracticeClaimsSection = defineListSection({
  key: 'malpracticeClaims',
  ...sectionCatalog.malpracticeClaims,
  kind: 'list',
  layout: 'repeatable-cards',
  orderBy: 'position',
  addLabel: 'Add Claim',
  schema: malpracticeClaimSchema,
  noneAnswer: NO_CLAIMS,
  fields: [
    { name: 'noClaims', label: NO_CLAIMS.label },
    { name: 'incidentDate', label: 'Incident Date' },
    { name: 'claimDate', label: 'Claim Date' },
    { name: 'status', label: 'Status' },
    { name: 'amountPaid', label: 'Amount Paid (USD)' },
    { name: 'insurer', label: 'Insurer' },
    { name: 'description', label: 'Description' },
  ],
  summarize: (row) =>
    row.noClaims
      ? NO_CLAIMS.label
      : joinSummary(
          row.claimDate ?? row.incidentDate,
          row.status && claimStatusLabel[row.status],
          row.amountPaid !== null && row.amountPaid > 0 && `paid ${formatUsd(row.amountPaid)}`,
          row.insurer,
        ),
  messages: {
    loadError: 'Failed to load malpractice claims',
    saveError: 'Failed to save malpractice claims',
    saveSuccess: 'Malpractice claims saved successfully',
  },
});
