/**
 * Dates as the published exclusion lists write them (issue 30 item 3): the OIG LEIE writes
 * `YYYYMMDD` with `00000000` for none; SAM.gov's public extract `MM/DD/YYYY` with `Indefinite` for a
 * termination date that has none and `YYYY-MM-DD` in `Creation_Date`; state lists `M/D/YYYY` and,
 * in older files, `MM/DD/YY`; Pennsylvania's Medicheck list `M/D/YYYY 0:00:00`. Pure; shared by
 * server and web.
 */

/** Why a date is refused: the value is not one of the forms above, or not a day of the calendar. */
export type ListDateResult = string | null | 'invalid';

const EMPTY = /^(?:0+|0{1,2}\/0{1,2}\/0{2,4}|0{4}-0{2}-0{2}|indefinite|n\/a)$/i;
const COMPACT = /^(\d{4})(\d{2})(\d{2})$/;
const ISO = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const SLASHED = /^(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})$/;
/** A time after the day, as spreadsheet exports write it (`9/3/1997 0:00:00`, `… 12:00:00 AM`). */
const TIME = /\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AP]M)?$/i;

/** Years accepted: earlier is a typo (`0198-…`); Medicheck ends some preclusions on 12/31/2299. */
const FIRST_YEAR = 1800;
const LAST_YEAR = 9999;

/**
 * A list date as `YYYY-MM-DD`; null for no date ('' / `00000000` / `00/00/0000` / `Indefinite` /
 * `N/A`); 'invalid' for anything else, including impossible days such as `19870231`.
 *
 * Forms: `YYYYMMDD`, `YYYY-MM-DD`, `MM/DD/YYYY`, `M/D/YYYY`, `MM/DD/YY`, `M/D/YY`, each optionally
 * followed by a time of day, which is ignored (Pennsylvania's Medicheck writes `9/3/1997 0:00:00`). A two-digit year is
 * 20YY when that year is not after `now`'s (UTC) year, else 19YY: `09/08/87` -> 1987-09-08, and
 * `01/02/24` read in 2026 -> 2024-01-02. Source: issue 30 item 3 ("every date format found in the
 * real files parses").
 */
export function parseListDate(value: string, now: Date): ListDateResult {
  const v = value.trim().replace(TIME, '');
  if (v === '' || EMPTY.test(v)) return null;
  let year: number;
  let month: number;
  let day: number;
  let m = COMPACT.exec(v) ?? ISO.exec(v);
  if (m) {
    year = Number(m[1]);
    month = Number(m[2]);
    day = Number(m[3]);
  } else {
    m = SLASHED.exec(v);
    if (!m) return 'invalid';
    month = Number(m[1]);
    day = Number(m[2]);
    year = Number(m[3]);
    if (m[3]!.length === 2) year = 2000 + year <= now.getUTCFullYear() ? 2000 + year : 1900 + year;
  }
  if (year < FIRST_YEAR || year > LAST_YEAR || month < 1 || month > 12) return 'invalid';
  if (day < 1 || day > daysInMonth(year, month)) return 'invalid';
  return `${String(year).padStart(4, '0')}-${pad(month)}-${pad(day)}`;
}

function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one (UTC, so no time-zone shift).
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const pad = (n: number) => String(n).padStart(2, '0');
