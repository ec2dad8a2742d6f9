/**
 * Calendar days as the application stores them: `YYYY-MM-DD` strings in UTC, free of time zones.
 * Shared by the review checklist (work history gaps) and recredentialing (36 months after approval).
 */

/** `YYYY-MM-DD` of `date` in UTC. */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The first instant (ms since the epoch) of the UTC day after `now`'s: when every "days left" moves. */
export function nextUtcDayStart(now: Date): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
}

/** `day` (YYYY-MM-DD) plus `months` calendar months, the day clamped to the month's end (Feb 29 + 12 -> Feb 28). */
export function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/** `day` (YYYY-MM-DD) plus `days` calendar days (negative: before). */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return isoDay(new Date(Date.UTC(y, m - 1, d + days)));
}

/** `YYYY-MM-DD` as emails write it, whatever the server's zone: '2027-03-10' -> 'Mar 10, 2027'. */
export function formatIsoDay(isoDate: string): string {
  return new Date(`${isoDate}T00:00:00Z`).toLocaleDateString('en-US', {
    timeZone: 'UTC',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
  });
}
