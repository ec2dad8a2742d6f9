/**
 * States of a completion notification (issue 5; spec §4 "Application Completed", §7 "Completion
 * notification"; design: docs/decisions/004-completion-delivery.md). The database enum
 * `completion_status` (server/db/schema/notifications.ts) and the API contract read this one list.
 *
 * - pending: queued; delivered by the worker when due (retries with backoff).
 * - delivered: the receiver answered 2xx.
 * - failed: final; the receiver refused it (4xx other than 408/429), the payload was too large, or
 *   every attempt failed. Only an administrator's resend queues it again.
 * - undelivered: no NOTIFY_WEBHOOK_URL was configured; queued again when the server starts with one.
 */
export const completionStatuses = ['pending', 'delivered', 'failed', 'undelivered'] as const;
export type CompletionStatus = (typeof completionStatuses)[number];
