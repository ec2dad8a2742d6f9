/**
 * Display formats shared by the screens. A date shows as the user's calendar has it: a timestamp in
 * the browser's time zone, a calendar date (`YYYY-MM-DD`) as that date wherever the user is.
 * `Intl.DateTimeFormat` does it, so the screens that show dates load no date library for it.
 */

/** A calendar date without a time, as the API sends license expirations and end dates. */
const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** 'Nov 23, 2026'. */
const DATE_PARTS: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric', year: 'numeric' };
/** In the runtime's zone (the browser's), for timestamps. */
const localDate = new Intl.DateTimeFormat('en-US', DATE_PARTS);
/** In UTC, for calendar dates (read as UTC midnight). */
const calendarDate = new Intl.DateTimeFormat('en-US', { ...DATE_PARTS, timeZone: 'UTC' });

/**
 * '2026-11-23T10:00:00Z' -> 'Nov 23, 2026' (that instant's date in the user's zone); '2026-11-23'
 * -> 'Nov 23, 2026' (the same date everywhere); '', null, undefined or an unreadable text -> ''.
 */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const isCalendarDate = CALENDAR_DATE.test(iso);
  const date = new Date(isCalendarDate ? `${iso}T00:00:00Z` : iso);
  if (Number.isNaN(date.getTime())) return '';
  return (isCalendarDate ? calendarDate : localDate).format(date);
}
