/**
 * `formatDate` (web/format.ts): a timestamp shows as its date in the runtime's zone, a calendar date
 * as that date whatever the zone (read as local midnight, it would show the day before west of UTC).
 */
import { describe, expect, it } from 'vitest';
import { formatDate } from './format.ts';

describe('formatDate', () => {
  it('shows a timestamp as its date in the runtime’s zone', () => {
    // The instant's local day, as Date reads it in this zone (run under several TZ values).
    const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    for (const instant of ['2026-03-10T12:00:00.000Z', '2026-09-01T23:30:00Z', '2026-12-31T02:00:00-05:00']) {
      const local = new Date(instant);
      expect(formatDate(instant)).toBe(
        `${months[local.getMonth()]} ${local.getDate()}, ${local.getFullYear()}`,
      );
    }
  });

  it('shows a calendar date as that date', () => {
    expect(formatDate('2026-11-23')).toBe('Nov 23, 2026');
    expect(formatDate('2026-01-01')).toBe('Jan 1, 2026');
  });

  it('shows nothing for a missing or unreadable value', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
});
