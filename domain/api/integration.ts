/**
 * The workflow tool's side of the review (issue 13 "Integration", decision 018): the outbound
 * `application.status_changed` event, sent to the completion notification's receiver with the same
 * Standard Webhooks signing, and the messages the signed inbound endpoint
 * `POST /api/integrations/webhooks` accepts. Ids, statuses, times and notes only: no PHI goes out.
 */
import { z } from 'zod';
import { applicationStatuses } from '../application-status.ts';
import { reviewActors } from '../review/review-workflow.ts';
import { REVIEW_TEXT_MAX } from './review.ts';

/** The named actor of the inbound endpoint in the audit log, the timeline and outbound events. */
export const INTEGRATION_ACTOR_NAME = 'workflow-integration';

/** Standard Webhooks event type of a status change. */
export const STATUS_CHANGED_EVENT = 'application.status_changed';

/** The outbound event body (Standard Webhooks: `type`, `timestamp`, `data`). */
export const statusChangedEventSchema = z.object({
  type: z.literal(STATUS_CHANGED_EVENT),
  /** When the event was created (ISO 8601, UTC). */
  timestamp: z.iso.datetime(),
  data: z.object({
    applicationId: z.uuid(),
    from: z.enum(applicationStatuses),
    to: z.enum(applicationStatuses),
    actor: z.object({
      /** provider, reviewer (an administrator) or integration (this endpoint's workflow tool). */
      type: z.enum(reviewActors),
      /** The user id of a provider or reviewer; the integration's name for the integration. */
      id: z.string().nullable(),
    }),
    /** When the status changed (ISO 8601, UTC). */
    occurredAt: z.iso.datetime(),
  }),
  /**
   * null on the first message and its retries; on an administrator's re-send (a new message with a new
   * `webhook-id`, issue 28) the first message's `webhook-id`, the event's id. As the completion payload.
   */
  resendOf: z.uuid().nullable(),
});
export type StatusChangedEvent = z.infer<typeof statusChangedEventSchema>;

/**
 * Delivery states of a status event (`status_events.status`): pending (queued, or waiting for an
 * endpoint), delivered (2xx), failed (a final refusal or NOTIFY_MAX_ATTEMPTS used up).
 */
export const statusEventStates = ['pending', 'delivered', 'failed'] as const;
export type StatusEventState = (typeof statusEventStates)[number];

/** Longest accepted inbound body, bytes. */
export const INBOUND_WEBHOOK_MAX_BYTES = 64 * 1024;
/** Messages older or newer than this (seconds) are refused (Standard Webhooks replay window; issue 13: 5 minutes). */
export const INBOUND_WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

const applicationId = z.uuid({ error: 'data.applicationId must be an application id (UUID)' });
const text = (name: string) =>
  z
    .string({ error: `${name} must be text` })
    .trim()
    .min(1, `Enter ${name}`)
    .max(REVIEW_TEXT_MAX, `${name} may be at most ${REVIEW_TEXT_MAX} characters`);

/**
 * What the workflow tool can ask: move an application along the review's state machine (the
 * reviewer's actions; 'reject' needs a reason) or add a note to its timeline.
 */
export const inboundWebhookSchema = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('application.transition'),
      data: z.object({
        applicationId,
        action: z.enum(['start_review', 'approve', 'reject'], {
          error: 'data.action must be start_review, approve or reject',
        }),
        reason: text('data.reason').optional(),
      }),
    }),
    z.object({
      type: z.literal('application.note'),
      data: z.object({ applicationId, note: text('data.note') }),
    }),
  ],
  { error: "type must be 'application.transition' or 'application.note'" },
);
export type InboundWebhook = z.infer<typeof inboundWebhookSchema>;

/** The answer to an applied message (also replayed for a repeated `webhook-id`). */
export const inboundWebhookResultSchema = z.object({
  applied: z.literal(true),
  applicationId: z.uuid(),
  applicationStatus: z.enum(applicationStatuses),
});
