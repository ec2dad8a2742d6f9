/**
 * A small confirmation dialog for deletes (cards and table rows) and for discarding unsaved edits
 * (web/forms/unsaved-changes.tsx). Focus is trapped while it is open.
 */
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export function ConfirmDialog({
  opened,
  title,
  children,
  confirmLabel = 'Delete',
  cancelLabel = 'Cancel',
  busy = false,
  onConfirm,
  onCancel,
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
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
          <Button color="red.9" onClick={onConfirm} loading={busy}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
