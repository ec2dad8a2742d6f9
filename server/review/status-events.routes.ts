/**
 * The administrators' view of `application.status_changed` events (issue 28 item 8), beside the
 * completion notifications in the admin 'Notifications' tab (decision 018, addendum):
 *
 * - GET /api/admin/status-events (admin): every event with its delivery state, newest first.
 * - POST /api/admin/status-events/:eventId/resend (admin): queue it again as a new message (new
 *   `webhook-id`, `resendOf` the first) and try at once.
 *
 * Here rather than in notifications/: the events are the review's (review builds on notifications).
 * Request and response schemas: domain/api/notifications.ts.
 */
import {
  adminStatusEventListQuerySchema,
  adminStatusEventListSchema,
  adminStatusEventSchema,
  resendStatusEventParamsSchema,
} from '../../domain/api/notifications.ts';
import { errorResponseSchema } from '../../domain/app-error.ts';
import type { AppInstance } from '../app-types.ts';
import { requirePermission } from '../auth/actor.ts';
import { listStatusEvents, resendStatusEvent } from './status-events.service.ts';

export async function statusEventRoutes(app: AppInstance) {
  app.get(
    '/api/admin/status-events',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'application.status_changed events with their delivery state, newest first',
        tags: ['notifications', 'admin'],
        querystring: adminStatusEventListQuerySchema,
        response: {
          200: adminStatusEventListSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
        },
      },
    },
    async (request) => {
      await requirePermission(request, 'read:application:any');
      return { statusEvents: await listStatusEvents(app.deps.db, request.query) };
    },
  );

  app.post(
    '/api/admin/status-events/:eventId/resend',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Send an application.status_changed event again, as a new message, trying at once',
        description:
          "A re-send is a new message (issue 28): a new webhook-id, and the body's resendOf names the first " +
          "message (the event's id), so a receiver that drops seen ids does not drop it. Its retries keep " +
          'the new id. It still waits for an older pending event of the same application.',
        tags: ['notifications', 'admin'],
        params: resendStatusEventParamsSchema,
        response: {
          200: adminStatusEventSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          404: errorResponseSchema,
        },
      },
    },
    async (request) => {
      const actor = await requirePermission(request, 'send:notification:any');
      const { eventId } = request.params;
      await resendStatusEvent(app.deps.db, actor, eventId);
      // Resolves once a delivery pass has run (a no-op without an endpoint: the event stays pending).
      await app.deps.statusEvents.kick();
      const [view] = await listStatusEvents(app.deps.db, { ids: [eventId], limit: 1 });
      return view!;
    },
  );
}
