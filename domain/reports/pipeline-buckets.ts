/**
 * The calendar arithmetic of the pipeline reports (issue 34 items 2, 4, 5): age buckets of open files
 * and open possible matches, and the UTC months a report is drawn over. Pure functions of `YYYY-MM-DD`
 * days and an injected `now`; every day and month is a UTC calendar one. The server's SQL uses the
 * same edges (AGE_BUCKET_LIMITS_DAYS), so a count and its bucket label never disagree.
 */
import { addMonths, isoDay } from '../calendar.ts';

/**
 * The age buckets of issue 34 item 2, in days since the attestation (NCQA CR 3: the clock a
 * credentialing decision runs against): 0–30, 31–60, 61–90, 91–120, over 120. Both edges of a
 * labelled range are in it (30 days is '0–30', 31 is '31–60').
 */
export const ageBuckets = ['0–30', '31–60', '61–90', '91–120', 'over 120'] as const;
export type AgeBucket = (typeof ageBuckets)[number];

/** The largest age (days) of each bucket but the last, in `ageBuckets` order. */
export const AGE_BUCKET_LIMITS_DAYS = [30, 60, 90, 120] as const;

/** How many months the expirables forecast covers (issue 34 item 4: "the next 12 months"). */
export const FORECAST_MONTHS = 12;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The bucket of an age of `days` (a negative age, a clock skew, counts as 0). */
export function ageBucketOf(days: number): AgeBucket {
  const index = AGE_BUCKET_LIMITS_DAYS.findIndex((limit) => days <= limit);
  return ageBuckets[index === -1 ? ageBuckets.length - 1 : index]!;
}

/** Whole UTC calendar days from `fromDay` to `toDay` (`YYYY-MM-DD`; negative when `toDay` is earlier). */
export function daysBetween(fromDay: string, toDay: string): number {
  return Math.round((Date.parse(`${toDay}T00:00:00Z`) - Date.parse(`${fromDay}T00:00:00Z`)) / DAY_MS);
}

/** The UTC month (`YYYY-MM`) of a `YYYY-MM-DD` day or of an instant. */
export function utcMonthOf(day: string | Date): string {
  return (typeof day === 'string' ? day : isoDay(day)).slice(0, 7);
}

/**
 * The months of the expirables forecast at `now` (issue 34 item 4): `now`'s UTC month and the eleven
 * after it, as `YYYY-MM`, and the days they cover: from `now`'s UTC day (what has already expired is
 * the 'Expiring' tab's, not a forecast) up to, not including, the first day of the thirteenth month.
 */
export function forecastMonths(now: Date): { months: string[]; fromDay: string; beforeDay: string } {
  const first = `${utcMonthOf(now)}-01`;
  const months = Array.from({ length: FORECAST_MONTHS }, (_, i) => utcMonthOf(addMonths(first, i)));
  return { months, fromDay: isoDay(now), beforeDay: addMonths(first, FORECAST_MONTHS) };
}
