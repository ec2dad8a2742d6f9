/**
 * Section 8, Certifications (spec §3 certifications). Add form plus table, newest first.
 * `certificationName` and `certifyingBody` are required (spec §5). `certificationKind` (issue 51
 * item 4) is required too: only a board certification (an ABMS or AOA member board, NCQA CR 3) is a
 * 'Board certification' verification item and may be linked to a specialty; any other certification
 * (ACLS, BLS, PALS, ...) stays in the record without a checklist item.
 */
import { z } from 'zod';
import { certificationKinds } from './certification-kinds.ts';
import {
  defineListSection,
  joinSummary,
  optionalDate,
  optionalText,
  requiredText,
  TEXT_MAX,
} from './section.ts';
import { sectionCatalog } from './section-catalog.ts';

export {
  type CertificationKind,
  certificationKindLabel,
  certificationKinds,
  isBoardCertificationRow,
  LEGACY_CERTIFICATION_KIND,
} from './certification-kinds.ts';

const CERTIFICATION_KIND_REQUIRED = 'Choose a certification type from the list';

export const certificationSchema = z.object({
  certificationKind: z.enum(certificationKinds, { error: CERTIFICATION_KIND_REQUIRED }),
  certificationName: requiredText('Certification name'),
  certifyingBody: requiredText('Certifying body'),
  certificationNumber: optionalText(TEXT_MAX.code),
  issueDate: optionalDate(),
  expirationDate: optionalDate(),
});
export type CertificationInput = z.input<typeof certificationSchema>;
export type Certification = z.output<typeof certificationSchema>;

export const certificationsSection = defineListSection({
  key: 'certifications',
  ...sectionCatalog.certifications,
  kind: 'list',
  layout: 'add-form-table',
  orderBy: 'createdAt',
  schema: certificationSchema,
  fields: [
    { name: 'certificationKind', label: 'Certification Type' },
    { name: 'certificationName', label: 'Certification Name' },
    { name: 'certifyingBody', label: 'Certifying Body' },
    { name: 'certificationNumber', label: 'Certification Number' },
    { name: 'issueDate', label: 'Issue Date' },
    { name: 'expirationDate', label: 'Expiration Date' },
  ],
  summarize: (row) =>
    joinSummary(
      row.certificationName,
      row.certifyingBody,
      row.expirationDate && `expires ${row.expirationDate}`,
    ),
  messages: {
    loadError: 'Failed to load certifications',
    saveError: 'Failed to save certification',
    saveSuccess: 'Certification added successfully',
    deleteError: 'Failed to delete certification',
    deleteSuccess: 'Certification deleted successfully',
  },
});
