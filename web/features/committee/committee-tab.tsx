/**
 * The 'Committee' tab of /admin (issue 32 item 5): the credentialing committee's meetings, newest
 * first, each with its date and time (in the user's locale), how many members, files and decided
 * files it has, and a 'Closed' badge once closed; the date opens the meeting's page. A Committee
 * Member sees only their meetings. Those who manage meetings (`manage:meeting:any`) get 'New
 * Meeting'. Data: committee-api.ts.
 */
import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { fromAdminState } from '../../app/admin-tabs.ts';
import { meetingPath } from '../../app/paths.ts';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { ResponsiveTable, type TableColumn } from '../../components/responsive-table.tsx';
import { notifySuccess } from '../../notify.ts';
import { type MeetingSummary, useMeetings } from './committee-api.ts';
import { formatMeetingTime } from './committee-format.ts';
import { MeetingStatusBadge } from './meeting-status-badge.tsx';
import { NewMeetingDialog } from './new-meeting-dialog.tsx';

/**
 * The 'Committee' tab (issue 32 item 5); queries only while shown. `canAct`: the caller manages
 * meetings (`manage:meeting:any`) and may create one.
 */
export function CommitteeTab({ enabled, canAct }: { enabled: boolean; canAct: boolean }) {
  const location = useLocation();
  const navigate = useNavigate();
  const meetings = useMeetings(enabled);
  const [creating, setCreating] = useState(false);

  const columns: TableColumn<MeetingSummary>[] = [
    {
      header: 'Date and time',
      noWrap: true,
      render: (meeting) => (
        <Anchor
          component={Link}
          to={meetingPath(meeting.meetingId)}
          state={fromAdminState(location)}
          size="sm"
        >
          {formatMeetingTime(meeting.scheduledAt)}
        </Anchor>
      ),
    },
    { header: 'Members', render: (meeting) => meeting.memberCount },
    { header: 'Files', render: (meeting) => meeting.files },
    { header: 'Decided', render: (meeting) => meeting.decided },
    { header: 'Status', render: (meeting) => <MeetingStatusBadge closedAt={meeting.closedAt} /> },
  ];
  // Newest first, as the server sends them.
  const rows = meetings.data?.meetings ?? [];

  return (
    <Stack gap="sm" component="section" aria-labelledby="committee-meetings-title">
      <Group justify="space-between" align="flex-end">
        <Title order={2} size="h4" id="committee-meetings-title">
          Committee Meetings
        </Title>
        {canAct && <Button onClick={() => setCreating(true)}>New Meeting</Button>}
      </Group>
      {meetings.isPending ? (
        <InlineLoader label="Loading meetings..." />
      ) : meetings.isError ? (
        <Text c="red.9">The meetings could not be loaded. Reload the page to try again.</Text>
      ) : rows.length === 0 ? (
        <Text c="dimmed">No meetings yet.</Text>
      ) : (
        <ResponsiveTable
          label="Committee meetings, newest first"
          columns={columns}
          rows={rows}
          rowKey={(meeting) => meeting.meetingId}
        />
      )}
      {canAct && creating && (
        <NewMeetingDialog
          opened
          onClose={() => setCreating(false)}
          onCreated={(meeting) => {
            notifySuccess('Meeting created', `Scheduled for ${formatMeetingTime(meeting.scheduledAt)}.`);
            // Its agenda is built next, on its page.
            navigate(meetingPath(meeting.meetingId), { state: fromAdminState(location) });
          }}
        />
      )}
    </Stack>
  );
}
