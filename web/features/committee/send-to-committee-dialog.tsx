/**
 * 'Send to Committee' (issue 32 item 4): the medical director sends a clean file on to the
 * credentialing committee with a required 'Note' saying what the committee should look at. The note
 * is checked with the API contract's schema before sending; a refusal of the server is shown in the
 * dialog (field issues under the field). Each opening starts with an empty note.
 */
import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { sendToCommitteeBodySchema } from '../../../domain/api/committee.ts';
import { REVIEW_TEXT_MAX } from '../../../domain/review/review-workflow.ts';
import { ApiError } from '../../api.ts';
import { issuesToFormErrors, zodValidate } from '../../forms/zod-form.ts';

/**
 * The dialog of 'Send to Committee' for the file of `providerName` (issue 32 item 4). `onSubmit`
 * resolving closes it; throwing keeps it open with the error shown.
 */
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
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm({ initialValues: { note: '' }, validate: zodValidate(sendToCommitteeBodySchema) });
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on opening only
  useEffect(() => {
    if (opened) {
      form.reset();
      setFailure(null);
    }
  }, [opened]);

  const submit = form.onSubmit(async ({ note }) => {
    setBusy(true);
    setFailure(null);
    try {
      await onSubmit(note.trim());
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.issues.length > 0)
        form.setErrors(issuesToFormErrors(error.issues));
      else setFailure(error instanceof Error ? error.message : 'The file was not sent. Try again.');
    } finally {
      setBusy(false);
    }
  });

  return (
    <Modal
      opened={opened}
      onClose={() => !busy && onClose()}
      title="Send to Committee"
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
    >
      <form onSubmit={submit} noValidate aria-label="Send to Committee">
        <Stack>
          <Text size="sm">
            {providerName} moves to the 'Ready for Committee' list. The committee reads your note with the
            file.
          </Text>
          <Textarea
            label="Note"
            description="What the committee should look at."
            required
            autosize
            minRows={3}
            maxLength={REVIEW_TEXT_MAX}
            {...form.getInputProps('note')}
          />
          {failure && (
            <Alert color="red" variant="light" role="alert" title="Not sent">
              {failure}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Send to Committee
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
