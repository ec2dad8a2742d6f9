/**
 * Exclusion list sources and the files they publish (issue 30 items 1 and 3): which source and kind
 * of file a list file is, from its header and name, and how one of its rows becomes a list entry. Pure (no
 * Node or DOM API): the server's import, the CLI and the web's preview read the same rules.
 *
 * - OIG LEIE: the full file `UPDATED.csv` and the monthly supplements `YYMMEXCL.csv` (new exclusions)
 *   and `YYMMREIN.csv` (reinstatements) share one 18-column header: a file whose rows all have a
 *   REINDATE is reinstatements whatever its name, the name tells the others apart (issue 52 item 1).
 * - SAM.gov exclusions: the public extract (V2, `SAM_Exclusions_Public_Extract_V2_*.CSV`); only the
 *   rows classified `Individual` are kept (providers are people).
 * - State Medicaid lists, one documented column mapping per state (domain/screening/state-list-formats.ts):
 *   New York OMIG's exclusion list (one name column) and Pennsylvania's Medicheck list (CSV, name in
 *   parts). Both are full lists. California's Medi-Cal S&I list is not shipped: no real file with its header was found.
 *
 * The real published samples these rules were written from, and each format's columns, are listed
 * in tests/fixtures/exclusions/SOURCES.md.
 */

import type {
  ExclusionEntryInput,
  ExclusionFileKind,
  ExclusionFormat,
  ExclusionSourceId,
} from './exclusion-types.ts';
import { clip, DateReader, joinNonEmpty, type Mapped, tenDigits } from './list-rows.ts';
import { nameKey } from './matching.ts';
import { readStateListRow, stateListFormats } from './state-list-formats.ts';

export type {
  ExclusionEntryInput,
  ExclusionFileKind,
  ExclusionFormat,
  ExclusionSourceId,
} from './exclusion-types.ts';
export { parseListDate } from './list-dates.ts';

/** The header of the OIG LEIE files (full `UPDATED.csv`, monthly `YYMMEXCL.csv` and `YYMMREIN.csv`), in order. */
export const LEIE_COLUMNS = [
  'LASTNAME',
  'FIRSTNAME',
  'MIDNAME',
  'BUSNAME',
  'GENERAL',
  'SPECIALTY',
  'UPIN',
  'NPI',
  'DOB',
  'ADDRESS',
  'CITY',
  'STATE',
  'ZIP',
  'EXCLTYPE',
  'EXCLDATE',
  'REINDATE',
  'WAIVERDATE',
  'WVRSTATE',
] as const;

export interface ExclusionSource {
  id: ExclusionSourceId;
  /** How the product names the source: 'OIG LEIE', 'SAM.gov exclusions', ... */
  label: string;
  /** Two-letter state of a state Medicaid list; null for the federal lists. */
  state: string | null;
  publisher: string;
  /** Where an administrator downloads the file. */
  url: string;
}

/** Every source, federal lists first (issue 30 item 1). */
export const exclusionSources: readonly ExclusionSource[] = [
  {
    id: 'oig_leie',
    label: 'OIG LEIE',
    state: null,
    publisher: 'HHS Office of Inspector General',
    url: 'https://oig.hhs.gov/exclusions/exclusions_list.asp',
  },
  {
    id: 'sam',
    label: 'SAM.gov exclusions',
    state: null,
    publisher: 'General Services Administration (SAM.gov)',
    url: 'https://sam.gov/data-services/Exclusions/Public%20V2?privacy=Public',
  },
  {
    id: 'ny_omig',
    label: 'New York OMIG',
    state: 'NY',
    publisher: 'New York State Office of the Medicaid Inspector General',
    url: 'https://omig.ny.gov/medicaid-fraud/medicaid-exclusions',
  },
  {
    id: 'pa_medicheck',
    label: 'Pennsylvania Medicheck',
    state: 'PA',
    publisher: 'Pennsylvania Department of Human Services',
    url: 'https://www.pa.gov/agencies/dhs/report-fraud/medicheck-list',
  },
];

/** Longest field kept, in characters (a longer one is not a list row). Source: issue 30 item 3. */
export const FIELD_MAX = 500;

/** The columns of SAM.gov's V2 public extract (header of a real file: SOURCES.md). */
const SAM_V2_COLUMNS = [
  'Classification',
  'Name',
  'Prefix',
  'First',
  'Middle',
  'Last',
  'Suffix',
  'Address 1',
  'Address 2',
  'Address 3',
  'Address 4',
  'City',
  'State / Province',
  'Country',
  'Zip Code',
  'Open Data Flag',
  'Blank (Deprecated)',
  'Unique Entity ID',
  'Exclusion Program',
  'Excluding Agency',
  'CT Code',
  'Exclusion Type',
  'Additional Comments',
  'Active Date',
  'Termination Date',
  'Record Status',
  'Cross-Reference',
  'SAM Number',
  'CAGE',
  'NPI',
  'Creation_Date',
] as const;

/** The retired V1 extract's header (DUNS instead of the Unique Entity ID): refused with advice. */
const SAM_V1_COLUMNS = [...SAM_V2_COLUMNS.slice(0, 15), 'DUNS', ...SAM_V2_COLUMNS.slice(18, 30)] as const;

/** SAM.gov's free-text columns: real rows carry comments of several hundred characters. */
const SAM_LONG_FIELDS: ReadonlySet<string> = new Set(['Additional Comments', 'Cross-Reference']);
const SAM_LONG_FIELD_MAX = 4000;

const LEIE_FULL: ExclusionFormat = {
  source: 'oig_leie',
  kind: 'full',
  label: 'OIG LEIE full list (UPDATED.csv)',
  columns: LEIE_COLUMNS,
};
const LEIE_ADDITIONS: ExclusionFormat = {
  source: 'oig_leie',
  kind: 'additions',
  label: 'OIG LEIE monthly exclusions (YYMMEXCL.csv)',
  columns: LEIE_COLUMNS,
};
const LEIE_REINSTATEMENTS: ExclusionFormat = {
  source: 'oig_leie',
  kind: 'reinstatements',
  label: 'OIG LEIE reinstatements (every row has a REINDATE)',
  columns: LEIE_COLUMNS,
};
const SAM_FULL: ExclusionFormat = {
  source: 'sam',
  kind: 'full',
  label: 'SAM.gov exclusions public extract (V2 CSV)',
  columns: SAM_V2_COLUMNS,
};

/** Every accepted file format, for lists of what may be imported. */
export const exclusionFormats: readonly ExclusionFormat[] = [
  LEIE_FULL,
  LEIE_ADDITIONS,
  LEIE_REINSTATEMENTS,
  SAM_FULL,
  ...stateListFormats,
];

/** The accepted files, as the refusal of an unknown file names them. */
const ACCEPTED_FILES =
  'the OIG LEIE full file (UPDATED.csv) or a monthly supplement (YYMMEXCL.csv, YYMMREIN.csv), ' +
  "SAM.gov's exclusions public extract (V2 CSV, or its ZIP), New York OMIG's exclusion list (tab-separated " +
  "text, or today's XLSX workbook or CSV) or Pennsylvania's Medicheck list (CSV, 17 or 18 columns)";

/**
 * How to split the lines of a list file, from its first line: New York OMIG publishes tab-separated
 * text without quoting (a name may hold a lone `"`), the others comma-separated CSV with `"` quotes.
 * Tab-separated when the first line has more tabs than commas. Source: issue 30 item 1 and the real
 * samples (tests/fixtures/exclusions/SOURCES.md).
 */
export function listFileDialect(firstLine: string): { delimiter: ',' | '\t'; quote: '"' | null } {
  const tabs = firstLine.split('\t').length - 1;
  const commas = firstLine.split(',').length - 1;
  return tabs > commas ? { delimiter: '\t', quote: null } : { delimiter: ',', quote: '"' };
}

/** `YYMMREIN.csv` / `YYMMEXCL.csv`, also as a browser saves a second copy (`1701REIN (1).csv`). */
const LEIE_SUPPLEMENT = /^\d{4}(REIN|EXCL)(?:\s*\(\d+\))?\.csv$/i;

/**
 * The format of a file from its header row (cells trimmed, compared case-insensitively, a UTF-8 BOM
 * ignored) and its name. The LEIE's one header serves three files: a name `YYMMREIN.csv` is the
 * monthly reinstatements, `YYMMEXCL.csv` the monthly exclusions, any other name the full list.
 * Source: issue 30 item 1 ("the kind of a file is detected from its header and name").
 * @returns `{ error }`: a sentence for the person importing, naming the files accepted
 */
export function detectExclusionFormat(
  header: readonly string[],
  fileName: string,
): { format: ExclusionFormat } | { error: string } {
  const cells = header.map(headerCell);
  if (sameColumns(cells, LEIE_COLUMNS)) {
    const base = fileName.split(/[\\/]/).pop() ?? '';
    const supplement = LEIE_SUPPLEMENT.exec(base.trim());
    if (supplement?.[1]?.toUpperCase() === 'REIN') return { format: LEIE_REINSTATEMENTS };
    if (supplement?.[1]?.toUpperCase() === 'EXCL') return { format: LEIE_ADDITIONS };
    return { format: LEIE_FULL };
  }
  for (const format of [SAM_FULL, ...stateListFormats]) {
    if (sameColumns(cells, format.columns)) return { format };
  }
  if (sameColumns(cells, SAM_V1_COLUMNS)) {
    return {
      error:
        "This is SAM.gov's retired V1 exclusions extract (with a DUNS column). Download the current " +
        "'Exclusions Public V2' extract from SAM.gov Data Services and import that file.",
    };
  }
  if (cells.every((c) => c === '')) {
    return { error: `This file has no header row. Import ${ACCEPTED_FILES}, as downloaded.` };
  }
  return {
    error:
      `This file's header (${header.length} columns, starting '${clip(header[0] ?? '')}') is not one ` +
      `of the exclusion lists accepted. Import ${ACCEPTED_FILES}, as downloaded and unchanged.`,
  };
}

/**
 * The kind of a LEIE file once its rows are read (issue 52 item 1: a file is read by its content,
 * never its name). A file whose every row read carries a REINDATE is a reinstatements file, whatever
 * it is called (OIG's own 2015 `rein1511.csv`, a renamed `LEIE_2611REIN.csv`): read as a full list
 * it would replace the whole list with the people just reinstated. The full list and the monthly
 * exclusions (`YYMMEXCL.csv`) share the header and both list only exclusions in force, so content
 * cannot tell them apart: there, and for a file of no rows, the name `detectExclusionFormat` read
 * stays the tie-breaker. Any other source's format is returned as it is.
 * @param counts.rows rows read as entries (skipped lines not counted)
 * @param counts.withReinstatement of those, the rows with a reinstatement date
 */
export function settleExclusionFormat(
  format: ExclusionFormat,
  counts: { rows: number; withReinstatement: number },
): ExclusionFormat {
  if (format.source !== 'oig_leie') return format;
  if (counts.rows > 0 && counts.withReinstatement === counts.rows) return LEIE_REINSTATEMENTS;
  return format;
}

/**
 * One CSV record (already decoded to strings) of a file of `format` as a list entry, or why the row
 * is skipped. `lineNumber` is the record's 1-based line in the file (for the import summary); `now`
 * pivots two-digit years. A skip reason names the line and the offending field only, never the
 * row's other values (issue 30 item 3: "no row values ever reach a log").
 *
 * Skipped: a field with a NUL byte; a record with the wrong number of fields; a field longer than
 * `FIELD_MAX`; a date that is not a date; a row without any name; a LEIE reinstatement without its
 * REINDATE; a SAM.gov row that is not an `Individual`.
 */
export function readExclusionRow(
  format: ExclusionFormat,
  record: readonly string[],
  lineNumber: number,
  now: Date,
): { entry: ExclusionEntryInput } | { skip: string } {
  const line = `line ${lineNumber}`;
  const nul = record.findIndex((v) => v.includes('\u0000'));
  if (nul >= 0) return { skip: `${line}: ${columnName(format, nul)} contains a NUL byte` };
  if (record.length !== format.columns.length) {
    return { skip: `${line} has ${record.length} fields instead of ${format.columns.length}` };
  }
  const fields: Record<string, string> = {};
  for (const [i, column] of format.columns.entries()) {
    const value = record[i]!.trim();
    const max = format.source === 'sam' && SAM_LONG_FIELDS.has(column) ? SAM_LONG_FIELD_MAX : FIELD_MAX;
    if (value.length > max) return { skip: `${line}: ${column} is longer than ${max} characters` };
    fields[column] = value;
  }
  const dates = new DateReader(fields, line, now);
  let mapped: Mapped | { skip: string };
  switch (format.source) {
    case 'oig_leie':
      mapped = readLeie(fields, dates, format.kind, line);
      break;
    case 'sam':
      mapped = readSam(fields, dates, line);
      break;
    case 'ny_omig':
    case 'pa_medicheck':
      mapped = readStateListRow(format, fields, dates);
      break;
  }
  if ('skip' in mapped) return mapped;
  if (dates.error) return { skip: dates.error };
  if (!mapped.lastName && !mapped.firstName && !mapped.businessName) return { skip: `${line} has no name` };
  const entry: ExclusionEntryInput = {
    ...mapped,
    nameKey: nameKey(mapped.lastName, mapped.firstName),
    entryKey: [
      format.source,
      mapped.lastName,
      mapped.firstName,
      mapped.middleName,
      mapped.businessName,
      mapped.npi ?? '',
      mapped.dob ?? '',
      mapped.exclusionType,
      mapped.exclusionDate ?? '',
    ]
      .map((part, i) => (i === 0 ? part : fold(part)))
      .join('|'),
    fields,
  };
  return { entry };
}

function readLeie(
  f: Record<string, string>,
  dates: DateReader,
  kind: ExclusionFileKind,
  line: string,
): Mapped | { skip: string } {
  const reinstatementDate = dates.read('REINDATE');
  if (kind === 'reinstatements' && reinstatementDate === null && !dates.error) {
    return { skip: `${line}: a reinstatement needs its REINDATE` };
  }
  const lastName = f.LASTNAME!;
  const firstName = f.FIRSTNAME!;
  return {
    lastName,
    firstName,
    middleName: f.MIDNAME!,
    businessName: f.BUSNAME!,
    npi: tenDigits(f.NPI!),
    dob: dates.read('DOB'),
    address: f.ADDRESS!,
    city: f.CITY!,
    state: f.STATE!,
    zip: f.ZIP!,
    licenseNumber: '',
    providerType: joinNonEmpty([f.GENERAL!, f.SPECIALTY!], ' / '),
    exclusionType: f.EXCLTYPE!,
    exclusionDate: dates.read('EXCLDATE'),
    reinstatementDate,
    waiverDate: dates.read('WAIVERDATE'),
    waiverState: f.WVRSTATE!,
    isIndividual: lastName !== '' || firstName !== '',
  };
}

function readSam(f: Record<string, string>, dates: DateReader, line: string): Mapped | { skip: string } {
  const classification = f.Classification!;
  if (classification.toLowerCase() !== 'individual') {
    return {
      skip: `${line}: Classification '${clip(classification)}' is not an individual (SAM.gov rows are kept for individuals only)`,
    };
  }
  return {
    lastName: f.Last!,
    firstName: f.First!,
    middleName: f.Middle!,
    businessName: '',
    npi: tenDigits(f.NPI!),
    dob: null,
    address: joinNonEmpty([f['Address 1']!, f['Address 2']!, f['Address 3']!, f['Address 4']!], ', '),
    city: f.City!,
    state: f['State / Province']!,
    zip: f['Zip Code']!,
    licenseNumber: '',
    providerType: '',
    exclusionType: f['Exclusion Type']!,
    exclusionDate: dates.read('Active Date'),
    reinstatementDate: dates.read('Termination Date'),
    waiverDate: null,
    waiverState: '',
    isIndividual: true,
  };
}

/** Accents, case, spacing and punctuation folded away; digits kept (NPIs and dates in keys). */
function fold(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');
}

function headerCell(cell: string): string {
  return cell
    .replace(/^\uFEFF/, '')
    .trim()
    .replace(/\s+/g, ' ')
    .toUpperCase();
}

function sameColumns(cells: readonly string[], columns: readonly string[]): boolean {
  return cells.length === columns.length && columns.every((c, i) => headerCell(c) === cells[i]);
}

function columnName(format: ExclusionFormat, index: number): string {
  return format.columns[index] ?? `field ${index + 1}`;
}
