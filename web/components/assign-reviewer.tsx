/**
 * 'Assign' (issue 32 item 3), on the review page and on each Review Queue row: hand a Submitted or
 * Under Review file to someone who reviews files (Administrators and Credentialing Specialists, GET
 * /api/admin/assignees). The change is audited and shows in the file's timeline; the toast names the
 * new reviewer. Callers show it to roles that review (`review:application:any`).
 */
import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Assignees, AssignResult } from '../../domain/api/assignment.ts';
import type { ApplicationStatus } from '../../domain/application-status.ts';
import { api } from '../api.ts';
import { notifyError, notifySuccess } from '../notify.ts';

/** The 'Assign' button and its dialog for one file; nothing for a file past its review. */
export function AssignReviewer({
  applicationId,
  status,
  providerName,
}: {
  applicationId: string;
  status: ApplicationStatus;
  /** Names the button for screen readers where several are listed ('Assign the file of …'). */
  providerName?: string;
}) {
  const [opened, setOpened] = useState(false);
  const [chosen, setChosen] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const assignees = useQuery({
    queryKey: ['admin', 'assignees'],
    enabled: opened,
    queryFn: () => api<Assignees>('GET', '/api/admin/assignees'),
  });
  const assign = useMutation({
    mutationFn: (userId: string) =>
      api<AssignResult>('POST', `/api/admin/applications/${encodeURIComponent(applicationId)}/assign`, {
        userId,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
  if (status !== 'submitted' && status !== 'under_review') return null;

  const options = (assignees.data?.assignees ?? []).map((a) => ({
    value: a.userId,
    label: `${a.name} (${a.email})`,
  }));
  const close = () => {
    setOpened(false);
    setChosen(null);
  };
  const submit = () => {
    if (!chosen) return;
    const name = assignees.data?.assignees.find((a) => a.userId === chosen)?.name ?? 'them';
    assign.mutate(chosen, {
      onSuccess: (result) => {
        notifySuccess(
          'File assigned',
          result.changed ? `${name} now reviews this file.` : `${name} already reviews this file.`,
        );
        close();
      },
      onError: (error) => notifyError('Assign Failed', error.message),
    });
  };

  return (
    <>
      <Button
        variant="default"
        size="xs"
        onClick={() => setOpened(true)}
        aria-label={providerName ? `Assign the file of ${providerName}` : undefined}
      >
        Assign
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        title="Assign the file"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Stack>
          <Text size="sm">Choose who reviews this file. The change is recorded in its timeline.</Text>
          <Select
            label="Reviewer"
            placeholder={assignees.isPending ? 'Loading...' : 'Choose a person'}
            data={options}
            value={chosen}
            onChange={setChosen}
            searchable
            nothingFoundMessage="Nobody reviews files yet: give someone the Credentialing Specialist role on Staff."
            disabled={assignees.isPending}
            error={assignees.isError ? 'The list could not be loaded. Close and try again.' : undefined}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={assign.isPending}>
              Cancel
            </Button>
            <Button onClick={submit} disabled={!chosen} loading={assign.isPending}>
              Assign
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
