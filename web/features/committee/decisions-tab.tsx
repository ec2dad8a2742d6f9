/**
 * The 'Decisions' tab of /admin (issue 32 items 4 and 7): the files sent for decision, in two lists,
 * 'Clean Files' (the medical director's) and 'Ready for Committee' (the committee's), oldest sent
 * first. Each row: the provider (to the review page), the cycle, when and by whom it was sent, why it
 * is not clean (or the medical director's note), NCQA's clock ('Decision due', overdue in red and bold
 * and in words), and for a file on an open meeting's agenda 'On agenda: <date>' (to the meeting). A
 * caller who decides files (`decide:application:any`) gets 'Approve' (confirmed) and 'Send to
 * Committee' (a required note) on each clean file. Data: committee-api.ts.
 */
import { Anchor, Button, List, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import {
  type DecisionTrack,
  decisionTrackLabel,
  referralKindLabel,
} from '../../../domain/committee/committee-decisions.ts';
import { applicationCycleLabel } from '../../../domain/credentials/provider-credential.ts';
import { fromAdminState } from '../../app/admin-tabs.ts';
import { meetingPath, reviewPath } from '../../app/paths.ts';
import { ApproveSignedDialog } from '../../components/approve-signed-dialog.tsx';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { ResponsiveTable, type TableColumn } from '../../components/responsive-table.tsx';
import { SendToCommitteeDialog } from '../../components/send-to-committee-dialog.tsx';
import { formatDate } from '../../format.ts';
import { notifySuccess } from '../../notify.ts';
import { badgeColor } from '../../theme.ts';
import {
  type DecisionFile,
  useApproveCleanFile,
  useDecisionList,
  useSendToCommittee,
} from './committee-api.ts';
import { formatMeetingTime } from './committee-format.ts';
import { DecisionDue } from './decision-due.tsx';

const emptyText: Record<DecisionTrack, string> = {
  clean_files: 'No clean files are waiting for a decision.',
  committee: 'No files are ready for the committee.',
};

function providerNameOf(file: DecisionFile): string {
  return file.providerName || 'Provider without a profile';
}

function Reasons({ file }: { file: DecisionFile }) {
  if (file.reasons.length === 0 && !file.note) {
    return (
      <Text size="sm" c="dimmed" span>
        None
      </Text>
    );
  }
  return (
    <>
      {file.reasons.length > 0 && (
        <List size="sm" spacing={2}>
          {file.reasons.map((reason) => (
            <List.Item key={reason}>{reason}</List.Item>
          ))}
        </List>
      )}
      {file.note && (
        <Text size="sm" span display="block" style={{ whiteSpace: 'pre-line' }}>
          Note: {file.note}
        </Text>
      )}
    </>
  );
}

/** One list's section: its title, then its loading, error, empty state or table. */
function DecisionSection({
  track,
  enabled,
  canDecide,
  onApprove,
  onSend,
}: {
  track: DecisionTrack;
  enabled: boolean;
  canDecide: boolean;
  onApprove: (file: DecisionFile) => void;
  onSend: (file: DecisionFile) => void;
}) {
  const location = useLocation();
  const list = useDecisionList(track, enabled);
  const titleId = `decisions-${track}-title`;
  const label = decisionTrackLabel[track];

  const columns: TableColumn<DecisionFile>[] = [
    {
      header: 'Provider',
      render: (file) => (
        <Anchor
          component={Link}
          to={reviewPath(file.applicationId)}
          state={fromAdminState(location)}
          size="sm"
        >
          {providerNameOf(file)}
        </Anchor>
      ),
    },
    // Issue 32 item 6: an appeal of a denial waits here too, for a meeting after the denial.
    { header: 'For', noWrap: true, render: (file) => referralKindLabel[file.kind] },
    { header: 'Cycle', render: (file) => applicationCycleLabel[file.cycle] },
    {
      header: 'Sent',
      render: (file) => (
        <>
          <Text size="sm" span display="block">
            {formatDate(file.sentAt)}
          </Text>
          <Text size="xs" c="dimmed" span display="block">
            by {file.sentBy ?? 'a removed account'}
          </Text>
        </>
      ),
    },
    { header: 'Reasons', render: (file) => <Reasons file={file} /> },
    { header: 'Decision due', render: (file) => <DecisionDue due={file.decisionDue} /> },
  ];
  if (track === 'committee') {
    columns.push({
      header: 'Meeting',
      render: (file) =>
        file.meeting ? (
          <Anchor
            component={Link}
            to={meetingPath(file.meeting.meetingId)}
            state={fromAdminState(location)}
            size="sm"
          >
            On agenda: {formatMeetingTime(file.meeting.scheduledAt)}
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed" span>
            Not on an agenda
          </Text>
        ),
    });
  }

  const actions =
    track === 'clean_files' && canDecide
      ? (file: DecisionFile) => (
          <>
            <Button
              size="xs"
              color={badgeColor.green}
              onClick={() => onApprove(file)}
              aria-label={`Approve ${providerNameOf(file)}`}
            >
              Approve
            </Button>
            <Button
              size="xs"
              variant="default"
              onClick={() => onSend(file)}
              aria-label={`Send to Committee: ${providerNameOf(file)}`}
            >
              Send to Committee
            </Button>
          </>
        )
      : undefined;

  return (
    <Stack gap="sm" component="section" aria-labelledby={titleId}>
      <Title order={2} size="h4" id={titleId}>
        {label}
      </Title>
      {list.isPending ? (
        <InlineLoader label={`Loading ${label}...`} />
      ) : list.isError ? (
        <Text c="red.9">The list could not be loaded. Reload the page to try again.</Text>
      ) : list.data.files.length === 0 ? (
        <Text c="dimmed">{emptyText[track]}</Text>
      ) : (
        <ResponsiveTable
          label={`${label}, oldest sent first`}
          columns={columns}
          rows={list.data.files}
          rowKey={(file) => file.applicationId}
          actions={actions}
          minWidth={actions ? 960 : 760}
        />
      )}
    </Stack>
  );
}

/**
 * The 'Decisions' tab (issue 32 items 4 and 7); queries only while shown. `canAct`: the caller
 * decides clean files (`decide:application:any`, the Medical Director).
 */
export function DecisionsTab({ enabled, canAct }: { enabled: boolean; canAct: boolean }) {
  const approve = useApproveCleanFile();
  const send = useSendToCommittee();
  const [approving, setApproving] = useState<DecisionFile | null>(null);
  // The file stays while its dialog closes (its text must not change meanwhile).
  const [sending, setSending] = useState<DecisionFile | null>(null);
  const [sendOpen, setSendOpen] = useState(false);

  const submitSend = async (note: string) => {
    if (!sending) return;
    await send.mutateAsync({ applicationId: sending.applicationId, note });
    notifySuccess('File sent to the committee', `${providerNameOf(sending)} is ready for the committee.`);
  };

  return (
    <Stack gap="xl">
      <Text size="sm">
        Files sent for decision. The medical director approves clean files or sends them to the committee;
        every other file waits for a committee meeting.
      </Text>
      {(['clean_files', 'committee'] as const).map((track) => (
        <DecisionSection
          key={track}
          track={track}
          enabled={enabled}
          canDecide={canAct}
          onApprove={setApproving}
          onSend={(file) => {
            setSending(file);
            setSendOpen(true);
          }}
        />
      ))}
      <ApproveSignedDialog
        opened={approving !== null}
        providerName={approving ? providerNameOf(approving) : ''}
        onApprove={async (signature) => {
          const file = approving;
          if (!file) return;
          await approve.mutateAsync({ applicationId: file.applicationId, signature });
          notifySuccess('File approved', `${providerNameOf(file)} is credentialed and notified.`);
        }}
        onClose={() => setApproving(null)}
      />
      <SendToCommitteeDialog
        opened={sendOpen}
        providerName={sending ? providerNameOf(sending) : ''}
        onSubmit={submitSend}
        onClose={() => setSendOpen(false)}
      />
    </Stack>
  );
}
