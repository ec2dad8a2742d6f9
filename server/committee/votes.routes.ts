/**
 * Members' attendance and own votes (issue 50 items 2, 3, 6; contract domain/api/committee.ts), under
 * /api/committee/meetings/:meetingId:
 * - POST .../attendance   { memberIds }: the recorder marks who is present (`manage:meeting:any`);
 *   nobody is pre-ticked; from the meeting's start only (409 before)
 * - POST .../join         a member marks themselves present (`vote:meeting:member`, a seat on it)
 * - POST .../agenda/:itemId/vote   { vote, reviewed: true, code }: the member's own vote, signed with
 *   their second factor (`vote:meeting:member`); 403 for their own file, a recusal, a file they
 *   verified or the appeal of a denial they voted on; 409 before the start, when not present, or once
 *   decided; 422 for a wrong code
 * Each answers the meeting as it now is, as the caller may read it.
 */
import type { FastifyRequest } from 'fastify';
import {
  agendaItemParamsSchema,
  attendanceBodySchema,
  meetingParamsSchema,
  meetingSchema,
  memberVoteBodySchema,
} from '../../domain/api/committee.ts';
import { errorResponses } from '../../domain/app-error.ts';
import type { AppInstance } from '../app-types.ts';
import { type Actor, requirePermission } from '../auth/actor.ts';
import { getMeeting } from './meetings.service.ts';
import { castVote, joinMeeting, setAttendance } from './votes.service.ts';

export async function voteRoutes(app: AppInstance) {
  // Before validation: 401 without a session, 403 without the permission, whatever is sent.
  app.addHook('onRequest', async (request) => {
    await requirePermission(
      request,
      request.routeOptions.url?.endsWith('/attendance') ? 'manage:meeting:any' : 'vote:meeting:member',
    );
  });
  const meetingResponse = { 200: meetingSchema, ...errorResponses };
  const answer = (actor: Actor, meetingId: string) =>
    getMeeting(app.deps.db, meetingId, { userId: actor.userId, roles: actor.roles }, new Date());
  const voter = (request: FastifyRequest) => requirePermission(request, 'vote:meeting:member');

  app.post(
    '/api/committee/meetings/:meetingId/attendance',
    {
      config: { access: 'admin' },
      schema: {
        summary:
          "'Mark Present': the members present at the meeting, ticked by the recorder (issue 50 item 6)",
        tags: ['committee'],
        params: meetingParamsSchema,
        body: attendanceBodySchema,
        response: meetingResponse,
      },
    },
    async (request) => {
      const actor = await requirePermission(request, 'manage:meeting:any');
      await setAttendance(app.deps.db, actor, request.params.meetingId, request.body.memberIds, new Date());
      return answer(actor, request.params.meetingId);
    },
  );

  app.post(
    '/api/committee/meetings/:meetingId/join',
    {
      config: { access: 'admin' },
      schema: {
        summary: "'Join Meeting': a member marks themselves present (issue 50 item 6)",
        tags: ['committee'],
        params: meetingParamsSchema,
        response: meetingResponse,
      },
    },
    async (request) => {
      const actor = await voter(request);
      await joinMeeting(app.deps.db, actor, request.params.meetingId, new Date());
      return answer(actor, request.params.meetingId);
    },
  );

  app.post(
    '/api/committee/meetings/:meetingId/agenda/:itemId/vote',
    {
      config: { access: 'admin', fileDuty: { duty: 'vote', file: 'agenda_item' } },
      schema: {
        summary:
          "A member's own vote on a file, signed 'I reviewed this file' with their second factor (issue 50 items 2, 7)",
        tags: ['committee'],
        params: agendaItemParamsSchema,
        body: memberVoteBodySchema,
        response: meetingResponse,
      },
    },
    async (request) => {
      const actor = await voter(request);
      const { meetingId, itemId } = request.params;
      await castVote(app.deps, actor, meetingId, itemId, request.body, new Date());
      return answer(actor, meetingId);
    },
  );
}
