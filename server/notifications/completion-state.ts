/**
 * The completion state a provider sees (spec §4 completion button; issue 5 "the dashboard says so"):
 * part of the application DTO and the answer of POST /api/applications/:applicationId/completion.
 * `lastError` is a short technical reason without PHI (e.g. 'The receiver answered HTTP 503').
 */
import { z } from 'zod';
import { completionStatuses } from '../db/schema/notifications.ts';

export const completionStateSchema = z.object({
  status: z.enum(completionStatuses),
  /** When the provider completed the application (ISO 8601). */
  requestedAt: z.iso.datetime(),
  deliveredAt: z.iso.datetime().nullable(),
  lastError: z.string().nullable(),
});
export type CompletionState = z.infer<typeof completionStateSchema>;

/** The state of a completion_notifications row (or of its joined columns). */
export function presentCompletionState(row: {
  status: CompletionState['status'];
  createdAt: Date;
  deliveredAt: Date | null;
  lastError: string | null;
}): CompletionState {
  return {
    status: row.status,
    requestedAt: row.createdAt.toISOString(),
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    lastError: row.lastError,
  };
}
