/**
 * The medical director's 'Approve' of a clean file (issue 32 item 4), signed (issue 50 item 7): what
 * approving does, 'I reviewed this file' and the director's authenticator code, then 'Approve'. A
 * refusal of the server stays in the dialog (a wrong code, their own file, a file they verified).
 * Shared by the 'Decisions' tab and the review page.
 */
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { type ReviewSignature, reviewSignatureSchema } from '../../domain/api/committee.ts';
import { ApiError } from '../api.ts';
import { issuesToFormErrors, zodValidate } from '../forms/zod-form.ts';
import { badgeColor } from '../theme.ts';
import { ReviewSignatureFields, type SignatureValues } from './review-signature-fields.tsx';

/** The dialog; `onApprove` resolving closes it, throwing keeps it open with the message. */
export function ApproveSignedDialog({
  opened,
  providerName,
  onApprove,
  onClose,
}: {
  opened: boolean;
  providerName: string;
  onApprove: (signature: ReviewSignature) => Promise<void>;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const toBody = (v: SignatureValues) => ({ reviewed: v.reviewed, code: v.code.trim() });
  const form = useForm<SignatureValues>({
    initialValues: { reviewed: false, code: '' },
    validate: zodValidate(reviewSignatureSchema, toBody),
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: start afresh each time it opens
  useEffect(() => {
    if (opened) {
      form.reset();
      setProblem(null);
    }
  }, [opened]);
  const submit = form.onSubmit(async (values) => {
    setProblem(null);
    setBusy(true);
    try {
      await onApprove(reviewSignatureSchema.parse(toBody(values)));
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.issues.length > 0)
        form.setErrors(issuesToFormErrors(error.issues));
      setProblem(error instanceof Error ? error.message : 'The file was not approved. Try again.');
    } finally {
      setBusy(false);
    }
  });
  return (
    <Modal
      opened={opened}
      onClose={() => !busy && onClose()}
      title="Approve Clean File"
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
    >
      <form onSubmit={submit} noValidate aria-label="Approve Clean File">
        <Stack>
          <Text size="sm">
            Approve {providerName ? `${providerName}'s` : 'this'} clean file? The provider is credentialed and
            notified, and the file names you as the medical director who decided it.
          </Text>
          <ReviewSignatureFields form={form} />
          {problem && (
            <Alert color="red" variant="light" role="alert" title="Not approved">
              {problem}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" color={badgeColor.green} loading={busy}>
              Approve
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
