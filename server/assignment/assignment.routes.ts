/**
 * Assignment routes (issue 32 item 3; contract domain/api/assignment.ts): who may be assigned a file,
 * and 'Assign'. Both need `review:application:any` (Administrators, Credentialing Specialists).
 */
import { assignBodySchema, assigneesSchema, assignResultSchema } from '../../domain/api/assignment.ts';
import { reviewParamsSchema } from '../../domain/api/review.ts';
import { errorResponses } from '../../domain/app-error.ts';
import type { AppInstance } from '../app-types.ts';
import { requirePermission } from '../auth/actor.ts';
import { assignReviewer, listAssignees } from './assignment.service.ts';

export async function assignmentRoutes(app: AppInstance) {
  // Before validation, so an anonymous caller gets 401 and others 403 whatever they send.
  app.addHook('onRequest', async (request) => {
    await requirePermission(request, 'review:application:any');
  });

  app.get(
    '/api/admin/assignees',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Who may be assigned a file: Administrators and Credentialing Specialists (issue 32)',
        tags: ['review'],
        response: { 200: assigneesSchema, ...errorResponses },
      },
    },
    async () => ({ assignees: await listAssignees(app.deps.db) }),
  );

  app.post(
    '/api/admin/applications/:applicationId/assign',
    {
      config: { access: 'admin', fileDuty: { duty: 'assign', file: 'application' } },
      schema: {
        summary: "'Assign': make someone who reviews files the file's reviewer (issue 32; audited)",
        description:
          '400 when the person does not review files; 409 unless the file is Submitted or Under Review; assigning the current reviewer changes nothing.',
        tags: ['review'],
        params: reviewParamsSchema,
        body: assignBodySchema,
        response: { 200: assignResultSchema, ...errorResponses },
      },
    },
    async (request) => {
      const actor = await requirePermission(request, 'review:application:any');
      const result = await assignReviewer(app.deps.db, request.params.applicationId, request.body.userId, {
        userId: actor.userId,
        ipAddress: actor.ipAddress,
      });
      request.log.info(
        { applicationId: request.params.applicationId, changed: result.changed },
        'file assigned',
      );
      return result;
    },
  );
}
