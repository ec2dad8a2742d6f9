/**
 * The malpractice policy rules shared by the checklist and the provider's save (issue 51 item 3):
 * which policy is in force on a day, and what the provider is told when a saved policy has not
 * started yet. "Today" is a parameter.
 */
import { describe, expect, it } from 'vitest';
import { policyInForce, policyStartsLaterNotice } from './malpractice-insurance.ts';

const today = '2026-11-28';

describe('policyInForce', () => {
  it('is in force from its effective date through its expiration date', () => {
    const policy = { effectiveDate: '2026-01-01', expirationDate: '2027-01-01' };
    expect(policyInForce(policy, '2025-12-31')).toBe(false);
    expect(policyInForce(policy, '2026-01-01')).toBe(true);
    expect(policyInForce(policy, '2027-01-01')).toBe(true);
    expect(policyInForce(policy, '2027-01-02')).toBe(false);
  });

  it('counts a missing effective date as started and a missing expiration date as open-ended', () => {
    expect(policyInForce({ effectiveDate: null, expirationDate: '2027-01-01' }, today)).toBe(true);
    expect(policyInForce({ effectiveDate: '2020-01-01', expirationDate: '' }, today)).toBe(true);
  });
});

describe('policyStartsLaterNotice', () => {
  it('tells the provider a renewal not yet in force starts later, with its start date', () => {
    // The case: the policy in force replaced by a renewal starting 2027-01-01.
    expect(
      policyStartsLaterNotice({ effectiveDate: '2027-01-01', expirationDate: '2028-01-01' }, today),
    ).toBe('This policy starts 2027-01-01; keep your current policy until then');
  });

  it('says nothing of a policy that has started, or has no effective date', () => {
    expect(policyStartsLaterNotice({ effectiveDate: today, expirationDate: '2027-11-28' }, today)).toBeNull();
    expect(
      policyStartsLaterNotice({ effectiveDate: '2020-01-01', expirationDate: '2021-01-01' }, today),
    ).toBeNull();
    expect(policyStartsLaterNotice({ effectiveDate: null }, today)).toBeNull();
  });
});
