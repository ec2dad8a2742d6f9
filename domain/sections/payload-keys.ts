/**
 * Where each list section sits in the completion payload (spec §7) and in the review snapshot
 * (decision 018, which reuses the payload's shape). Shared by the server, which writes both, and the
 * web, which labels a snapshot's changes with the sections' titles.
 */
import type { ListSectionKey } from './registry.ts';

/**
 * Payload key of each list section (spec §7). Documents are written separately (with their bytes);
 * every other key is the registry key, except professional licenses, sent as `licenses`.
 */
export const payloadKeyOfSection = {
  professionalLicenses: 'licenses',
  education: 'education',
  workHistory: 'workHistory',
  malpracticeInsurance: 'malpracticeInsurance',
  vaccinations: 'vaccinations',
  payors: 'payors',
  certifications: 'certifications',
  cme: 'cme',
  peerReferences: 'peerReferences',
  // Issue 31: additive keys after the spec's (decision 028); the spec's keys and order are unchanged.
  specialties: 'specialties',
  practiceLocations: 'practiceLocations',
  hospitalAffiliations: 'hospitalAffiliations',
  training: 'training',
  malpracticeClaims: 'malpracticeClaims',
} as const satisfies Record<Exclude<ListSectionKey, 'documents'>, string>;
