/**
 * The automatic-logoff warning (idle-session-guard.tsx), in its own chunk: Mantine's Modal loads
 * when a warning is first due, not with every signed-in page (decision 016). With unsaved changes in
 * a form on the screen it says they are lost at the sign-out (issue 28); 'Stay signed in' keeps them.
 */
import { Button, Group, Modal, Text } from '@mantine/core';
import { unsavedChangesTexts } from '../forms/unsaved-changes.tsx';

export default function IdleWarningDialog({
  secondsLeft,
  unsavedChanges,
  onStay,
}: {
  /** Seconds until the sign-out; null once the user is active again (the dialog closes). */
  secondsLeft: number | null;
  /** Whether a form on the screen has unsaved changes (web/forms/unsaved-changes.tsx). */
  unsavedChanges: boolean;
  onStay: () => void;
}) {
  const minutes = secondsLeft === null ? 0 : Math.floor(secondsLeft / 60);
  const seconds = secondsLeft === null ? 0 : secondsLeft % 60;
  return (
    <Modal
      opened={secondsLeft !== null}
      onClose={onStay}
      title="Are you still there?"
      // Closing it is staying signed in (onClose); the icon button needs a name (axe: button-name).
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
      closeOnClickOutside={false}
    >
      <Text role="timer" aria-live="polite">
        For your security you will be signed out in {minutes > 0 ? `${minutes} min ` : ''}
        {seconds} s because of inactivity.
      </Text>
      {unsavedChanges && (
        <Text mt="sm" fw={500}>
          {unsavedChangesTexts.atLogoff}
        </Text>
      )}
      <Group justify="flex-end" mt="md">
        <Button onClick={onStay}>Stay signed in</Button>
      </Group>
    </Modal>
  );
}
