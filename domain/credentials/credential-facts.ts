/**
 * The published credential's facts (issue 49 item 1): what the directory (FHIR, `$export`, the
 * rosters) says about a credentialed provider, taken from the snapshot of the version a decision
 * approved or a credential update's review accepted, never from the live section tables or the
 * account. A change the provider saves after approval stays in the live tables until a reviewer
 * accepts it ('Complete Update Review'); only then is a new version's snapshot published.
 *
 * `credentialFactsOf` reads a stored snapshot (domain/review/application-snapshot.ts, the completion
 * payload's shape: snake_case rows, `licenses` with `license_issue`/`license_exp`, `certifications`
 * with `cert_issue_date`/`cert_exp_date`, a specialty's `board_certification` by name) into these facts.
 * Texts are trimmed and blanks are null. Rows are identified by `row_key` (stable across versions and
 * cycles); snapshots stored before row keys existed fall back on the row id, else the row's place.
 *
 * What a directory must not carry (HIPAA 164.502(b) minimum necessary, decision 035): the DEA number
 * is kept here because an administrator may add it to a roster, but no FHIR resource ever reads it;
 * nothing else of Personal Information but the NPI, the provider type (as the degree) and the gender
 * is taken. Pure: no zod, no Node.
 */
import type { ApplicationSnapshot, SnapshotRow } from '../review/application-snapshot.ts';
import { isBoardCertificationRow } from '../sections/certification-kinds.ts';

/** A professional license (state license, nursing license, other); DEA and NPI rows are not here. */
export interface CredentialLicense {
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
export interface CredentialDea {
  number: string | null;
  /** The DEA license row's expiration date, or null. */
  expiresOn: string | null;
  /** The DEA license row's state, or null. */
  state: string | null;
}

/** One degree (Education section). */
export interface CredentialDegree {
  rowKey: string;
  /** 'associate' | 'bachelor' | 'master' | 'doctorate' | 'certificate', or null. */
  degreeType: string | null;
  fieldOfStudy: string | null;
  institution: string | null;
  graduatedOn: string | null;
}

/** One board certification (Certifications section, of kind 'board': issue 51 item 4). */
export interface CredentialBoardCertification {
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
export interface CredentialSpecialty {
  rowKey: string;
  /** NUCC taxonomy code, e.g. '207R00000X'. */
  code: string;
  /** 'Internal Medicine' or 'Internal Medicine, Cardiovascular Disease' (the code set's names). */
  display: string;
  rank: 'primary' | 'secondary';
  /** The row key of the board certification this specialty names, or null. */
  boardCertificationRowKey: string | null;
}

/** One practice location (Practice Locations section). */
export interface CredentialPracticeLocation {
  /** The row's identity across versions and cycles (`row_key`): the FHIR Location and PractitionerRole id. */
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
  /**
   * Office hours, free text ('Mon-Fri 8:00-17:00'). Issue 52 item 4 (the roster); absent from
   * facts published before it, until the provider's next publication.
   */
  officeHours?: string | null;
}

/** What the published credential says about the provider (the module docstring says where from). */
export interface CredentialFacts {
  /** The snapshot version these facts were read from. */
  version: number;
  npi: string | null;
  givenName: string;
  familyName: string;
  /** Provider type as the degree after the name ('MD', 'DO', 'RN', or free text), or null. */
  degree: string | null;
  /** 'M' | 'F' | null, as given in Personal Information. */
  gender: 'M' | 'F' | null;
  /** Never published in FHIR; a roster shows it only when an administrator adds the column. */
  dea: CredentialDea | null;
  /**
   * Payer identifiers from Personal Information (issue 52 item 4, the roster only; never in FHIR):
   * the CAQH ProView ID, the Medicaid ID ('Medicaid Number') and the Medicare PTAN ('Medicare
   * Number'). Absent from facts published before issue 52, until the provider's next publication.
   */
  caqhId?: string | null;
  medicaidId?: string | null;
  medicarePtan?: string | null;
  licenses: CredentialLicense[];
  education: CredentialDegree[];
  boardCertifications: CredentialBoardCertification[];
  /** Primary first, then in the provider's order. */
  specialties: CredentialSpecialty[];
  /** Primary location first, then in the provider's order. */
  practiceLocations: CredentialPracticeLocation[];
}

/** A snapshot cell as trimmed text, null when empty or not a scalar. */
function text(row: SnapshotRow | null | undefined, column: string): string | null {
  const value = row?.[column];
  if (value === null || value === undefined || typeof value === 'object') return null;
  const trimmed = String(value).trim();
  return trimmed === '' ? null : trimmed;
}

/** A `YYYY-MM-DD` day of a snapshot cell (a timestamp's day part), or null. */
function day(row: SnapshotRow, column: string): string | null {
  const value = text(row, column);
  return value && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : null;
}

/** The row's identity: `row_key`, else its id (snapshots before row keys), else its place. */
function rowKeyOf(row: SnapshotRow, section: string, index: number): string {
  return text(row, 'row_key') ?? text(row, 'id') ?? `${section}-${index + 1}`;
}

const rows = (snapshot: ApplicationSnapshot, key: string): SnapshotRow[] => snapshot.lists[key] ?? [];

const acceptingValues = new Set(['yes', 'existing_only', 'no']);

/**
 * The facts of `snapshot` (stored as `version`), as the directory publishes them.
 * A board certification is linked to the specialties whose `board_certification` names it (name,
 * certifying body and number, as the payload sends the link). Certifications of kind 'other' (ACLS,
 * BLS) are not board certifications and are not published (issue 51 item 4).
 */
export function credentialFactsOf(snapshot: ApplicationSnapshot, version: number): CredentialFacts {
  const pi = snapshot.personalInformation ?? {};
  const licenseRows = rows(snapshot, 'licenses');
  const deaRow = licenseRows.find((l) => text(l, 'license_type') === 'dea_license');
  const deaNumber = pi.dea_number?.trim() || (deaRow ? text(deaRow, 'license_number') : null);
  const gender = pi.gender?.trim();

  // Issue 51 item 4: only board certifications are published as such (ACLS or BLS is not); the
  // index is the row's place among all certifications, as before the kind existed.
  const certifications = rows(snapshot, 'certifications')
    .flatMap((c, i) => (isBoardCertificationRow(c) ? [{ c, i }] : []))
    .map(({ c, i }) => ({
      rowKey: rowKeyOf(c, 'certification', i),
      name: text(c, 'certification_name') ?? '',
      board: text(c, 'certifying_body') ?? '',
      number: text(c, 'certification_number'),
      issuedOn: day(c, 'cert_issue_date'),
      expiresOn: day(c, 'cert_exp_date'),
      specialtyCodes: [] as string[],
    }));
  const certificationNamed = (link: unknown) => {
    if (!link || typeof link !== 'object') return undefined;
    const l = link as Record<string, unknown>;
    const same = (a: unknown, b: string | null) => (typeof a === 'string' ? a.trim() : null) === (b ?? null);
    return certifications.find(
      (c) =>
        same(l.certification_name, c.name) &&
        same(l.certifying_body, c.board) &&
        same(l.certification_number ?? null, c.number),
    );
  };

  const specialtyRows = rows(snapshot, 'specialties');
  const specialties = specialtyRows
    .map((s, i) => {
      const code = text(s, 'taxonomy_code') ?? '';
      const certification = certificationNamed(s.board_certification);
      if (certification && code) certification.specialtyCodes.push(code);
      const display = [text(s, 'classification'), text(s, 'specialization')].filter(Boolean).join(', ');
      return {
        rowKey: rowKeyOf(s, 'specialty', i),
        code,
        display: display || code,
        rank: text(s, 'specialty_rank') === 'secondary' ? ('secondary' as const) : ('primary' as const),
        boardCertificationRowKey: certification?.rowKey ?? null,
        order: i,
      };
    })
    .filter((s) => s.code !== '')
    .sort((a, b) => Number(b.rank === 'primary') - Number(a.rank === 'primary') || a.order - b.order)
    .map(({ order: _order, ...s }) => s);

  const practiceLocations = rows(snapshot, 'practiceLocations')
    .map((l, i) => {
      const accepting = text(l, 'accepting_new_patients');
      return {
        rowKey: rowKeyOf(l, 'location', i),
        name: text(l, 'practice_name') ?? '',
        groupNpi: text(l, 'group_npi'),
        address: {
          line1: text(l, 'address_line1'),
          line2: text(l, 'address_line2'),
          city: text(l, 'city'),
          state: text(l, 'state'),
          postalCode: text(l, 'zip_code'),
        },
        phone: text(l, 'phone'),
        fax: text(l, 'fax'),
        email: text(l, 'email'),
        primary: l.is_primary_location === true,
        acceptingNewPatients:
          accepting && acceptingValues.has(accepting)
            ? (accepting as CredentialPracticeLocation['acceptingNewPatients'])
            : null,
        languagesSpoken: text(l, 'languages_spoken'),
        officeHours: text(l, 'office_hours'),
        order: i,
      };
    })
    .sort((a, b) => Number(b.primary) - Number(a.primary) || a.order - b.order)
    .map(({ order: _order, ...l }) => l);

  return {
    version,
    npi: pi.npi_number?.trim() || null,
    givenName: text(snapshot.profile, 'first_name') ?? '',
    familyName: text(snapshot.profile, 'last_name') ?? '',
    degree: pi.provider_type?.trim() || null,
    gender: gender === 'M' || gender === 'F' ? gender : null,
    caqhId: pi.caqh_id?.trim() || null,
    medicaidId: pi.medicaid_number?.trim() || null,
    medicarePtan: pi.medicare_number?.trim() || null,
    dea:
      deaNumber || deaRow
        ? {
            number: deaNumber || null,
            expiresOn: deaRow ? day(deaRow, 'license_exp') : null,
            state: deaRow ? text(deaRow, 'issuing_state') : null,
          }
        : null,
    licenses: licenseRows
      .map((l, i) => ({ row: l, rowKey: rowKeyOf(l, 'license', i) }))
      .filter(({ row }) => {
        const type = text(row, 'license_type');
        return type !== 'dea_license' && type !== 'npi';
      })
      .map(({ row, rowKey }) => ({
        rowKey,
        type: text(row, 'license_type'),
        number: text(row, 'license_number'),
        state: text(row, 'issuing_state'),
        issuedOn: day(row, 'license_issue'),
        expiresOn: day(row, 'license_exp'),
        status: text(row, 'status') ?? 'active',
      })),
    education: rows(snapshot, 'education').map((e, i) => ({
      rowKey: rowKeyOf(e, 'education', i),
      degreeType: text(e, 'degree_type'),
      fieldOfStudy: text(e, 'field_of_study'),
      institution: text(e, 'institution_name'),
      graduatedOn: day(e, 'graduation_date'),
    })),
    boardCertifications: certifications,
    specialties,
    practiceLocations,
  };
}
