/**
 * CSV for downloads that administrators open in Excel (issue 14, the 'Expiring' export; the roster,
 * the audit log and the reports since).
 *
 * - RFC 4180: fields separated by commas (or, asked for, semicolons), records by CRLF; a field holding
 *   a comma, a semicolon, a double quote, a tab, CR or LF is enclosed in double quotes, and its double
 *   quotes are doubled. Quoting on both separators lets a reader that splits on either (LibreOffice's
 *   import with both ticked) keep the field whole.
 * - CSV (formula) injection (OWASP "CSV Injection"): a text cell starting with `=`, `+`, `-`, `@`,
 *   tab or CR would be run as a formula by a spreadsheet; it gets a leading `'`. Numbers are written
 *   as numbers (a negative number is not a formula).
 * - The same inside a cell (issue 52 item 4): a spreadsheet whose list separator is ';' opens a
 *   ','-separated file by splitting every line on ';' and ignores the quotes that do not open a
 *   piece, so `x;=1+1;` becomes the cells `x`, `=1+1` (live) and ``; a line break inside a quoted
 *   field ends the line for such a reader too. So after each `,`, `;`, tab, CR or LF inside a text,
 *   where the rest (after any double quotes) starts with `=`, `+`, `-` or `@`, a `'` is put in.
 *   A reader with the right separator then sees that `'` inside the value: the price of a cell that
 *   holds a separator followed by a formula character, which real roster and audit data rarely do.
 *   LibreOffice (7.4, checked in csv-spreadsheet.test.ts) shows the `'` as typed; Excel hides a
 *   leading one.
 * - `guard: 'none'` writes every text as it is, for a machine that parses the file (never a
 *   spreadsheet): the values exact, nothing defused.
 */

/** A cell: text (guarded against formulas), a number, or empty (null/undefined). */
export type CsvCell = string | number | null | undefined;

/** How a CSV is written: `separator` ',' (default, RFC 4180) or ';'; `guard` 'formulas' (default) or 'none'. */
export interface CsvOptions {
  separator?: ',' | ';';
  guard?: CsvGuard;
}

/** 'formulas': defuse every piece a spreadsheet would evaluate; 'none': the values exact (API clients). */
export type CsvGuard = 'formulas' | 'none';

/** The byte order mark that makes Excel read the file as UTF-8; written once, before the header. */
export const CSV_BOM = '\uFEFF';

const FORMULA_START = /^[=+\-@\t\r]/;
/** A separator or line break inside a text followed (after any double quotes) by a formula character. */
const FORMULA_INSIDE = /([,;\t\r\n])(?="*[=+\-@])/g;
const NEEDS_QUOTES = /[",;\t\r\n]/;

/**
 * `text` as a spreadsheet shows it without running any part of it as a formula: a `'` before it
 * when it starts with `=`, `+`, `-`, `@`, tab or CR, and after each inner separator or line break
 * that a formula character follows. Text with none of these comes back unchanged.
 */
export function defuseFormulas(text: string): string {
  const inside = text.replace(FORMULA_INSIDE, "$1'");
  return FORMULA_START.test(inside) ? `'${inside}` : inside;
}

/** One field, guarded (unless `guard: 'none'`) and quoted as needed. */
export function csvField(cell: CsvCell, options: CsvOptions = {}): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : '';
  const text = options.guard === 'none' ? cell : defuseFormulas(cell);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record with its CRLF, fields joined by `options.separator` (',' by default). */
export function csvRecord(cells: readonly CsvCell[], options: CsvOptions = {}): string {
  return `${cells.map((cell) => csvField(cell, options)).join(options.separator ?? ',')}\r\n`;
}
