/**
 * Section screens (spec §2): one route per registry section but documents (its own feature), at
 * `/<slug>/:applicationId`. Each section gets its layout's page by default; `sectionPages` is the one
 * place where a section could get a page of its own instead. Pages are lazy chunks, one per layout.
 * The paths come from `sectionSlugs`, not the registry: the router is part of the first page, and the
 * registry would bring zod and every section's schema into it (decision 016).
 */
import { lazy, type ReactNode } from 'react';
import type { SectionKey } from '../../../domain/sections/registry.ts';
import { sectionSlugs } from '../../../domain/sections/section-catalog.ts';

const SingleFormPage = lazy(() => import('./single-form-page.tsx'));
const RepeatableCardsPage = lazy(() => import('./repeatable-cards-page.tsx'));
const AddFormTablePage = lazy(() => import('./add-form-table-page.tsx'));

type ScreenSectionKey = Exclude<SectionKey, 'documents'>;

/**
 * The page of each section screen. The `key` makes React mount a fresh page when the route changes from
 * one section to another of the same layout (no form state carried over).
 */
const sectionPages: Record<ScreenSectionKey, ReactNode> = {
  personalInformation: <SingleFormPage key="personalInformation" />,
  professionalLicenses: <RepeatableCardsPage key="professionalLicenses" sectionKey="professionalLicenses" />,
  education: <RepeatableCardsPage key="education" sectionKey="education" />,
  workHistory: <RepeatableCardsPage key="workHistory" sectionKey="workHistory" />,
  malpracticeInsurance: <RepeatableCardsPage key="malpracticeInsurance" sectionKey="malpracticeInsurance" />,
  vaccinations: <RepeatableCardsPage key="vaccinations" sectionKey="vaccinations" />,
  payors: <AddFormTablePage key="payors" sectionKey="payors" />,
  certifications: <AddFormTablePage key="certifications" sectionKey="certifications" />,
  cme: <AddFormTablePage key="cme" sectionKey="cme" />,
  peerReferences: <AddFormTablePage key="peerReferences" sectionKey="peerReferences" />,
  // Issue 31: the 'Additional Information' sections.
  specialties: <RepeatableCardsPage key="specialties" sectionKey="specialties" />,
  practiceLocations: <RepeatableCardsPage key="practiceLocations" sectionKey="practiceLocations" />,
  hospitalAffiliations: <RepeatableCardsPage key="hospitalAffiliations" sectionKey="hospitalAffiliations" />,
  training: <RepeatableCardsPage key="training" sectionKey="training" />,
  malpracticeClaims: <RepeatableCardsPage key="malpracticeClaims" sectionKey="malpracticeClaims" />,
};

/** `{ path: '/professional-licenses/:applicationId', element }` for each section screen (all but documents). */
export const sectionRoutes: { path: string; element: ReactNode }[] = (
  Object.keys(sectionPages) as ScreenSectionKey[]
).map((key) => ({ path: `/${sectionSlugs[key]}/:applicationId`, element: sectionPages[key] }));
