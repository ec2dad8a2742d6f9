/**
 * The provider's side of a decision (issue 32 item 6; contract domain/api/review.ts):
 * - POST /api/applications/:applicationId/appeal { statement }   'Request Appeal' (the owner only)
 * - GET  /api/applications/:applicationId/letters/:letterId       a decision letter as a PDF: the
 *   owner, or staff who read files (`read:application:any`); audited
 * Another provider's application answers 404 (existence not revealed).
 */
import { z } from 'zod';
import { appealBodySchema, letterParamsSchema, reviewParamsSchema } from '../../domain/api/review.ts';
import { errorResponses } from '../../domain/app-error.ts';
import type { AppInstance } from '../app-types.ts';
import { loadApplicationFor } from '../applications/applications.service.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { requireActor, requirePermission } from '../auth/actor.ts';
import { letterPdf } from '../review/decision-letter.ts';
import { requestAppeal } from './appeals.service.ts';

export async function appealRoutes(app: AppInstance) {
  app.post(
    '/api/applications/:applicationId/appeal',
    {
      config: { access: 'provider' },
      schema: {
        summary: "'Request Appeal' of a denial, with a statement (issue 32 item 6)",
        description: `409 unless the application was denied no more than 30 days ago and has no appeal yet. The appeal waits for a later committee meeting; its decision is final.`,
        tags: ['decisions'],
        params: reviewParamsSchema,
        body: appealBodySchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const actor = await requirePermission(request, 'appeal:application:own');
      await requestAppeal(
        app.deps.db,
        actor,
        request.params.applicationId,
        request.body.statement,
        new Date(),
      );
      request.log.info({ applicationId: request.params.applicationId }, 'appeal requested');
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/applications/:applicationId/letters/:letterId',
    {
      config: { access: 'signed-in' },
      schema: {
        summary: 'A decision letter as a PDF (issue 32 item 6): the provider, or staff who read files',
        tags: ['decisions'],
        params: letterParamsSchema,
      },
    },
    async (request, reply) => {
      const actor = await requireActor(request);
      const { applicationId, letterId } = request.params;
      const application = await loadApplicationFor(app.deps.db, actor, applicationId, 'read');
      const { pdf, fileName } = await letterPdf(app.deps.db, application.id, letterId);
      await recordAudit(app.deps.db, {
        action: 'review.letter_downloaded',
        actorUserId: actor.userId,
        subjectUserId: application.userId,
        resourceType: 'application',
        resourceId: application.id,
        ipAddress: actor.ipAddress,
        details: { applicationId: application.id, letterId },
      });
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(pdf);
    },
  );
}
