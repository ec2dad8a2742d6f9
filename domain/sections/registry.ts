/**
 * The sections of an application in dashboard order: the eleven of spec §2, then the five of issue 31
 * (the 'Additional Information' card, decision 028). Data only: progress, routes, the dashboard cards,
 * the admin detail and the completion payload all read this list.
 */
import type { z } from 'zod';
import { certificationsSection } from './certifications.ts';
import { cmeSection } from './cme.ts';
import { documentsSection } from './documents.ts';
import { educationSection } from './education.ts';
import { hospitalAffiliationsSection } from './hospital-affiliations.ts';
import { malpracticeClaimsSection } from './malpractice-claims.ts';
import { malpracticeInsuranceSection } from './malpractice-insurance.ts';
import { payorsSection } from './payors.ts';
import { peerReferencesSection } from './peer-references.ts';
import { personalInformationSection } from './personal-information.ts';
import { practiceLocationsSection } from './practice-locations.ts';
import { professionalLicensesSection } from './professional-licenses.ts';
import { type CatalogSectionKey, sectionCatalog } from './section-catalog.ts';
import { specialtiesSection } from './specialties.ts';
import { trainingSection } from './training.ts';
import { vaccinationsSection } from './vaccinations.ts';
import { workHistorySection } from './work-history.ts';

export const sections = [
  personalInformationSection,
  professionalLicensesSection,
  educationSection,
  workHistorySection,
  malpracticeInsuranceSection,
  vaccinationsSection,
  payorsSection,
  certificationsSection,
  cmeSection,
  peerReferencesSection,
  documentsSection,
  specialtiesSection,
  practiceLocationsSection,
  hospitalAffiliationsSection,
  trainingSection,
  malpracticeClaimsSection,
] as const;

/**
 * Number of sections progress and completion count (issue 31 item 3: every section; spec §9 counted
 * its eleven).
 */
export const SECTION_COUNT = 16;
/** The spec §2 'Application Sections' card's eleven sections (issue 31 item 3: unchanged). */
export const APPLICATION_SECTION_COUNT = 11;
// Compile-time guard: the tuple above has exactly SECTION_COUNT entries.
const sectionCountMatches: (typeof sections)['length'] extends typeof SECTION_COUNT ? true : never = true;
void sectionCountMatches;

export type Section = (typeof sections)[number];
export type SectionKey = Section['key'];

/** Every section is in the catalog (section-catalog.ts: what screens read without zod), and nothing else is. */
const everySectionIsCatalogued: Record<SectionKey, unknown> = sectionCatalog;
const everyCatalogEntryIsASection: Record<CatalogSectionKey, unknown> = {} as Record<SectionKey, unknown>;
void everySectionIsCatalogued;
void everyCatalogEntryIsASection;
export type SectionOf<Key extends SectionKey> = Extract<Section, { key: Key }>;
export type ListSection = Extract<Section, { kind: 'list' }>;
export type ListSectionKey = ListSection['key'];
export type RepeatableSection = Extract<Section, { layout: 'repeatable-cards' }>;
export type RepeatableSectionKey = RepeatableSection['key'];
export type AddFormTableSection = Extract<Section, { layout: 'add-form-table' }>;
export type AddFormTableSectionKey = AddFormTableSection['key'];
/** A row of a section after parsing (what the server stores, minus id and bookkeeping columns). */
export type SectionRow<Key extends SectionKey> = z.output<SectionOf<Key>['schema']>;

/** Every section by key. */
export const sectionByKey = Object.fromEntries(sections.map((s) => [s.key, s])) as {
  readonly [Key in SectionKey]: SectionOf<Key>;
};

/** The section whose route slug is `slug` (spec §2), or undefined. */
export function sectionBySlug(slug: string): Section | undefined {
  return sections.find((s) => s.slug === slug);
}

export { sectionPath } from './section-catalog.ts';

/** The list sections (everything but personal information), in order. */
export const listSections = sections.filter((s): s is ListSection => s.kind === 'list');

/** The repeatable-card sections, in order. */
export const repeatableSections = sections.filter(
  (s): s is RepeatableSection => s.layout === 'repeatable-cards',
);

/**
 * Progress of an application (spec §4, §9; issue 31 item 3): complete sections / SECTION_COUNT as a
 * rounded percent, 0..100.
 * @param completeCount number of complete sections; clamped to 0..SECTION_COUNT
 */
export function computeProgress(completeCount: number): number {
  const count = Math.min(Math.max(completeCount, 0), SECTION_COUNT);
  return Math.round((count / SECTION_COUNT) * 100);
}

// Option lists, re-exported so screens and the server import them from one place.
export {
  certificationKindLabel,
  certificationKinds,
  certificationSchema,
} from './certifications.ts';
export { CME_CREDIT_HOURS_MAX, CME_CREDIT_HOURS_STEP, cmeCategories, cmeSchema } from './cme.ts';
export {
  acceptedDocumentExtensions,
  acceptedDocumentMimeTypes,
  DOCUMENT_TYPE_REQUIRED_MESSAGE,
  documentSchema,
  documentTypeLabel,
  documentTypes,
  MAX_DOCUMENT_BYTES,
} from './documents.ts';
export { degreeTypeLabel, degreeTypes, educationSchema } from './education.ts';
export {
  admittingArrangementLabel,
  admittingArrangements,
  hospitalAffiliationSchema,
  privilegeStatuses,
  privilegeStatusLabel,
} from './hospital-affiliations.ts';
export {
  CLAIMS_HISTORY_YEARS,
  claimStatuses,
  claimStatusLabel,
  malpracticeClaimSchema,
  NO_CLAIMS,
  paidClaimInLastFiveYears,
} from './malpractice-claims.ts';
export { malpracticeInsuranceSchema } from './malpractice-insurance.ts';
export {
  credentialingStatusColor,
  credentialingStatuses,
  credentialingStatusLabel,
  DEFAULT_CREDENTIALING_STATUS,
  payorSchema,
} from './payors.ts';
export { peerReferenceSchema } from './peer-references.ts';
export {
  CUSTOM_PROVIDER_TYPE,
  genderLabel,
  genders,
  isPredefinedProviderType,
  npiCheckDigitValid,
  personalInformationSchema,
  providerTypeOptions,
  providerTypes,
} from './personal-information.ts';
export {
  acceptingNewPatientsLabel,
  acceptingNewPatientsOptions,
  practiceLocationSchema,
} from './practice-locations.ts';
export {
  DEFAULT_LICENSE_STATUS,
  licenseStatuses,
  licenseStatusLabel,
  licenseTypeLabel,
  licenseTypes,
  professionalLicenseSchema,
} from './professional-licenses.ts';
export { MAX_REPEATABLE_ROWS, repeatableSaveSchema } from './section.ts';
export { specialtyRankLabel, specialtyRanks, specialtySchema } from './specialties.ts';
export { NO_TRAINING, trainingSchema, trainingTypeLabel, trainingTypes, yesNoLabel } from './training.ts';
export { vaccinationSchema, vaccineNameLabel, vaccineNames } from './vaccinations.ts';
export { workHistorySchema } from './work-history.ts';
