/**
 * Display formats shared by the screens. A date shows as the user's calendar has it: a timestamp in
 * the browser's time zone, a calendar date (`YYYY-MM-DD`) as that date wherever the user is.
 *
 * The server renders `/dashboard` too (web/render-page.tsx, decision 033): there the zone is the one
 * the browser reported, so the HTML and the browser's hydration of it show the same dates.
 */

/** A calendar date without a time, as the API sends license expirations and end dates. */
const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Where `formatDate` finds the zone to display in; undefined: the runtime's own (the browser's). */
let displayTimeZone: () => string | undefined = () => undefined;

/**
 * For the server's rendering only (web/render-page.tsx): `source` answers the zone of the render
 * under way (per request, never shared state), undefined outside one.
 */
export function setDisplayTimeZoneSource(source: () => string | undefined): void {
  displayTimeZone = source;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** 'Nov 23, 2026' in `timeZone` (undefined: the runtime's), one formatter per zone. */
function dateFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone });
    formats.set(key, format);
  }
  return format;
}

/**
 * '2026-11-23T10:00:00Z' -> 'Nov 23, 2026' (that instant's date in the user's zone); '2026-11-23'
 * -> 'Nov 23, 2026' (the same date everywhere); '', null, undefined or an unreadable text -> ''.
 */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const calendarDate = CALENDAR_DATE.test(iso);
  const date = new Date(calendarDate ? `${iso}T00:00:00Z` : iso);
  if (Number.isNaN(date.getTime())) return '';
  return dateFormat(calendarDate ? 'UTC' : displayTimeZone()).format(date);
}
