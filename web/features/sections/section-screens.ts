/**
 * Which fields component and screen description each section uses, by section key (typed: a section
 * missing here does not compile). The registry (domain/sections) gives title, toasts, add label, schema.
 */
import type { AddFormTableSectionKey, RepeatableSectionKey } from '../../../domain/sections/registry.ts';
import { certificationsScreen } from './fields/certification-fields.tsx';
import { cmeScreen } from './fields/cme-fields.tsx';
import { educationScreen } from './fields/education-fields.tsx';
import { malpracticeInsuranceScreen } from './fields/malpractice-insurance-fields.tsx';
import { payorsScreen } from './fields/payor-fields.tsx';
import { peerReferencesScreen } from './fields/peer-reference-fields.tsx';
import { professionalLicensesScreen } from './fields/professional-license-fields.tsx';
import { vaccinationsScreen } from './fields/vaccination-fields.tsx';
import { workHistoryScreen } from './fields/work-history-fields.tsx';
import type { AddFormTableScreen, RepeatableScreen } from './screen-types.ts';

export const repeatableScreens: Record<RepeatableSectionKey, RepeatableScreen> = {
  professionalLicenses: professionalLicensesScreen,
  education: educationScreen,
  workHistory: workHistoryScreen,
  malpracticeInsurance: malpracticeInsuranceScreen,
  vaccinations: vaccinationsScreen,
};

export const addFormTableScreens: Record<AddFormTableSectionKey, AddFormTableScreen> = {
  payors: payorsScreen,
  certifications: certificationsScreen,
  cme: cmeScreen,
  peerReferences: peerReferencesScreen,
};
