/**
 * Which fields component and screen description each section uses, by section key (typed: a section
 * missing here does not compile). The registry (domain/sections) gives title, toasts, add label, schema.
 */
import type { AddFormTableSectionKey, RepeatableSectionKey } from '../../../domain/sections/registry.ts';
import { certificationsScreen } from './fields/certification-fields.tsx';
import { cmeScreen } from './fields/cme-fields.tsx';
import { educationScreen } from './fields/education-fields.tsx';
import { hospitalAffiliationsScreen } from './fields/hospital-affiliation-fields.tsx';
import { malpracticeClaimsScreen } from './fields/malpractice-claim-fields.tsx';
import { malpracticeInsuranceScreen } from './fields/malpractice-insurance-fields.tsx';
import { payorsScreen } from './fields/payor-fields.tsx';
import { peerReferencesScreen } from './fields/peer-reference-fields.tsx';
import { practiceLocationsScreen } from './fields/practice-location-fields.tsx';
import { professionalLicensesScreen } from './fields/professional-license-fields.tsx';
import { specialtiesScreen } from './fields/specialty-fields.tsx';
import { trainingScreen } from './fields/training-fields.tsx';
import { vaccinationsScreen } from './fields/vaccination-fields.tsx';
import { workHistoryScreen } from './fields/work-history-fields.tsx';
import type { AddFormTableScreen, RepeatableScreen } from './screen-types.ts';

export const repeatableScreens: Record<RepeatableSectionKey, RepeatableScreen> = {
  professionalLicenses: professionalLicensesScreen,
  education: educationScreen,
  workHistory: workHistoryScreen,
  malpracticeInsurance: malpracticeInsuranceScreen,
  vaccinations: vaccinationsScreen,
  // Issue 31: the 'Additional Information' sections.
  specialties: specialtiesScreen,
  practiceLocations: practiceLocationsScreen,
  hospitalAffiliations: hospitalAffiliationsScreen,
  training: trainingScreen,
  malpracticeClaims: malpracticeClaimsScreen,
};

export const addFormTableScreens: Record<AddFormTableSectionKey, AddFormTableScreen> = {
  payors: payorsScreen,
  certifications: certificationsScreen,
  cme: cmeScreen,
  peerReferences: peerReferencesScreen,
};
