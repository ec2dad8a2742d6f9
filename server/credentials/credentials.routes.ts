/**
 * Expiring credentials routes (issue 14; contract: domain/api/credentials.ts):
 *
 * - GET /api/applications/:applicationId/expiring-credentials (the owner, or an administrator with
 *   read:application:any; another provider gets 404): what the application holds that expires
 *   within 90 days or has expired, soonest first, counted from the server's date (UTC).
 *
 * Handlers: authenticate -> validate -> load -> authorize -> service -> present.
 */
import { expiringCredentialsParamsSchema, expiringCredentialsSchema } from '../../domain/api/credentials.ts';
import { errorResponseSchema } from '../../domain/app-error.ts';
import { credentialKindSection, expiringSoon } from '../../domain/credentials/expiring-credentials.ts';
import type { AppInstance } from '../app-types.ts';
import { loadApplicationFor } from '../applications/applications.service.ts';
import { requireActor } from '../auth/actor.ts';
import { applicationCredentials } from './expiring-credentials.ts';

export async function credentialRoutes(app: AppInstance) {
  app.get(
    '/api/applications/:applicationId/expiring-credentials',
    {
      config: { access: 'signed-in' },
      schema: {
        summary: 'Credentials of the application that expire within 90 days or have expired (issue 14)',
        description: 'The owner, or an administrator (read:application:any); another provider gets 404.',
        tags: ['credentials'],
        params: expiringCredentialsParamsSchema,
        response: {
          200: expiringCredentialsSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          404: errorResponseSchema,
        },
      },
    },
    async (request) => {
      const actor = await requireActor(request);
      const application = await loadApplicationFor(app.deps.db, actor, request.params.applicationId, 'read');
      const credentials = expiringSoon(await applicationCredentials(app.deps.db, application.id), new Date());
      return {
        credentials: credentials.map((c) => ({ ...c, sectionKey: credentialKindSection[c.kind] })),
      };
    },
  );
}
