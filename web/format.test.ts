/**
 * `formatDate` (web/format.ts): a timestamp shows as its date in the zone the dates display in (the
 * browser's own, or the one the server renders a page in), a calendar date as that date everywhere.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { formatDate, setDisplayTimeZoneSource } from './format.ts';

describe('formatDate', () => {
  afterEach(() => setDisplayTimeZoneSource(() => undefined));

  it('shows a timestamp as its date in the display zone', () => {
    // 23:30 UTC: already the next day in Tokyo, still the same day in Chicago.
    setDisplayTimeZoneSource(() => 'Asia/Tokyo');
    expect(formatDate('2026-03-10T23:30:00.000Z')).toBe('Mar 11, 2026');
    setDisplayTimeZoneSource(() => 'America/Chicago');
    expect(formatDate('2026-03-10T23:30:00.000Z')).toBe('Mar 10, 2026');
    setDisplayTimeZoneSource(() => 'UTC');
    expect(formatDate('2026-09-01T00:00:00Z')).toBe('Sep 1, 2026');
  });

  it('shows a calendar date as that date in every zone', () => {
    for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', undefined]) {
      setDisplayTimeZoneSource(() => zone);
      expect(formatDate('2026-11-23')).toBe('Nov 23, 2026');
    }
  });

  it('shows nothing for a missing or unreadable value', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
});
