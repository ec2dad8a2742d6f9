/**
 * The completion state shown with an application (spec §4 completion button; issue 5): presented
 * from a completion_notifications row, or from its columns joined to the application. Its home is
 * the applications feature, which shows it; notifications imports it from here (never the reverse).
 * Schema: `completionStateSchema` in domain/api/applications.ts.
 */
import type { CompletionState } from '../../domain/api/applications.ts';

/** The state of a completion_notifications row (or of its joined columns); dates become ISO 8601. */
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
