/**
 * A meeting's agenda (issue 32 item 5), in order: each file's position, provider and why it is not
 * clean, and its decision once recorded. A file the caller is recused for is a greyed-out 'Recused'
 * row (aria-disabled), its provider and reasons hidden, without 'Summary'. 'Summary' opens the file's
 * summary. Those who manage the meeting, while it is open, also get 'Move up' / 'Move down' (the new
 * order saved at once), 'Remove' (confirmed), 'Recusals' and 'Record Decision' (the last three for a
 * file not decided yet).
 */
import { Button, Group, List, Stack, Text } from '@mantine/core';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { memberVoteLabel, monitoringVoteLabel } from '../../../domain/committee/committee-decisions.ts';
import { recusalLabel } from '../../../domain/review/file-duties.ts';
import { reviewPath } from '../../app/paths.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { ResponsiveTable, type TableColumn } from '../../components/responsive-table.tsx';
import { notifyError, notifySuccess } from '../../notify.ts';
import {
  type AgendaItem,
  type Meeting,
  useCastVote,
  useRecordDecision,
  useRemoveAgendaItem,
  useReorderAgenda,
  useSetRecusals,
} from './committee-api.ts';
import { FileSummaryDialog } from './file-summary-dialog.tsx';
import { RecordDecisionDialog } from './record-decision-dialog.tsx';
import { RecordedDecision } from './recorded-decision.tsx';
import { RecusalsDialog } from './recusals-dialog.tsx';
import { VoteDialog } from './vote-dialog.tsx';

/** The agenda's items in order (the server's `position`). */
function ordered(agenda: readonly AgendaItem[]): AgendaItem[] {
  return [...agenda].sort((a, b) => a.position - b.position);
}

/** How a row is named to the caller: the provider, or 'File N (recused)' when the name is hidden. */
function fileName(item: AgendaItem, number: number): string {
  if (item.callerRecused) return `File ${number} (recused)`;
  return item.providerName || 'Provider without a profile';
}

/** A failure's toast. */
function failed(title: string) {
  return (error: unknown) =>
    notifyError(title, error instanceof Error ? error.message : 'The change was not saved. Try again.');
}

/**
 * The agenda of `meeting` (issue 32 item 5) with its rows' actions and dialogs. `canManage`: the
 * caller manages the meeting (the server's `canManage`) and it is open.
 */
export function AgendaTable({ meeting, canManage }: { meeting: Meeting; canManage: boolean }) {
  const items = ordered(meeting.agenda);
  const numberOf = (item: AgendaItem) => items.indexOf(item) + 1;
  const nameOf = (item: AgendaItem) => fileName(item, numberOf(item));
  const memberName = (id: string) => {
    const member = meeting.members.find((m) => m.userId === id);
    return member ? member.name || member.email : 'a former member';
  };

  const reorder = useReorderAgenda(meeting.meetingId);
  const remove = useRemoveAgendaItem(meeting.meetingId);
  const setRecusals = useSetRecusals(meeting.meetingId);
  const record = useRecordDecision(meeting.meetingId);
  const castVote = useCastVote(meeting.meetingId);
  const [voting, setVoting] = useState<AgendaItem | null>(null);
  // Issue 50 item 2: a member present at an open, started meeting votes on each file they may vote on.
  const me = meeting.members.find((m) => m.userId === meeting.callerId);
  const canVote = (item: AgendaItem) =>
    meeting.callerIsMember &&
    meeting.started &&
    meeting.closedAt === null &&
    Boolean(me?.presentAt) &&
    item.callerRecusal === null &&
    !item.decision;
  const [summaryOf, setSummaryOf] = useState<string | null>(null);
  const [removing, setRemoving] = useState<AgendaItem | null>(null);
  // The row of an open dialog stays while it closes (its text must not change meanwhile).
  const [recusing, setRecusing] = useState<AgendaItem | null>(null);
  const [recusalsOpen, setRecusalsOpen] = useState(false);
  const [deciding, setDeciding] = useState<AgendaItem | null>(null);

  const move = (item: AgendaItem, by: -1 | 1) => {
    const from = items.indexOf(item);
    const to = from + by;
    if (reorder.isPending || to < 0 || to >= items.length) return;
    const ids = items.map((i) => i.itemId);
    [ids[from], ids[to]] = [ids[to]!, ids[from]!];
    reorder.mutate(ids, {
      onSuccess: () => notifySuccess('Agenda order saved', `${nameOf(item)} is number ${to + 1} now.`),
      onError: failed('Agenda Order Not Saved'),
    });
  };

  const confirmRemove = () => {
    const item = removing;
    if (!item) return;
    remove.mutate(item.itemId, {
      onSuccess: () =>
        notifySuccess('File removed from the agenda', `${nameOf(item)} is back on 'Ready for Committee'.`),
      onError: failed('Remove Failed'),
      onSettled: () => setRemoving(null),
    });
  };

  const columns: TableColumn<AgendaItem>[] = [
    { header: 'Position', noWrap: true, render: (item) => numberOf(item) },
    {
      header: 'Provider',
      render: (item) =>
        item.callerRecused ? (
          <>
            <Text size="sm" c="dimmed" fw={600} span display="block">
              Recused
            </Text>
            <Text size="xs" c="dimmed" span display="block">
              You are recused for this file.
            </Text>
          </>
        ) : (
          <>
            <Text size="sm" fw={600} span display="block">
              {nameOf(item)}
            </Text>
            {item.kind === 'monitoring' && (
              <Text size="xs" fw={600} span display="block">
                Monitoring finding (continue or terminate the credential)
              </Text>
            )}
            {item.kind === 'appeal' && (
              <Text size="xs" fw={600} span display="block">
                Appeal (its decision is final)
              </Text>
            )}
            {item.recusedMemberIds.length > 0 && (
              <Text size="xs" c="dimmed" span display="block">
                Recused: {item.recusedMemberIds.map(memberName).join(', ')}
              </Text>
            )}
          </>
        ),
    },
    {
      header: 'Reasons',
      render: (item) =>
        item.callerRecused ? (
          <Text size="sm" c="dimmed" span>
            Hidden
          </Text>
        ) : item.reasons.length === 0 ? (
          <Text size="sm" c="dimmed" span>
            None
          </Text>
        ) : (
          <List size="sm" spacing={2}>
            {item.reasons.map((reason) => (
              <List.Item key={reason}>{reason}</List.Item>
            ))}
          </List>
        ),
    },
    {
      header: 'Votes',
      render: (item) =>
        item.callerRecused ? (
          <Text size="sm" c="dimmed" span>
            Hidden
          </Text>
        ) : (
          <Stack gap={2}>
            {item.votes.length === 0 && item.recusals.length === 0 && (
              <Text size="sm" c="dimmed" span>
                No votes yet
              </Text>
            )}
            {item.votes.map((v) => (
              <Text size="sm" span display="block" key={v.memberId}>
                {v.name || memberName(v.memberId)}:{' '}
                {(item.kind === 'monitoring' ? monitoringVoteLabel : memberVoteLabel)[v.vote]}
              </Text>
            ))}
            {item.recusals.map((r) => (
              <Text size="xs" c="dimmed" span display="block" key={r.memberId}>
                {memberName(r.memberId)}: {recusalLabel[r.reason]}
              </Text>
            ))}
            {item.callerRecusal && item.callerRecusal !== 'recused' && item.callerRecusal !== 'own_file' && (
              <Text size="xs" span display="block">
                You do not vote on this file: {recusalLabel[item.callerRecusal]}.
              </Text>
            )}
          </Stack>
        ),
    },
    {
      header: 'Decision',
      render: (item) =>
        item.decision ? (
          <RecordedDecision decision={item.decision} kind={item.kind} />
        ) : (
          <Text size="sm" c="dimmed" span>
            Not decided
          </Text>
        ),
    },
  ];

  const actions = (item: AgendaItem) => {
    const index = items.indexOf(item);
    const name = nameOf(item);
    const open = !item.callerRecused && !item.decision;
    return (
      <Group gap="xs" wrap="wrap" justify="flex-end" maw={340}>
        {!item.callerRecused && (
          <Button
            size="xs"
            variant="default"
            onClick={() => setSummaryOf(item.applicationId)}
            aria-label={`Summary of ${name}`}
          >
            Summary
          </Button>
        )}
        {/* Issue 50 item 6: the whole file, read-only, for those who read this meeting's files. */}
        {!item.callerRecused &&
          (meeting.canManage || (meeting.callerIsMember && meeting.closedAt === null)) && (
            <Button
              size="xs"
              variant="default"
              component={Link}
              to={reviewPath(item.applicationId)}
              aria-label={`Open File of ${name}`}
            >
              Open File
            </Button>
          )}
        {canVote(item) && (
          <Button size="xs" onClick={() => setVoting(item)} aria-label={`Vote on ${name}`}>
            {item.callerVote ? 'Change Vote' : 'Vote'}
          </Button>
        )}
        {canManage && (
          <>
            {/* Disabled in look only at the ends: a focused button that moved there keeps the focus. */}
            <Button
              size="xs"
              variant="default"
              leftSection={<IconArrowUp size={14} aria-hidden="true" />}
              data-disabled={index === 0 || undefined}
              aria-disabled={index === 0}
              onClick={() => move(item, -1)}
              aria-label={`Move up: ${name}`}
            >
              Move up
            </Button>
            <Button
              size="xs"
              variant="default"
              leftSection={<IconArrowDown size={14} aria-hidden="true" />}
              data-disabled={index === items.length - 1 || undefined}
              aria-disabled={index === items.length - 1}
              onClick={() => move(item, 1)}
              aria-label={`Move down: ${name}`}
            >
              Move down
            </Button>
            {!item.decision && (
              <Button
                size="xs"
                variant="default"
                color="red.9"
                onClick={() => setRemoving(item)}
                aria-label={`Remove ${name}`}
              >
                Remove
              </Button>
            )}
            {open && (
              <>
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => {
                    setRecusing(item);
                    setRecusalsOpen(true);
                  }}
                  aria-label={`Recusals for ${name}`}
                >
                  Recusals
                </Button>
                <Button
                  size="xs"
                  onClick={() => setDeciding(item)}
                  aria-label={`Record Decision for ${name}`}
                >
                  Record Decision
                </Button>
              </>
            )}
          </>
        )}
      </Group>
    );
  };

  if (items.length === 0) {
    return <Text c="dimmed">No files are on the agenda yet.</Text>;
  }

  return (
    <>
      <ResponsiveTable
        label="Agenda, in order"
        columns={columns}
        rows={items}
        rowKey={(item) => item.itemId}
        actions={actions}
        rowDisabled={(item) => item.callerRecused}
        minWidth={900}
      />
      <FileSummaryDialog
        meetingId={meeting.meetingId}
        applicationId={summaryOf}
        onClose={() => setSummaryOf(null)}
      />
      <ConfirmDialog
        opened={removing !== null}
        title="Remove from the agenda"
        confirmLabel="Remove"
        busy={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={confirmRemove}
      >
        {removing &&
          `Remove ${nameOf(removing)} from this meeting's agenda? The file goes back to 'Ready for Committee'.`}
      </ConfirmDialog>
      <RecusalsDialog
        opened={recusalsOpen}
        fileName={recusing ? nameOf(recusing) : ''}
        members={meeting.members}
        recused={recusing?.recusedMemberIds ?? []}
        onSubmit={async (memberIds) => {
          if (!recusing) return;
          await setRecusals.mutateAsync({ itemId: recusing.itemId, memberIds });
          notifySuccess('Recusals saved', `${nameOf(recusing)}: ${memberIds.length} recused.`);
        }}
        onClose={() => setRecusalsOpen(false)}
      />
      <VoteDialog
        item={voting}
        fileName={voting ? nameOf(voting) : ''}
        onSubmit={async (body) => {
          if (!voting) return;
          await castVote.mutateAsync({ itemId: voting.itemId, body });
          notifySuccess('Vote recorded', `${nameOf(voting)}: your vote is signed and counted.`);
        }}
        onClose={() => setVoting(null)}
      />
      <RecordDecisionDialog
        item={deciding}
        fileName={deciding ? nameOf(deciding) : ''}
        onSubmit={async (body) => {
          if (!deciding) return;
          await record.mutateAsync({ itemId: deciding.itemId, body });
          notifySuccess('Decision recorded', `${nameOf(deciding)}: the decision is in the minutes.`);
        }}
        onClose={() => setDeciding(null)}
      />
    </>
  );
}
