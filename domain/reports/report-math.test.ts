import { describe, expect, it } from 'vitest';
import {
  defaultReportRange,
  median,
  monthOf,
  monthsBetween,
  percentile,
  roundDays,
  sharePercent,
} from './report-math.ts';

describe('monthsBetween', () => {
  it('lists every UTC month the range touches, the partial edge months included', () => {
    expect(monthsBetween('2026-01-31', '2026-03-01')).toEqual(['2026-01', '2026-02', '2026-03']);
  });

  it('gives one month for a range inside a month, and crosses a year end', () => {
    expect(monthsBetween('2026-05-10', '2026-05-10')).toEqual(['2026-05']);
    expect(monthsBetween('2025-11-15', '2026-02-02')).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
  });

  it('gives 36 months for three whole years and nothing for a reversed range', () => {
    const months = monthsBetween('2024-01-01', '2026-12-31');
    expect(months).toHaveLength(36);
    expect(months[0]).toBe('2024-01');
    expect(months.at(-1)).toBe('2026-12');
    expect(monthsBetween('2026-03-01', '2026-02-28')).toEqual([]);
  });

  it('refuses a day that is not YYYY-MM-DD', () => {
    expect(() => monthsBetween('2026-1-01', '2026-02-01')).toThrow(/YYYY-MM-DD/);
    expect(monthOf('2026-02-28')).toBe('2026-02');
  });
});

describe('percentile (linear interpolation, as PostgreSQL percentile_cont)', () => {
  it('interpolates between the closest ranks', () => {
    const oneToTen = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1];
    expect(percentile(oneToTen, 0.5)).toBeCloseTo(5.5, 10);
    expect(percentile(oneToTen, 0.9)).toBeCloseTo(9.1, 10);
    expect(percentile([10, 20, 40], 0.9)).toBeCloseTo(36, 10);
    expect(median([3, 1, 2])).toBe(2);
  });

  it('gives the value itself for one value, the ends for 0 and 1, and null for none', () => {
    expect(percentile([42], 0.9)).toBe(42);
    expect(percentile([5, 1, 9], 0)).toBe(1);
    expect(percentile([5, 1, 9], 1)).toBe(9);
    expect(percentile([], 0.5)).toBeNull();
  });

  it('refuses p outside [0, 1]', () => {
    expect(() => percentile([1], 90)).toThrow(RangeError);
    expect(() => percentile([1], Number.NaN)).toThrow(RangeError);
  });
});

describe('rounding and shares', () => {
  it('rounds days to one decimal and shares to a percentage with one decimal', () => {
    expect(roundDays(11.25)).toBe(11.3);
    expect(roundDays(36)).toBe(36);
    expect(sharePercent(7, 9)).toBe(77.8);
    expect(sharePercent(2, 2)).toBe(100);
    expect(sharePercent(0, 0)).toBeNull();
  });
});

describe('defaultReportRange', () => {
  it('is the last 12 UTC months, the current one included, from the clock passed in', () => {
    expect(defaultReportRange(new Date('2026-11-26T22:00:00Z'))).toEqual({
      from: '2025-12-01',
      to: '2026-11-26',
    });
    // Just before midnight UTC on New Year's Eve is still December.
    expect(defaultReportRange(new Date('2026-12-31T23:59:59Z'))).toEqual({
      from: '2026-01-01',
      to: '2026-12-31',
    });
    expect(monthsBetween('2026-01-01', '2026-12-31')).toHaveLength(12);
  });
});
