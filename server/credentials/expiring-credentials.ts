/**
 * The dated credentials of one application (issue 14): professional licenses, malpractice policies,
 * certifications, vaccinations, the driver's license and payor contracts, each with the name the
 * provider knows it by. What expires when is decided by domain/credentials/expiring-credentials.ts.
 */
import { and, eq, isNotNull } from 'drizzle-orm';
import type { DatedCredential } from '../../domain/credentials/expiring-credentials.ts';
import { licenseTypeLabel } from '../../domain/sections/professional-licenses.ts';
import { vaccineNameLabel } from '../../domain/sections/vaccinations.ts';
import { type Queryable, readAll } from '../db/client.ts';
import {
  certifications,
  malpracticeInsurance,
  payors,
  personalInformation,
  professionalLicenses,
  vaccinations,
} from '../db/schema/sections.ts';

const joined = (...parts: (string | null | undefined)[]) => parts.filter(Boolean).join(' ');

/** Every dated credential of `applicationId` (rows without a date are left out). */
export async function applicationCredentials(
  db: Queryable,
  applicationId: string,
): Promise<DatedCredential[]> {
  const [licenses, policies, certs, vaccines, personal, contracts] = await readAll(db, [
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
  ]);
  return [
    ...licenses.map((r) => ({
      kind: 'professional_license' as const,
      rowId: r.id,
      name: joined(
        r.licenseType ? licenseTypeLabel[r.licenseType] : 'License',
        r.licenseNumber,
        r.issuingState && `(${r.issuingState})`,
      ),
      expiresOn: r.expirationDate!,
    })),
    ...policies.map((r) => ({
      kind: 'malpractice_insurance' as const,
      rowId: r.id,
      name: joined(r.insuranceCompany ?? 'Malpractice policy', r.policyNumber),
      expiresOn: r.expirationDate!,
    })),
    ...certs.map((r) => ({
      kind: 'certification' as const,
      rowId: r.id,
      name: r.certificationName,
      expiresOn: r.expirationDate!,
    })),
    ...vaccines.map((r) => ({
      kind: 'vaccination' as const,
      rowId: r.id,
      name: r.vaccineName ? vaccineNameLabel[r.vaccineName] : 'Vaccination',
      expiresOn: r.expirationDate!,
    })),
    ...personal.map((r) => ({
      kind: 'drivers_license' as const,
      rowId: r.id,
      name: joined("Driver's license", r.driverLicenseState),
      expiresOn: r.driverLicenseExpiration!,
    })),
    ...contracts.map((r) => ({
      kind: 'payor_contract' as const,
      rowId: r.id,
      name: joined(r.payorName, r.contractType && `(${r.contractType})`),
      expiresOn: r.contractEndDate!,
    })),
  ];
}
