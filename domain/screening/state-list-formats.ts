/**
 * The state Medicaid lists' formats (issue 30 item 1; today's files: issue 52 item 1), one documented
 * column mapping per state: New York OMIG (the 2016 tab-separated text, and today's five-column list
 * saved as CSV; one name column) and Pennsylvania's Medicheck list (CSV, 17 columns in 2016, 18 with
 * `NBR_FEIN` today; name in parts). Both are full lists. Pure. The real samples are listed in
 * tests/fixtures/exclusions/SOURCES.md.
 */
import type { ExclusionFormat } from './exclusion-types.ts';
import { type DateReader, type Mapped, tenDigits } from './list-rows.ts';
import { splitPersonName } from './person-names.ts';

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
 * New York OMIG's list as published today (issue 52 item 1): an XLSX workbook from omig.ny.gov, here
 * as the same saved as CSV; five lower-case columns, the name still in one column, no action column
 * (every row is an exclusion). Columns as read by public importers of the workbook: SOURCES.md.
 */
const NY_OMIG_CURRENT_COLUMNS = [
  'provider_name',
  'license_num',
  'npi_num',
  'provider_type',
  'exclusion_effective_date',
] as const;

/** Which column of a New York OMIG file holds what: the 2016 text file, or today's workbook. */
interface NyOmigColumns {
  name: string;
  license: string;
  npi: string;
  providerType: string;
  date: string;
  /** None today: '' is stored as the exclusion type. */
  action: string | null;
}
const NY_OMIG_2016: NyOmigColumns = {
  name: 'PROVIDER_NAME',
  license: 'LICENSE_NUMBER',
  npi: 'NPI_Number',
  providerType: 'PROVIDER_TYPE',
  date: 'SANCTION_DATE',
  action: 'ACTION_TYPE',
};
const NY_OMIG_CURRENT: NyOmigColumns = {
  name: 'provider_name',
  license: 'license_num',
  npi: 'npi_num',
  providerType: 'provider_type',
  date: 'exclusion_effective_date',
  action: null,
};

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

export const NY_OMIG_FULL: ExclusionFormat = {
  source: 'ny_omig',
  kind: 'full',
  label: 'New York OMIG Medicaid exclusion list',
  columns: NY_OMIG_COLUMNS,
};
export const NY_OMIG_CURRENT_FULL: ExclusionFormat = { ...NY_OMIG_FULL, columns: NY_OMIG_CURRENT_COLUMNS };
export const PA_MEDICHECK_FULL: ExclusionFormat = {
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
export const PA_MEDICHECK_FULL_FEIN: ExclusionFormat = {
  ...PA_MEDICHECK_FULL,
  columns: [...PA_MEDICHECK_COLUMNS, 'NBR_FEIN'],
};

/** The state lists' accepted formats, in the order `detectExclusionFormat` tries them. */
export const stateListFormats: readonly ExclusionFormat[] = [
  NY_OMIG_FULL,
  NY_OMIG_CURRENT_FULL,
  PA_MEDICHECK_FULL,
  PA_MEDICHECK_FULL_FEIN,
];

/**
 * One row of a state list (`format` one of `stateListFormats`) as an entry before its keys: the
 * mapping of `format`'s columns. Source: issue 30 item 1, issue 52 item 1.
 */
export function readStateListRow(
  format: ExclusionFormat,
  fields: Record<string, string>,
  dates: DateReader,
): Mapped {
  if (format.source === 'pa_medicheck') return readPaMedicheck(fields, dates);
  return readNyOmig(fields, dates, format === NY_OMIG_CURRENT_FULL ? NY_OMIG_CURRENT : NY_OMIG_2016);
}

function readNyOmig(f: Record<string, string>, dates: DateReader, columns: NyOmigColumns): Mapped {
  const name = f[columns.name]!;
  const providerType = f[columns.providerType]!;
  const person = NY_BUSINESS_NAME.test(name) ? null : splitPersonName(name);
  return {
    lastName: person?.lastName ?? '',
    firstName: person?.firstName ?? '',
    middleName: person?.middleName ?? '',
    businessName: person ? '' : name,
    npi: tenDigits(f[columns.npi]!),
    dob: null,
    address: '',
    city: '',
    state: '',
    zip: '',
    licenseNumber: f[columns.license]!,
    providerType,
    exclusionType: columns.action === null ? '' : f[columns.action]!,
    exclusionDate: dates.read(columns.date),
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

/**
 * Words that make a New York OMIG name an organization's ('… PHARMACY INC', '… P.C.', '… & …').
 * The provider type cannot tell: OMIG files pharmacists under 'Pharmacy' too. A business read as a
 * person only gets a name key no provider has; a person read as a business would lose a match, so
 * only these words make a name an organization's.
 */
const NY_BUSINESS_NAME =
  /(?:^|[\s,.])(?:INC|INCORPORATED|LLC|L\.L\.C|LLP|PLLC|CORP|CORPORATION|CO|COMPANY|LTD|P\.?\s?C|PHARMACY|PHARMACIES|DRUGS?|CHEMISTS?|SERVICES?|SERV|SVCS?|SUPPLY|SUPPLIES|MEDICAL|CENTER|CENTRE|CTR|CLINIC|GROUP|ASSOCIATES|ASSOC|AMBULETTE|TRANSPORTATION|TRANSPORT|LABORATORY|LABORATORIES|LABS?|HOSPITAL|AGENCY|DENTAL|ENTERPRISES?|INTERNATIONAL|FOUNDATION|SYSTEMS?|MANAGEMENT|MGT|OPTICAL|OPTICS|PRACTICE|HEALTHCARE|HOME\s+CARE|MART|RADIOLOGY|IMAGING|DIAGNOSTICS?|THERAPY|REHAB\w*|SURGICAL|NURSING|PHYSICIANS|INST|INSTITUTE|TBI)(?=$|[\s,.])|&/i;
