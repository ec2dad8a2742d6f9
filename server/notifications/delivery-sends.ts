/**
 * The sends of a completion notification or status event as administrators see them (issue 53 item
 * 4): its attempts grouped by the `webhook-id` each was made under, so a card can show the first
 * message and every re-send with its own id, time, attempts and result, and the first delivery's time
 * survives a re-send. Pure: the callers read the rows (completion.service.ts, status-events.service.ts).
 */
import type { DeliverySend, NotificationAttempt } from '../../domain/api/notifications.ts';
import type { CompletionStatus } from '../../domain/completion-status.ts';
import type { DocumentFetches } from './document-fetches.ts';
import { webhookMessageIds } from './webhook-signature.ts';

/** An attempt row as read, with the `webhook-id` of its send (null: not recorded, see deliverySendSchema). */
export interface LoggedAttempt {
  messageId: string | null;
  attemptedAt: Date;
  httpStatus: number | null;
  durationMs: number | null;
  error: string | null;
}

/** An attempt as the API gives it. */
export function attemptView(attempt: LoggedAttempt): NotificationAttempt {
  return {
    attemptedAt: attempt.attemptedAt.toISOString(),
    httpStatus: attempt.httpStatus,
    durationMs: attempt.durationMs,
    error: attempt.error,
  };
}

/** The receiver accepted it: an answer and no error (the outcome writers clear `error` on 2xx). */
function accepted(attempt: LoggedAttempt): boolean {
  return attempt.httpStatus !== null && attempt.error === null;
}

/**
 * The sends of one row, oldest first: attempts grouped by their `webhook-id` in the order each send
 * began; the current send (`messageId ?? id`) last, present even before its first attempt. Attempts
 * whose id was not recorded come first, as one send of unknown kind.
 * @param row the notification or event: its id, current message id and state
 * @param attempts its attempts, oldest first
 * @param fetches links mode: what each send (by webhook-id) offered and what was fetched
 */
export function sendsOf(
  row: { id: string; messageId: string | null; status: CompletionStatus },
  attempts: readonly LoggedAttempt[],
  fetches: ReadonlyMap<string, DocumentFetches> = new Map(),
): DeliverySend[] {
  const current = webhookMessageIds(row).webhookId;
  const groups = new Map<string | null, LoggedAttempt[]>();
  if (attempts.some((a) => a.messageId === null)) groups.set(null, []);
  for (const attempt of attempts) {
    const list = groups.get(attempt.messageId) ?? [];
    list.push(attempt);
    groups.set(attempt.messageId, list);
  }
  const sends: DeliverySend[] = [];
  for (const [webhookId, list] of groups) {
    if (webhookId === current) continue;
    const delivered = list.find(accepted);
    sends.push({
      webhookId,
      resend: webhookId === null ? null : webhookId !== row.id,
      result: delivered ? 'delivered' : 'not_delivered',
      firstAttemptAt: list[0]?.attemptedAt.toISOString() ?? null,
      deliveredAt: delivered ? deliveredAt(delivered) : null,
      attempts: list.map(attemptView),
      documents: (webhookId && fetches.get(webhookId)) || null,
    });
  }
  const list = groups.get(current) ?? [];
  const delivered = row.status === 'delivered' ? list.findLast(accepted) : undefined;
  sends.push({
    webhookId: current,
    resend: current !== row.id,
    result: row.status,
    firstAttemptAt: list[0]?.attemptedAt.toISOString() ?? null,
    deliveredAt: delivered ? deliveredAt(delivered) : null,
    attempts: list.map(attemptView),
    documents: fetches.get(current) ?? null,
  });
  return sends;
}

/** When the receiver's answer came: the attempt's start plus its duration (ISO 8601). */
function deliveredAt(attempt: LoggedAttempt): string {
  return new Date(attempt.attemptedAt.getTime() + (attempt.durationMs ?? 0)).toISOString();
}

/** Attempt rows grouped by the row they belong to (`ownerOf`), each group in the order given. */
export function groupByOwner<A>(attempts: readonly A[], ownerOf: (attempt: A) => string): Map<string, A[]> {
  const groups = new Map<string, A[]>();
  for (const attempt of attempts) {
    const key = ownerOf(attempt);
    const list = groups.get(key);
    if (list) list.push(attempt);
    else groups.set(key, [attempt]);
  }
  return groups;
}
