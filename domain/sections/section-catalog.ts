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
} as const;

/** Key of a section (`personalInformation`, ...). */
export type CatalogSectionKey = keyof typeof sectionCatalog;

/** One section as the catalog lists it. */
export interface CatalogSection {
  key: CatalogSectionKey;
  slug: string;
  title: string;
  description: string;
}

/** The eleven sections in the spec §2 dashboard order, without schemas. */
export const catalogSections: readonly CatalogSection[] = (
  Object.keys(sectionCatalog) as CatalogSectionKey[]
).map((key) => ({ key, ...sectionCatalog[key] }));

/** The route slug of every section, by key (the router lists the section routes from this). */
export const sectionSlugs = Object.fromEntries(catalogSections.map((s) => [s.key, s.slug])) as {
  readonly [Key in CatalogSectionKey]: (typeof sectionCatalog)[Key]['slug'];
};

/** Route of a section screen: `/{slug}/{applicationId}` (spec §2). */
export function sectionPath(section: { slug: string }, applicationId: string): string {
  return `/${section.slug}/${applicationId}`;
}
