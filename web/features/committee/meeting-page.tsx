/**
 * `/admin/meetings/:meetingId` (issue 32 item 5): a credentialing committee meeting. The header says
 * when it is, its members, its quorum and whether it is open or closed; then the agenda
 * (agenda-table.tsx) and, for those who manage the meeting while it is open, 'Add File' and 'Close
 * Meeting' (confirmed: the minutes are frozen). Once closed, 'Download Minutes (PDF)'. 'Back to Admin
 * Dashboard' returns to the dashboard as the link from it left it. An unknown id, or a meeting a
 * Committee Member does not sit on, shows why instead.
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Container,
  Group,
  List,
  Modal,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { ApiError } from '../../api.ts';
import { adminReturn } from '../../app/admin-tabs.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { notifyError, notifySuccess } from '../../notify.ts';
import { badgeColor } from '../../theme.ts';
import { AddFileForm } from './add-file-form.tsx';
import { AgendaTable } from './agenda-table.tsx';
import {
  type Meeting,
  minutesUrl,
  useCloseMeeting,
  useJoinMeeting,
  useMeeting,
  useSetAttendance,
} from './committee-api.ts';
import { formatMeetingTime } from './committee-format.ts';
import { MeetingStatusBadge } from './meeting-status-badge.tsx';

function Facts({ meeting }: { meeting: Meeting }) {
  const facts: [string, ReactNode][] = [
    ['Date and time', formatMeetingTime(meeting.scheduledAt)],
    ['Quorum', `${meeting.quorum} of ${meeting.members.length} members`],
    ['Status', meeting.closedAt ? `Closed ${formatMeetingTime(meeting.closedAt)}` : 'Open'],
  ];
  return (
    <Stack gap="sm">
      <Group gap="xl" component="dl" m={0} align="flex-start">
        {facts.map(([label, value]) => (
          <div key={label}>
            <Text component="dt" size="xs" c="dimmed">
              {label}
            </Text>
            <Text component="dd" m={0}>
              {value}
            </Text>
          </div>
        ))}
      </Group>
      <div>
        <Text size="xs" c="dimmed" id="meeting-members">
          Members
        </Text>
        <List size="sm" aria-labelledby="meeting-members">
          {meeting.members.map((member) => (
            <List.Item key={member.userId}>
              {member.name || member.email}{' '}
              <Badge
                size="sm"
                variant="filled"
                autoContrast
                color={member.presentAt ? badgeColor.green : badgeColor.gray}
                component="span"
              >
                {member.presentAt ? 'Present' : 'Not present'}
              </Badge>
            </List.Item>
          ))}
        </List>
      </div>
    </Stack>
  );
}

/**
 * Attendance (issue 50 items 3, 6): before the start, when it starts; then 'Join Meeting' for a member
 * not marked present, and 'Mark Present' for the recorder (a dialog with nobody pre-ticked but those
 * already present).
 */
function Attendance({ meeting, manages }: { meeting: Meeting; manages: boolean }) {
  const join = useJoinMeeting(meeting.meetingId);
  const mark = useSetAttendance(meeting.meetingId);
  const [marking, setMarking] = useState(false);
  const [ticked, setTicked] = useState<string[]>([]);
  if (meeting.closedAt) return null;
  if (!meeting.started) {
    return (
      <Alert color="blue" variant="light" title="Not started yet">
        The meeting starts {formatMeetingTime(meeting.scheduledAt)}: attendance, votes and decisions are taken
        from then on.
      </Alert>
    );
  }
  const me = meeting.members.find((m) => m.userId === meeting.callerId);
  return (
    <Group>
      {meeting.callerIsMember && me && !me.presentAt && (
        <Button
          loading={join.isPending}
          onClick={() =>
            join.mutate(undefined, {
              onSuccess: () => notifySuccess('Joined', 'You are marked present: you can vote on the files.'),
              onError: (error) =>
                notifyError(
                  'Join Failed',
                  error instanceof Error ? error.message : 'You were not marked present.',
                ),
            })
          }
        >
          Join Meeting
        </Button>
      )}
      {manages && (
        <Button
          variant="default"
          onClick={() => {
            setTicked(meeting.members.filter((m) => m.presentAt).map((m) => m.userId));
            setMarking(true);
          }}
        >
          Mark Present
        </Button>
      )}
      <Modal
        opened={marking}
        onClose={() => !mark.isPending && setMarking(false)}
        title="Mark Present"
        closeButtonProps={{ 'aria-label': 'Close' }}
        centered
      >
        <Stack>
          <Checkbox.Group
            label="Members present"
            description="Tick the members who are here. A member can also join from their own screen."
            value={ticked}
            onChange={setTicked}
          >
            <Stack gap={6} mt={6}>
              {meeting.members.map((m) => (
                <Checkbox key={m.userId} value={m.userId} label={m.name || m.email} />
              ))}
            </Stack>
          </Checkbox.Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setMarking(false)} disabled={mark.isPending}>
              Cancel
            </Button>
            <Button
              loading={mark.isPending}
              onClick={() =>
                mark.mutate(ticked, {
                  onSuccess: () => {
                    setMarking(false);
                    notifySuccess('Attendance saved', `${ticked.length} present.`);
                  },
                  onError: (error) =>
                    notifyError(
                      'Attendance Not Saved',
                      error instanceof Error ? error.message : 'Try again.',
                    ),
                })
              }
            >
              Save
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Group>
  );
}

/** 'Close Meeting' and its confirmation. */
function CloseMeetingButton({ meetingId }: { meetingId: string }) {
  const close = useCloseMeeting(meetingId);
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Button color="red.9" variant="outline" onClick={() => setConfirming(true)}>
        Close Meeting
      </Button>
      <ConfirmDialog
        opened={confirming}
        title="Close Meeting"
        confirmLabel="Close Meeting"
        busy={close.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={async () => {
          // Awaited, not mutate's callbacks: closing unmounts this button before they would run.
          try {
            await close.mutateAsync(undefined);
            notifySuccess('Meeting closed', 'Its minutes are frozen and ready to download.');
          } catch (error) {
            notifyError(
              'Close Meeting Failed',
              error instanceof Error ? error.message : 'The meeting is still open.',
            );
          } finally {
            setConfirming(false);
          }
        }}
      >
        Close this meeting? Its minutes are frozen and can no longer change.
      </ConfirmDialog>
    </>
  );
}

function LoadFailure({ error, onRetry }: { error: Error; onRetry: () => void }) {
  if (error instanceof ApiError && error.status === 404) {
    return (
      <Alert color="red" variant="light" role="alert" title="Meeting not found">
        No meeting has this id. Open meetings from the Committee tab on the Admin Dashboard.
      </Alert>
    );
  }
  if (error instanceof ApiError && error.status === 403) {
    return (
      <Alert color="red" variant="light" role="alert" title="Not your meeting">
        {error.message}
      </Alert>
    );
  }
  return (
    <Alert color="red" variant="light" role="alert" title="The meeting could not be loaded">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{error.message}</Text>
        <Button size="xs" variant="default" onClick={onRetry}>
          Try again
        </Button>
      </Stack>
    </Alert>
  );
}

/** The meeting page (issue 32 item 5); see the module comment. */
export default function MeetingPage() {
  const { meetingId = '' } = useParams();
  const query = useMeeting(meetingId);
  // Back to the dashboard as the link from it left it (issue 28).
  const back = adminReturn(useLocation().state);
  const meeting = query.data;
  const manages = meeting ? meeting.canManage && meeting.closedAt === null : false;

  return (
    <Container size="xl" py="md">
      <Stack gap="lg">
        <Anchor component={Link} to={back.to} state={back.state} size="sm">
          ← Back to Admin Dashboard
        </Anchor>
        {query.isPending && <InlineLoader label="Loading the meeting..." />}
        {query.isError && <LoadFailure error={query.error} onRetry={() => query.refetch()} />}
        {meeting && (
          <>
            <Stack gap="xs">
              <Group gap="sm">
                <Title order={1} size="h3">
                  Committee Meeting
                </Title>
                <MeetingStatusBadge closedAt={meeting.closedAt} />
              </Group>
              <Facts meeting={meeting} />
              <Attendance meeting={meeting} manages={manages} />
            </Stack>
            <Stack gap="sm" component="section" aria-labelledby="agenda-title">
              <Title order={2} size="h4" id="agenda-title">
                Agenda
              </Title>
              <AgendaTable meeting={meeting} canManage={manages} />
              {manages && <AddFileForm meetingId={meeting.meetingId} />}
            </Stack>
            <Group>
              {manages && <CloseMeetingButton meetingId={meeting.meetingId} />}
              {meeting.closedAt && (
                <Button
                  component="a"
                  href={minutesUrl(meeting.meetingId)}
                  download
                  variant="default"
                  leftSection={<IconDownload size={16} aria-hidden="true" />}
                >
                  Download Minutes (PDF)
                </Button>
              )}
            </Group>
          </>
        )}
      </Stack>
    </Container>
  );
}
