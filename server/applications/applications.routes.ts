/**
 * /api/applications: the provider's own applications (spec §4, §7 provider_applications).
 * Request and response schemas: domain/api/applications.ts.
 * Handlers: authenticate -> validate -> load -> authorize -> service -> present.
 */
import {
  type ApplicationDto,
  applicationListSchema,
  applicationParamsSchema,
  applicationSchema,
  createdApplicationSchema,
} from '../../domain/api/applications.ts';
import { errorResponseSchema } from '../../domain/app-error.ts';
import { recredentialingDueOn } from '../../domain/credentials/recredentialing.ts';
import type { AppInstance } from '../app-types.ts';
import { requireActor, requirePermission } from '../auth/actor.ts';
import { findProviderCredential, presentCredential } from '../credential/credential-record.ts';
import {
  type ApplicationSummary,
  findApplication,
  listApplicationsOfUser,
  loadApplicationFor,
} from './applications.service.ts';
import { startApplication } from './copy-forward.ts';
import { draftWorkHistoryGaps } from './work-history-gaps.ts';

/** The contract's schemas (domain/api/applications.ts), re-exported for the admin routes. */
export { type ApplicationDto, applicationSchema };

/** The application DTO (domain/api/applications.ts) of a summary. */
export function presentApplication(a: ApplicationSummary): ApplicationDto {
  return {
    id: a.id,
    applicationStatus: a.applicationStatus,
    createdAt: a.createdAt.toISOString(),
    completeSections: a.completeSections,
    unconfirmedSections: a.unconfirmedSections,
    progress: a.progress,
    completion: a.completion,
    decidedAt: a.decidedAt?.toISOString() ?? null,
    recredentialingDueOn:
      a.applicationStatus === 'approved' && a.decidedAt ? recredentialingDueOn(a.decidedAt) : null,
    copiedFromId: a.copiedFromId,
    cycle: a.cycle,
    withdrawnAt: a.withdrawnAt?.toISOString() ?? null,
  };
}

export async function applicationRoutes(app: AppInstance) {
  app.get(
    '/api/applications',
    {
      config: { access: 'provider' },
      schema: {
        summary: "The signed-in provider's applications, newest first, with progress (spec §4)",
        tags: ['applications'],
        response: { 200: applicationListSchema, 401: errorResponseSchema, 403: errorResponseSchema },
      },
    },
    async (request) => {
      const actor = await requirePermission(request, 'read:application:own');
      const now = new Date();
      const applications = await listApplicationsOfUser(app.deps.db, actor.userId);
      const credential = await findProviderCredential(app.deps.db, actor.userId);
      return {
        applications: applications.map(presentApplication),
        credential: presentCredential(credential, now),
        workHistoryGaps: await draftWorkHistoryGaps(app.deps.db, applications, now),
      };
    },
  );

  app.post(
    '/api/applications',
    {
      config: { access: 'provider' },
      schema: {
        summary:
          'Start a new draft application (spec §4), pre-filled from the most recent application when there is one (issue 14)',
        tags: ['applications'],
        response: {
          201: createdApplicationSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          409: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const actor = await requirePermission(request, 'create:application:own');
      const { application, copied } = await startApplication(
        { db: app.deps.db, storage: app.deps.storage, logger: request.log },
        actor,
        // Issue 29 item 2: the provider's own start, refused (409) before the 180-day window.
        { by: 'provider', now: new Date() },
      );
      request.log.info(
        { applicationId: application.id, copiedSections: copied?.sections.length ?? 0 },
        'application created',
      );
      return reply.status(201).send({ ...presentApplication(application), copied });
    },
  );

  app.get(
    '/api/applications/:applicationId',
    {
      config: { access: 'signed-in' },
      schema: {
        summary: 'One application with progress (owner or admin)',
        tags: ['applications'],
        params: applicationParamsSchema,
        response: { 200: applicationSchema, 401: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => {
      const actor = await requireActor(request);
      const application = await loadApplicationFor(app.deps.db, actor, request.params.applicationId, 'read');
      const summary = await findApplication(app.deps.db, application.id);
      return presentApplication(summary!);
    },
  );
}
