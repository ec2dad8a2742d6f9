/**
 * Credential update routes (issue 29 item 4). Schemas: domain/api/credential-updates.ts. Handlers:
 * authenticate -> validate -> authorize -> service -> present.
 *
 * Providers (the owner; another provider gets 404, an administrator 403 on writes):
 * - GET  /api/applications/:applicationId/credential-update   { allowed, unsentSections, latest }
 *        (an administrator may read it too: read:application:any)
 * - POST /api/applications/:applicationId/credential-update   'Submit Update': 201 { update, version,
 *        needsReverification, checklistItemsAdded }; 409 when updates are not open to the application
 *        (not approved, not the credential's application, credential not current) or nothing changed
 * - GET  /api/applications/:applicationId/legal-name   'Change Legal Name' (issue 49): the name on the
 *        credential, a change waiting, the documents not yet in the credential
 * - POST /api/applications/:applicationId/legal-name   { firstName, lastName, documentId }: 201 as
 *        'Submit Update'; 409 when updates are not open, for the same name or a document already in
 *        the credential
 * Administrators (`review:application:any`):
 * - GET  /api/admin/applications/:applicationId/credential-update   { open } (the review page's banner)
 * - POST /api/admin/applications/:applicationId/credential-update/complete   'Complete Update Review':
 *        200 the update, reviewed; 409 while an item is pending, in discrepancy or needs
 *        re-verification (named), or when no update is open
 */
import type { FastifyRequest } from 'fastify';
import { applicationParamsSchema } from '../../domain/api/applications.ts';
import {
  adminCredentialUpdateSchema,
  credentialUpdateSchema,
  credentialUpdateStatusSchema,
  legalNameChangeBodySchema,
  legalNameStatusSchema,
  submitUpdateResultSchema,
} from '../../domain/api/credential-updates.ts';
import { errorResponses } from '../../domain/app-error.ts';
import type { AppInstance } from '../app-types.ts';
import { requireActor, requirePermission, staffRoutePermission } from '../auth/actor.ts';
import {
  completeUpdateReview,
  credentialUpdateStatus,
  openCredentialUpdate,
  submitCredentialUpdate,
} from './credential-updates.service.ts';
import { legalNameStatus, requestLegalNameChange } from './legal-name.service.ts';

async function adminOnly(request: FastifyRequest): Promise<void> {
  await requirePermission(request, staffRoutePermission(request, 'review:application:any'));
}

/** The credential update routes of issue 29 item 4 (see the module's docstring). */
export async function credentialUpdateRoutes(app: AppInstance) {
  app.get(
    '/api/applications/:applicationId/credential-update',
    {
      config: { access: 'signed-in' },
      schema: {
        summary:
          'Whether the approved application takes credential updates, what is saved but not sent, and the latest update (issue 29 item 4)',
        description: 'The owner, or an administrator (read:application:any); another provider gets 404.',
        tags: ['credential-updates'],
        params: applicationParamsSchema,
        response: { 200: credentialUpdateStatusSchema, ...errorResponses },
      },
    },
    async (request) => {
      const actor = await requireActor(request);
      return credentialUpdateStatus(app.deps.db, actor, request.params.applicationId, new Date());
    },
  );

  app.post(
    '/api/applications/:applicationId/credential-update',
    {
      config: { access: 'provider' },
      schema: {
        summary:
          "'Submit Update': the saved changes of the approved application become a new version, listed as 'Credential Update' (issue 29 item 4)",
        tags: ['credential-updates'],
        params: applicationParamsSchema,
        response: { 201: submitUpdateResultSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const actor = await requirePermission(request, 'write:section:own');
      const result = await submitCredentialUpdate(
        app.deps.db,
        actor,
        request.params.applicationId,
        new Date(),
      );
      request.log.info(
        { applicationId: request.params.applicationId, version: result.version },
        'credential update submitted',
      );
      return reply.status(201).send(result);
    },
  );

  app.get(
    '/api/applications/:applicationId/legal-name',
    {
      config: { access: 'provider' },
      schema: {
        summary:
          "'Change Legal Name' of a credentialed provider: the name on the credential, a change waiting, and the documents it can cite (issue 49 item 1)",
        tags: ['credential-updates'],
        params: applicationParamsSchema,
        response: { 200: legalNameStatusSchema, ...errorResponses },
      },
    },
    async (request) => {
      const actor = await requirePermission(request, 'read:application:own');
      return legalNameStatus(app.deps.db, actor, request.params.applicationId, new Date());
    },
  );

  app.post(
    '/api/applications/:applicationId/legal-name',
    {
      config: { access: 'provider' },
      schema: {
        summary:
          "'Send Name Change': the new legal name with the document that shows it, sent as a credential update; the account changes once a reviewer accepts it (issue 49 item 1)",
        tags: ['credential-updates'],
        params: applicationParamsSchema,
        body: legalNameChangeBodySchema,
        response: { 201: submitUpdateResultSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const actor = await requirePermission(request, 'write:section:own');
      const now = new Date();
      await requestLegalNameChange(app.deps.db, actor, request.params.applicationId, request.body, now);
      // Sent at once: the snapshot of this update carries the requested name and its document.
      const result = await submitCredentialUpdate(app.deps.db, actor, request.params.applicationId, now);
      return reply.status(201).send(result);
    },
  );

  app.get(
    '/api/admin/applications/:applicationId/credential-update',
    {
      config: { access: 'admin' },
      onRequest: adminOnly,
      schema: {
        summary:
          "The open credential update of an application, for the review page's banner (issue 29 item 4)",
        tags: ['review'],
        params: applicationParamsSchema,
        response: { 200: adminCredentialUpdateSchema, ...errorResponses },
      },
    },
    async (request) => {
      await requirePermission(request, staffRoutePermission(request, 'review:application:any'));
      return { open: await openCredentialUpdate(app.deps.db, request.params.applicationId) };
    },
  );

  app.post(
    '/api/admin/applications/:applicationId/credential-update/complete',
    {
      config: { access: 'admin', fileDuty: { duty: 'complete_update_review', file: 'application' } },
      onRequest: adminOnly,
      schema: {
        summary:
          "'Complete Update Review': close the open credential update once every item is verified or waived (issue 29 item 4)",
        tags: ['review'],
        params: applicationParamsSchema,
        response: { 200: credentialUpdateSchema, ...errorResponses },
      },
    },
    async (request) => {
      const actor = await requirePermission(request, staffRoutePermission(request, 'review:application:any'));
      return completeUpdateReview(app.deps.db, actor, request.params.applicationId, new Date());
    },
  );
}
