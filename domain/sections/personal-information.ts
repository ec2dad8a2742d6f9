/**
 * Section 1, Personal Information (spec §2 "Personal information screen", §3 personal_information).
 * One row per application. No field is required and no format is enforced (spec §5); the SSN, phone
 * and NPI placeholders are hints only.
 *
 * The schema has 18 fields: spec §7 speaks of "the 17 personal fields" of the completion payload, but
 * spec §3 lists 18 columns (address line 2 included, and shown by the admin); all 18 are kept.
 *
 * The SSN travels as plain text from the client to the server only; the server stores it encrypted
 * (`ssn_encrypted`) plus its last four digits (`ssn_last4`) and shows it masked (spec §6).
 */
import { z } from 'zod';
import {
  defineSingleSection,
  joinSummary,
  optionalDate,
  optionalEnum,
  optionalText,
  TEXT_MAX,
} from './section.ts';
import { sectionCatalog } from './section-catalog.ts';

/** Provider types offered in the select (spec §3), without the 'Custom Entry' choice. */
export const providerTypes = [
  'MD',
  'MD-PhD',
  'DO',
  'CScD',
  'DC',
  'DDS',
  'DMD',
  'APN',
  'CMA',
  'LPN',
  'RN',
  'PA',
] as const;
export type PredefinedProviderType = (typeof providerTypes)[number];

/** The select choice that reveals a free-text input; the free text is what is stored, never this label. */
export const CUSTOM_PROVIDER_TYPE = 'Custom Entry';

/** Select options in screen order: the predefined types, then 'Custom Entry'. */
export const providerTypeOptions = [...providerTypes, CUSTOM_PROVIDER_TYPE] as const;

/** True for one of the predefined provider types; false for custom free text (and for 'Custom Entry'). */
export function isPredefinedProviderType(value: string | null | undefined): value is PredefinedProviderType {
  return (providerTypes as readonly string[]).includes(value ?? '');
}

export const genders = ['M', 'F'] as const;
export type Gender = (typeof genders)[number];
export const genderLabel: Record<Gender, string> = { M: 'Male', F: 'Female' };

export const personalInformationSchema = z.object({
  /** A predefined type or the custom free text. */
  providerType: optionalText(TEXT_MAX.code),
  gender: optionalEnum(genders, 'Choose Male or Female'),
  /** Plain text in transit only; placeholder XXX-XX-XXXX is a hint. */
  ssn: optionalText(20),
  dateOfBirth: optionalDate(),
  mobilePhone: optionalText(40),
  npiNumber: optionalText(TEXT_MAX.code),
  deaNumber: optionalText(TEXT_MAX.code),
  caqhId: optionalText(TEXT_MAX.code),
  medicaidNumber: optionalText(TEXT_MAX.code),
  medicareNumber: optionalText(TEXT_MAX.code),
  addressLine1: optionalText(TEXT_MAX.name),
  addressLine2: optionalText(TEXT_MAX.name),
  city: optionalText(TEXT_MAX.code),
  state: optionalText(TEXT_MAX.code),
  zipCode: optionalText(20),
  driverLicenseNumber: optionalText(TEXT_MAX.code),
  driverLicenseState: optionalText(TEXT_MAX.code),
  driverLicenseExpiration: optionalDate(),
});
export type PersonalInformationInput = z.input<typeof personalInformationSchema>;
export type PersonalInformation = z.output<typeof personalInformationSchema>;

/**
 * The last four digits of an SSN as typed (any separators), or null when it has fewer than four digits.
 * Stored in `ssn_last4` for masked display.
 */
export function ssnLast4(ssn: string | null | undefined): string | null {
  const digits = (ssn ?? '').replace(/\D/g, '');
  return digits.length >= 4 ? digits.slice(-4) : null;
}

/** Masked SSN for display (spec §6 "SSN is shown masked"): `***-**-1234`, or '' when unknown. */
export function maskSsn(last4: string | null | undefined): string {
  return last4 ? `***-**-${last4}` : '';
}

/**
 * NPI check digit (CMS NPI standard, ISO/IEC 7812 Luhn over the prefix 80840 plus the first nine digits).
 * Advisory only: spec §5 says the NPI is not validated, so a false result may warn but must not block.
 * @param npi the NPI as typed; anything other than exactly ten digits gives false.
 */
export function npiCheckDigitValid(npi: string): boolean {
  const trimmed = npi.trim();
  if (!/^\d{10}$/.test(trimmed)) return false;
  const payload = `80840${trimmed.slice(0, 9)}`;
  let sum = 0;
  // The check digit will sit to the right of the payload, so the payload's rightmost digit is doubled.
  for (let i = 0; i < payload.length; i++) {
    let digit = Number(payload[payload.length - 1 - i]);
    if (i % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  const checkDigit = (10 - (sum % 10)) % 10;
  return checkDigit === Number(trimmed[9]);
}

export const personalInformationSection = defineSingleSection({
  key: 'personalInformation',
  ...sectionCatalog.personalInformation,
  kind: 'single',
  layout: 'single-form',
  schema: personalInformationSchema,
  fields: [
    { name: 'providerType', label: 'Provider Type' },
    { name: 'gender', label: 'Gender' },
    { name: 'ssn', label: 'SSN' },
    { name: 'dateOfBirth', label: 'Date of Birth' },
    { name: 'mobilePhone', label: 'Mobile Phone' },
    { name: 'npiNumber', label: 'NPI Number' },
    { name: 'deaNumber', label: 'DEA Number' },
    { name: 'caqhId', label: 'CAQH ID' },
    { name: 'medicaidNumber', label: 'Medicaid Number' },
    { name: 'medicareNumber', label: 'Medicare Number' },
    { name: 'addressLine1', label: 'Address Line 1' },
    { name: 'addressLine2', label: 'Address Line 2' },
    { name: 'city', label: 'City' },
    { name: 'state', label: 'State' },
    { name: 'zipCode', label: 'ZIP Code' },
    { name: 'driverLicenseNumber', label: "Driver's License Number" },
    { name: 'driverLicenseState', label: "Driver's License State" },
    { name: 'driverLicenseExpiration', label: "Driver's License Expiration" },
  ],
  summarize: (row) =>
    joinSummary(
      row.providerType,
      row.npiNumber && `NPI ${row.npiNumber}`,
      row.city && row.state ? `${row.city}, ${row.state}` : row.state,
    ) || 'Personal information on file',
  messages: {
    loadError: 'Failed to load personal information',
    saveError: 'Failed to save personal information',
    saveSuccess: 'Personal information saved successfully',
  },
});
