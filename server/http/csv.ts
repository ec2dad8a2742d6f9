/**
 * CSV for downloads that administrators open in Excel (issue 14, the 'Expiring' export).
 *
 * - RFC 4180: fields separated by commas, records by CRLF; a field holding a comma, a double quote,
 *   CR or LF is enclosed in double quotes, and its double quotes are doubled.
 * - CSV (formula) injection (OWASP "CSV Injection"): a text cell starting with `=`, `+`, `-`, `@`,
 *   tab or CR would be run as a formula by a spreadsheet; it gets a leading `'` so it is shown as
 *   text. Numbers are written as numbers (a negative number is not a formula).
 */

/** A cell: text (guarded against formulas), a number, or empty (null/undefined). */
export type CsvCell = string | number | null | undefined;

/** The byte order mark that makes Excel read the file as UTF-8; written once, before the header. */
export const CSV_BOM = '\uFEFF';

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One field, guarded and quoted as needed. */
export function csvField(cell: CsvCell): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : '';
  const text = FORMULA_START.test(cell) ? `'${cell}` : cell;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record with its CRLF. */
export function csvRecord(cells: readonly CsvCell[]): string {
  return `${cells.map(csvField).join(',')}\r\n`;
}
