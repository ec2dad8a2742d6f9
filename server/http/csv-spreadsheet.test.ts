/**
 * The CSV formula guard in a real spreadsheet (issue 52 item 4): LibreOffice Calc, headless, imports
 * a roster CSV and an audit-log-like CSV of hostile values with formulas evaluated, and writes what
 * it read as XLSX, which exceljs reads back here.
 *
 * - Each file is written once ','-separated and once ';'-separated, and each is imported with its
 *   own separator: every cell reads back as the text we wrote, which is the stored value itself
 *   wherever the guard had nothing to defuse, and is never a formula.
 * - Each is imported with the OTHER separator too (a spreadsheet whose list separator is ';' opening
 *   a ','-file, the bypass the issue found): no cell is a formula.
 * - Control: the same values written unguarded (`guard: 'none'`) do come out as live formulas, in
 *   both imports, so the check can fail. A third file holds only the bypass (texts whose first
 *   character is harmless, so the former first-character guard wrote them unchanged): unguarded,
 *   no formula with the file's own separator and live formulas with the other one.
 *
 * What LibreOffice 7.4 does, as measured here: only a cell starting with '=' is evaluated ('+1+1',
 * '-2+3' and '@SUM(1)' stay text); a leading "'" is kept and shown, not hidden as Excel does; a
 * number-like text ('02134', an NPI) becomes a number and an ISO day a date, which is why the roster
 * has an XLSX with identifiers as Text.
 *
 * Needs `soffice` (Debian's libreoffice-calc; .ci/run installs it); skipped with that message when
 * absent. Each run has its own temporary directory and LibreOffice profile
 * (`-env:UserInstallation`), so parallel runs do not share a profile lock.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterColumns } from '../../domain/exports/roster.ts';
import type { DirectoryProvider } from '../directory/credentialed-providers.ts';
import { rosterCsv, rosterRows } from '../exports/roster.ts';
import { type CsvGuard, csvRecord, defuseFormulas } from './csv.ts';

const run = promisify(execFile);
const sofficeInstalled = spawnSync('soffice', ['--version'], { stdio: 'ignore' }).status === 0;
if (!sofficeInstalled) {
  console.warn(
    'csv-spreadsheet.test.ts skipped: soffice (LibreOffice) is not installed. Install it with: apt-get install -y libreoffice-calc',
  );
}

/** Values an audit log or a roster may hold that a spreadsheet would, unguarded, evaluate. */
const hostile = [
  'x;=1+1;',
  '=1+1',
  '+1 (305) 555-0100',
  '@SUM(1)',
  '-2+3',
  '\t=1+1',
  '\r=1+1',
  'a,=1+1',
  'note\n=1+1',
  'x;"=1+1"',
  '=HYPERLINK("http://evil.example","x")',
];
/** Values the guard must leave exactly as they are. */
const plain = ['Smith, Jane', 'Smith; Jane', "O'Brien", 'Mon-Fri 8:00-17:00', '(305) 555-0100', 'plain'];

/** The audit-log-like table: a header, then one row of every value (each in its own column). */
const auditTable = [
  [...hostile, ...plain].map((_, i) => `Column ${i + 1}`),
  [...hostile, ...plain],
  [...plain, ...hostile],
];

/** A credentialed provider whose location holds hostile values (as typed by a provider). */
const provider: DirectoryProvider = {
  userId: 'u1',
  applicationId: 'a1',
  lastUpdated: new Date('2026-01-01T00:00:00Z'),
  npi: '1234567893',
  givenName: '=1+1',
  familyName: 'Lee',
  degree: 'DO',
  gender: 'F',
  dea: { number: 'AL1234563', expiresOn: '2027-05-31', state: 'IL' },
  licenses: [
    {
      rowKey: 'l1',
      type: 'medical_license',
      number: '-2+3',
      state: 'FL',
      issuedOn: null,
      expiresOn: '2027-01-31',
      status: 'active',
    },
  ],
  education: [],
  boardCertifications: [],
  specialties: [],
  practiceLocations: [
    {
      rowKey: 'p1',
      name: 'x;=1+1;',
      groupNpi: '1987654328',
      address: { line1: '@SUM(1)', line2: 'Suite 1,=2+2', city: 'Miami', state: 'FL', postalCode: '33101' },
      phone: '+1 (305) 555-0100 x12',
      fax: null,
      email: null,
      primary: true,
      acceptingNewPatients: 'yes',
      languagesSpoken: null,
    },
  ],
  credentialedOn: '2026-01-01',
  recredentialingDueOn: '2029-01-01',
  version: 1,
  standing: 'active',
  standingReason: null,
  findings: [],
};
const allColumns = rosterColumns.map((c) => c.key);
const rosterTable = [
  rosterColumns.map((c) => c.header),
  ...rosterRows(provider).map((row) => allColumns.map((c) => row[c] ?? '')),
];

/**
 * The bypass the issue found: texts whose first character is harmless, so the former first-character
 * guard wrote them unchanged (as `guard: 'none'` does), with a formula after an inner separator.
 */
const bypassTable = [
  ['Column 1', 'Column 2', 'Column 3', 'Column 4', 'Column 5'],
  ['x;=1+1;', 'a,=1+1', 'note\n=1+1', 'Suite 1,=2+2', 'x;"=1+1"'],
];

const tables = { audit: auditTable, roster: rosterTable, bypass: bypassTable };
type Kind = keyof typeof tables;

type Separator = ',' | ';';
const other = (separator: Separator): Separator => (separator === ',' ? ';' : ',');

let dir: string;

/** Writes the `kind` table as CSV: the roster's way (rosterCsv, BOM included), else the audit log's (csvRecord). */
async function writeCsv(name: string, kind: Kind, separator: Separator, guard: CsvGuard) {
  let text = '';
  if (kind === 'roster') {
    async function* batches() {
      yield [provider];
    }
    for await (const chunk of rosterCsv(batches(), allColumns, { separator, guard })) text += chunk;
  } else {
    text = tables[kind].map((row) => csvRecord(row, { separator, guard })).join('');
  }
  await writeFile(join(dir, name), text, 'utf8');
}

/**
 * Imports `files` into LibreOffice Calc with `separator`, UTF-8, formulas evaluated, and saves each
 * as XLSX in `outDir`. The CSV filter's tokens: separator, text delimiter '"', charset 76 (UTF-8),
 * first line 1, no column formats, language en-US, quoted fields not forced to text, special
 * numbers not detected, -, -, no space trimming, -, and token 13: evaluate formulas.
 */
async function importInCalc(files: string[], separator: Separator, outDir: string) {
  const filter = `CSV:${separator.charCodeAt(0)},34,76,1,,1033,false,false,false,false,false,-1,true`;
  await run(
    'soffice',
    [
      `-env:UserInstallation=${pathToFileURL(join(dir, 'profile')).href}`,
      '--headless',
      `--infilter=${filter}`,
      '--convert-to',
      'xlsx',
      '--outdir',
      outDir,
      ...files.map((f) => join(dir, f)),
    ],
    { timeout: 120_000 },
  );
}

interface ReadCell {
  text: string;
  formula: boolean;
}

/** The first sheet of `file` as cells: its text (a number or date as the text it came from) and whether it is a formula. */
async function readSheet(file: string): Promise<ReadCell[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  const sheet = workbook.worksheets[0]!;
  const rows: ReadCell[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row, rowNumber) => {
    rows[rowNumber - 1] = Array.from({ length: sheet.columnCount }, (_, i) => {
      const value = row.getCell(i + 1).value;
      if (value && typeof value === 'object' && 'formula' in value) {
        return { text: String(value.result), formula: true };
      }
      if (value instanceof Date) return { text: value.toISOString().slice(0, 10), formula: false };
      return { text: value === null || value === undefined ? '' : String(value), formula: false };
    });
  });
  return rows;
}

/**
 * What a cell must read back as: the guarded text, its line breaks as Calc stores them (LF; a CR or
 * CRLF in a quoted field becomes LF, as measured); a number-like text as the number Calc made of it.
 */
function sameCell(read: ReadCell, written: string): boolean {
  if (read.text === written.replace(/\r\n?/g, '\n')) return true;
  return /^\d+$/.test(written) && Number(read.text) === Number(written);
}

const files: Kind[] = ['audit', 'roster', 'bypass'];
const separators: Separator[] = [',', ';'];
const fileName = (kind: string, separator: Separator, guard: CsvGuard) =>
  `${kind}-${separator === ',' ? 'comma' : 'semicolon'}-${guard}.csv`;
const sheetOf = (kind: string, written: Separator, read: Separator, guard: CsvGuard) =>
  readSheet(
    join(
      dir,
      `read-${read === ',' ? 'comma' : 'semicolon'}`,
      fileName(kind, written, guard).replace(/csv$/, 'xlsx'),
    ),
  );

describe.skipIf(!sofficeInstalled)(
  'the CSV formula guard in LibreOffice Calc (skipped when soffice is missing: apt-get install -y libreoffice-calc)',
  () => {
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'csv-spreadsheet-'));
      const written: Record<Separator, string[]> = { ',': [], ';': [] };
      for (const kind of files) {
        for (const separator of separators) {
          for (const guard of ['formulas', 'none'] as const) {
            const name = fileName(kind, separator, guard);
            await writeCsv(name, kind, separator, guard);
            written[separator].push(name);
          }
        }
      }
      // Every file imported with ',' and with ';': its own separator and the other one.
      const all = [...written[','], ...written[';']];
      await importInCalc(all, ',', join(dir, 'read-comma'));
      await importInCalc(all, ';', join(dir, 'read-semicolon'));
    }, 240_000);

    afterAll(async () => {
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it.each(files.flatMap((kind) => separators.map((separator) => [kind, separator] as const)))(
      '%s CSV, %s-separated, read with its own separator: every cell as written, none a formula',
      async (kind, separator) => {
        const sheet = await sheetOf(kind, separator, separator, 'formulas');
        const table = tables[kind];
        expect(sheet).toHaveLength(table.length);
        for (const [r, row] of table.entries()) {
          for (const [c, value] of row.entries()) {
            const read = sheet[r]![c]!;
            const written = defuseFormulas(value);
            expect(read.formula, `row ${r + 1} column ${c + 1}: ${JSON.stringify(value)}`).toBe(false);
            expect(sameCell(read, written), `${JSON.stringify(read.text)} for ${JSON.stringify(value)}`).toBe(
              true,
            );
          }
        }
        // The guard changes nothing it need not: the plain values and the formatted phone read back exactly.
        const texts = sheet.flat().map((cell) => cell.text);
        if (kind === 'audit') for (const value of plain) expect(texts).toContain(value);
        if (kind === 'roster') {
          expect(texts).toEqual(expect.arrayContaining(['(305) 555-0100', '12', 'Miami', 'NPI']));
        }
      },
    );

    it.each(files.flatMap((kind) => separators.map((separator) => [kind, separator] as const)))(
      '%s CSV, %s-separated, read with the other separator (the locale bypass): no cell is a formula',
      async (kind, separator) => {
        const sheet = await sheetOf(kind, separator, other(separator), 'formulas');
        const formulas = sheet.flat().filter((cell) => cell.formula);
        expect(formulas).toEqual([]);
      },
    );

    it.each(files.flatMap((kind) => separators.map((separator) => [kind, separator] as const)))(
      'control: %s CSV, %s-separated, unguarded: live formulas (for the bypass, with the other separator only)',
      async (kind, separator) => {
        for (const read of separators) {
          const sheet = await sheetOf(kind, separator, read, 'none');
          const formulas = sheet.flat().filter((cell) => cell.formula).length;
          // The bypass values pass a first-character guard in their own locale and fire in the other.
          if (kind === 'bypass' && read === separator) expect(formulas, `read with '${read}'`).toBe(0);
          else expect(formulas, `read with '${read}'`).toBeGreaterThan(0);
        }
      },
    );
  },
);
