/**
 * The credentialing committee's routes (issue 32 item 5; contract domain/api/committee.ts), under
 * /api/committee. Reading needs `read:meeting:any` or, for a Committee Member, `read:meeting:member`
 * and a seat on the meeting (404 otherwise); every change `manage:meeting:any`. Each change answers
 * the meeting as it now is.
 */
import type { FastifyRequest } from 'fastify';
import {
  addAgendaItemBodySchema,
  agendaItemParamsSchema,
  committeeMembersSchema,
  fileSummarySchema,
  meetingFileParamsSchema,
  meetingListSchema,
  meetingParamsSchema,
  meetingSchema,
  newMeetingBodySchema,
  recordDecisionBodySchema,
  recusalsBodySchema,
  reorderAgendaBodySchema,
} from '../../domain/api/committee.ts';
import { errorResponses } from '../../domain/app-error.ts';
import { hasPermission } from '../../domain/permissions.ts';
import type { AppInstance } from '../app-types.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { type Actor, assertPermission, requireActor, requirePermission } from '../auth/actor.ts';
import { decisionClockLimitsOf } from '../env.ts';
import {
  addAgendaItem,
  recordCommitteeDecision,
  removeAgendaItem,
  reorderAgenda,
  setRecusals,
} from './agenda.service.ts';
import { announceDecision } from './decisions.routes.ts';
import { type MeetingNoticeKind, sendMeetingNotices } from './meeting-notices.ts';
import {
  closedMeeting,
  closeMeeting,
  committeeMembers,
  createMeeting,
  getMeeting,
  listMeetings,
  type MeetingViewer,
  meetingFileSummary,
} from './meetings.service.ts';
import { renderMinutes } from './minutes.ts';

/** The reader of a meeting: `read:meeting:any`, else `read:meeting:member` (membership checked later). */
async function meetingReader(request: FastifyRequest): Promise<Actor> {
  const actor = await requireActor(request);
  assertPermission(
    actor,
    hasPermission(actor.roles, 'read:meeting:any') ? 'read:meeting:any' : 'read:meeting:member',
  );
  return actor;
}

const viewerOf = (actor: Actor): MeetingViewer => ({ userId: actor.userId, roles: actor.roles });

export async function meetingRoutes(app: AppInstance) {
  // Before validation: 401 without a session, 403 without the permission, whatever is sent.
  app.addHook('onRequest', async (request) => {
    if (request.method === 'GET' || request.method === 'HEAD') await meetingReader(request);
    else await requirePermission(request, 'manage:meeting:any');
  });
  const meetingResponse = { 200: meetingSchema, ...errorResponses };
  const manager = (request: FastifyRequest) => requirePermission(request, 'manage:meeting:any');
  const answer = async (request: FastifyRequest, meetingId: string) =>
    getMeeting(app.deps.db, meetingId, viewerOf(await manager(request)), new Date());
  /** Issue 50 item 9: the members' invitation, once the change has committed. */
  const notify = (request: FastifyRequest, meetingId: string, kind: MeetingNoticeKind) =>
    sendMeetingNotices(app.deps, request.log, meetingId, kind, {
      appUrl: app.deps.env.appUrl,
      from: app.deps.env.MAIL_FROM,
    });

  app.get(
    '/api/committee/members',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Who may sit on a meeting: Committee Members and Medical Directors (issue 32 item 5)',
        tags: ['committee'],
        response: { 200: committeeMembersSchema, ...errorResponses },
      },
    },
    async (request) => {
      await manager(request);
      return { members: await committeeMembers(app.deps.db) };
    },
  );

  app.get(
    '/api/committee/meetings',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Committee meetings, newest first (a Committee Member: only theirs)',
        tags: ['committee'],
        response: { 200: meetingListSchema, ...errorResponses },
      },
    },
    async (request) => {
      const actor = await meetingReader(request);
      return {
        meetings: await listMeetings(app.deps.db, viewerOf(actor)),
        canManage: hasPermission(actor.roles, 'manage:meeting:any'),
      };
    },
  );

  app.post(
    '/api/committee/meetings',
    {
      config: { access: 'admin' },
      schema: {
        summary: "'New Meeting': date and time, members, quorum (default a majority)",
        tags: ['committee'],
        body: newMeetingBodySchema,
        response: meetingResponse,
      },
    },
    async (request) => {
      const actor = await manager(request);
      const meetingId = await createMeeting(app.deps.db, actor, request.body, new Date());
      await notify(request, meetingId, 'created');
      return getMeeting(app.deps.db, meetingId, viewerOf(actor), new Date());
    },
  );

  app.get(
    '/api/committee/meetings/:meetingId',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'A meeting: members, quorum, agenda with recusals and recorded decisions',
        tags: ['committee'],
        params: meetingParamsSchema,
        response: meetingResponse,
      },
    },
    async (request) =>
      getMeeting(app.deps.db, request.params.meetingId, viewerOf(await meetingReader(request)), new Date()),
  );

  app.post(
    '/api/committee/meetings/:meetingId/agenda',
    {
      config: { access: 'admin', fileDuty: { duty: 'add_to_agenda', file: 'body_application' } },
      schema: {
        summary: "Add a 'Ready for Committee' file to the agenda",
        tags: ['committee'],
        params: meetingParamsSchema,
        body: addAgendaItemBodySchema,
        response: meetingResponse,
      },
    },
    async (request) => {
      await addAgendaItem(
        app.deps.db,
        await manager(request),
        request.params.meetingId,
        request.body.applicationId,
      );
      await notify(request, request.params.meetingId, 'agenda_changed');
      return answer(request, request.params.meetingId);
    },
  );

  app.put(
    '/api/committee/meetings/:meetingId/agenda',
    {
      config: { access: 'admin' },
      schema: {
        summary: "Order the agenda: every item's id once, in the new order",
        tags: ['committee'],
        params: meetingParamsSchema,
        body: reorderAgendaBodySchema,
        response: meetingResponse,
      },
    },
    async (request) => {
      await reorderAgenda(
        app.deps.db,
        await manager(request),
        request.params.meetingId,
        request.body.itemIds,
      );
      await notify(request, request.params.meetingId, 'agenda_changed');
      return answer(request, request.params.meetingId);
    },
  );

  app.delete(
    '/api/committee/meetings/:meetingId/agenda/:itemId',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Remove an undecided file from the agenda (it stays Ready for Committee)',
        tags: ['committee'],
        params: agendaItemParamsSchema,
        response: meetingResponse,
      },
    },
    async (request) => {
      await removeAgendaItem(
        app.deps.db,
        await manager(request),
        request.params.meetingId,
        request.params.itemId,
      );
      await notify(request, request.params.meetingId, 'agenda_changed');
      return answer(request, request.params.meetingId);
    },
  );

  app.put(
    '/api/committee/meetings/:meetingId/agenda/:itemId/recusals',
    {
      config: { access: 'admin', fileDuty: { duty: 'set_recusals', file: 'agenda_item' } },
      schema: {
        summary: 'The members recused for a file: they neither vote nor count toward the quorum, nor read it',
        tags: ['committee'],
        params: agendaItemParamsSchema,
        body: recusalsBodySchema,
        response: meetingResponse,
      },
    },
    async (request) => {
      const { meetingId, itemId } = request.params;
      await setRecusals(app.deps.db, await manager(request), meetingId, itemId, request.body.memberIds);
      return answer(request, meetingId);
    },
  );

  app.post(
    '/api/committee/meetings/:meetingId/agenda/:itemId/decision',
    {
      config: { access: 'admin', fileDuty: { duty: 'record_decision', file: 'agenda_item' } },
      schema: {
        summary: "'Record Decision': Approve, Approve with Conditions, Deny or Defer, with the votes",
        description:
          '409 without a quorum of members present and not recused, when the votes do not count each of them once, when no more voted for than against, or when only the verifiers of the file vote (domain checkVote); an approval also needs every checklist item verified or waived.',
        tags: ['committee'],
        params: agendaItemParamsSchema,
        body: recordDecisionBodySchema,
        response: meetingResponse,
      },
    },
    async (request) => {
      const { meetingId, itemId } = request.params;
      const actor = await manager(request);
      const outcome = await recordCommitteeDecision(
        app.deps.db,
        actor,
        meetingId,
        itemId,
        request.body,
        new Date(),
        app.deps.env.VERIFICATION_MAX_AGE_DAYS,
      );
      if (outcome) await announceDecision(app, outcome, request.log);
      return getMeeting(app.deps.db, meetingId, viewerOf(actor), new Date());
    },
  );

  app.post(
    '/api/committee/meetings/:meetingId/close',
    {
      config: { access: 'admin' },
      schema: {
        summary: "'Close Meeting': the minutes are frozen (409 while a file has no decision)",
        tags: ['committee'],
        params: meetingParamsSchema,
        response: meetingResponse,
      },
    },
    async (request) => {
      await closeMeeting(app.deps.db, await manager(request), request.params.meetingId, new Date());
      return answer(request, request.params.meetingId);
    },
  );

  app.get(
    '/api/committee/meetings/:meetingId/files/:applicationId',
    {
      config: { access: 'admin' },
      schema: {
        summary: "A file's summary for the committee (403 for a member recused from it)",
        tags: ['committee'],
        params: meetingFileParamsSchema,
        response: { 200: fileSummarySchema, ...errorResponses },
      },
    },
    async (request) => {
      const actor = await meetingReader(request);
      const { meetingId, applicationId } = request.params;
      return meetingFileSummary(
        app.deps.db,
        app.deps.cipher,
        meetingId,
        applicationId,
        viewerOf(actor),
        decisionClockLimitsOf(app.deps.env),
        new Date(),
      );
    },
  );

  app.get(
    '/api/committee/meetings/:meetingId/minutes.pdf',
    {
      config: { access: 'admin' },
      schema: {
        summary: "The minutes of a closed meeting as a PDF (409 before 'Close Meeting'); audited",
        tags: ['committee'],
        params: meetingParamsSchema,
      },
    },
    async (request, reply) => {
      const actor = await meetingReader(request);
      const now = new Date();
      const meeting = await closedMeeting(app.deps.db, request.params.meetingId, viewerOf(actor), now);
      const pdf = await renderMinutes(meeting, now);
      await recordAudit(app.deps.db, {
        action: 'committee.minutes_downloaded',
        actorUserId: actor.userId,
        resourceType: 'committee_meeting',
        resourceId: meeting.meetingId,
        ipAddress: actor.ipAddress,
        details: { meetingId: meeting.meetingId },
      });
      return reply
        .type('application/pdf')
        .header(
          'content-disposition',
          `attachment; filename="minutes-${meeting.scheduledAt.slice(0, 10)}.pdf"`,
        )
        .send(pdf);
    },
  );
}
