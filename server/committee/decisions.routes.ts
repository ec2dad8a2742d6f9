/**
 * Decision routes (issue 32 item 4; contract domain/api/committee.ts):
 * - POST /api/admin/applications/:applicationId/send-for-decision   `review:application:any`
 * - POST /api/admin/applications/:applicationId/send-to-committee { note }   `decide:application:any`
 * - POST /api/admin/applications/:applicationId/approve   a clean file; `decide:application:any`
 * - GET  /api/admin/decisions?list=clean_files|committee   `read:application:any`
 * Refusals: 409 with what to do instead; 403 when the medical director verified the file.
 */
import type { FastifyRequest } from 'fastify';
import {
  decisionListQuerySchema,
  decisionListSchema,
  reviewSignatureSchema,
  sendForDecisionResultSchema,
  sendToCommitteeBodySchema,
} from '../../domain/api/committee.ts';
import { reviewParamsSchema, transitionResultSchema } from '../../domain/api/review.ts';
import { errorResponses } from '../../domain/app-error.ts';
import type { Permission } from '../../domain/permissions.ts';
import type { AppInstance } from '../app-types.ts';
import { requirePermission } from '../auth/actor.ts';
import { decisionClockLimitsOf } from '../env.ts';
import { sendReviewMails } from '../mail/review-mail.ts';
import type { TransitionOutcome } from '../review/review-decisions.service.ts';
import { approveCleanFile, decisionList, sendForDecision, sendToCommittee } from './decisions.service.ts';

/** The permission each route needs, by its last path segment. */
function decisionRoutePermission(request: FastifyRequest): Permission {
  const url = request.routeOptions.url ?? '';
  if (url.endsWith('/send-for-decision')) return 'review:application:any';
  if (url.endsWith('/send-to-committee') || url.endsWith('/approve')) return 'decide:application:any';
  return 'read:application:any';
}

/** Sends a decision's status event and mail once committed (as the review's transitions do). */
export async function announceDecision(
  app: AppInstance,
  outcome: TransitionOutcome,
  log: FastifyRequest['log'],
) {
  void app.deps.statusEvents.kick();
  await sendReviewMails(app.deps.mailer, log, app.deps.env.appUrl, outcome.mails);
}

export async function decisionRoutes(app: AppInstance) {
  // Before validation, so an anonymous caller gets 401 and others 403 whatever they send.
  app.addHook('onRequest', async (request) => {
    await requirePermission(request, decisionRoutePermission(request));
  });

  app.post(
    '/api/admin/applications/:applicationId/send-for-decision',
    {
      config: { access: 'admin', fileDuty: { duty: 'send_for_decision', file: 'application' } },
      schema: {
        summary: "'Send for Decision': to 'Clean Files' or 'Ready for Committee' (issue 32 item 4)",
        description:
          'Needs an Under Review file with no open request and every checklist item verified (within VERIFICATION_MAX_AGE_DAYS) or waived (409 otherwise, listing the items). A clean file (domain/committee/clean-file.ts) goes to the medical director; any other to the committee, with `reasons`.',
        tags: ['decisions'],
        params: reviewParamsSchema,
        response: { 200: sendForDecisionResultSchema, ...errorResponses },
      },
    },
    async (request) => {
      const actor = await requirePermission(request, 'review:application:any');
      const { mails, ...result } = await sendForDecision(
        app.deps.db,
        app.deps.cipher,
        actor,
        request.params.applicationId,
        new Date(),
        app.deps.env.VERIFICATION_MAX_AGE_DAYS,
      );
      request.log.info(
        { applicationId: request.params.applicationId, track: result.track },
        'sent for decision',
      );
      await sendReviewMails(app.deps.mailer, request.log, app.deps.env.appUrl, mails);
      return result;
    },
  );

  app.post(
    '/api/admin/applications/:applicationId/send-to-committee',
    {
      config: { access: 'admin', fileDuty: { duty: 'send_to_committee', file: 'application' } },
      schema: {
        summary: "'Send to Committee': the medical director sends a clean file on (issue 32 item 4)",
        tags: ['decisions'],
        params: reviewParamsSchema,
        body: sendToCommitteeBodySchema,
        response: { 200: sendForDecisionResultSchema, ...errorResponses },
      },
    },
    async (request) => {
      const actor = await requirePermission(request, 'decide:application:any');
      return sendToCommittee(app.deps.db, actor, request.params.applicationId, request.body.note);
    },
  );

  app.post(
    '/api/admin/applications/:applicationId/approve',
    {
      config: { access: 'admin', fileDuty: { duty: 'approve', file: 'application' } },
      schema: {
        summary: "'Approve' of a clean file by the medical director (issue 13; issue 32 item 4)",
        description:
          "409 unless the file is on 'Clean Files', still clean, and every checklist item is verified (within VERIFICATION_MAX_AGE_DAYS) or waived; 403 for the director's own file or one they verified (domain/review/file-duties.ts); signed 'I reviewed this file' with the director's second factor (issue 50 item 7: 422 for a wrong code).",
        tags: ['decisions'],
        params: reviewParamsSchema,
        body: reviewSignatureSchema,
        response: { 200: transitionResultSchema, ...errorResponses },
      },
    },
    async (request) => {
      const actor = await requirePermission(request, 'decide:application:any');
      const outcome = await approveCleanFile(
        app.deps,
        actor,
        request.params.applicationId,
        request.body,
        new Date(),
        app.deps.env.VERIFICATION_MAX_AGE_DAYS,
      );
      await announceDecision(app, outcome, request.log);
      return { applicationStatus: outcome.applicationStatus };
    },
  );

  app.get(
    '/api/admin/decisions',
    {
      config: { access: 'admin' },
      schema: {
        summary: "'Clean Files' or 'Ready for Committee': files waiting for a decision (issue 32 items 4, 7)",
        tags: ['decisions'],
        querystring: decisionListQuerySchema,
        response: { 200: decisionListSchema, ...errorResponses },
      },
    },
    async (request) => ({
      files: await decisionList(
        app.deps.db,
        request.query.list,
        decisionClockLimitsOf(app.deps.env),
        new Date(),
      ),
    }),
  );
}
