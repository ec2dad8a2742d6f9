/**
 * POST /api/applications/:applicationId/sections/:slug/confirm: 'Review and Confirm' of a section
 * copied from the provider's previous application (issue 29 item 6). Owner only (an administrator
 * gets 403, anybody else 404), draft only, the section must have content; idempotent (200 with the
 * first confirmation). Contract: domain/api/section-confirmations.ts.
 * Handler: authenticate -> validate -> load and authorize (service) -> service -> present.
 */
import {
  sectionConfirmationSchema,
  sectionConfirmParamsSchema,
} from '../../domain/api/section-confirmations.ts';
import { errorResponseSchema } from '../../domain/app-error.ts';
import type { AppInstance } from '../app-types.ts';
import { requireActor } from '../auth/actor.ts';
import { confirmSection, sectionKeyOfSlug } from './section-confirmations.ts';

export async function sectionConfirmationRoutes(app: AppInstance) {
  app.post(
    '/api/applications/:applicationId/sections/:slug/confirm',
    {
      config: { access: 'provider' },
      schema: {
        summary: "'Review and Confirm' a section copied from the previous application (owner, draft)",
        description:
          'Issue 29 item 6: in an application pre-filled from an earlier one, a copied section counts ' +
          'towards progress once confirmed (or saved). 409 when the application is not a draft, not a ' +
          'copy, or the section is empty.',
        tags: ['applications'],
        params: sectionConfirmParamsSchema,
        response: {
          200: sectionConfirmationSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
        },
      },
    },
    async (request) => {
      const actor = await requireActor(request);
      const section = sectionKeyOfSlug(request.params.slug);
      const confirmation = await confirmSection(
        app.deps.db,
        actor,
        request.params.applicationId,
        section,
        new Date(),
      );
      request.log.info({ applicationId: request.params.applicationId, section }, 'section confirmed');
      return { sectionKey: confirmation.sectionKey, confirmedAt: confirmation.confirmedAt.toISOString() };
    },
  );
}
