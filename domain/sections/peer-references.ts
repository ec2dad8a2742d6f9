/**
 * Section 10, Peer References (spec §3 peer_references). Add form plus table, newest first.
 * `referenceName` is required; the email must look like an email when given; years known is parsed
 * as an integer, 0 when blank (spec §5). Load failures are only logged.
 */
import { z } from 'zod';
import {
  defineListSection,
  joinSummary,
  numberInput,
  optionalEmail,
  optionalText,
  personNameText,
  TEXT_MAX,
} from './section.ts';
import { sectionCatalog } from './section-catalog.ts';

export const YEARS_KNOWN_MAX = 100;

export const peerReferenceSchema = z.object({
  referenceName: personNameText('Reference name'),
  title: optionalText(TEXT_MAX.name),
  organization: optionalText(TEXT_MAX.name),
  email: optionalEmail(),
  phone: optionalText(40),
  relationship: optionalText(TEXT_MAX.name),
  /**
   * Spec §5 "parsed as an integer, 0 when blank": the whole part of the number, like parseInt
   * ('2.5' and 2.5 -> 2, '' -> 0). A negative value is not truncated: the checks below refuse it.
   */
  yearsKnown: numberInput(0, 'Enter years known as a whole number')
    .transform((years) => (years > 0 ? Math.trunc(years) : years))
    .pipe(
      z
        .number()
        .int('Enter years known as a whole number')
        .min(0, 'Years known cannot be negative')
        .max(YEARS_KNOWN_MAX, `Years known must be at most ${YEARS_KNOWN_MAX}`),
    ),
});
export type PeerReferenceInput = z.input<typeof peerReferenceSchema>;
export type PeerReference = z.output<typeof peerReferenceSchema>;

export const peerReferencesSection = defineListSection({
  key: 'peerReferences',
  ...sectionCatalog.peerReferences,
  kind: 'list',
  layout: 'add-form-table',
  orderBy: 'createdAt',
  schema: peerReferenceSchema,
  fields: [
    { name: 'referenceName', label: 'Reference Name' },
    { name: 'title', label: 'Title' },
    { name: 'organization', label: 'Organization' },
    { name: 'email', label: 'Email' },
    { name: 'phone', label: 'Phone' },
    { name: 'relationship', label: 'Relationship' },
    { name: 'yearsKnown', label: 'Years Known' },
  ],
  summarize: (row) =>
    joinSummary(
      row.referenceName,
      row.title,
      row.organization,
      `${row.yearsKnown} ${row.yearsKnown === 1 ? 'year' : 'years'} known`,
    ),
  messages: {
    saveError: 'Failed to save peer reference.',
    saveSuccess: 'Peer reference saved successfully.',
    deleteError: 'Failed to delete peer reference.',
    deleteSuccess: 'Peer reference deleted successfully.',
  },
});
