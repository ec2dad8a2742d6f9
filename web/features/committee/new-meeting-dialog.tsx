/**
 * 'New Meeting' (issue 32 item 5), for those who manage meetings: 'Date and time' (the browser's own
 * date and time field, keyboard and screen-reader ready, in the user's zone, sent as UTC), 'Members' (one checkbox per person who may sit on
 * the committee: Committee Members and Medical Directors; at least one) and 'Quorum' (optional; left
 * empty it is a majority of the members chosen, `defaultQuorum`, shown as the field's placeholder).
 * Checked with the API contract's schema before sending; a refusal of the server is shown in the
 * dialog. Each opening starts empty.
 */
import { Alert, Button, Checkbox, Group, Modal, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { type NewMeetingBody, newMeetingBodySchema } from '../../../domain/api/committee.ts';
import { defaultQuorum, MEETING_MEMBERS_MAX } from '../../../domain/committee/committee-decisions.ts';
import { ApiError } from '../../api.ts';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { issuesToFormErrors, zodValidate } from '../../forms/zod-form.ts';
import { type Meeting, useCommitteeMembers, useCreateMeeting } from './committee-api.ts';

interface NewMeetingValues {
  /** The field's value: local 'YYYY-MM-DDTHH:mm', or '' while empty. */
  scheduledAt: string;
  memberIds: string[];
  quorum: number | string;
}

const emptyValues: NewMeetingValues = { scheduledAt: '', memberIds: [], quorum: '' };

/** The form's values as the API's body (the time in UTC; an empty quorum left out). */
function toBody(values: NewMeetingValues): NewMeetingBody {
  return {
    // A local date and time; an unfinished one is left for the schema to refuse.
    scheduledAt: Number.isNaN(Date.parse(values.scheduledAt))
      ? ''
      : new Date(values.scheduledAt).toISOString(),
    memberIds: values.memberIds,
    quorum: typeof values.quorum === 'number' ? values.quorum : undefined,
  };
}

/**
 * The 'New Meeting' dialog (issue 32 item 5). `onCreated` runs with the new meeting once the server
 * has it; the dialog then closes.
 */
export function NewMeetingDialog({
  opened,
  onCreated,
  onClose,
}: {
  opened: boolean;
  onCreated: (meeting: Meeting) => void;
  onClose: () => void;
}) {
  const members = useCommitteeMembers(opened);
  const create = useCreateMeeting();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<NewMeetingValues>({
    initialValues: emptyValues,
    validate: zodValidate(newMeetingBodySchema, toBody),
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on opening only
  useEffect(() => {
    if (opened) {
      form.reset();
      setFailure(null);
    }
  }, [opened]);

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      onCreated(await create.mutateAsync(toBody(values)));
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.issues.length > 0)
        form.setErrors(issuesToFormErrors(error.issues));
      else setFailure(error instanceof Error ? error.message : 'The meeting was not created. Try again.');
    }
  });
  const chosen = form.values.memberIds.length;

  return (
    <Modal
      opened={opened}
      onClose={() => !create.isPending && onClose()}
      title="New Meeting"
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
      size="lg"
    >
      <form onSubmit={submit} noValidate aria-label="New Meeting">
        <Stack>
          <TextInput
            type="datetime-local"
            label="Date and time"
            description="In your time zone."
            required
            {...form.getInputProps('scheduledAt')}
          />
          {members.isPending ? (
            <InlineLoader label="Loading the committee's members..." size="sm" />
          ) : members.isError ? (
            <Text c="red.9" size="sm">
              The people who may sit on the committee could not be loaded. Close this dialog and try again.
            </Text>
          ) : members.data.length === 0 ? (
            <Text size="sm">
              Nobody may sit on the committee yet: give people the Committee Member or Medical Director role
              on the Staff tab first.
            </Text>
          ) : (
            <Checkbox.Group
              label="Members"
              description={`Committee Members and Medical Directors; at most ${MEETING_MEMBERS_MAX}.`}
              required
              {...form.getInputProps('memberIds')}
            >
              <Stack gap={6} mt={6}>
                {members.data.map((member) => (
                  <Checkbox
                    key={member.userId}
                    value={member.userId}
                    label={member.name || member.email}
                    description={member.name ? member.email : undefined}
                  />
                ))}
              </Stack>
            </Checkbox.Group>
          )}
          <NumberInput
            label="Quorum"
            description="Members needed present and not recused to decide a file. Empty: a majority of the members."
            placeholder={chosen > 0 ? `${defaultQuorum(chosen)} (a majority of ${chosen})` : 'A majority'}
            min={1}
            max={Math.max(chosen, 1)}
            allowDecimal={false}
            allowNegative={false}
            {...form.getInputProps('quorum')}
          />
          {failure && (
            <Alert color="red" variant="light" role="alert" title="Not created">
              {failure}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create Meeting
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
