/**
 * A small confirmation dialog for deletes (cards and table rows), for discarding unsaved edits
 * (web/forms/unsaved-changes.tsx) and for final decisions (issue 32: 'Approve' of a clean file, 'Close
 * Meeting'). Focus is trapped while it is open. The confirm button is red unless `confirmColor` says
 * otherwise (an approval's green).
 */
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export function ConfirmDialog({
  opened,
  title,
  children,
  confirmLabel = 'Delete',
  cancelLabel = 'Cancel',
  confirmColor = 'red.9',
  busy = false,
  onConfirm,
  onCancel,
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** The confirm button's Mantine colour (default red.9: a destructive action). */
  confirmColor?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={() => !busy && onCancel()}
      title={title}
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
    >
      <Stack>
        <Text>{children}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            {cancelLabel}
          </Button>
          <Button color={confirmColor} onClick={onConfirm} loading={busy}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
