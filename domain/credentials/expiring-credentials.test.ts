import { describe, expect, it } from 'vitest';
import {
  type DatedCredential,
  daysLeftText,
  daysUntil,
  expiringSoon,
  expiryUrgency,
} from './expiring-credentials.ts';

const now = new Date('2026-11-25T23:30:00Z');

describe('expiring credentials', () => {
  it('counts calendar days in UTC: 0 on the day, negative after it', () => {
    expect(daysUntil('2026-11-25', now)).toBe(0);
    expect(daysUntil('2026-11-26', now)).toBe(1);
    expect(daysUntil('2026-11-24', now)).toBe(-1);
    expect(daysUntil('2026-12-15', now)).toBe(20);
    // Across a leap day and a year end.
    expect(daysUntil('2028-03-01', new Date('2028-02-28T00:00:00Z'))).toBe(2);
    expect(daysUntil('2027-01-01', now)).toBe(37);
  });

  it('gives the smallest threshold a date falls under, and nothing past 90 days', () => {
    expect([-1, 0, 7, 8, 30, 31, 60, 61, 90, 91].map(expiryUrgency)).toEqual([
      'expired',
      'within_7',
      'within_7',
      'within_30',
      'within_30',
      'within_60',
      'within_60',
      'within_90',
      'within_90',
      null,
    ]);
  });

  it('keeps what expires within 90 days or has expired, most urgent first', () => {
    const credentials: DatedCredential[] = [
      { kind: 'payor_contract', rowId: 'p', name: 'Aetna', expiresOn: '2027-06-01' },
      { kind: 'professional_license', rowId: 'l', name: 'Medical License IL-1', expiresOn: '2026-12-15' },
      { kind: 'drivers_license', rowId: 'd', name: "Driver's license IL", expiresOn: '2026-11-01' },
      { kind: 'vaccination', rowId: 'v', name: 'Influenza', expiresOn: '2027-02-23' },
    ];
    expect(expiringSoon(credentials, now).map((c) => [c.rowId, c.daysLeft, c.urgency])).toEqual([
      ['d', -24, 'expired'],
      ['l', 20, 'within_30'],
      ['v', 90, 'within_90'],
    ]);
  });

  it('says Expired once the date has passed', () => {
    expect([-3, 0, 1, 20].map(daysLeftText)).toEqual([
      'Expired',
      'Expires today',
      '1 day left',
      '20 days left',
    ]);
  });
});
