/**
 * Exclusion list sources and the files they publish (issue 30 items 1 and 3): which source and kind
 * of file a list file is, from its header and name, and how one of its rows becomes a list entry. Pure (no
 * Node or DOM API): the server's import, the CLI and the web's preview read the same rules.
 *
 * - OIG LEIE: the full file `UPDATED.csv` and the monthly supplements `YYMMEXCL.csv` (new exclusions)
 *   and `YYMMREIN.csv` (reinstatements) share one 18-column header, so the name tells them apart.
 * - SAM.gov exclusions: the public extract (V2, `SAM_Exclusions_Public_Extract_V2_*.CSV`); only the
 *   rows classified `Individual` are kept (providers are people).
 * - State Medicaid lists, one documented column mapping per state: New York OMIG's exclusion list
 *   (tab-separated, one name column) and Pennsylvania's Medicheck list (CSV, name in parts). Both are
 *   full lists. California's Medi-Cal S&I list is not shipped: no real file with its header was found.
 *
 * The real published samples these rules were written from, and each format's columns, are listed
 * in tests/fixtures/exclusions/SOURCES.md.
 */

import { parseListDate } from './list-dates.ts';
import { nameKey } from './matching.ts';
import { splitPersonName } from './person-names.ts';

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

/** The screening sources (issue 30 item 1). */
export type ExclusionSourceId = 'oig_leie' | 'sam' | 'ny_omig' | 'pa_medicheck';

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

/** A full list replaces the source's list; additions and reinstatements change it (issue 30 item 2). */
export type ExclusionFileKind = 'full' | 'additions' | 'reinstatements';

export interface ExclusionFormat {
  source: ExclusionSourceId;
  kind: ExclusionFileKind;
  /** Shown with the import's row count: "OIG LEIE monthly reinstatements (YYMMREIN.csv)". */
  label: string;
  /** The header row, in order, as the publisher writes it. */
  columns: readonly string[];
}

/** One list row as stored: every field trimmed text ('' when none), dates 'YYYY-MM-DD' or null. */
export interface ExclusionEntryInput {
  lastName: string;
  firstName: string;
  middleName: string;
  businessName: string;
  /** Ten digits; null when the list has none (the LEIE writes `0000000000`). */
  npi: string | null;
  dob: string | null;
  address: string;
  city: string;
  state: string;
  zip: string;
  licenseNumber: string;
  providerType: string;
  exclusionType: string;
  exclusionDate: string | null;
  /**
   * When the exclusion ends: LEIE `REINDATE`, SAM.gov `Termination Date` (which may be in the future:
   * the exclusion runs until then), a state list's equivalent. Null: no end date.
   */
  reinstatementDate: string | null;
  waiverDate: string | null;
  waiverState: string;
  /** A person (screening matches people); organizations' rows are kept for the LEIE and states. */
  isIndividual: boolean;
  /** domain/screening/matching.ts `nameKey(last, first)`; '' when either is missing. */
  nameKey: string;
  /**
   * The row's identity across files, so a reinstatement finds the exclusion it ends:
   * source|last|first|middle|business|npi|dob|exclusionType|exclusionDate, each folded (accents,
   * case, spaces and punctuation removed). The reinstatement date is not part of it.
   */
  entryKey: string;
  /** The raw fields by header column (trimmed), for the side-by-side view. */
  fields: Record<string, string>;
}

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

/**
 * New York OMIG's exclusion list as published at omig.ny.gov/data/gensplistns.php: tab-separated,
 * one name column (`LAST FIRST MIDDLE MD` for most people, `LAST, FIRST` for some, a business name
 * for organizations), `SANCTION_DATE` as MM/DD/YYYY, `NPI_Number` empty or `NA` when none.
 */
const NY_OMIG_COLUMNS = [
  'PROVIDER_NAME',
  'LICENSE_NUMBER',
  'NPI_Number',
  'PROVIDER_TYPE',
  'SANCTION_DATE',
  'ACTION_TYPE',
] as const;

/**
 * Pennsylvania DHS's Medicheck list (medicheck.txt, CSV in Windows-1252): name parts in
 * `NAM_LAST_PROVR` / `NAM_FIRST_PROVR` / `NAM_MIDDLE_PROVR`, organizations in `NAM_BUSNS_MP`, dates
 * `M/D/YYYY 0:00:00`; `EndDate` ends the preclusion.
 */
const PA_MEDICHECK_COLUMNS = [
  'ProviderName',
  'LicenseNumber',
  'Status',
  'BeginDate',
  'EndDate',
  'CAO',
  'ListDate',
  'IND_CHGD',
  'DTE_CHANGE_LAST',
  'NAM_LAST_PROVR',
  'NAM_FIRST_PROVR',
  'NAM_MIDDLE_PROVR',
  'NAM_TITLE_PROVR',
  'NAM_SUFFIX_PROVR',
  'NAM_PROVR_ALT',
  'NAM_BUSNS_MP',
  'IDN_NPI',
] as const;

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
const NY_OMIG_FULL: ExclusionFormat = {
  source: 'ny_omig',
  kind: 'full',
  label: 'New York OMIG Medicaid exclusion list',
  columns: NY_OMIG_COLUMNS,
};
const PA_MEDICHECK_FULL: ExclusionFormat = {
  source: 'pa_medicheck',
  kind: 'full',
  label: 'Pennsylvania Medicheck list',
  columns: PA_MEDICHECK_COLUMNS,
};
/**
 * Today's Medicheck download adds an 18th column, `NBR_FEIN` (an organization's federal tax ID), after
 * the 17 of 2016 (issue 52 item 1; columns as read by public importers: SOURCES.md). It is kept in the
 * row's fields for the side-by-side view; nothing else reads it.
 */
const PA_MEDICHECK_FULL_FEIN: ExclusionFormat = {
  ...PA_MEDICHECK_FULL,
  columns: [...PA_MEDICHECK_COLUMNS, 'NBR_FEIN'],
};

/** Every accepted file format, for lists of what may be imported. */
export const exclusionFormats: readonly ExclusionFormat[] = [
  LEIE_FULL,
  LEIE_ADDITIONS,
  LEIE_REINSTATEMENTS,
  SAM_FULL,
  NY_OMIG_FULL,
  PA_MEDICHECK_FULL,
  PA_MEDICHECK_FULL_FEIN,
];

/** The accepted files, as the refusal of an unknown file names them. */
const ACCEPTED_FILES =
  'the OIG LEIE full file (UPDATED.csv) or a monthly supplement (YYMMEXCL.csv, YYMMREIN.csv), ' +
  "SAM.gov's exclusions public extract (V2 CSV), New York OMIG's exclusion list (tab-separated " +
  "text) or Pennsylvania's Medicheck list (CSV, 17 or 18 columns)";

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
  for (const format of [SAM_FULL, NY_OMIG_FULL, PA_MEDICHECK_FULL, PA_MEDICHECK_FULL_FEIN]) {
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
      mapped = readNyOmig(fields, dates);
      break;
    case 'pa_medicheck':
      mapped = readPaMedicheck(fields, dates);
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

/** An entry before its keys and raw fields are added. */
type Mapped = Omit<ExclusionEntryInput, 'nameKey' | 'entryKey' | 'fields'>;

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

function readNyOmig(f: Record<string, string>, dates: DateReader): Mapped {
  const name = f.PROVIDER_NAME!;
  const providerType = f.PROVIDER_TYPE!;
  const person = NY_BUSINESS_NAME.test(name) ? null : splitPersonName(name);
  return {
    lastName: person?.lastName ?? '',
    firstName: person?.firstName ?? '',
    middleName: person?.middleName ?? '',
    businessName: person ? '' : name,
    npi: tenDigits(f.NPI_Number!),
    dob: null,
    address: '',
    city: '',
    state: '',
    zip: '',
    licenseNumber: f.LICENSE_NUMBER!,
    providerType,
    exclusionType: f.ACTION_TYPE!,
    exclusionDate: dates.read('SANCTION_DATE'),
    reinstatementDate: null,
    waiverDate: null,
    waiverState: '',
    isIndividual: person !== null,
  };
}

function readPaMedicheck(f: Record<string, string>, dates: DateReader): Mapped {
  let lastName = f.NAM_LAST_PROVR!;
  let firstName = f.NAM_FIRST_PROVR!;
  let middleName = f.NAM_MIDDLE_PROVR!;
  let businessName = f.NAM_BUSNS_MP!;
  if (!firstName) {
    // A few rows carry the person only in ProviderName ('Bryant-Sampson, Stacia (HHA)'), and some
    // organizations a placeholder in NAM_LAST_PROVR: the name parts count only with a first name.
    const fromProviderName =
      lastName && !businessName && f.ProviderName!.startsWith(`${lastName},`)
        ? splitPersonName(f.ProviderName!)
        : null;
    lastName = fromProviderName?.lastName ?? '';
    firstName = fromProviderName?.firstName ?? '';
    middleName = fromProviderName?.middleName ?? '';
    if (!fromProviderName && !businessName) businessName = f.ProviderName!;
  }
  // CAO is the county assistance office: a Pennsylvania county, or out of state written as
  // 'Out of State (NY)' (no-break spaces in the published file), 'Out of State-WV', 'Out-of-State'.
  const cao = f.CAO!.replace(/\u00a0/g, ' ');
  const outOfState = /^out[\s-]*of[\s-]*state\b(?:.*\b([A-Z]{2})\b)?/i.exec(cao);
  const state = outOfState ? (outOfState[1] ?? '').toUpperCase() : 'PA';
  return {
    lastName,
    firstName,
    middleName,
    businessName,
    npi: tenDigits(f.IDN_NPI!),
    dob: null,
    address: '',
    city: '',
    state,
    zip: '',
    licenseNumber: f.LicenseNumber!,
    providerType: f.NAM_TITLE_PROVR!,
    exclusionType: f.Status!,
    exclusionDate: dates.read('BeginDate'),
    reinstatementDate: dates.read('EndDate'),
    waiverDate: null,
    waiverState: '',
    isIndividual: firstName !== '',
  };
}

/** Reads a row's date columns; the first invalid one becomes the row's skip reason. */
class DateReader {
  error: string | null = null;
  constructor(
    private readonly fields: Record<string, string>,
    private readonly line: string,
    private readonly now: Date,
  ) {}

  read(column: string): string | null {
    const raw = this.fields[column] ?? '';
    const date = parseListDate(raw, this.now);
    if (date !== 'invalid') return date;
    this.error ??= `${this.line}: ${column} ${clip(raw)} is not a date`;
    return null;
  }
}

/**
 * Words that make a New York OMIG name an organization's ('… PHARMACY INC', '… P.C.', '… & …').
 * The provider type cannot tell: OMIG files pharmacists under 'Pharmacy' too. A business read as a
 * person only gets a name key no provider has; a person read as a business would lose a match, so
 * only these words make a name an organization's.
 */
const NY_BUSINESS_NAME =
  /(?:^|[\s,.])(?:INC|INCORPORATED|LLC|L\.L\.C|LLP|PLLC|CORP|CORPORATION|CO|COMPANY|LTD|P\.?\s?C|PHARMACY|PHARMACIES|DRUGS?|CHEMISTS?|SERVICES?|SERV|SVCS?|SUPPLY|SUPPLIES|MEDICAL|CENTER|CENTRE|CTR|CLINIC|GROUP|ASSOCIATES|ASSOC|AMBULETTE|TRANSPORTATION|TRANSPORT|LABORATORY|LABORATORIES|LABS?|HOSPITAL|AGENCY|DENTAL|ENTERPRISES?|INTERNATIONAL|FOUNDATION|SYSTEMS?|MANAGEMENT|MGT|OPTICAL|OPTICS|PRACTICE|HEALTHCARE|HOME\s+CARE|MART|RADIOLOGY|IMAGING|DIAGNOSTICS?|THERAPY|REHAB\w*|SURGICAL|NURSING|PHYSICIANS|INST|INSTITUTE|TBI)(?=$|[\s,.])|&/i;

/** Ten digits, not all zero (the LEIE's `0000000000` is "none"); anything else is no NPI. */
function tenDigits(value: string): string | null {
  return /^\d{10}$/.test(value) && !/^0+$/.test(value) ? value : null;
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

function joinNonEmpty(parts: readonly string[], separator: string): string {
  return parts.filter((p) => p !== '').join(separator);
}

/** A value quoted in a message, cut short so a message never carries a long field. */
function clip(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}
