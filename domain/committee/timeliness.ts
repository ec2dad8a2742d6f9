/**
 * NCQA's timeliness clock of a credentialing decision (issue 32 item 7; NCQA CR 3: the decision is
 * made within 120 days of the attestation and of the oldest primary-source verification it relies
 * on, or the file must be attested or verified again). The day limits are the product's own:
 * ATTESTATION_VALID_DAYS and VERIFICATION_MAX_AGE_DAYS (both 120 by default), so the clock agrees with
 * what 'Approve' refuses and with 'Re-attestation required'.
 */
import { DEFAULT_ATTESTATION_VALID_DAYS } from '../attestation.ts';
import { addDays, isoDay } from '../calendar.ts';
import { daysUntil } from '../credentials/expiring-credentials.ts';
import { DEFAULT_VERIFICATION_MAX_AGE_DAYS } from '../review/verification-checklist.ts';

/** The clocks' limits in days: the server's ATTESTATION_VALID_DAYS and VERIFICATION_MAX_AGE_DAYS. */
export interface DecisionClockLimits {
  attestationValidDays: number;
  verificationMaxAgeDays: number;
}

/** The limits with both settings at their defaults (120 days each). */
export const defaultDecisionClockLimits: DecisionClockLimits = {
  attestationValidDays: DEFAULT_ATTESTATION_VALID_DAYS,
  verificationMaxAgeDays: DEFAULT_VERIFICATION_MAX_AGE_DAYS,
};

/** When the decision is due, how many days are left (negative: overdue) and which clock ends first. */
export interface DecisionDue {
  /** YYYY-MM-DD (UTC). */
  dueOn: string;
  daysLeft: number;
  basis: 'attestation' | 'verification';
  /** The limit of that clock, in days (ATTESTATION_VALID_DAYS or VERIFICATION_MAX_AGE_DAYS). */
  limitDays: number;
}

/**
 * The earlier of the attestation's and the oldest verification's deadline; null when the file has
 * neither (nothing has started the clock).
 * @param facts.attestedAt when the attestation in force was signed (the latest), or null
 * @param facts.oldestVerifiedOn the earliest verification date (YYYY-MM-DD) of the verified items, or null
 * @param now the clock, injected
 */
export function decisionDue(
  facts: { attestedAt: Date | null; oldestVerifiedOn: string | null },
  limits: DecisionClockLimits,
  now: Date,
): DecisionDue | null {
  const candidates: Omit<DecisionDue, 'daysLeft'>[] = [];
  if (facts.attestedAt) {
    const limitDays = limits.attestationValidDays;
    candidates.push({ dueOn: addDays(isoDay(facts.attestedAt), limitDays), basis: 'attestation', limitDays });
  }
  if (facts.oldestVerifiedOn) {
    const limitDays = limits.verificationMaxAgeDays;
    candidates.push({ dueOn: addDays(facts.oldestVerifiedOn, limitDays), basis: 'verification', limitDays });
  }
  const first = candidates.sort((a, b) => (a.dueOn < b.dueOn ? -1 : a.dueOn > b.dueOn ? 1 : 0))[0];
  return first ? { ...first, daysLeft: daysUntil(first.dueOn, now) } : null;
}

/** 'Decision due in 12 days', 'Decision due today', 'Decision overdue by 3 days' (the clock's words). */
export function decisionDueText(due: Pick<DecisionDue, 'daysLeft'>): string {
  const { daysLeft } = due;
  if (daysLeft === 0) return 'Decision due today';
  const days = (n: number) => (n === 1 ? '1 day' : `${n} days`);
  return daysLeft > 0 ? `Decision due in ${days(daysLeft)}` : `Decision overdue by ${days(-daysLeft)}`;
}

/** Which clock ends first, as the review page explains it: '120 days after the attestation'. */
export function decisionDueBasisText(due: Pick<DecisionDue, 'basis' | 'limitDays'>): string {
  return `${due.limitDays} days after ${due.basis === 'attestation' ? 'the attestation' : 'the oldest verification'}`;
}
