/**
 * Credentialing cycle routes (issue 29 item 2). Schemas: domain/api/provider-credential.ts,
 * domain/api/applications.ts. Handlers: authenticate -> validate -> authorize -> service -> present.
 *
 * - POST /api/applications/:applicationId/withdraw (provider, own draft): 200 { applicationId,
 *   applicationStatus: 'withdrawn' }; 404 another provider's or unknown, 403 an administrator,
 *   409 unless a draft.
 * - POST /api/admin/applications/:applicationId/close { reason } ('Close Without Decision',
 *   `review:application:any`): 200 as above; 400 without a reason or over REVIEW_TEXT_MAX characters,
 *   409 unless submitted or under review.
 * - POST /api/admin/applications/:applicationId/start-recredentialing ('Start Recredentialing Now',
 *   `review:application:any`): 201 the new draft and what was copied (as POST /api/applications);
 *   409 unless the provider's latest approved application with a credential not ended, and no open cycle.
 */

import type { FastifyRequest } from 'fastify';
import { applicationParamsSchema, createdApplicationSchema } from '../../domain/api/applications.ts';
import {
  closeWithoutDecisionBodySchema,
  cycleTransitionSchema,
} from '../../domain/api/provider-credential.ts';
import { errorResponses } from '../../domain/app-error.ts';
import type { AppInstance } from '../app-types.ts';
import { presentApplication } from '../applications/applications.routes.ts';
import { requirePermission, staffRoutePermission } from '../auth/actor.ts';
import { sendReviewMails } from '../mail/review-mail.ts';
import { emailOf } from '../review/review-transaction.ts';
import { closeWithoutDecision, startRecredentialingNow, withdrawDraft } from './cycles.service.ts';

async function adminOnly(request: FastifyRequest): Promise<void> {
  await requirePermission(request, staffRoutePermission(request, 'review:application:any'));
}

/** The cycle routes of issue 29 item 2 (see the module's docstring). */
export async function cycleRoutes(app: AppInstance) {
  app.post(
    '/api/applications/:applicationId/withdraw',
    {
      config: { access: 'provider' },
      schema: {
        summary:
          "'Withdraw': the provider's own draft -> withdrawn; the credential is untouched (issue 29 item 2)",
        tags: ['applications'],
        params: applicationParamsSchema,
        response: { 200: cycleTransitionSchema, ...errorResponses },
      },
    },
    async (request) => {
      const actor = await requirePermission(request, 'withdraw:application:own');
      const result = await withdrawDraft(app.deps.db, actor, request.params.applicationId, new Date());
      request.log.info({ applicationId: result.applicationId }, 'application withdrawn');
      return result;
    },
  );

  app.post(
    '/api/admin/applications/:applicationId/close',
    {
      config: { access: 'admin', fileDuty: { duty: 'close', file: 'application' } },
      // Before validation, so an anonymous caller gets 401 and a provider 403 whatever they send.
      onRequest: adminOnly,
      schema: {
        summary:
          "'Close Without Decision': submitted or under review -> withdrawn with a reason; the credential is untouched (issue 29 item 2)",
        tags: ['review'],
        params: applicationParamsSchema,
        body: closeWithoutDecisionBodySchema,
        response: { 200: cycleTransitionSchema, ...errorResponses },
      },
    },
    async (request) => {
      const actor = await requirePermission(request, staffRoutePermission(request, 'review:application:any'));
      const result = await closeWithoutDecision(
        app.deps.db,
        actor,
        request.params.applicationId,
        request.body.reason,
        new Date(),
      );
      // The status event is in the outbox already (committed with the change): send it now.
      void app.deps.statusEvents.kick();
      return result;
    },
  );

  app.post(
    '/api/admin/applications/:applicationId/start-recredentialing',
    {
      config: { access: 'admin', fileDuty: { duty: 'start_recredentialing', file: 'application' } },
      // Before validation, so an anonymous caller gets 401 and a provider 403 whatever they send.
      onRequest: adminOnly,
      schema: {
        summary:
          "'Start Recredentialing Now': a recredentialing draft for the provider at any date, copied from their latest application (issue 29 item 2)",
        tags: ['review'],
        params: applicationParamsSchema,
        response: { 201: createdApplicationSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const actor = await requirePermission(request, staffRoutePermission(request, 'review:application:any'));
      const { application, copied } = await startRecredentialingNow(
        { db: app.deps.db, storage: app.deps.storage, logger: request.log },
        actor,
        request.params.applicationId,
        new Date(),
      );
      request.log.info({ applicationId: application.id }, 'recredentialing opened by an administrator');
      // Issue 51 item 6: the provider is told their recredentialing is open (after the commit).
      const email = await emailOf(app.deps.db, application.userId);
      if (email) {
        await sendReviewMails(app.deps.mailer, request.log, app.deps.env.appUrl, [
          { kind: 'recredentialing_started', to: email, applicationId: application.id },
        ]);
      }
      return reply.status(201).send({ ...presentApplication(application), copied });
    },
  );
}
