/**
 * 'Send to Committee' (issue 32 item 4): the medical director sends a clean file on to the
 * credentialing committee with a required 'Note' of what the committee should look at, checked with
 * the API contract's rule before sending. Used on the review page and on the 'Decisions' tab's
 * 'Clean Files' rows. `onSubmit` resolving closes it; throwing keeps it open (field issues under the
 * field; the caller reports anything else).
 */
import { Text } from '@mantine/core';
import { z } from 'zod';
import { sendToCommitteeBodySchema } from '../../domain/api/committee.ts';
import { REVIEW_TEXT_MAX } from '../../domain/review/review-workflow.ts';
import { ReasonDialog } from './reason-dialog.tsx';

/** The dialog's one field ('Note'), with the contract's rule. */
const noteSchema = z.object({ reason: sendToCommitteeBodySchema.shape.note });

export function SendToCommitteeDialog({
  opened,
  providerName,
  onSubmit,
  onClose,
}: {
  opened: boolean;
  providerName: string;
  onSubmit: (note: string) => Promise<void>;
  onClose: () => void;
}) {
  return (
    <ReasonDialog
      opened={opened}
      title="Send to Committee"
      submitLabel="Send to Committee"
      fieldLabel="Note"
      description="What the committee should look at."
      maxLength={REVIEW_TEXT_MAX}
      schema={noteSchema}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <Text size="sm">
        {providerName} moves to the 'Ready for Committee' list. The committee reads your note with the file.
      </Text>
    </ReasonDialog>
  );
}
