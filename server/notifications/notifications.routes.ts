/**
 * Completion notification routes (issue 5; spec §4 completion button, §7 "Completion notification"):
 *
 * - POST /api/applications/:applicationId/completion (provider, owner; body: the signed attestation,
 *   domain/attestation.ts): record the attestation and the completion, which delivers it to the
 *   credentialing team inside the product (the 'Review Queue', and an email to the staff who review
 *   files, sent after the commit; issue 51 item 6), queue its webhook notification and make the first
 *   delivery attempt inline (bounded by NOTIFY_TIMEOUT_MS). Any 2xx means the completion is recorded
 *   (the provider's 'Success'); the webhook's state is the staff's (the 'Notifications' tab):
 *   200 `{ status: 'delivered', ... }` when the receiver accepted it; 202 with the state otherwise
 *   (pending: queued and retried; failed: refused; undelivered: no endpoint configured). A second
 *   call returns the existing record (and, while pending, tries again at once).
 * - GET /api/admin/notifications (admin): every notification with its state and attempts.
 * - POST /api/admin/notifications/:notificationId/resend (admin): queue again as a new message (new
 *   webhook-id, `resendOf` the first; issue 28) and try at once.
 * - GET /api/notification-documents/:documentId/:token (public, signed link of `links` mode; issue 20):
 *   notification-documents.routes.ts.
 *
 * Request and response schemas: domain/api/notifications.ts.
 * Handlers: authenticate -> validate -> load -> authorize -> service -> present.
 */
import {
  adminNotificationListQuerySchema,
  adminNotificationListSchema,
  adminNotificationSchema,
  completionParamsSchema,
  completionResponseSchema,
  resendNotificationParamsSchema,
} from '../../domain/api/notifications.ts';
import { errorResponseSchema } from '../../domain/app-error.ts';
import { attestationInputSchema } from '../../domain/attestation.ts';
import type { AppInstance } from '../app-types.ts';
import { presentCompletionState } from '../applications/completion-state.ts';
import { requirePermission } from '../auth/actor.ts';
import { sendReviewMails } from '../mail/review-mail.ts';
import { listNotifications, requestCompletion, resendNotification } from './completion.service.ts';
import { notificationDocumentRoutes } from './notification-documents.routes.ts';

export async function notificationRoutes(app: AppInstance) {
  await app.register(notificationDocumentRoutes);

  app.post(
    '/api/applications/:applicationId/completion',
    {
      config: { access: 'provider' },
      schema: {
        summary: 'Complete the application: notify the credentialing team (spec §4, §7)',
        description:
          'Only for a draft at 100%, with the signed attestation (issue 14: the disclosure answers and the ' +
          "typed full name, which must be the profile's). Records the attestation and the completion (the " +
          'application moves to submitted, issue 13) and sends the signed notification. 200 when delivered; ' +
          '202 when queued (pending), refused (failed) or no endpoint is configured (undelivered). ' +
          'Idempotent: a second call returns the existing record and stores nothing (it needs no body).',
        tags: ['notifications'],
        params: completionParamsSchema,
        // Optional only to ask again about an existing completion (a retry of its delivery).
        body: attestationInputSchema.nullish(),
        response: {
          200: completionResponseSchema,
          202: completionResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const actor = await requirePermission(request, 'send:notification:own');
      const { completionDelivery } = app.deps;
      const completion = await requestCompletion(
        app.deps.db,
        completionDelivery,
        actor,
        request.params.applicationId,
        {
          input: request.body ?? undefined,
          userAgent: request.headers['user-agent'] ?? null,
          cipher: app.deps.cipher,
        },
      );
      // The delivery inside the product leaves first: the webhook's attempt may wait for its timeout.
      await sendReviewMails(app.deps.mailer, request.log, app.deps.env.appUrl, completion.mails);
      let row = completion.row;
      if (completion.claim) row = (await completionDelivery.runClaim(completion.claim)) ?? row;
      else if (row.status === 'pending') row = (await completionDelivery.deliverNow(row.id)) ?? row;
      request.log.info(
        { notificationId: row.id, status: row.status, created: completion.created },
        'completion',
      );
      return reply.status(row.status === 'delivered' ? 200 : 202).send(presentCompletionState(row));
    },
  );

  app.get(
    '/api/admin/notifications',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Completion notifications with their delivery state and attempts, newest first',
        tags: ['notifications', 'admin'],
        querystring: adminNotificationListQuerySchema,
        response: { 200: adminNotificationListSchema, 401: errorResponseSchema, 403: errorResponseSchema },
      },
    },
    async (request) => {
      await requirePermission(request, 'read:application:any');
      const notifications = await listNotifications(app.deps.db, request.query);
      return { notifications };
    },
  );

  app.post(
    '/api/admin/notifications/:notificationId/resend',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Send a completion notification again, as a new message, trying at once',
        description:
          "A re-send is a new message (issue 28): a new webhook-id, and the payload's resendOf names the " +
          'first message (the notification id), so a receiver that drops seen ids does not drop it. ' +
          'Its retries keep the new id.',
        tags: ['notifications', 'admin'],
        params: resendNotificationParamsSchema,
        response: {
          200: adminNotificationSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          404: errorResponseSchema,
        },
      },
    },
    async (request) => {
      const actor = await requirePermission(request, 'send:notification:any');
      const { completionDelivery } = app.deps;
      const { notificationId } = request.params;
      const claim = await resendNotification(app.deps.db, completionDelivery, actor, notificationId);
      if (claim) await completionDelivery.runClaim(claim);
      const [view] = await listNotifications(app.deps.db, { ids: [notificationId], limit: 1 });
      return view!;
    },
  );
}
