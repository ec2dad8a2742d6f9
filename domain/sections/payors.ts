/**
 * Section 7, Payors (spec §3 payors). Add form plus table, newest first. `payorName` is required
 * (spec §5); a new payor's credentialing status is 'pending' (spec §9). Load failures are only logged.
 */
import { z } from 'zod';
import {
  defineListSection,
  enumWithDefault,
  joinSummary,
  optionalDate,
  optionalText,
  requiredText,
  TEXT_MAX,
} from './section.ts';
import { sectionCatalog } from './section-catalog.ts';

export const credentialingStatuses = ['pending', 'approved', 'denied', 'expired'] as const;
export type CredentialingStatus = (typeof credentialingStatuses)[number];
export const credentialingStatusLabel: Record<CredentialingStatus, string> = {
  pending: 'Pending',
  approved: 'Approved',
  denied: 'Denied',
  expired: 'Expired',
};
/** Badge colours (spec §2): green approved, red denied, yellow expired, grey otherwise. Mantine colour names. */
export const credentialingStatusColor: Record<CredentialingStatus, 'green' | 'red' | 'yellow' | 'gray'> = {
  pending: 'gray',
  approved: 'green',
  denied: 'red',
  expired: 'yellow',
};
/** Credentialing status of a new payor (spec §9). */
export const DEFAULT_CREDENTIALING_STATUS: CredentialingStatus = 'pending';

export const payorSchema = z.object({
  payorName: requiredText('Payor name'),
  /** Free text, e.g. 'Commercial', 'Medicare Advantage'. */
  contractType: optionalText(TEXT_MAX.name),
  contractStartDate: optionalDate(),
  contractEndDate: optionalDate(),
  credentialingStatus: enumWithDefault(
    credentialingStatuses,
    DEFAULT_CREDENTIALING_STATUS,
    'Choose a credentialing status from the list',
  ),
  notes: optionalText(TEXT_MAX.long),
});
export type PayorInput = z.input<typeof payorSchema>;
export type Payor = z.output<typeof payorSchema>;

export const payorsSection = defineListSection({
  key: 'payors',
  ...sectionCatalog.payors,
  kind: 'list',
  layout: 'add-form-table',
  orderBy: 'createdAt',
  schema: payorSchema,
  fields: [
    { name: 'payorName', label: 'Payor Name' },
    { name: 'contractType', label: 'Contract Type' },
    { name: 'contractStartDate', label: 'Contract Start Date' },
    { name: 'contractEndDate', label: 'Contract End Date' },
    { name: 'credentialingStatus', label: 'Credentialing Status' },
    { name: 'notes', label: 'Notes' },
  ],
  summarize: (row) =>
    joinSummary(row.payorName, row.contractType, credentialingStatusLabel[row.credentialingStatus]),
  messages: {
    saveError: 'Failed to save payor information.',
    saveSuccess: 'Payor information saved successfully.',
    deleteError: 'Failed to delete payor.',
    deleteSuccess: 'Payor deleted successfully.',
  },
});
