/**
 * The authorization matrix (authorization-matrix.ts): the committee's meetings (issue 32 item 5): their
 * members, agenda, recusals, decisions, closing, file summaries and minutes.
 */
import { type MatrixEntry, noMeeting, staffOnly } from './authorization-matrix-callers.ts';

export const committeeMatrix: Record<string, MatrixEntry> = {
  // Issue 32 item 5: every staff role reads meetings (a Committee Member only theirs: a meeting that
  // does not exist is a 404 for all); changes need `manage:meeting:any` and reach validation (400) or
  // the unknown meeting (404).
  'GET /api/committee/members': {
    expected: staffOnly('manage:meeting:any'),
    request: () => ({ path: '/api/committee/members' }),
  },
  'GET /api/committee/meetings': {
    expected: { ...staffOnly('read:meeting:any'), committee: 200 },
    request: () => ({ path: '/api/committee/meetings' }),
  },
  'POST /api/committee/meetings': {
    expected: staffOnly('manage:meeting:any', 400),
    request: () => ({ path: '/api/committee/meetings', body: {} }),
  },
  'GET /api/committee/meetings/:meetingId': {
    expected: { ...staffOnly('read:meeting:any', 404), committee: 404 },
    request: () => ({ path: `/api/committee/meetings/${noMeeting}` }),
  },
  'POST /api/committee/meetings/:meetingId/agenda': {
    expected: staffOnly('manage:meeting:any', 404),
    request: (ctx) => ({
      path: `/api/committee/meetings/${noMeeting}/agenda`,
      body: { applicationId: ctx.applicationId },
    }),
  },
  'PUT /api/committee/meetings/:meetingId/agenda': {
    expected: staffOnly('manage:meeting:any', 404),
    request: () => ({ path: `/api/committee/meetings/${noMeeting}/agenda`, body: { itemIds: [] } }),
  },
  'DELETE /api/committee/meetings/:meetingId/agenda/:itemId': {
    expected: staffOnly('manage:meeting:any', 404),
    request: () => ({ path: `/api/committee/meetings/${noMeeting}/agenda/${noMeeting}` }),
  },
  'PUT /api/committee/meetings/:meetingId/agenda/:itemId/recusals': {
    expected: staffOnly('manage:meeting:any', 404),
    request: () => ({
      path: `/api/committee/meetings/${noMeeting}/agenda/${noMeeting}/recusals`,
      body: { memberIds: [] },
    }),
  },
  'POST /api/committee/meetings/:meetingId/agenda/:itemId/decision': {
    expected: staffOnly('manage:meeting:any', 400),
    request: () => ({ path: `/api/committee/meetings/${noMeeting}/agenda/${noMeeting}/decision`, body: {} }),
  },
  // Issue 50: attendance (the recorder), joining and a member's own signed vote (`vote:meeting:member`).
  'POST /api/committee/meetings/:meetingId/attendance': {
    expected: staffOnly('manage:meeting:any', 404),
    request: () => ({ path: `/api/committee/meetings/${noMeeting}/attendance`, body: { memberIds: [] } }),
  },
  'POST /api/committee/meetings/:meetingId/join': {
    expected: staffOnly('vote:meeting:member', 404),
    request: () => ({ path: `/api/committee/meetings/${noMeeting}/join`, body: {} }),
  },
  'POST /api/committee/meetings/:meetingId/agenda/:itemId/vote': {
    expected: staffOnly('vote:meeting:member', 404),
    request: () => ({
      path: `/api/committee/meetings/${noMeeting}/agenda/${noMeeting}/vote`,
      body: { vote: 'approve', reviewed: true, code: '000000' },
    }),
  },
  'POST /api/committee/meetings/:meetingId/close': {
    expected: staffOnly('manage:meeting:any', 404),
    request: () => ({ path: `/api/committee/meetings/${noMeeting}/close`, body: {} }),
  },
  'GET /api/committee/meetings/:meetingId/files/:applicationId': {
    expected: { ...staffOnly('read:meeting:any', 404), committee: 404 },
    request: (ctx) => ({ path: `/api/committee/meetings/${noMeeting}/files/${ctx.applicationId}` }),
  },
  'GET /api/committee/meetings/:meetingId/minutes.pdf': {
    expected: { ...staffOnly('read:meeting:any', 404), committee: 404 },
    request: () => ({ path: `/api/committee/meetings/${noMeeting}/minutes.pdf` }),
  },
};
