/**
 * The payer roster (issue 33 item 2, docs/decisions/030): the credentialed providers of the directory
 * (server/directory/credentialed-providers.ts) as one row per provider and practice location, in the
 * columns an administrator chose (domain/exports/roster.ts), written as CSV or XLSX while it is read:
 * batches of DEFAULT_DIRECTORY_BATCH providers, one in memory at a time, so memory stays flat in the
 * number of providers.
 *
 * - CSV: RFC 4180 with the byte order mark Excel needs, formula cells defused (server/http/csv.ts).
 * - XLSX: exceljs's streaming writer (Office Open XML), inline strings (no shared-string table held in
 *   memory); dates are date cells shown `yyyy-mm-dd`, identifiers (NPI, license, DEA, ZIP, phone)
 *   text cells formatted Text, the rest text (issue 52 item 4): a text cell is never run as a formula
 *   by a spreadsheet, so nothing needs defusing; the header row bold and frozen.
 *
 * Which license, which certification, when a provider holds several: the license of the location's
 * state (the latest expiry among them), else the first license; the board certification the primary
 * specialty names, else the first. Every license and certification is in the FHIR API
 * (Practitioner.qualification); the roster is the one-line-per-location file payers load.
 */
import type { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import type ExcelJS from 'exceljs';
import { rosterCredentialStatus } from '../../domain/credentials/credential-standing.ts';
import {
  defaultRosterColumns,
  type RosterColumnKey,
  type RosterColumnType,
  rosterColumnHeader,
  rosterColumnType,
} from '../../domain/exports/roster.ts';
import { acceptingNewPatientsLabel } from '../../domain/sections/practice-locations.ts';
import type { Queryable } from '../db/client.ts';
import { rosterColumnChoices } from '../db/schema/exports.ts';
import type { DirectoryPracticeLocation, DirectoryProvider } from '../directory/credentialed-providers.ts';
import { CSV_BOM, type CsvOptions, csvRecord } from '../http/csv.ts';
import { rosterFax, rosterPhone } from './roster-phone.ts';

/** One roster row: a text (or null for empty) per column. */
export type RosterRow = Record<RosterColumnKey, string | null>;

/** The license a location's row shows: of the location's state (latest expiry), else the first. */
function licenseFor(provider: DirectoryProvider, state: string | null) {
  const inState = provider.licenses
    .filter((l) => state && l.state?.toUpperCase() === state.toUpperCase())
    .sort((a, b) => (b.expiresOn ?? '').localeCompare(a.expiresOn ?? ''));
  return inState[0] ?? provider.licenses[0] ?? null;
}

/**
 * The roster rows of one provider: one per practice location in the section's order, or one with
 * the location columns empty when the provider gave none.
 */
export function rosterRows(provider: DirectoryProvider): RosterRow[] {
  const primary = provider.specialties.find((s) => s.rank === 'primary') ?? null;
  const secondary = provider.specialties.filter((s) => s !== primary).map((s) => s.code);
  const certification =
    provider.boardCertifications.find((c) => c.rowKey === primary?.boardCertificationRowKey) ??
    provider.boardCertifications[0] ??
    null;
  const locations: (DirectoryPracticeLocation | null)[] = provider.practiceLocations.length
    ? provider.practiceLocations
    : [null];
  return locations.map((location) => {
    const license = licenseFor(provider, location?.address.state ?? null);
    const phone = rosterPhone(location?.phone);
    return {
      npi: provider.npi,
      last_name: provider.familyName,
      first_name: provider.givenName,
      degree: provider.degree,
      gender: provider.gender,
      caqh_id: provider.caqhId ?? null,
      medicare_ptan: provider.medicarePtan ?? null,
      medicaid_id: provider.medicaidId ?? null,
      primary_taxonomy: primary?.code ?? null,
      primary_specialty: primary?.display ?? null,
      secondary_taxonomies: secondary.length ? secondary.join('; ') : null,
      license_state: license?.state ?? null,
      license_number: license?.number ?? null,
      license_expires_on: license?.expiresOn ?? null,
      dea_number: provider.dea?.number ?? null,
      dea_expires_on: provider.dea?.expiresOn ?? null,
      board_certification: certification ? `${certification.name} (${certification.board})` : null,
      board_certification_expires_on: certification?.expiresOn ?? null,
      location_name: location?.name ?? null,
      group_npi: location?.groupNpi ?? null,
      address_line1: location?.address.line1 ?? null,
      address_line2: location?.address.line2 ?? null,
      city: location?.address.city ?? null,
      state: location?.address.state ?? null,
      postal_code: location?.address.postalCode ?? null,
      phone: phone?.number ?? null,
      phone_extension: phone?.extension ?? null,
      fax: rosterFax(location?.fax),
      languages: location?.languagesSpoken ?? null,
      office_hours: location?.officeHours ?? null,
      accepting_new_patients: location?.acceptingNewPatients
        ? acceptingNewPatientsLabel[location.acceptingNewPatients]
        : null,
      credential_status: rosterCredentialStatus(provider.standing, provider.standingReason),
      credentialed_on: provider.credentialedOn,
      recredentialing_due_on: provider.recredentialingDueOn,
    };
  });
}

/**
 * The CSV: BOM (unless `bom: false`) and header, then one text chunk per batch of providers.
 * `separator` ',' (default) or ';', `guard` 'formulas' (default) or 'none' (server/http/csv.ts).
 */
export async function* rosterCsv(
  batches: AsyncIterable<DirectoryProvider[]>,
  columns: readonly RosterColumnKey[],
  options: CsvOptions & { bom?: boolean } = {},
): AsyncGenerator<string> {
  const bom = options.bom === false ? '' : CSV_BOM;
  yield bom +
    csvRecord(
      columns.map((c) => rosterColumnHeader[c]),
      options,
    );
  for await (const batch of batches) {
    yield batch
      .flatMap(rosterRows)
      .map((row) =>
        csvRecord(
          columns.map((c) => row[c]),
          options,
        ),
      )
      .join('');
  }
}

/**
 * Writes the XLSX to `output` as the batches are read (exceljs's streaming WorkbookWriter), then ends
 * it. One sheet 'Roster': the header row bold and frozen, a row per provider and location.
 * @throws whatever reading a batch or writing to `output` throws; `output` is then left to the caller.
 */
export async function writeRosterXlsx(
  batches: AsyncIterable<DirectoryProvider[]>,
  columns: readonly RosterColumnKey[],
  output: Writable,
  createdAt: Date,
): Promise<void> {
  // Loaded on the first export, not at start-up (about 37 MB and 0.26 s on Node 24; decision 032).
  const { default: excel } = (await import('exceljs')) as { default: typeof ExcelJS };
  const workbook = new excel.stream.xlsx.WorkbookWriter({
    stream: output,
    useSharedStrings: false,
    useStyles: true,
  });
  workbook.creator = 'Credentialing Portal';
  workbook.created = createdAt;
  const sheet = workbook.addWorksheet('Roster', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c) => ({ header: rosterColumnHeader[c], key: c, width: columnWidth(c) }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  for await (const batch of batches) {
    for (const values of batch.flatMap(rosterRows)) {
      const row = sheet.addRow(columns.map((c) => xlsxValue(c, values[c])));
      // Per cell, not per column: a header cell keeps the default format.
      columns.forEach((c, i) => {
        const format = xlsxNumberFormat[rosterColumnType[c]];
        if (format) row.getCell(i + 1).numFmt = format;
      });
      row.commit();
    }
  }
  sheet.commit();
  await workbook.commit();
}

/**
 * Excel number formats by column type: a date shown as the CSV writes it, an identifier as Text
 * ('@': Excel keeps what is typed into it later as text too, leading zeros and all).
 */
const xlsxNumberFormat: Record<RosterColumnType, string | null> = {
  date: 'yyyy-mm-dd',
  identifier: '@',
  text: null,
};

/**
 * A cell's value: a 'date' column's `YYYY-MM-DD` as a Date at UTC midnight (exceljs writes the
 * Excel serial day from UTC, so the day is exact whatever the server's time zone); anything else
 * the text itself ('' for empty).
 */
function xlsxValue(column: RosterColumnKey, value: string | null): string | Date {
  if (value === null) return '';
  if (rosterColumnType[column] === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return new Date(`${value}T00:00:00Z`);
  }
  return value;
}

/** A column's width in characters: wide enough for its header and typical values. */
function columnWidth(column: RosterColumnKey): number {
  return Math.max(12, rosterColumnHeader[column].length + 2, column.includes('name') ? 24 : 0);
}

/** The administrator's remembered column choice, or the default layout when none was saved. */
export async function rosterColumnsOf(
  db: Queryable,
  userId: string,
): Promise<{ columns: RosterColumnKey[]; isDefault: boolean }> {
  const [row] = await db
    .select({ columns: rosterColumnChoices.columns })
    .from(rosterColumnChoices)
    .where(eq(rosterColumnChoices.userId, userId));
  // A column removed since it was saved is dropped; nothing left means the default.
  const known = (row?.columns ?? []).filter((c): c is RosterColumnKey => c in rosterColumnHeader);
  return known.length
    ? { columns: known, isDefault: false }
    : { columns: defaultRosterColumns, isDefault: true };
}

/** Remembers `columns` (validated by the caller's schema) as `userId`'s choice. */
export async function saveRosterColumns(
  db: Queryable,
  userId: string,
  columns: readonly RosterColumnKey[],
  now: Date,
): Promise<void> {
  await db
    .insert(rosterColumnChoices)
    .values({ userId, columns: [...columns], updatedAt: now })
    .onConflictDoUpdate({
      target: rosterColumnChoices.userId,
      set: { columns: [...columns], updatedAt: now },
    });
}
