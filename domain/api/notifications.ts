/**
 * API contract of completion notifications (issue 5; spec §4 completion button, §7 "Completion
 * notification"; design: docs/decisions/004-completion-delivery.md). Validated and serialised by
 * server/notifications/notifications.routes.ts; typed on the web by the dashboard's completion button
 * and the admin notifications view.
 */
import { z } from 'zod';
import { applicationStatuses } from '../application-status.ts';
import { completionStatuses } from '../completion-status.ts';
import { reviewActors } from '../review/review-workflow.ts';
import { completionStateSchema } from './applications.ts';
import { statusEventStates } from './integration.ts';

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

/** What became of one send: the current send's state, or for an earlier send delivered or not. */
export const deliverySendResults = [...completionStatuses, 'not_delivered'] as const;
export type DeliverySendResult = (typeof deliverySendResults)[number];

/**
 * One send of a completion notification or status event (issue 53 item 4): the first message or an
 * administrator's re-send, each with its own `webhook-id` and attempts, oldest first.
 */
export const deliverySendSchema = z.object({
  /**
   * The send's `webhook-id`; null for attempts logged before the send was recorded with them (issue
   * 53), of a notification re-sent since (which send they belonged to is not known).
   */
  webhookId: z.uuid().nullable(),
  /** True for an administrator's re-send (its payload's `resendOf` names the first message); null: not known. */
  resend: z.boolean().nullable(),
  /**
   * The current (last) send: the notification's state. An earlier send: 'delivered' when the receiver
   * accepted one of its attempts, else 'not_delivered' (failed, or replaced by a re-send).
   */
  result: z.enum(deliverySendResults),
  /** When its first attempt started (ISO 8601); null before any attempt (e.g. no endpoint configured). */
  firstAttemptAt: z.iso.datetime().nullable(),
  /** When the receiver accepted it (the accepted attempt's start plus its duration; ISO 8601), else null. */
  deliveredAt: z.iso.datetime().nullable(),
  /** Its attempts, oldest first. */
  attempts: z.array(notificationAttemptSchema),
  /**
   * Links mode (issue 53 item 3): the documents this send offered through download links, how many
   * the receiver fetched whole, and when the links expire (ISO 8601). Null when it offered none
   * (inline mode, a status event, no documents).
   */
  documents: z
    .object({
      offered: z.number().int(),
      fetched: z.number().int(),
      linksExpireAt: z.iso.datetime(),
    })
    .nullable(),
});
export type DeliverySend = z.infer<typeof deliverySendSchema>;

/**
 * A delivered links-mode send, as the card says it (issue 53 item 3): 'fetched' when the receiver
 * fetched every document offered, 'waiting' while the links live, 'not_fetched' once they expired
 * without; null when there is nothing to fetch or the send was not delivered.
 * @param now ms since the epoch
 */
export function documentFetchState(
  send: Pick<DeliverySend, 'result' | 'documents'>,
  now: number,
): 'fetched' | 'waiting' | 'not_fetched' | null {
  const documents = send.documents;
  if (send.result !== 'delivered' || !documents || documents.offered === 0) return null;
  if (documents.fetched >= documents.offered) return 'fetched';
  return Date.parse(documents.linksExpireAt) > now ? 'waiting' : 'not_fetched';
}

/** One notification as administrators see it (GET /api/admin/notifications, resend answer). */
export const adminNotificationSchema = z.object({
  /** The first message's `webhook-id`; a re-send's payload names it in `resendOf` (issue 28). */
  id: z.uuid(),
  /** The `webhook-id` of the current message: `id` until an administrator re-sends it, then a new one. */
  webhookId: z.uuid(),
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
  /** Every attempt of every send, oldest first. */
  attemptLog: z.array(notificationAttemptSchema),
  /** The first message and each re-send, oldest first (issue 53 item 4). */
  sends: z.array(deliverySendSchema),
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

/**
 * One `application.status_changed` event as administrators see it (issue 28 item 8; GET
 * /api/admin/status-events, the re-send's answer), with the same attempt log and sends as a completion
 * notification (issue 53 item 4; events delivered before then have none).
 */
export const adminStatusEventSchema = z.object({
  /** The first message's `webhook-id`; a re-send's body names it in `resendOf`. */
  id: z.uuid(),
  /** The `webhook-id` of the current message: `id` until an administrator re-sends it, then a new one. */
  webhookId: z.uuid(),
  applicationId: z.uuid(),
  /** First and last name of the application's provider, '' without a profile. */
  providerName: z.string(),
  /** The profile's email, '' without one. */
  providerEmail: z.string(),
  from: z.enum(applicationStatuses),
  to: z.enum(applicationStatuses),
  /** Who changed the status: provider, reviewer (an administrator) or integration. */
  actorType: z.enum(reviewActors),
  /** When the status changed (ISO 8601). */
  occurredAt: z.iso.datetime(),
  status: z.enum(statusEventStates),
  /** Attempts since creation or the last re-send. */
  attempts: z.number().int(),
  /** pending: when the next attempt is due (or the running attempt's lease ends); ISO 8601. */
  nextAttemptAt: z.iso.datetime().nullable(),
  lastError: z.string().nullable(),
  deliveredAt: z.iso.datetime().nullable(),
  /** Every attempt of every send, oldest first. */
  attemptLog: z.array(notificationAttemptSchema),
  /** The first message and each re-send, oldest first. */
  sends: z.array(deliverySendSchema),
});
export type AdminStatusEvent = z.infer<typeof adminStatusEventSchema>;

/** GET /api/admin/status-events: newest first. */
export const adminStatusEventListSchema = z.object({ statusEvents: z.array(adminStatusEventSchema) });

/** Query of GET /api/admin/status-events: an optional state, and at most `limit` (1-500, default 100). */
export const adminStatusEventListQuerySchema = z.object({
  status: z.enum(statusEventStates, { error: 'status must be pending, delivered or failed' }).optional(),
  limit: adminNotificationListQuerySchema.shape.limit,
});
export type AdminStatusEventListQuery = z.output<typeof adminStatusEventListQuerySchema>;

/** Path parameters of POST /api/admin/status-events/:eventId/resend. */
export const resendStatusEventParamsSchema = z.object({ eventId: z.string() });
