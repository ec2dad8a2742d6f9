/** Section 5, Malpractice Insurance (spec §3 malpractice_insurance). Repeatable cards, 'Add Policy'. No field is required (spec §5). */
import { z } from 'zod';
import { defineListSection, joinSummary, optionalDate, optionalText, TEXT_MAX } from './section.ts';
import { sectionCatalog } from './section-catalog.ts';

export const malpracticeInsuranceSchema = z.object({
  insuranceCompany: optionalText(TEXT_MAX.name),
  policyNumber: optionalText(TEXT_MAX.code),
  /** Free text (spec §3), e.g. '$1,000,000 / $3,000,000'. */
  coverageAmount: optionalText(TEXT_MAX.code),
  effectiveDate: optionalDate(),
  expirationDate: optionalDate(),
});
export type MalpracticeInsuranceInput = z.input<typeof malpracticeInsuranceSchema>;
export type MalpracticeInsurance = z.output<typeof malpracticeInsuranceSchema>;

/** A policy's dates as ISO days (YYYY-MM-DD); empty or null when not given. */
export interface PolicyDates {
  effectiveDate?: string | null;
  expirationDate?: string | null;
}

/**
 * Whether a policy is in force on `day` (ISO day): it started on or before `day` (a policy without an
 * effective date counts as started) and does not expire before it (no expiration date: open-ended).
 * The one rule of "current malpractice coverage" (issue 13; issue 51 item 3), read by the checklist
 * (domain/review/verification-checklist.ts) and the provider's save notice.
 */
export function policyInForce(policy: PolicyDates, day: string): boolean {
  const effective = policy.effectiveDate ?? '';
  const expiration = policy.expirationDate ?? '';
  return effective <= day && (expiration === '' || expiration >= day);
}

/** The title of the toast that carries `policyStartsLaterNotice` (issue 51 item 3). */
export const POLICY_STARTS_LATER_TITLE = 'Policy not yet in force';

/**
 * What the provider is told when a saved policy is not in force yet (issue 51 item 3: a renewal that
 * replaced the policy in force left the file without current coverage and nobody said so):
 * 'This policy starts 2027-01-01; keep your current policy until then' (its effective date), or null
 * for a policy that has started (or has no effective date).
 * @param today the provider's day (ISO), an input: the caller's clock
 */
export function policyStartsLaterNotice(policy: PolicyDates, today: string): string | null {
  const effective = policy.effectiveDate ?? '';
  return effective > today ? `This policy starts ${effective}; keep your current policy until then` : null;
}

export const malpracticeInsuranceSection = defineListSection({
  key: 'malpracticeInsurance',
  ...sectionCatalog.malpracticeInsurance,
  kind: 'list',
  layout: 'repeatable-cards',
  orderBy: 'position',
  addLabel: 'Add Policy',
  schema: malpracticeInsuranceSchema,
  fields: [
    { name: 'insuranceCompany', label: 'Insurance Company' },
    { name: 'policyNumber', label: 'Policy Number' },
    { name: 'coverageAmount', label: 'Coverage Amount' },
    { name: 'effectiveDate', label: 'Effective Date' },
    { name: 'expirationDate', label: 'Expiration Date' },
  ],
  summarize: (row) =>
    joinSummary(
      row.insuranceCompany,
      row.policyNumber,
      row.coverageAmount,
      row.expirationDate && `expires ${row.expirationDate}`,
    ),
  messages: {
    loadError: 'Failed to load malpractice insurance records',
    saveError: 'Failed to save malpractice insurance',
    saveSuccess: 'Malpractice insurance saved successfully',
  },
});
