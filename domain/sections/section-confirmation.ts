/**
 * A copy must be confirmed, not resubmitted (issue 29 item 6): in an application pre-filled from an
 * earlier one (`copied_from_id`, 'Start Recredentialing' / 'Start New Application'), a copied section
 * counts towards progress only once the provider confirmed it in this cycle: 'Review and Confirm' on
 * its screen, or a save of it. The texts the provider reads, shared by the server (the completion's
 * refusal) and the web (section screen, dashboard cards). Pure: no zod, no Node (decision 021).
 */
import { type CatalogSectionKey, sectionCatalog } from './section-catalog.ts';

/** The section screen's button and the dashboard card's badge of a copied, unconfirmed section. */
export const REVIEW_AND_CONFIRM = 'Review and Confirm';

/** The line above a copied, unconfirmed section on its screen. */
export const copiedSectionNotice =
  'This section was copied from your previous application and must be checked. Update what has changed, then click Review and Confirm (saving the section confirms it too).';

/** The toast after 'Review and Confirm'. */
export const sectionConfirmedTitle = 'Section Confirmed';
export const sectionConfirmedMessage = (title: string) => `${title} now counts towards your progress.`;

/**
 * The completion's refusal while copied sections are unconfirmed, naming them in catalog order:
 * 'Review and confirm each copied section first: Education, Work History.'
 */
export function unconfirmedSectionsMessage(keys: readonly string[]): string {
  const titles = (Object.keys(sectionCatalog) as CatalogSectionKey[])
    .filter((key) => keys.includes(key))
    .map((key) => sectionCatalog[key].title);
  return `Review and confirm each copied section first: ${titles.join(', ')}.`;
}

/** The confirm route's refusals (POST /api/applications/:applicationId/sections/:slug/confirm). */
export const confirmRefusals = {
  notDraft: 'Only a draft application has sections to confirm.',
  notCopied: 'Only a section copied from your previous application needs confirming.',
  empty: 'This section has nothing to confirm yet. Fill it in and save it.',
  unknownSection: 'Unknown section. Return to the dashboard and choose a section.',
} as const;
