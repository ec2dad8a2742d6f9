/**
 * The route slug of every section (spec §2: `/{slug}/{applicationId}`), without the sections' zod
 * schemas: the web router lists the section routes from this map, so the first page of the app does
 * not load zod and the eleven schemas (issue 18, decision 016). Each section's definition takes its
 * slug from here (one source), and registry.ts fails to compile when a section has no entry.
 */
export const sectionSlugs = {
  personalInformation: 'personal-information',
  professionalLicenses: 'professional-licenses',
  education: 'education',
  workHistory: 'work-history',
  malpracticeInsurance: 'malpractice-insurance',
  vaccinations: 'vaccinations',
  payors: 'payors',
  certifications: 'certifications',
  cme: 'cme',
  peerReferences: 'peer-references',
  documents: 'documents',
} as const;
