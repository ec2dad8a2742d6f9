/**
 * 'Submit Update' (issue 29 item 4) with its confirmation: the provider's saved changes to the dated
 * sections of the approved application are sent to the credentialing team as a credential update.
 * Shared by the dashboard and the section screens; the server's refusal (409: nothing changed, or
 * updates not open) is shown under the button, in its own words.
 */
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { credentialUpdateTexts } from '../../domain/credentials/credential-updates.ts';
import { useSubmitUpdate } from '../app/credential-update.ts';
import { LazyModal } from './lazy-modal.tsx';

export function SubmitUpdateButton({
  applicationId,
  onSent,
}: {
  applicationId: string;
  /** Called once the update is stored (e.g. back to the dashboard). */
  onSent?: () => void;
}) {
  const [opened, setOpened] = useState(false);
  const submit = useSubmitUpdate(applicationId);
  const send = () =>
    submit.mutate(undefined, {
      onSuccess: () => {
        setOpened(false);
        onSent?.();
      },
      onError: () => setOpened(false),
    });
  return (
    <Stack gap="xs" align="flex-start">
      <Button
        onClick={() => {
          submit.reset();
          setOpened(true);
        }}
      >
        {credentialUpdateTexts.submitUpdate}
      </Button>
      {submit.isError && (
        <Alert color="red" variant="outline" role="alert" w="100%">
          <Text size="sm" c="red.9">
            {submit.error.message}
          </Text>
        </Alert>
      )}
      <LazyModal
        opened={opened}
        onClose={() => !submit.isPending && setOpened(false)}
        title={credentialUpdateTexts.submitUpdate}
        closeButtonProps={{ 'aria-label': 'Close' }}
        centered
      >
        <Stack>
          <Text>{credentialUpdateTexts.submitConfirm}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpened(false)} disabled={submit.isPending}>
              Cancel
            </Button>
            <Button onClick={send} loading={submit.isPending}>
              {credentialUpdateTexts.submitUpdate}
            </Button>
          </Group>
        </Stack>
      </LazyModal>
    </Stack>
  );
}
