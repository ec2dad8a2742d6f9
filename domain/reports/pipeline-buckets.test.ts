import { describe, expect, it } from 'vitest';
import { ageBucketOf, daysBetween, forecastMonths } from './pipeline-buckets.ts';

describe('ageBucketOf (issue 34 item 2)', () => {
  it.each([
    [0, '0–30'],
    [30, '0–30'],
    [31, '31–60'],
    [60, '31–60'],
    [61, '61–90'],
    [90, '61–90'],
    [91, '91–120'],
    [120, '91–120'],
    [121, 'over 120'],
    [4000, 'over 120'],
    [-2, '0–30'],
  ])('%i days is %s', (days, bucket) => {
    expect(ageBucketOf(days)).toBe(bucket);
  });
});

describe('daysBetween', () => {
  it('counts UTC calendar days, across a month and a leap day', () => {
    expect(daysBetween('2028-02-28', '2028-03-01')).toBe(2);
    expect(daysBetween('2027-02-28', '2027-03-01')).toBe(1);
    expect(daysBetween('2026-11-26', '2026-11-26')).toBe(0);
    expect(daysBetween('2026-11-27', '2026-11-26')).toBe(-1);
  });
});

describe('forecastMonths (issue 34 item 4)', () => {
  it("is now's UTC month and the eleven after it, from today to the thirteenth month's first day", () => {
    // Late on Nov 30 in New York is already December in UTC.
    const now = new Date('2026-12-01T03:00:00Z');
    const forecast = forecastMonths(now);
    expect(forecast.months).toHaveLength(12);
    expect(forecast.months[0]).toBe('2026-12');
    expect(forecast.months[11]).toBe('2027-11');
    expect(forecast.fromDay).toBe('2026-12-01');
    expect(forecast.beforeDay).toBe('2027-12-01');
  });

  it('crosses the year from a month end', () => {
    const forecast = forecastMonths(new Date('2027-01-31T23:59:59Z'));
    expect(forecast.months.slice(0, 3)).toEqual(['2027-01', '2027-02', '2027-03']);
    expect(forecast.beforeDay).toBe('2028-01-01');
    expect(forecast.fromDay).toBe('2027-01-31');
  });
});
