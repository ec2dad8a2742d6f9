/**
 * 'Add File' to an open meeting's agenda (issue 32 item 5), for those who manage meetings: a choice
 * of the 'Ready for Committee' files that are on no agenda yet, oldest sent first, and the button.
 */
import { Button, Group, Select, Text } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { formatDate } from '../../format.ts';
import { notifyError, notifySuccess } from '../../notify.ts';
import { useAddAgendaItem, useDecisionList } from './committee-api.ts';

/** The form adding a file to the agenda of meeting `meetingId` (issue 32 item 5). */
export function AddFileForm({ meetingId }: { meetingId: string }) {
  const ready = useDecisionList('committee', true);
  const add = useAddAgendaItem(meetingId);
  const [chosen, setChosen] = useState<string | null>(null);

  if (ready.isPending) return <InlineLoader label="Loading the files ready for the committee..." size="sm" />;
  if (ready.isError) {
    return (
      <Text c="red.9">
        The files ready for the committee could not be loaded. Reload the page to try again.
      </Text>
    );
  }
  const files = ready.data.files.filter((file) => file.meeting === null);
  if (files.length === 0) {
    return (
      <Text c="dimmed">
        {ready.data.files.length === 0
          ? 'No files are ready for the committee.'
          : 'Every file ready for the committee is on an agenda.'}
      </Text>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const file = files.find((f) => f.applicationId === chosen);
    if (!file) return;
    add.mutate(file.applicationId, {
      onSuccess: () => {
        setChosen(null);
        notifySuccess('File added to the agenda', `${file.providerName || 'The file'} is on the agenda.`);
      },
      onError: (error) =>
        notifyError('Add File Failed', error instanceof Error ? error.message : 'The file was not added.'),
    });
  };

  return (
    <form onSubmit={submit} aria-label="Add File">
      <Group align="flex-end">
        <Select
          label="File ready for the committee"
          placeholder="Choose a file"
          searchable
          w={{ base: '100%', sm: 420 }}
          data={files.map((file) => ({
            value: file.applicationId,
            label: `${file.providerName || 'Provider without a profile'} (sent ${formatDate(file.sentAt)})`,
          }))}
          value={chosen}
          onChange={setChosen}
        />
        <Button type="submit" disabled={!chosen} loading={add.isPending}>
          Add File
        </Button>
      </Group>
    </form>
  );
}
