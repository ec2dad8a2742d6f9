/**
 * Section 2, Professional Licenses (spec §3 professional_licenses). Repeatable cards, 'Add License'.
 * No field is required (spec §5); a new license's status is 'active' (spec §9).
 */
import { z } from 'zod';
import {
  defineListSection,
  enumWithDefault,
  joinSummary,
  optionalDate,
  optionalEnum,
  optionalText,
  TEXT_MAX,
} from './section.ts';
import { sectionCatalog } from './section-catalog.ts';

export const licenseTypes = ['medical_license', 'nursing_license', 'dea_license', 'npi', 'other'] as const;
export type LicenseType = (typeof licenseTypes)[number];
export const licenseTypeLabel: Record<LicenseType, string> = {
  medical_license: 'Medical License',
  nursing_license: 'Nursing License',
  dea_license: 'DEA License',
  npi: 'NPI',
  other: 'Other',
};

export const licenseStatuses = ['active', 'inactive', 'pending', 'expired'] as const;
export type LicenseStatus = (typeof licenseStatuses)[number];
export const licenseStatusLabel: Record<LicenseStatus, string> = {
  active: 'Active',
  inactive: 'Inactive',
  pending: 'Pending',
  expired: 'Expired',
};
/** Status of a new license (spec §9). */
export const DEFAULT_LICENSE_STATUS: LicenseStatus = 'active';

export const professionalLicenseSchema = z.object({
  licenseType: optionalEnum(licenseTypes, 'Choose a license type from the list'),
  licenseNumber: optionalText(TEXT_MAX.code),
  issuingState: optionalText(TEXT_MAX.code),
  issueDate: optionalDate(),
  expirationDate: optionalDate(),
  status: enumWithDefault(licenseStatuses, DEFAULT_LICENSE_STATUS, 'Choose a license status from the list'),
});
export type ProfessionalLicenseInput = z.input<typeof professionalLicenseSchema>;
export type ProfessionalLicense = z.output<typeof professionalLicenseSchema>;

export const professionalLicensesSection = defineListSection({
  key: 'professionalLicenses',
  ...sectionCatalog.professionalLicenses,
  kind: 'list',
  layout: 'repeatable-cards',
  orderBy: 'position',
  addLabel: 'Add License',
  schema: professionalLicenseSchema,
  fields: [
    { name: 'licenseType', label: 'License Type' },
    { name: 'licenseNumber', label: 'License Number' },
    { name: 'issuingState', label: 'Issuing State' },
    { name: 'issueDate', label: 'Issue Date' },
    { name: 'expirationDate', label: 'Expiration Date' },
    { name: 'status', label: 'Status' },
  ],
  summarize: (row) =>
    joinSummary(
      row.licenseType && licenseTypeLabel[row.licenseType],
      row.licenseNumber,
      row.issuingState,
      licenseStatusLabel[row.status],
    ),
  messages: {
    loadError: 'Failed to load professional licenses',
    saveError: 'Failed to save professional licenses',
    saveSuccess: 'Professional licenses saved successfully',
  },
});
