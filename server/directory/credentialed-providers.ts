/**
 * READY (issue 33 item 3, part A): `credentialedProviderPage` and `credentialedProviderBatches` are
 * implemented and tested against PostgreSQL (credentialed-providers.test.ts); the shape below is
 * stable. The roster (server/exports/) and the FHIR API (server/fhir/) read the directory here.
 *
 * The credentialed providers as directory facts (issue 33: rosters and the FHIR R4 directory API).
 *
 * Who is in: a provider whose credential (`provider_credentials`, decision 025) is in state
 * 'credentialed' at `now` (domain/credentials/provider-credential.ts `credentialState`: not ended by
 * a denial, and `ends_on` not yet passed, days in UTC). `now` is always passed in, never read here.
 *
 * The facts come from the application that set the credential (`provider_credentials.application_id`,
 * the decided application; a credential update after approval edits that same application):
 * - names: `profiles` first and last name (the account's names; the application has no name fields),
 *   the degree from Personal Information's provider type ('MD', 'DO', 'RN', ... or free text);
 * - NPI and DEA number: `personal_information` (plain text columns; only the SSN is encrypted with
 *   the field cipher, and it is never read here); the DEA expiry is the DEA license row's
 *   (`professional_licenses` of type 'dea_license') expiration date, when given;
 * - professional licenses: every `professional_licenses` row but the 'dea_license' and 'npi' types;
 * - education (degrees), board certifications (`certifications`, each with the specialty codes that
 *   name it as their board certification), specialties (NUCC taxonomy codes, rank primary/secondary),
 *   practice locations (with their row id and the row key stable across cycles).
 *
 * `lastUpdated` is the latest of: the credential's `updated_at`; the `updated_at` of every row read
 * from the application's personal information, licenses, education, certifications, specialties and
 * practice locations; the application's credential updates' `updated_at` (a credential update after
 * approval, which also covers a row deleted by the update); and the account's `user.updated_at` (the
 * names). A row deleted outside a credential update is not seen (an approved application is locked,
 * applications/review-lock.ts, so that does not happen).
 *
 * Reads are set-based: one query selects a page of providers (keyset on `user_id`, the credential's
 * primary key; the page is cut before the joins, so a page costs the same at any depth; an NPI
 * search starts from the NPI index, a name search from `profiles`), then one query per section reads the rows of every application on the page
 * (`application_id = any(...)`, on each table's `(application_id, position)` index): six queries per
 * page, whatever its size. Days are `YYYY-MM-DD` strings (UTC calendar days), instants are `Date`s.
 */
import { sql } from 'drizzle-orm';
import { isoDay } from '../../domain/calendar.ts';
import { credentialState } from '../../domain/credentials/provider-credential.ts';
import type { Queryable } from '../db/client.ts';

/** Largest page `credentialedProviderPage` answers. */
export const MAX_DIRECTORY_PAGE = 1000;
/** Default batch size of `credentialedProviderBatches`. */
export const DEFAULT_DIRECTORY_BATCH = 500;

/** A professional license (state license, nursing license, other); DEA and NPI rows are not here. */
export interface DirectoryLicense {
  /** `professional_licenses.id`. */
  id: string;
  rowKey: string;
  /** 'medical_license' | 'nursing_license' | 'other' (domain/sections/professional-licenses.ts). */
  type: string | null;
  number: string | null;
  /** Issuing state as entered (usually the USPS code, 'IL'). */
  state: string | null;
  issuedOn: string | null;
  expiresOn: string | null;
  /** 'active' | 'inactive' | 'pending' | 'expired'. */
  status: string;
}

/** The DEA registration: the number from Personal Information (else the DEA license row's). */
export interface DirectoryDea {
  number: string | null;
  /** The DEA license row's expiration date, or null. */
  expiresOn: string | null;
  /** The DEA license row's state, or null. */
  state: string | null;
}

/** One degree (Education section). */
export interface DirectoryDegree {
  id: string;
  rowKey: string;
  /** 'associate' | 'bachelor' | 'master' | 'doctorate' | 'certificate', or null. */
  degreeType: string | null;
  fieldOfStudy: string | null;
  institution: string | null;
  graduatedOn: string | null;
}

/** One board certification (Certifications section). */
export interface DirectoryBoardCertification {
  id: string;
  rowKey: string;
  /** The certification's name ('Board Certified, Internal Medicine'). */
  name: string;
  /** The certifying board ('ABIM'). */
  board: string;
  number: string | null;
  issuedOn: string | null;
  expiresOn: string | null;
  /** NUCC codes of the specialties that name this certification as theirs. */
  specialtyCodes: string[];
}

/** One specialty (NUCC Health Care Provider Taxonomy). */
export interface DirectorySpecialty {
  id: string;
  rowKey: string;
  /** NUCC taxonomy code, e.g. '207R00000X'. */
  code: string;
  /** 'Internal Medicine' or 'Internal Medicine, Cardiovascular Disease' (the code set's names). */
  display: string;
  rank: 'primary' | 'secondary';
  boardCertificationId: string | null;
}

/** One practice location (Practice Locations section). */
export interface DirectoryPracticeLocation {
  /** `practice_locations.id` (new with each cycle's copy). */
  id: string;
  /** The row's identity across cycles (`row_key`): the FHIR Location and PractitionerRole id. */
  rowKey: string;
  /** Practice (group) name. */
  name: string;
  /** The group's type 2 NPI, or null. */
  groupNpi: string | null;
  address: {
    line1: string | null;
    line2: string | null;
    city: string | null;
    state: string | null;
    postalCode: string | null;
  };
  phone: string | null;
  fax: string | null;
  email: string | null;
  primary: boolean;
  /** 'yes' | 'existing_only' | 'no' (Plan-Net AcceptingPatientsCodes), or null when not given. */
  acceptingNewPatients: 'yes' | 'existing_only' | 'no' | null;
  languagesSpoken: string | null;
  updatedAt: Date;
}

/** A credentialed provider as directory facts (see the module docstring for where each comes from). */
export interface DirectoryProvider {
  userId: string;
  /** The application that last set the credential. */
  applicationId: string;
  /** The latest change among the credential and the facts' rows (module docstring). */
  lastUpdated: Date;
  npi: string | null;
  givenName: string;
  familyName: string;
  /** Provider type as the degree after the name ('MD', 'DO', 'RN', or free text), or null. */
  degree: string | null;
  /** 'M' | 'F' | null, as given in Personal Information. */
  gender: 'M' | 'F' | null;
  dea: DirectoryDea | null;
  licenses: DirectoryLicense[];
  education: DirectoryDegree[];
  boardCertifications: DirectoryBoardCertification[];
  /** Primary first, then in the provider's order. */
  specialties: DirectorySpecialty[];
  /** Primary location first, then in the provider's order. */
  practiceLocations: DirectoryPracticeLocation[];
  /** The first approval's day (`provider_credentials.credentialed_at`, UTC). */
  credentialedOn: string;
  /** The credential's end: recredentialing is due by then (`provider_credentials.ends_on`). */
  recredentialingDueOn: string;
}

/** What `credentialedProviderPage` filters on; every filter is optional but `now` and `limit`. */
export interface DirectoryPageQuery {
  /** The instant the credential state is computed at. */
  now: Date;
  /** Keyset: only providers with `userId` greater than this. */
  after?: string;
  /** 1..MAX_DIRECTORY_PAGE. */
  limit: number;
  /** Only these providers (at most MAX_DIRECTORY_PAGE ids). */
  userIds?: readonly string[];
  /** Exact NPI (Personal Information). */
  npi?: string;
  /** Case-insensitive: the first or last name starts with it, or the full name contains it. */
  name?: string;
  /** Only providers whose `lastUpdated` is after this instant. */
  updatedSince?: Date;
  /** Only providers whose `lastUpdated` is at or before this instant. */
  updatedUntil?: Date;
}

type ProviderRow = {
  user_id: string;
  application_id: string;
  credentialed_at: Date;
  approved_at: Date;
  ends_on: string;
  ended_on: string | null;
  first_name: string | null;
  last_name: string | null;
  provider_type: string | null;
  gender: string | null;
  npi_number: string | null;
  dea_number: string | null;
  last_updated: Date;
};

/** Escape LIKE's wildcards so a name is matched literally. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const toDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

/**
 * One page of credentialed providers by keyset, ordered by `userId`.
 * @throws RangeError when `limit` is not 1..MAX_DIRECTORY_PAGE or more ids than that are given
 */
export async function credentialedProviderPage(
  db: Queryable,
  q: DirectoryPageQuery,
): Promise<DirectoryProvider[]> {
  if (!Number.isInteger(q.limit) || q.limit < 1 || q.limit > MAX_DIRECTORY_PAGE) {
    throw new RangeError(`limit must be 1..${MAX_DIRECTORY_PAGE}`);
  }
  if (q.userIds && q.userIds.length > MAX_DIRECTORY_PAGE) throw new RangeError('too many userIds');
  if (q.userIds && q.userIds.length === 0) return [];
  const today = isoDay(q.now);
  const filters = [sql`pc.ended_on is null`, sql`pc.ends_on >= ${today}::date`];
  if (q.after !== undefined) filters.push(sql`pc.user_id > ${q.after}`);
  if (q.userIds) filters.push(sql`pc.user_id = any(${sql.param([...q.userIds])}::text[])`);
  // The NPI of the credential's own application (an older application may have had another).
  if (q.npi !== undefined) {
    filters.push(
      sql`pc.application_id in (select application_id from personal_information where npi_number = ${q.npi})`,
    );
  }
  if (q.name !== undefined) {
    const name = q.name.trim().toLowerCase();
    const prefix = `${likeLiteral(name)}%`;
    const contains = `%${likeLiteral(name)}%`;
    filters.push(
      sql`pc.user_id in (select user_id from profiles where lower(first_name) like ${prefix} or lower(last_name) like ${prefix} or lower(first_name || ' ' || last_name) like ${contains})`,
    );
  }
  const updatedFilters = [];
  if (q.updatedSince) updatedFilters.push(sql`f.last_updated > ${q.updatedSince.toISOString()}::timestamptz`);
  if (q.updatedUntil)
    updatedFilters.push(sql`f.last_updated <= ${q.updatedUntil.toISOString()}::timestamptz`);
  const filtered = updatedFilters.length > 0;
  // First the page of credentials, by the primary key (materialized: the joins and the subqueries of
  // lastUpdated then run for the page's rows only); with a lastUpdated filter every candidate after
  // the cursor is computed and the limit applies after the filter.
  const result = await db.execute<ProviderRow>(sql`
    with page as materialized (
      select pc.user_id, pc.application_id, pc.credentialed_at, pc.approved_at, pc.ends_on, pc.ended_on, pc.updated_at
      from provider_credentials pc
      where ${sql.join(filters, sql` and `)}
      order by pc.user_id
      ${filtered ? sql`` : sql`limit ${q.limit}`}
    )
    select * from (
      select pc.user_id, pc.application_id, pc.credentialed_at, pc.approved_at,
        pc.ends_on::text as ends_on, pc.ended_on::text as ended_on,
        p.first_name, p.last_name, pi.provider_type, pi.gender, pi.npi_number, pi.dea_number,
        greatest(
          pc.updated_at, u.updated_at, pi.updated_at,
          (select max(updated_at) from professional_licenses x where x.application_id = pc.application_id),
          (select max(updated_at) from education x where x.application_id = pc.application_id),
          (select max(updated_at) from certifications x where x.application_id = pc.application_id),
          (select max(updated_at) from specialties x where x.application_id = pc.application_id),
          (select max(updated_at) from practice_locations x where x.application_id = pc.application_id),
          (select max(updated_at) from credential_updates x where x.application_id = pc.application_id)
        ) as last_updated
      from page pc
      join provider_applications pa on pa.id = pc.application_id
      join "user" u on u.id = pc.user_id
      left join profiles p on p.user_id = pc.user_id
      left join personal_information pi on pi.application_id = pc.application_id
      where pa.user_id = pc.user_id
    ) f
    ${filtered ? sql`where ${sql.join(updatedFilters, sql` and `)}` : sql``}
    order by f.user_id
    limit ${q.limit}
  `);
  const rows = result.rows.filter(
    (r) =>
      credentialState(
        {
          applicationId: r.application_id,
          credentialedAt: toDate(r.credentialed_at),
          approvedAt: toDate(r.approved_at),
          endsOn: r.ends_on,
          endedOn: r.ended_on,
        },
        q.now,
      ).state === 'credentialed',
  );
  return assemble(db, rows);
}

/**
 * Every credentialed provider at `now`, in `userId` order, in batches of `batchSize` (default
 * DEFAULT_DIRECTORY_BATCH, at most MAX_DIRECTORY_PAGE): one page in memory at a time, so memory stays
 * flat in the number of providers. `updatedSince` keeps those whose `lastUpdated` is after it.
 */
export async function* credentialedProviderBatches(
  db: Queryable,
  q: { now: Date; updatedSince?: Date; batchSize?: number },
): AsyncGenerator<DirectoryProvider[]> {
  const limit = q.batchSize ?? DEFAULT_DIRECTORY_BATCH;
  let after: string | undefined;
  for (;;) {
    const page = await credentialedProviderPage(db, {
      now: q.now,
      after,
      limit,
      updatedSince: q.updatedSince,
    });
    if (page.length === 0) return;
    yield page;
    if (page.length < limit) return;
    after = page[page.length - 1]!.userId;
  }
}

/** Rows of one section for the page's applications, grouped by application id. */
async function rowsByApplication<T extends Record<string, unknown> & { application_id: string }>(
  db: Queryable,
  query: ReturnType<typeof sql>,
): Promise<Map<string, T[]>> {
  const result = await db.execute<T>(query);
  const grouped = new Map<string, T[]>();
  for (const row of result.rows as T[]) {
    const list = grouped.get(row.application_id);
    if (list) list.push(row);
    else grouped.set(row.application_id, [row]);
  }
  return grouped;
}

const dayText = (column: string) => sql.raw(`${column}::text as ${column}`);

async function assemble(db: Queryable, providers: ProviderRow[]): Promise<DirectoryProvider[]> {
  if (providers.length === 0) return [];
  const ids = sql.param(providers.map((p) => p.application_id));
  // Run one after another: `db` may be a transaction, whose one connection takes one query at a time.
  const licenses = await rowsByApplication<{
    application_id: string;
    id: string;
    row_key: string;
    license_type: string | null;
    license_number: string | null;
    issuing_state: string | null;
    issue_date: string | null;
    expiration_date: string | null;
    status: string;
  }>(
    db,
    sql`select application_id, id, row_key, license_type::text as license_type, license_number, issuing_state,
      ${dayText('issue_date')}, ${dayText('expiration_date')}, status::text as status
      from professional_licenses where application_id = any(${ids}::uuid[]) order by application_id, position, id`,
  );
  const education = await rowsByApplication<{
    application_id: string;
    id: string;
    row_key: string;
    institution_name: string | null;
    degree_type: string | null;
    field_of_study: string | null;
    graduation_date: string | null;
  }>(
    db,
    sql`select application_id, id, row_key, institution_name, degree_type::text as degree_type, field_of_study,
      ${dayText('graduation_date')}
      from education where application_id = any(${ids}::uuid[]) order by application_id, position, id`,
  );
  const certifications = await rowsByApplication<{
    application_id: string;
    id: string;
    row_key: string;
    certification_name: string;
    certifying_body: string;
    certification_number: string | null;
    issue_date: string | null;
    expiration_date: string | null;
  }>(
    db,
    sql`select application_id, id, row_key, certification_name, certifying_body, certification_number,
      ${dayText('issue_date')}, ${dayText('expiration_date')}
      from certifications where application_id = any(${ids}::uuid[]) order by application_id, created_at, id`,
  );
  const specialties = await rowsByApplication<{
    application_id: string;
    id: string;
    row_key: string;
    specialty_rank: 'primary' | 'secondary';
    taxonomy_code: string;
    classification: string | null;
    specialization: string | null;
    board_certification_id: string | null;
  }>(
    db,
    sql`select application_id, id, row_key, specialty_rank::text as specialty_rank, taxonomy_code, classification,
      specialization, board_certification_id
      from specialties where application_id = any(${ids}::uuid[])
      order by application_id, (specialty_rank = 'primary') desc, position, id`,
  );
  const locations = await rowsByApplication<PracticeLocationRow & { application_id: string }>(
    db,
    sql`select application_id, id, row_key, practice_name, group_npi, address_line1, address_line2, city, state,
      zip_code, phone, fax, email, is_primary_location, accepting_new_patients::text as accepting_new_patients,
      languages_spoken, updated_at
      from practice_locations where application_id = any(${ids}::uuid[])
      order by application_id, is_primary_location desc, position, id`,
  );

  return providers.map((p): DirectoryProvider => {
    const appId = p.application_id;
    const licenseRows = licenses.get(appId) ?? [];
    const deaRow = licenseRows.find((l) => l.license_type === 'dea_license');
    const deaNumber = p.dea_number?.trim() || deaRow?.license_number?.trim() || null;
    const specialtyRows = specialties.get(appId) ?? [];
    return {
      userId: p.user_id,
      applicationId: appId,
      lastUpdated: toDate(p.last_updated),
      npi: p.npi_number?.trim() || null,
      givenName: p.first_name?.trim() ?? '',
      familyName: p.last_name?.trim() ?? '',
      degree: p.provider_type?.trim() || null,
      gender: p.gender === 'M' || p.gender === 'F' ? p.gender : null,
      dea:
        deaNumber || deaRow
          ? {
              number: deaNumber,
              expiresOn: deaRow?.expiration_date ?? null,
              state: deaRow?.issuing_state?.trim() || null,
            }
          : null,
      licenses: licenseRows
        .filter((l) => l.license_type !== 'dea_license' && l.license_type !== 'npi')
        .map((l) => ({
          id: l.id,
          rowKey: l.row_key,
          type: l.license_type,
          number: l.license_number?.trim() || null,
          state: l.issuing_state?.trim() || null,
          issuedOn: l.issue_date,
          expiresOn: l.expiration_date,
          status: l.status,
        })),
      education: (education.get(appId) ?? []).map((e) => ({
        id: e.id,
        rowKey: e.row_key,
        degreeType: e.degree_type,
        fieldOfStudy: e.field_of_study?.trim() || null,
        institution: e.institution_name?.trim() || null,
        graduatedOn: e.graduation_date,
      })),
      boardCertifications: (certifications.get(appId) ?? []).map((c) => ({
        id: c.id,
        rowKey: c.row_key,
        name: c.certification_name.trim(),
        board: c.certifying_body.trim(),
        number: c.certification_number?.trim() || null,
        issuedOn: c.issue_date,
        expiresOn: c.expiration_date,
        specialtyCodes: specialtyRows
          .filter((s) => s.board_certification_id === c.id)
          .map((s) => s.taxonomy_code),
      })),
      specialties: specialtyRows.map((s) => ({
        id: s.id,
        rowKey: s.row_key,
        code: s.taxonomy_code,
        display: [s.classification, s.specialization].filter((v) => v?.trim()).join(', ') || s.taxonomy_code,
        rank: s.specialty_rank,
        boardCertificationId: s.board_certification_id,
      })),
      practiceLocations: (locations.get(appId) ?? []).map(practiceLocationOf),
      credentialedOn: isoDay(toDate(p.credentialed_at)),
      recredentialingDueOn: p.ends_on,
    };
  });
}

/** A `practice_locations` row as the directory's queries select it (snake_case columns). */
export type PracticeLocationRow = {
  id: string;
  row_key: string;
  practice_name: string;
  group_npi: string | null;
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  state: string | null;
  zip_code: string | null;
  phone: string | null;
  fax: string | null;
  email: string | null;
  is_primary_location: boolean;
  /** Absent when the query did not select it (the FHIR Organization's group query). */
  accepting_new_patients?: 'yes' | 'existing_only' | 'no' | null;
  languages_spoken?: string | null;
  updated_at: Date | string;
};

/** The directory's practice location of a row: texts trimmed, blanks as null. */
export function practiceLocationOf(l: PracticeLocationRow): DirectoryPracticeLocation {
  return {
    id: l.id,
    rowKey: l.row_key,
    name: l.practice_name.trim(),
    groupNpi: l.group_npi?.trim() || null,
    address: {
      line1: l.address_line1?.trim() || null,
      line2: l.address_line2?.trim() || null,
      city: l.city?.trim() || null,
      state: l.state?.trim() || null,
      postalCode: l.zip_code?.trim() || null,
    },
    phone: l.phone?.trim() || null,
    fax: l.fax?.trim() || null,
    email: l.email?.trim() || null,
    primary: l.is_primary_location,
    acceptingNewPatients: l.accepting_new_patients ?? null,
    languagesSpoken: l.languages_spoken?.trim() || null,
    updatedAt: toDate(l.updated_at),
  };
}
