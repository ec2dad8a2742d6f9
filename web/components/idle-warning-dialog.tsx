/**
 * The automatic-logoff warning (idle-session-guard.tsx), in its own chunk: Mantine's Modal loads
 * when a warning is first due, not with every signed-in page (decision 016).
 */
import { Button, Group, Modal, Text } from '@mantine/core';

export default function IdleWarningDialog({
  secondsLeft,
  onStay,
}: {
  /** Seconds until the sign-out; null once the user is active again (the dialog closes). */
  secondsLeft: number | null;
  onStay: () => void;
}) {
  const minutes = secondsLeft === null ? 0 : Math.floor(secondsLeft / 60);
  const seconds = secondsLeft === null ? 0 : secondsLeft % 60;
  return (
    <Modal
      opened={secondsLeft !== null}
      onClose={onStay}
      title="Are you still there?"
      centered
      closeOnClickOutside={false}
    >
      <Text role="timer" aria-live="polite">
        For your security you will be signed out in {minutes > 0 ? `${minutes} min ` : ''}
        {seconds} s because of inactivity.
      </Text>
      <Group justify="flex-end" mt="md">
        <Button onClick={onStay}>Stay signed in</Button>
      </Group>
    </Modal>
  );
}
