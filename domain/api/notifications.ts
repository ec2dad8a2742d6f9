/**
 * API contract of completion notifications (issue 5; spec §4 completion button, §7 "Completion
 * notification"; design: docs/decisions/004-completion-delivery.md). Validated and serialised by
 * server/notifications/notifications.routes.ts; typed on the web by the dashboard's completion button
 * and the admin notifications view.
 */
import { z } from 'zod';
import { completionStatuses } from '../completion-status.ts';
import { completionStateSchema } from './applications.ts';

/**
 * How documents travel in the completion notification (issue 20; NOTIFY_DOCUMENTS): `inline` is spec
 * §7 (`base64Content`); `links` gives each document a `downloadUrl` (signed, short-lived, served by
 * GET /api/notification-documents/:documentId/:token) and `base64Content: null`.
 */
export const notificationDocumentsModes = ['inline', 'links'] as const;
export type NotificationDocumentsMode = (typeof notificationDocumentsModes)[number];

/**
 * Path parameters of GET /api/notification-documents/:documentId/:token (no session: the token is the
 * capability). Any string is accepted here: a malformed token is answered 403 like an altered one.
 */
export const notificationDocumentParamsSchema = z.object({ documentId: z.string(), token: z.string() });

/** Path parameters of POST /api/applications/:applicationId/completion (body: domain/attestation.ts `attestationInputSchema`). */
export const completionParamsSchema = z.object({ applicationId: z.string() });

/**
 * Answer of POST /api/applications/:applicationId/completion: 200 when delivered, 202 when pending,
 * failed or undelivered. The same state the application shows (domain/api/applications.ts).
 */
export const completionResponseSchema = completionStateSchema;
export type CompletionResponse = z.infer<typeof completionResponseSchema>;

/** One delivery attempt as administrators see it. */
export const notificationAttemptSchema = z.object({
  /** ISO 8601, UTC. */
  attemptedAt: z.iso.datetime(),
  /** null when no answer came (network error, timeout, payload too large, interrupted). */
  httpStatus: z.number().int().nullable(),
  /** Milliseconds; null when the attempt was interrupted. */
  durationMs: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type NotificationAttempt = z.infer<typeof notificationAttemptSchema>;

/** One notification as administrators see it (GET /api/admin/notifications, resend answer). */
export const adminNotificationSchema = z.object({
  /** Also the `webhook-id` the receiver saw. */
  id: z.uuid(),
  applicationId: z.uuid(),
  userId: z.string(),
  /** First and last name of the profile, '' without one. */
  providerName: z.string(),
  /** The profile's email, '' without one. */
  providerEmail: z.string(),
  status: z.enum(completionStatuses),
  /** Attempts since creation or the last resend. */
  attempts: z.number().int(),
  /** pending: when the next attempt is due (or the running attempt's lease ends); ISO 8601. */
  nextAttemptAt: z.iso.datetime().nullable(),
  lastError: z.string().nullable(),
  /** When the provider completed the application (ISO 8601). */
  requestedAt: z.iso.datetime(),
  deliveredAt: z.iso.datetime().nullable(),
  /** Oldest first. */
  attemptLog: z.array(notificationAttemptSchema),
});
export type AdminNotification = z.infer<typeof adminNotificationSchema>;

/** GET /api/admin/notifications: newest first. */
export const adminNotificationListSchema = z.object({ notifications: z.array(adminNotificationSchema) });
export type AdminNotificationList = z.infer<typeof adminNotificationListSchema>;

/** Query of GET /api/admin/notifications: an optional state, and at most `limit` (1-500, default 100). */
export const adminNotificationListQuerySchema = z.object({
  status: z
    .enum(completionStatuses, { error: 'status must be pending, delivered, failed or undelivered' })
    .optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number from 1 to 500' })
    .int()
    .min(1, 'limit must be a number from 1 to 500')
    .max(500, 'limit must be a number from 1 to 500')
    .default(100),
});
export type AdminNotificationListQuery = z.output<typeof adminNotificationListQuerySchema>;

/** Path parameters of POST /api/admin/notifications/:notificationId/resend. */
export const resendNotificationParamsSchema = z.object({ notificationId: z.string() });
