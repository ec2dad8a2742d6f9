/**
 * The decision's timeliness clock (issue 32 item 7): the earlier of attestation + ATTESTATION_VALID_DAYS
 * and oldest verification + VERIFICATION_MAX_AGE_DAYS, counted in calendar days from a driven clock.
 */
import { describe, expect, it } from 'vitest';
import { decisionDue, decisionDueBasisText, decisionDueText } from './timeliness.ts';

const limits = { attestationValidDays: 120, verificationMaxAgeDays: 120 };
const at = (day: string) => new Date(`${day}T15:00:00Z`);

describe('decision due', () => {
  it('is 120 days after the attestation when nothing is verified yet', () => {
    expect(
      decisionDue({ attestedAt: at('2026-01-10'), oldestVerifiedOn: null }, limits, at('2026-01-10')),
    ).toEqual({
      dueOn: '2026-05-10',
      daysLeft: 120,
      basis: 'attestation',
      limitDays: 120,
    });
  });

  it('follows whichever clock ends first, and counts past the due day as overdue', () => {
    const facts = { attestedAt: at('2026-03-01'), oldestVerifiedOn: '2026-02-01' };
    expect(decisionDue(facts, limits, at('2026-05-31'))).toEqual({
      dueOn: '2026-06-01',
      daysLeft: 1,
      basis: 'verification',
      limitDays: 120,
    });
    expect(decisionDue(facts, limits, at('2026-06-01'))?.daysLeft).toBe(0);
    expect(decisionDue(facts, limits, at('2026-06-04'))?.daysLeft).toBe(-3);
    // Other limits (the server's settings) move the clock.
    expect(
      decisionDue(facts, { attestationValidDays: 30, verificationMaxAgeDays: 180 }, at('2026-03-01'))?.dueOn,
    ).toBe('2026-03-31');
  });

  it('has no clock before an attestation or a verification', () => {
    expect(decisionDue({ attestedAt: null, oldestVerifiedOn: null }, limits, at('2026-01-01'))).toBeNull();
  });

  it('says it in words', () => {
    expect([12, 1, 0, -1, -3].map((daysLeft) => decisionDueText({ daysLeft }))).toEqual([
      'Decision due in 12 days',
      'Decision due in 1 day',
      'Decision due today',
      'Decision overdue by 1 day',
      'Decision overdue by 3 days',
    ]);
    expect(decisionDueBasisText({ basis: 'verification', limitDays: 120 })).toBe(
      '120 days after the oldest verification',
    );
  });
});
