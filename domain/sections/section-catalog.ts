/**
 * What every screen says about a section without its zod schema (issue 18, decisions 016 and 021):
 * the key, the route slug (spec §2: `/{slug}/{applicationId}`), the title (spec §2 cards and page
 * titles) and the dashboard card's description (spec §2), in the spec §2 dashboard order. The landing
 * page, the app shell's section navigator, the dashboard and the router read this, so their chunks
 * do not load zod and the eleven schemas. Each section's definition (registry.ts) takes its slug,
 * title and description from here: one source, and registry.ts fails to compile when a section has
 * no entry.
 */
export const sectionCatalog = {
  personalInformation: {
    slug: 'personal-information',
    title: 'Personal Information',
    description: 'basic information and identification',
  },
  professionalLicenses: {
    slug: 'professional-licenses',
    title: 'Professional Licenses',
    description: 'medical licenses and certifications',
  },
  education: { slug: 'education', title: 'Education', description: 'academic background and degrees' },
  workHistory: {
    slug: 'work-history',
    title: 'Work History',
    description: 'employment history and experience',
  },
  malpracticeInsurance: {
    slug: 'malpractice-insurance',
    title: 'Malpractice Insurance',
    description: 'insurance coverage information',
  },
  vaccinations: { slug: 'vaccinations', title: 'Vaccinations', description: 'immunization records' },
  payors: { slug: 'payors', title: 'Payors', description: 'insurance payors and contracts' },
  certifications: {
    slug: 'certifications',
    title: 'Certifications',
    description: 'board certifications and credentials',
  },
  cme: { slug: 'cme', title: 'CME Credits', description: 'continuing medical education' },
  peerReferences: {
    slug: 'peer-references',
    title: 'Peer References',
    description: 'professional references',
  },
  documents: { slug: 'documents', title: 'Documents', description: 'supporting documentation' },
  // Issue 31: the sections every uniform credentialing application asks for beyond spec §2, shown in
  // the dashboard's second card, 'Additional Information' (decision 028). Descriptions are ours.
  specialties: {
    slug: 'specialties',
    title: 'Specialties',
    description: 'specialties and taxonomy codes',
    group: 'additional',
  },
  practiceLocations: {
    slug: 'practice-locations',
    title: 'Practice Locations',
    description: 'offices where you see patients',
    group: 'additional',
  },
  hospitalAffiliations: {
    slug: 'hospital-affiliations',
    title: 'Hospital Affiliations',
    description: 'hospital privileges and admitting arrangements',
    group: 'additional',
  },
  training: {
    slug: 'training',
    title: 'Training',
    description: 'internship, residency and fellowship',
    group: 'additional',
  },
  malpracticeClaims: {
    slug: 'malpractice-claims',
    title: 'Malpractice Claims',
    description: 'claims history of the last 10 years',
    group: 'additional',
  },
} as const;

/**
 * Which dashboard card a section is on (issue 31 item 3): 'application', the spec §2 'Application
 * Sections' card (the eleven, unchanged), or 'additional', the 'Additional Information' card.
 */
export type SectionGroup = 'application' | 'additional';

/** Title of the dashboard's second card (issue 31 item 3). */
export const ADDITIONAL_SECTIONS_TITLE = 'Additional Information';

/** Key of a section (`personalInformation`, ...). */
export type CatalogSectionKey = keyof typeof sectionCatalog;

/** One section as the catalog lists it. */
export interface CatalogSection {
  key: CatalogSectionKey;
  slug: string;
  title: string;
  description: string;
  group: SectionGroup;
}

/**
 * Every section in dashboard order, without schemas: the eleven of spec §2, then the five of issue
 * 31. Progress and completion count all of them (issue 31 item 3).
 */
export const catalogSections: readonly CatalogSection[] = (
  Object.keys(sectionCatalog) as CatalogSectionKey[]
).map((key) => {
  const entry: { slug: string; title: string; description: string; group?: SectionGroup } =
    sectionCatalog[key];
  return { key, ...entry, group: entry.group ?? 'application' };
});

/** The sections of one dashboard card, in order. */
export function sectionsOfGroup(group: SectionGroup): readonly CatalogSection[] {
  return catalogSections.filter((s) => s.group === group);
}

/** The route slug of every section, by key (the router lists the section routes from this). */
export const sectionSlugs = Object.fromEntries(catalogSections.map((s) => [s.key, s.slug])) as {
  readonly [Key in CatalogSectionKey]: (typeof sectionCatalog)[Key]['slug'];
};

/** Route of a section screen: `/{slug}/{applicationId}` (spec §2). */
export function sectionPath(section: { slug: string }, applicationId: string): string {
  return `/${section.slug}/${applicationId}`;
}
