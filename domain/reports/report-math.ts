/**
 * The arithmetic of the managers' reports (issue 34): UTC month buckets of a date range, the
 * percentiles the reports quote, and the default range. Pure (no Node, no zod); `now` is passed in.
 *
 * Percentiles are linear interpolation between the closest ranks, exactly PostgreSQL's
 * `percentile_cont` (and NumPy's default, Hyndman & Fan type 7): the server computes them in SQL and
 * this file states the same definition for the web, the tests and anyone reading the numbers.
 */

/** 'YYYY-MM': a calendar month in UTC. */
export type MonthKey = string;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function yearMonth(day: string): [number, number] {
  const match = DAY.exec(day);
  if (!match) throw new Error(`Not a YYYY-MM-DD day: ${day}`);
  return [Number(match[1]), Number(match[2])];
}

/** The 'YYYY-MM' of a YYYY-MM-DD day (its UTC month). */
export function monthOf(day: string): MonthKey {
  const [y, m] = yearMonth(day);
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}`;
}

/**
 * Every UTC month a range of days touches, oldest first: ('2026-01-31', '2026-03-01') ->
 * ['2026-01', '2026-02', '2026-03']. The edge months are partial (only the range's days count in
 * them); the reports list them so a chart has one bucket per month, empty ones included.
 * @param from first day, YYYY-MM-DD (inclusive)
 * @param to last day, YYYY-MM-DD (inclusive)
 * @returns [] when `to` is before `from`
 */
export function monthsBetween(from: string, to: string): MonthKey[] {
  const [fy, fm] = yearMonth(from);
  const [ty, tm] = yearMonth(to);
  if (to < from) return [];
  const months: MonthKey[] = [];
  for (let total = fy * 12 + fm - 1; total <= ty * 12 + tm - 1; total += 1) {
    const year = Math.floor(total / 12);
    months.push(`${String(year).padStart(4, '0')}-${String((total % 12) + 1).padStart(2, '0')}`);
  }
  return months;
}

/**
 * The `p`-th percentile (0 ≤ p ≤ 1) of `values` by linear interpolation between closest ranks, as
 * PostgreSQL's `percentile_cont(p) within group (order by x)`: with the values sorted ascending,
 * position h = p·(n − 1); the result is v[⌊h⌋] + (h − ⌊h⌋)·(v[⌊h⌋+1] − v[⌊h⌋]).
 * Median = p 0.5; the reports' 90th percentile = p 0.9 (of 1..10: 9.1).
 * @returns null for no values (as SQL's aggregate over no rows)
 * @throws RangeError when p is outside [0, 1]
 */
export function percentile(values: readonly number[], p: number): number | null {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`percentile p must be within [0, 1], got ${p}`);
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const h = p * (sorted.length - 1);
  const low = Math.floor(h);
  const lower = sorted[low] as number;
  const upper = sorted[Math.min(low + 1, sorted.length - 1)] as number;
  return lower + (h - low) * (upper - lower);
}

/** The median (`percentile(values, 0.5)`). */
export function median(values: readonly number[]): number | null {
  return percentile(values, 0.5);
}

/** Days rounded to one decimal, as the reports show them (SQL: `round(x::numeric, 1)`). */
export function roundDays(days: number): number {
  return Math.round(days * 10) / 10;
}

/** A share as a percentage with one decimal (7 of 9 -> 77.8); null when there is nothing to share. */
export function sharePercent(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((part / whole) * 1000) / 10;
}

/** The longest range a report accepts, in UTC months touched (issue 34: three years of history). */
export const REPORT_MAX_MONTHS = 36;

/**
 * The range a report shows when none is asked for: the last 12 UTC months, the current one
 * included (its first day to today). `now` is the clock, injected.
 * @returns { from, to } as YYYY-MM-DD
 */
export function defaultReportRange(now: Date): { from: string; to: string } {
  const to = now.toISOString().slice(0, 10);
  const [y, m] = yearMonth(to);
  const total = y * 12 + (m - 1) - 11;
  const from = `${String(Math.floor(total / 12)).padStart(4, '0')}-${String((total % 12) + 1).padStart(2, '0')}-01`;
  return { from, to };
}
