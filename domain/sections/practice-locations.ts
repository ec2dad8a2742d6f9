/**
 * Practice Locations (issue 31 item 1; CAQH ProView "Practice Locations", the state uniform
 * applications' practice information, the directory fields of CMS's provider directory rules and the
 * Da Vinci PDex Plan-Net `Location`/`PractitionerRole`). Repeatable cards, 'Add Location'.
 *
 * The practice name is required (a location without a name cannot be listed in a directory); the rest
 * is optional, as in the spec's sections. The group NPI is the practice's type 2 (organization) NPI:
 * its check digit is verified here (the Luhn rule of 45 CFR 162.406, as for the provider's NPI); that
 * it is a type 2 NPI is for the NPPES look-up of the review. One location may be the primary one.
 */
import { z } from 'zod';
import { npiCheckDigitValid } from './personal-information.ts';
import {
  defineListSection,
  flag,
  joinSummary,
  optionalEmail,
  optionalEnum,
  optionalText,
  type RowsIssue,
  requiredText,
  TEXT_MAX,
} from './section.ts';
import { sectionCatalog } from './section-catalog.ts';

/**
 * Whether the location takes new patients (Da Vinci Plan-Net `AcceptingPatientsCodes`: new patients,
 * existing patients only, none).
 */
export const acceptingNewPatientsOptions = ['yes', 'existing_only', 'no'] as const;
export type AcceptingNewPatients = (typeof acceptingNewPatientsOptions)[number];
export const acceptingNewPatientsLabel: Record<AcceptingNewPatients, string> = {
  yes: 'Yes',
  existing_only: 'Existing patients only',
  no: 'No',
};

export const GROUP_NPI_INVALID = 'Enter the 10-digit group NPI (its last digit did not check out)';

export const practiceLocationSchema = z.object({
  practiceName: requiredText('Practice name'),
  /** The practice's type 2 NPI, 10 digits with a valid check digit, or null. */
  groupNpi: optionalText(TEXT_MAX.code).refine((v) => v === null || npiCheckDigitValid(v), GROUP_NPI_INVALID),
  addressLine1: optionalText(TEXT_MAX.name),
  addressLine2: optionalText(TEXT_MAX.name),
  city: optionalText(TEXT_MAX.name),
  state: optionalText(TEXT_MAX.code),
  zipCode: optionalText(20),
  phone: optionalText(40),
  fax: optionalText(40),
  email: optionalEmail(),
  isPrimaryLocation: flag(),
  acceptingNewPatients: optionalEnum(acceptingNewPatientsOptions, 'Choose an answer from the list'),
  /** Languages spoken at the location other than by interpreter, free text, e.g. 'English, Spanish'. */
  languagesSpoken: optionalText(TEXT_MAX.name),
  /** Free text, e.g. 'Mon-Fri 8:00-17:00'. */
  officeHours: optionalText(TEXT_MAX.long),
  /** Physical accessibility (ADA) of the office, free text. */
  accessibilityNotes: optionalText(TEXT_MAX.long),
});
export type PracticeLocationInput = z.input<typeof practiceLocationSchema>;
export type PracticeLocation = z.output<typeof practiceLocationSchema>;

export const ONE_PRIMARY_LOCATION = 'Only one location can be the primary location. Clear it on the others.';

/** At most one primary location; the issue points at the second one. */
export function practiceLocationsRowsIssue(rows: readonly Record<string, unknown>[]): RowsIssue | null {
  const primaries = rows.flatMap((row, index) => (row.isPrimaryLocation === true ? [index] : []));
  if (primaries.length <= 1) return null;
  return { message: ONE_PRIMARY_LOCATION, index: primaries[1]!, field: 'isPrimaryLocation' };
}

export const practiceLocationsSection = defineListSection({
  key: 'practiceLocations',
  ...sectionCatalog.practiceLocations,
  kind: 'list',
  layout: 'repeatable-cards',
  orderBy: 'position',
  addLabel: 'Add Location',
  schema: practiceLocationSchema,
  fields: [
    { name: 'practiceName', label: 'Practice Name' },
    { name: 'groupNpi', label: 'Group NPI' },
    { name: 'addressLine1', label: 'Address Line 1' },
    { name: 'addressLine2', label: 'Address Line 2' },
    { name: 'city', label: 'City' },
    { name: 'state', label: 'State' },
    { name: 'zipCode', label: 'ZIP Code' },
    { name: 'phone', label: 'Phone' },
    { name: 'fax', label: 'Fax' },
    { name: 'email', label: 'Email' },
    { name: 'isPrimaryLocation', label: 'Primary Location' },
    { name: 'acceptingNewPatients', label: 'Accepting New Patients' },
    { name: 'languagesSpoken', label: 'Languages Spoken' },
    { name: 'officeHours', label: 'Office Hours' },
    { name: 'accessibilityNotes', label: 'Accessibility Notes' },
  ],
  rowsRule: practiceLocationsRowsIssue,
  summarize: (row) =>
    joinSummary(
      row.practiceName,
      row.city && row.state ? `${row.city}, ${row.state}` : (row.city ?? row.state),
      row.isPrimaryLocation && 'primary',
    ),
  messages: {
    loadError: 'Failed to load practice locations',
    saveError: 'Failed to save practice locations',
    saveSuccess: 'Practice locations saved successfully',
  },
});
