/**
 * The payer roster (issue 33 item 2, docs/decisions/030): the columns an 'Export Roster' may hold,
 * their headers, and the default layout. One row per credentialed provider and practice location (a
 * provider with no location gets one row, its location columns empty), the columns in the order
 * chosen. Read by the server (the CSV and XLSX files) and the web (the 'Export Roster' dialog's
 * column choice), so both name the same columns. Pure: no zod, no Node.
 *
 * The default layout follows what payers' delegated-credentialing roster templates ask for (NPI,
 * name, degree, taxonomy, license, board certification, service location, accepting new patients,
 * credential status, credentialing and recredentialing dates), one column per fact, dates as
 * `YYYY-MM-DD` (real dates in XLSX), phones as `(305) 555-0100` with the extension apart. The DEA number is offered, not in the default (issue 49 item 3). Every value is the
 * published credential's (issue 49 item 1), never a change nobody reviewed.
 */

/**
 * What a column holds, for a file format that has types (XLSX, issue 52 item 4): a 'date' is
 * `YYYY-MM-DD` (a real date cell), an 'identifier' is text whose digits must stay as written (NPI,
 * ZIP code, phone: a text cell, leading zeros kept, never a number); anything else is text.
 */
export type RosterColumnType = 'date' | 'identifier' | 'text';

/**
 * Every roster column, in the default order; `inDefault: false` columns are offered, not preselected;
 * `type` (absent: 'text') as RosterColumnType says.
 */
export const rosterColumns = [
  { key: 'npi', header: 'NPI', inDefault: true, type: 'identifier' },
  { key: 'last_name', header: 'Last Name', inDefault: true },
  { key: 'first_name', header: 'First Name', inDefault: true },
  { key: 'degree', header: 'Degree', inDefault: true },
  // Issue 52 item 4, what payers' delegated roster templates ask for and the application collects:
  // offered, not in the default layout (the default stays what administrators have been sent).
  { key: 'gender', header: 'Gender', inDefault: false },
  { key: 'caqh_id', header: 'CAQH ID', inDefault: false, type: 'identifier' },
  { key: 'medicare_ptan', header: 'Medicare PTAN', inDefault: false, type: 'identifier' },
  { key: 'medicaid_id', header: 'Medicaid ID', inDefault: false, type: 'identifier' },
  { key: 'primary_taxonomy', header: 'Primary Taxonomy', inDefault: true },
  { key: 'primary_specialty', header: 'Primary Specialty', inDefault: true },
  { key: 'secondary_taxonomies', header: 'Secondary Taxonomies', inDefault: true },
  { key: 'license_state', header: 'License State', inDefault: true },
  { key: 'license_number', header: 'License Number', inDefault: true, type: 'identifier' },
  { key: 'license_expires_on', header: 'License Expiration', inDefault: true, type: 'date' },
  // Issue 49 item 3 (minimum necessary, decision 035): offered to an administrator who needs them,
  // never in the default layout; never in FHIR.
  { key: 'dea_number', header: 'DEA Number', inDefault: false, type: 'identifier' },
  { key: 'dea_expires_on', header: 'DEA Expiration', inDefault: false, type: 'date' },
  { key: 'board_certification', header: 'Board Certification', inDefault: true },
  {
    key: 'board_certification_expires_on',
    header: 'Board Certification Expiration',
    inDefault: true,
    type: 'date',
  },
  { key: 'location_name', header: 'Practice Location', inDefault: true },
  { key: 'group_npi', header: 'Group NPI', inDefault: false, type: 'identifier' },
  { key: 'address_line1', header: 'Address Line 1', inDefault: true },
  { key: 'address_line2', header: 'Address Line 2', inDefault: true },
  { key: 'city', header: 'City', inDefault: true },
  { key: 'state', header: 'State', inDefault: true },
  { key: 'postal_code', header: 'ZIP Code', inDefault: true, type: 'identifier' },
  // Issue 52 item 4: '(305) 555-0100' (another country's number as dialled from the US, '011 44 …'),
  // the extension's digits in a column of their own (server/exports/roster-phone.ts).
  { key: 'phone', header: 'Phone', inDefault: true, type: 'identifier' },
  { key: 'phone_extension', header: 'Phone Extension', inDefault: true, type: 'identifier' },
  { key: 'fax', header: 'Fax', inDefault: false, type: 'identifier' },
  { key: 'languages', header: 'Languages', inDefault: false },
  { key: 'office_hours', header: 'Office Hours', inDefault: false },
  { key: 'accepting_new_patients', header: 'Accepting New Patients', inDefault: true },
  // Issue 49 item 2: 'Active', or 'Suspended (exclusion: OIG LEIE, 2026-11-28)' under ongoing monitoring.
  { key: 'credential_status', header: 'Credential Status', inDefault: true },
  { key: 'credentialed_on', header: 'Credentialed Date', inDefault: true, type: 'date' },
  { key: 'recredentialing_due_on', header: 'Recredentialing Due Date', inDefault: true, type: 'date' },
] as const;

export type RosterColumnKey = (typeof rosterColumns)[number]['key'];

export const rosterColumnKeys = rosterColumns.map((c) => c.key) as [RosterColumnKey, ...RosterColumnKey[]];

/** The header of each column. */
export const rosterColumnHeader = Object.fromEntries(rosterColumns.map((c) => [c.key, c.header])) as Record<
  RosterColumnKey,
  string
>;

/** The type of each column ('text' where the list gives none). */
export const rosterColumnType = Object.fromEntries(
  rosterColumns.map((c) => [c.key, 'type' in c ? c.type : 'text']),
) as Record<RosterColumnKey, RosterColumnType>;

/** The default layout: every `inDefault` column, in order. */
export const defaultRosterColumns: RosterColumnKey[] = rosterColumns
  .filter((c) => c.inDefault)
  .map((c) => c.key);

/** The roster's file formats: CSV (RFC 4180) and XLSX (Office Open XML spreadsheet). */
export const rosterFormats = ['csv', 'xlsx'] as const;
export type RosterFormat = (typeof rosterFormats)[number];

/** The roster file's name on `day` (`YYYY-MM-DD`). */
export function rosterFileName(day: string, format: RosterFormat): string {
  return `credentialed-roster-${day}.${format}`;
}
