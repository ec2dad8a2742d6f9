/**
 * The provider's cycle actions on the dashboard (issue 29 item 2), each confirmed in a dialog first:
 * 'Start Recredentialing' (or 'Start New Application' without a running credential) says a copy of
 * the application is opened to review and confirm; 'Withdraw' on a draft says the credential is not
 * affected. Texts: domain/credentials/provider-credential.ts `cycleTexts`.
 */
import { Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { cycleTexts } from '../../../domain/credentials/provider-credential.ts';
import { LazyModal } from '../../components/lazy-modal.tsx';
import { notifyError, notifySuccess } from '../../notify.ts';
import { useCreateApplication, useWithdrawApplication } from './applications-api.ts';
import { copiedSummary, notCopiedSummary } from './recredentialing.tsx';

/** A button that opens a confirmation dialog; `onConfirm` runs on the dialog's confirm button. */
function ConfirmedAction({
  label,
  title,
  text,
  confirmLabel,
  busy,
  color,
  variant,
  onConfirm,
}: {
  label: string;
  title: string;
  text: string;
  confirmLabel: string;
  busy: boolean;
  color?: string;
  variant?: 'filled' | 'default';
  onConfirm: () => Promise<unknown>;
}) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button color={color} variant={variant} onClick={() => setOpened(true)}>
        {label}
      </Button>
      <LazyModal
        opened={opened}
        onClose={() => setOpened(false)}
        title={title}
        closeButtonProps={{ 'aria-label': 'Close' }}
        centered
      >
        <Stack>
          <Text size="sm">{text}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpened(false)}>
              Cancel
            </Button>
            <Button
              color={color}
              loading={busy}
              onClick={async () => {
                await onConfirm();
                setOpened(false);
              }}
            >
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </LazyModal>
    </>
  );
}

/** 'Start Recredentialing' / 'Start New Application' with its confirmation; the copy's toasts after. */
export function StartCycleButton({ label }: { label: 'Start Recredentialing' | 'Start New Application' }) {
  const create = useCreateApplication();
  return (
    <ConfirmedAction
      label={label}
      title={`${label}?`}
      text={cycleTexts.startRecredentialingConfirm}
      confirmLabel={label}
      busy={create.isPending}
      onConfirm={async () => {
        try {
          const { copied } = await create.mutateAsync();
          notifySuccess('Application Created', 'New credentialing application started');
          if (copied) notifySuccess('Copied From Your Previous Application', copiedSummary(copied));
          const notCopied = copied && notCopiedSummary(copied);
          if (notCopied) notifyError('Documents Not Copied', notCopied);
        } catch (error) {
          notifyError('Error', error instanceof Error ? error.message : 'Failed to create new application');
        }
      }}
    />
  );
}

/** 'Withdraw' of a draft with its confirmation (the credential is untouched). */
export function WithdrawButton({ applicationId }: { applicationId: string }) {
  const withdraw = useWithdrawApplication();
  return (
    <ConfirmedAction
      label={cycleTexts.withdraw}
      title="Withdraw this application?"
      text={cycleTexts.withdrawConfirm}
      confirmLabel={cycleTexts.withdraw}
      color="red.9"
      variant="default"
      busy={withdraw.isPending}
      onConfirm={async () => {
        try {
          await withdraw.mutateAsync(applicationId);
          notifySuccess('Application Withdrawn', 'Your credential is not affected.');
        } catch (error) {
          notifyError('Error', error instanceof Error ? error.message : 'Failed to withdraw the application');
        }
      }}
    />
  );
}
