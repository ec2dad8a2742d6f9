/**
 * 'Recusals' of a file on a meeting's agenda (issue 32 item 5): one checkbox per member of the
 * meeting; a member ticked is recused for the file (cannot open it, does not vote, does not count
 * toward the quorum). 'Save Recusals' sends every member recused; a refusal of the server is shown in
 * the dialog.
 */
import { Alert, Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import type { CommitteeMember } from './committee-api.ts';

/**
 * The 'Recusals' dialog (issue 32 item 5) for the file `fileName`, starting from `recused`.
 * `onSubmit` resolving closes it; throwing keeps it open with the error shown.
 */
export function RecusalsDialog({
  opened,
  fileName,
  members,
  recused,
  onSubmit,
  onClose,
}: {
  opened: boolean;
  fileName: string;
  members: readonly CommitteeMember[];
  recused: readonly string[];
  onSubmit: (memberIds: string[]) => Promise<void>;
  onClose: () => void;
}) {
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: start from the saved recusals on opening only
  useEffect(() => {
    if (opened) {
      setChosen([...recused]);
      setFailure(null);
    }
  }, [opened]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      await onSubmit(chosen);
      onClose();
    } catch (error) {
      setFailure(error instanceof Error ? error.message : 'The recusals were not saved. Try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={() => !busy && onClose()}
      title="Recusals"
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
    >
      <form onSubmit={submit} noValidate aria-label="Recusals">
        <Stack>
          <Text size="sm">
            {fileName}: a recused member cannot open the file, does not vote on it and does not count toward
            the quorum.
          </Text>
          <Checkbox.Group label="Recused members" value={chosen} onChange={setChosen}>
            <Stack gap={6} mt={6}>
              {members.map((member) => (
                <Checkbox key={member.userId} value={member.userId} label={member.name || member.email} />
              ))}
            </Stack>
          </Checkbox.Group>
          {failure && (
            <Alert color="red" variant="light" role="alert" title="Not saved">
              {failure}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Save Recusals
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
