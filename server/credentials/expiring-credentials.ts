/**
 * The dated credentials (issue 14): professional licenses, malpractice policies, certifications,
 * vaccinations, the driver's license, payor contracts and (issue 31 item 5) hospital privileges' end
 * dates, each with the name the provider knows it by. `credentialSources` is the one list of where each kind's date lives and how its row is named:
 * `applicationCredentials` reads one application's, the admin 'Expiring' tab reads all of them in SQL
 * (server/admin/admin-expiring.service.ts). What expires when is decided by
 * domain/credentials/expiring-credentials.ts.
 */
import { and, eq, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { CredentialKind, DatedCredential } from '../../domain/credentials/expiring-credentials.ts';
import { type LicenseType, licenseTypeLabel } from '../../domain/sections/professional-licenses.ts';
import { type VaccineName, vaccineNameLabel } from '../../domain/sections/vaccinations.ts';
import { type Queryable, readAll } from '../db/client.ts';
import {
  certifications,
  hospitalAffiliations,
  malpracticeInsurance,
  payors,
  personalInformation,
  professionalLicenses,
  vaccinations,
} from '../db/schema/sections.ts';

const joined = (...parts: (string | null | undefined)[]) => parts.filter(Boolean).join(' ');

/** The hospital affiliations that hold privileges (issue 31: active, courtesy or provisional). */
const PRIVILEGES_HELD = sql`${hospitalAffiliations.privilegeStatus} <> 'none'`;

/** Up to three text columns of a row, in a source's `nameColumns` order (null when absent). */
export type NameParts = readonly (string | null)[];

/** Where one kind's dates live and how its rows are named. */
export interface CredentialSource {
  table: PgTable;
  rowId: AnyPgColumn;
  applicationId: AnyPgColumn;
  /** The date column (`YYYY-MM-DD`), indexed with the row id for the admin tab (migration 0016). */
  expiresOn: AnyPgColumn;
  /** At most three columns the name is made of, read as text. */
  nameColumns: readonly AnyPgColumn[];
  /** The name the provider knows the row by, from `nameColumns`' values. */
  name(parts: NameParts): string;
  /** The state that issued it, from the name columns (the 'Expiring' CSV, issue 33 item 2); absent: none. */
  state?(parts: NameParts): string | null;
  /** Its number (license number, policy number), from the name columns; absent: none. */
  number?(parts: NameParts): string | null;
  /**
   * Which rows of the table are credentials of the kind, when not all are (hospital affiliations: the
   * rows holding privileges), as a boolean of the row; absent: every row. Selected as the union's
   * `listed` column and filtered outside it (`c.listed`), never in the branch: PostgreSQL cannot make a
   * branch with its own WHERE a plain member of the union, and such a branch loses the (date, id)
   * order the merge needs (see credentialSourceSelect).
   */
  listed?: SQL;
}

/** The sources of dated credentials (issue 14; issue 31 adds hospital privileges), one per kind. */
export const credentialSources: Record<CredentialKind, CredentialSource> = {
  professional_license: {
    table: professionalLicenses,
    rowId: professionalLicenses.id,
    applicationId: professionalLicenses.applicationId,
    expiresOn: professionalLicenses.expirationDate,
    nameColumns: [
      professionalLicenses.licenseType,
      professionalLicenses.licenseNumber,
      professionalLicenses.issuingState,
    ],
    name: ([type, number, state]) =>
      joined(type ? licenseTypeLabel[type as LicenseType] : 'License', number, state && `(${state})`),
    state: ([, , state]) => state ?? null,
    number: ([, number]) => number ?? null,
  },
  malpractice_insurance: {
    table: malpracticeInsurance,
    rowId: malpracticeInsurance.id,
    applicationId: malpracticeInsurance.applicationId,
    expiresOn: malpracticeInsurance.expirationDate,
    nameColumns: [malpracticeInsurance.insuranceCompany, malpracticeInsurance.policyNumber],
    name: ([company, policy]) => joined(company ?? 'Malpractice policy', policy),
    number: ([, policy]) => policy ?? null,
  },
  certification: {
    table: certifications,
    rowId: certifications.id,
    applicationId: certifications.applicationId,
    expiresOn: certifications.expirationDate,
    nameColumns: [certifications.certificationName],
    name: ([certification]) => certification ?? 'Certification',
  },
  vaccination: {
    table: vaccinations,
    rowId: vaccinations.id,
    applicationId: vaccinations.applicationId,
    expiresOn: vaccinations.expirationDate,
    nameColumns: [vaccinations.vaccineName],
    name: ([vaccine]) => (vaccine ? vaccineNameLabel[vaccine as VaccineName] : 'Vaccination'),
  },
  drivers_license: {
    table: personalInformation,
    rowId: personalInformation.id,
    applicationId: personalInformation.applicationId,
    expiresOn: personalInformation.driverLicenseExpiration,
    nameColumns: [personalInformation.driverLicenseState],
    name: ([state]) => joined("Driver's license", state),
    state: ([state]) => state ?? null,
  },
  payor_contract: {
    table: payors,
    rowId: payors.id,
    applicationId: payors.applicationId,
    expiresOn: payors.contractEndDate,
    nameColumns: [payors.payorName, payors.contractType],
    name: ([payor, contract]) => joined(payor, contract && `(${contract})`),
  },
  hospital_privileges: {
    table: hospitalAffiliations,
    rowId: hospitalAffiliations.id,
    applicationId: hospitalAffiliations.applicationId,
    expiresOn: hospitalAffiliations.endDate,
    nameColumns: [hospitalAffiliations.facilityName, hospitalAffiliations.city, hospitalAffiliations.state],
    name: ([facility, city, state]) => {
      const place = [city, state].filter(Boolean).join(', ');
      return joined(facility ?? 'Hospital privileges', place && `(${place})`);
    },
    state: ([, , state]) => state ?? null,
    // Status 'none' is an admitting arrangement, not privileges: nothing of it ends.
    listed: PRIVILEGES_HELD,
  },
};

/**
 * One SELECT per kind, for a UNION ALL: `kind`, `row_id`, `application_id`, `expires_on` (a date,
 * null when the row has none), `n1..n3` (the name columns as text) and `listed` (whether the row is a
 * credential of the kind: the source's `listed`, else true), of every row of the table.
 * Bound `expires_on` (and `row_id`) and require `listed` outside the union: PostgreSQL pushes such a
 * condition into each branch (the date as an index condition, `listed` as a filter) and can then
 * merge the branches in (date, id) order; a WHERE written inside each branch kept PostgreSQL 15 from
 * merging them (it sorted every matching row instead: a branch with its own WHERE is planned as a
 * subquery of its own, not as a member of the union).
 */
export function credentialSourceSelect(kind: CredentialKind): SQL {
  const source = credentialSources[kind];
  const names = [0, 1, 2].map((i) => {
    const column = source.nameColumns[i];
    return column ? sql`${column}::text` : sql`null::text`;
  });
  // The kind is one of the fixed words (never input), written as a literal the planner can see.
  return sql`select ${sql.raw(`'${kind}'`)}::text as kind, ${source.rowId} as row_id,
      ${source.applicationId} as application_id, ${source.expiresOn} as expires_on,
      ${names[0]} as n1, ${names[1]} as n2, ${names[2]} as n3, ${source.listed ?? sql`true`} as listed
    from ${source.table}`;
}

/** Every dated credential of `applicationId` (rows without a date are left out). */
export async function applicationCredentials(
  db: Queryable,
  applicationId: string,
): Promise<DatedCredential[]> {
  const [licenses, policies, certs, vaccines, personal, contracts, privileges] = await readAll(db, [
    () =>
      db
        .select()
        .from(professionalLicenses)
        .where(
          and(
            eq(professionalLicenses.applicationId, applicationId),
            isNotNull(professionalLicenses.expirationDate),
          ),
        ),
    () =>
      db
        .select()
        .from(malpracticeInsurance)
        .where(
          and(
            eq(malpracticeInsurance.applicationId, applicationId),
            isNotNull(malpracticeInsurance.expirationDate),
          ),
        ),
    () =>
      db
        .select()
        .from(certifications)
        .where(
          and(eq(certifications.applicationId, applicationId), isNotNull(certifications.expirationDate)),
        ),
    () =>
      db
        .select()
        .from(vaccinations)
        .where(and(eq(vaccinations.applicationId, applicationId), isNotNull(vaccinations.expirationDate))),
    () =>
      db
        .select()
        .from(personalInformation)
        .where(
          and(
            eq(personalInformation.applicationId, applicationId),
            isNotNull(personalInformation.driverLicenseExpiration),
          ),
        ),
    () =>
      db
        .select()
        .from(payors)
        .where(and(eq(payors.applicationId, applicationId), isNotNull(payors.contractEndDate))),
    () =>
      db
        .select()
        .from(hospitalAffiliations)
        .where(
          and(
            eq(hospitalAffiliations.applicationId, applicationId),
            isNotNull(hospitalAffiliations.endDate),
            PRIVILEGES_HELD,
          ),
        ),
  ]);
  const n = credentialSources;
  return [
    ...licenses.map((r) => ({
      kind: 'professional_license' as const,
      rowId: r.id,
      name: n.professional_license.name([r.licenseType, r.licenseNumber, r.issuingState]),
      expiresOn: r.expirationDate!,
    })),
    ...policies.map((r) => ({
      kind: 'malpractice_insurance' as const,
      rowId: r.id,
      name: n.malpractice_insurance.name([r.insuranceCompany, r.policyNumber]),
      expiresOn: r.expirationDate!,
    })),
    ...certs.map((r) => ({
      kind: 'certification' as const,
      rowId: r.id,
      name: n.certification.name([r.certificationName]),
      expiresOn: r.expirationDate!,
    })),
    ...vaccines.map((r) => ({
      kind: 'vaccination' as const,
      rowId: r.id,
      name: n.vaccination.name([r.vaccineName]),
      expiresOn: r.expirationDate!,
    })),
    ...personal.map((r) => ({
      kind: 'drivers_license' as const,
      rowId: r.id,
      name: n.drivers_license.name([r.driverLicenseState]),
      expiresOn: r.driverLicenseExpiration!,
    })),
    ...contracts.map((r) => ({
      kind: 'payor_contract' as const,
      rowId: r.id,
      name: n.payor_contract.name([r.payorName, r.contractType]),
      expiresOn: r.contractEndDate!,
    })),
    ...privileges.map((r) => ({
      kind: 'hospital_privileges' as const,
      rowId: r.id,
      name: n.hospital_privileges.name([r.facilityName, r.city, r.state]),
      expiresOn: r.endDate!,
    })),
  ];
}
