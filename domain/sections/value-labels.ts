/**
 * How a person reads a stored option value ('medical_license' -> 'Medical License'): one table for
 * every screen that shows saved rows outside their own form (the admin details modal, the review
 * page's snapshot and its changes). The labels are the section modules' own option labels.
 */
import {
  acceptingNewPatientsLabel,
  admittingArrangementLabel,
  certificationKindLabel,
  claimStatusLabel,
  credentialingStatusLabel,
  degreeTypeLabel,
  documentTypeLabel,
  genderLabel,
  licenseStatusLabel,
  licenseTypeLabel,
  privilegeStatusLabel,
  type SectionKey,
  specialtyRankLabel,
  trainingTypeLabel,
  vaccineNameLabel,
  yesNoLabel,
} from './registry.ts';

/** `section.field` -> stored value -> label, for the fields whose values are options. */
const optionLabels: Partial<Record<`${SectionKey}.${string}`, Readonly<Record<string, string>>>> = {
  'personalInformation.gender': genderLabel,
  'professionalLicenses.licenseType': licenseTypeLabel,
  'professionalLicenses.status': licenseStatusLabel,
  'education.degreeType': degreeTypeLabel,
  'vaccinations.vaccineName': vaccineNameLabel,
  'payors.credentialingStatus': credentialingStatusLabel,
  'documents.documentType': documentTypeLabel,
  // Issue 51 item 4.
  'certifications.certificationKind': certificationKindLabel,
  // Issue 31's sections.
  'specialties.specialtyRank': specialtyRankLabel,
  'practiceLocations.acceptingNewPatients': acceptingNewPatientsLabel,
  'hospitalAffiliations.privilegeStatus': privilegeStatusLabel,
  'hospitalAffiliations.admittingArrangement': admittingArrangementLabel,
  'training.trainingType': trainingTypeLabel,
  'training.completed': yesNoLabel,
  'malpracticeClaims.status': claimStatusLabel,
};

/** The label of option `value` of `field` (a registry field name) of `sectionKey`; undefined if none. */
export function optionLabel(
  sectionKey: SectionKey,
  field: string,
  value: string | number,
): string | undefined {
  return optionLabels[`${sectionKey}.${field}`]?.[String(value)];
}

/**
 * `value` of `field` as text: the option's label where the field has options and the value is one
 * of them, else the value as it is (a value an older version stored is shown as stored, never hidden).
 */
export function optionValueText(sectionKey: SectionKey, field: string, value: string | number): string {
  return optionLabel(sectionKey, field, value) ?? String(value);
}
