/**
 * Data of the credentialing committee's screens (issue 32 items 4, 5 and 7; contract
 * domain/api/committee.ts): the 'Clean Files' and 'Ready for Committee' lists with 'Approve' and
 * 'Send to Committee', the meetings, a meeting's agenda, recusals, 'Record Decision', 'Close Meeting',
 * and a file's summary. Every function throws (through the query's or mutation's `error`) an ApiError
 * carrying the server's message when the server refuses or cannot be reached. After any change the
 * meetings and the decision lists are read again; a decision also changes the application, so the
 * admin's other views (review pages, the queue) are read again too.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CommitteeMember,
  DecisionList,
  FileSummary,
  Meeting,
  MeetingList,
  MemberVoteBody,
  NewMeetingBody,
  RecordDecisionBody,
  ReviewSignature,
  SendForDecisionResult,
} from '../../../domain/api/committee.ts';
import type { DecisionTrack } from '../../../domain/committee/committee-decisions.ts';
import { api } from '../../api.ts';

export type {
  AgendaItem,
  CommitteeMember,
  DecisionFile,
  FileSummary,
  Meeting,
  MeetingSummary,
  RecordedDecision,
} from '../../../domain/api/committee.ts';

/** Everything of the admin's (review pages, the queue, the decision lists). */
const adminKey = ['admin'] as const;
const decisionsKey = ['admin', 'decisions'] as const;
const meetingsKey = ['committee', 'meetings'] as const;
const membersKey = ['committee', 'members'] as const;
const meetingKey = (meetingId: string) => [...meetingsKey, meetingId] as const;

const meetingPath = (meetingId: string) => `/api/committee/meetings/${encodeURIComponent(meetingId)}`;
const agendaItemPath = (meetingId: string, itemId: string) =>
  `${meetingPath(meetingId)}/agenda/${encodeURIComponent(itemId)}`;
const applicationPath = (applicationId: string) =>
  `/api/admin/applications/${encodeURIComponent(applicationId)}`;

/** The minutes of a closed meeting as a PDF (issue 32 item 5; GET; 409 while the meeting is open). */
export function minutesUrl(meetingId: string): string {
  return `${meetingPath(meetingId)}/minutes.pdf`;
}

/** GET /api/admin/decisions?list=: the 'Clean Files' or 'Ready for Committee' list (issue 32 items 4, 7). */
export function useDecisionList(list: DecisionTrack, enabled: boolean) {
  return useQuery({
    queryKey: [...decisionsKey, list],
    enabled,
    queryFn: () => api<DecisionList>('GET', `/api/admin/decisions?list=${encodeURIComponent(list)}`),
    staleTime: 0,
    refetchOnMount: 'always',
  });
}

/** Reads the meetings and the decision lists again (and, with `all`, every admin view). */
function useRefresh() {
  const queryClient = useQueryClient();
  return (all = false) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: all ? adminKey : decisionsKey }),
      queryClient.invalidateQueries({ queryKey: meetingsKey }),
    ]);
}

/**
 * 'Approve' of a clean file (issue 32 item 4): POST .../applications/:id/approve with the director's
 * signature (issue 50 item 7: 'I reviewed this file' and their authenticator's code).
 */
export function useApproveCleanFile() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ applicationId, signature }: { applicationId: string; signature: ReviewSignature }) =>
      api<unknown>('POST', `${applicationPath(applicationId)}/approve`, signature),
    onSettled: () => refresh(true),
  });
}

/** 'Send to Committee' (issue 32 item 4): POST .../applications/:id/send-to-committee `{ note }`. */
export function useSendToCommittee() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ applicationId, note }: { applicationId: string; note: string }) =>
      api<SendForDecisionResult>('POST', `${applicationPath(applicationId)}/send-to-committee`, { note }),
    onSettled: () => refresh(true),
  });
}

/** GET /api/committee/members: who may sit on a meeting ('New Meeting', issue 32 item 5; managers only). */
export function useCommitteeMembers(enabled: boolean) {
  return useQuery({
    queryKey: membersKey,
    enabled,
    queryFn: async (): Promise<CommitteeMember[]> =>
      (await api<{ members: CommitteeMember[] }>('GET', '/api/committee/members')).members,
    staleTime: 0,
  });
}

/** GET /api/committee/meetings (issue 32 item 5): newest first; a Committee Member gets only their own. */
export function useMeetings(enabled: boolean) {
  return useQuery({
    queryKey: meetingsKey,
    enabled,
    queryFn: () => api<MeetingList>('GET', '/api/committee/meetings'),
    staleTime: 0,
    refetchOnMount: 'always',
  });
}

/** 'New Meeting' (issue 32 item 5): POST /api/committee/meetings. */
export function useCreateMeeting() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: NewMeetingBody) => api<Meeting>('POST', '/api/committee/meetings', body),
    onSettled: () => refresh(),
  });
}

/** GET /api/committee/meetings/:meetingId: the meeting, its members and its agenda (issue 32 item 5). */
export function useMeeting(meetingId: string) {
  return useQuery({
    queryKey: meetingKey(meetingId),
    queryFn: () => api<Meeting>('GET', meetingPath(meetingId)),
    staleTime: 0,
  });
}

/**
 * A change to one meeting that answers with the meeting: the answer replaces the cached meeting at
 * once, then the meetings and the decision lists (with `all`, every admin view) are read again.
 */
function useMeetingChange<Vars>(meetingId: string, send: (vars: Vars) => Promise<Meeting>, all = false) {
  const queryClient = useQueryClient();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: send,
    onSuccess: (meeting) => queryClient.setQueryData(meetingKey(meetingId), meeting),
    onSettled: () => refresh(all),
  });
}

/** 'Add File' (issue 32 item 5): POST .../agenda `{ applicationId }`, a file from 'Ready for Committee'. */
export function useAddAgendaItem(meetingId: string) {
  return useMeetingChange(meetingId, (applicationId: string) =>
    api<Meeting>('POST', `${meetingPath(meetingId)}/agenda`, { applicationId }),
  );
}

/** 'Move up' / 'Move down' (issue 32 item 5): PUT .../agenda `{ itemIds }`, every item in its new order. */
export function useReorderAgenda(meetingId: string) {
  return useMeetingChange(meetingId, (itemIds: string[]) =>
    api<Meeting>('PUT', `${meetingPath(meetingId)}/agenda`, { itemIds }),
  );
}

/** 'Remove' (issue 32 item 5): DELETE .../agenda/:itemId; the file stays on 'Ready for Committee'. */
export function useRemoveAgendaItem(meetingId: string) {
  return useMeetingChange(meetingId, (itemId: string) =>
    api<Meeting>('DELETE', agendaItemPath(meetingId, itemId)),
  );
}

/** 'Recusals' (issue 32 item 5): PUT .../agenda/:itemId/recusals `{ memberIds }`, all recused. */
export function useSetRecusals(meetingId: string) {
  return useMeetingChange(meetingId, ({ itemId, memberIds }: { itemId: string; memberIds: string[] }) =>
    api<Meeting>('PUT', `${agendaItemPath(meetingId, itemId)}/recusals`, { memberIds }),
  );
}

/** 'Record Decision' (issue 32 item 5): POST .../agenda/:itemId/decision; decided (or deferred). */
export function useRecordDecision(meetingId: string) {
  return useMeetingChange(
    meetingId,
    ({ itemId, body }: { itemId: string; body: RecordDecisionBody }) =>
      api<Meeting>('POST', `${agendaItemPath(meetingId, itemId)}/decision`, body),
    true,
  );
}

/** 'Mark Present' (issue 50 item 6): POST .../attendance `{ memberIds }`, the recorder's ticks. */
export function useSetAttendance(meetingId: string) {
  return useMeetingChange(meetingId, (memberIds: string[]) =>
    api<Meeting>('POST', `${meetingPath(meetingId)}/attendance`, { memberIds }),
  );
}

/** 'Join Meeting' (issue 50 item 6): POST .../join, the member marks themselves present. */
export function useJoinMeeting(meetingId: string) {
  return useMeetingChange(meetingId, () => api<Meeting>('POST', `${meetingPath(meetingId)}/join`));
}

/** A member's own signed vote on a file (issue 50 items 2, 7): POST .../agenda/:itemId/vote. */
export function useCastVote(meetingId: string) {
  return useMeetingChange(meetingId, ({ itemId, body }: { itemId: string; body: MemberVoteBody }) =>
    api<Meeting>('POST', `${agendaItemPath(meetingId, itemId)}/vote`, body),
  );
}

/** 'Close Meeting' (issue 32 item 5): POST .../close; the minutes are frozen. */
export function useCloseMeeting(meetingId: string) {
  return useMeetingChange(meetingId, () => api<Meeting>('POST', `${meetingPath(meetingId)}/close`));
}

/**
 * GET /api/committee/meetings/:meetingId/files/:applicationId: a file's summary (issue 32 item 5; 403
 * for a member recused for it). `applicationId` null: nothing to read.
 */
export function useFileSummary(meetingId: string, applicationId: string | null) {
  return useQuery({
    queryKey: [...meetingKey(meetingId), 'files', applicationId],
    enabled: applicationId !== null,
    queryFn: () =>
      api<FileSummary>('GET', `${meetingPath(meetingId)}/files/${encodeURIComponent(applicationId ?? '')}`),
    staleTime: 0,
  });
}
