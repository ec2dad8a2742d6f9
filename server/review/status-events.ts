/**
 * Outbound `application.status_changed` events (issue 13 "Integration", decision 018): each change of
 * an application's status after completion is written to the `status_events` outbox in the
 * transaction of the change (`enqueueStatusEvent`), and this worker delivers it to the completion
 * notification's receiver (NOTIFY_WEBHOOK_URL) with the same parts as the completion notification:
 * Standard Webhooks signing (notifications/webhook-signature.ts, the event id as `webhook-id`, stable
 * across retries; an administrator's re-send is a new message with a new id and `resendOf`, issue 28:
 * status-events.service.ts), the same sender, the same response classification and full-jitter backoff
 * (notifications/delivery-policy.ts) and the same limits (NOTIFY_TIMEOUT_MS, NOTIFY_MAX_ATTEMPTS,
 * NOTIFY_RETRY_*). An attempt leases its row (next_attempt_at = end of the lease): a crash mid-attempt
 * makes it due again, and instances sharing the database never send one event twice at once.
 * Events of one application go out in order: a newer one waits while an older one is pending.
 * Draft -> submitted has no event: the completion notification is that announcement (its payload is
 * unchanged, spec §7).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { STATUS_CHANGED_EVENT, type StatusChangedEvent } from '../../domain/api/integration.ts';
import type { ApplicationStatus } from '../../domain/application-status.ts';
import type { ReviewActor } from '../../domain/review/review-workflow.ts';
import type { Database, Queryable } from '../db/client.ts';
import { type DatabaseHealth, isSocketError } from '../db/database-health.ts';
import { statusEventAttempts, statusEvents } from '../db/schema/review.ts';
import type { Env } from '../env.ts';
import { INTERRUPTED_ERROR } from '../notifications/delivery-lease.ts';
import { classifyResponse, describeNetworkError, retryDelayMs } from '../notifications/delivery-policy.ts';
import { postStream } from '../notifications/webhook-sender.ts';
import { createWebhookSigner, webhookKey, webhookMessageIds } from '../notifications/webhook-signature.ts';

declare module '../app-types.ts' {
  interface AppDeps {
    /** Delivers `application.status_changed` events; created, started and stopped by runtime.ts. */
    statusEvents: StatusEventDelivery;
  }
}

/** One status change to announce. */
export interface StatusChange {
  applicationId: string;
  from: ApplicationStatus;
  to: ApplicationStatus;
  actor: { type: ReviewActor; id: string | null };
  occurredAt: Date;
}

/**
 * Write the event of `change` to the outbox. Call inside the transaction that changes the status, so
 * the event exists exactly when the change does. No-op when the status did not change.
 */
export async function enqueueStatusEvent(tx: Queryable, change: StatusChange): Promise<void> {
  if (change.from === change.to) return;
  const payload: StatusChangedEvent = {
    type: STATUS_CHANGED_EVENT,
    timestamp: change.occurredAt.toISOString(),
    data: {
      applicationId: change.applicationId,
      from: change.from,
      to: change.to,
      actor: change.actor,
      occurredAt: change.occurredAt.toISOString(),
    },
    resendOf: null,
  };
  await tx.insert(statusEvents).values({ applicationId: change.applicationId, payload });
}

export interface StatusEventDeliveryOptions {
  db: Database;
  health?: Pick<DatabaseHealth, 'isUnavailable' | 'suspect'>;
  env: Pick<
    Env,
    | 'NOTIFY_WEBHOOK_URL'
    | 'NOTIFY_WEBHOOK_SECRET'
    | 'NOTIFY_TIMEOUT_MS'
    | 'NOTIFY_MAX_ATTEMPTS'
    | 'NOTIFY_RETRY_BASE_MS'
    | 'NOTIFY_RETRY_MAX_MS'
    | 'NOTIFY_POLL_INTERVAL_MS'
  >;
  logger: Logger;
}

export interface StatusEventDelivery {
  /** True when NOTIFY_WEBHOOK_URL is set (without it events stay pending until it is). */
  readonly configured: boolean;
  /** Deliver what is due now instead of at the next poll; resolves when that pass has finished. */
  kick(): Promise<void>;
  start(): void;
  /** Stop polling and abort a running attempt (its row becomes due again when its lease ends). */
  stop(): Promise<void>;
}

interface ClaimedEvent {
  id: string;
  /** The current message's `webhook-id` when an administrator re-sent the event, else null. */
  messageId: string | null;
  payload: StatusChangedEvent;
  attempts: number;
  leaseId: string;
  /** Its `status_event_attempts` row, written with the claim (issue 53 item 4). */
  attemptId: number;
}

async function* once(body: Buffer): AsyncGenerator<Buffer> {
  yield body;
}

/** Extra time a lease gives an attempt beyond NOTIFY_TIMEOUT_MS, ms. */
const LEASE_MARGIN_MS = 5_000;

export function createStatusEventDelivery(options: StatusEventDeliveryOptions): StatusEventDelivery {
  const { db, env } = options;
  const log = options.logger.child({ component: 'status-events' });
  const url = env.NOTIFY_WEBHOOK_URL ? new URL(env.NOTIFY_WEBHOOK_URL) : undefined;
  const key = env.NOTIFY_WEBHOOK_SECRET ? webhookKey(env.NOTIFY_WEBHOOK_SECRET) : undefined;
  const leaseMs = env.NOTIFY_TIMEOUT_MS + LEASE_MARGIN_MS;
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> | undefined;
  let again = false;

  /** Lease the oldest due event whose application has no older pending event. */
  async function claim(): Promise<ClaimedEvent | undefined> {
    const leaseId = randomUUID();
    // The lease and its attempt row in one statement: an attempt is logged exactly when it is claimed.
    const result = await db.execute<{
      id: string;
      messageId: string | null;
      payload: StatusChangedEvent;
      attempts: number;
      attemptId: string;
    }>(sql`
      with claimed as (
        update ${statusEvents}
        set attempts = attempts + 1, lease_id = ${leaseId},
            next_attempt_at = now() + ${leaseMs} * interval '1 millisecond'
        where id = (
          select e.id from ${statusEvents} e
          where e.status = 'pending' and e.next_attempt_at <= now()
            and not exists (
              select 1 from ${statusEvents} older
              where older.application_id = e.application_id and older.status = 'pending'
                and (older.created_at, older.id) < (e.created_at, e.id))
          order by e.created_at, e.id limit 1
          for update skip locked)
        returning id, message_id, payload, attempts),
      attempt as (
        insert into ${statusEventAttempts} (status_event_id, message_id, error)
        select id, coalesce(message_id, id), ${INTERRUPTED_ERROR} from claimed
        returning id)
      select claimed.id, claimed.message_id as "messageId", claimed.payload, claimed.attempts,
             attempt.id as "attemptId"
      from claimed, attempt`);
    const row = result.rows[0];
    return row ? { ...row, attemptId: Number(row.attemptId), leaseId } : undefined;
  }

  /** Record an attempt's outcome if the lease is still ours. */
  async function record(
    event: ClaimedEvent,
    outcome: ReturnType<typeof classifyResponse>,
    httpStatus: number | null,
    durationMs: number,
  ): Promise<void> {
    await db.execute(sql`update ${statusEventAttempts}
      set http_status = ${httpStatus}, duration_ms = ${durationMs},
          error = ${outcome.kind === 'delivered' ? null : outcome.error}
      where id = ${event.attemptId}`);
    if (outcome.kind === 'delivered') {
      await db.execute(sql`update ${statusEvents}
        set status = 'delivered', delivered_at = now(), next_attempt_at = null, lease_id = null, last_error = null
        where id = ${event.id} and lease_id = ${event.leaseId}`);
      return;
    }
    if (outcome.kind === 'final' || event.attempts >= env.NOTIFY_MAX_ATTEMPTS) {
      await db.execute(sql`update ${statusEvents}
        set status = 'failed', next_attempt_at = null, lease_id = null, last_error = ${outcome.error}
        where id = ${event.id} and lease_id = ${event.leaseId}`);
      return;
    }
    const delay = retryDelayMs(
      event.attempts,
      { baseMs: env.NOTIFY_RETRY_BASE_MS, maxMs: env.NOTIFY_RETRY_MAX_MS },
      outcome.retryAfterMs,
    );
    await db.execute(sql`update ${statusEvents}
      set next_attempt_at = now() + ${delay} * interval '1 millisecond', lease_id = null, last_error = ${outcome.error}
      where id = ${event.id} and lease_id = ${event.leaseId}`);
  }

  async function send(event: ClaimedEvent): Promise<void> {
    // A re-send is a new message naming the first; retries keep its id (issue 28, as completions).
    const { webhookId, resendOf } = webhookMessageIds(event);
    const body = Buffer.from(JSON.stringify({ ...event.payload, resendOf } satisfies StatusChangedEvent));
    const timestamp = Math.floor(Date.now() / 1000);
    const signer = createWebhookSigner(key!, webhookId, timestamp);
    signer.update(body);
    const headers = {
      'content-type': 'application/json',
      'webhook-id': webhookId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signer.header(),
    };
    const signal = AbortSignal.any([stopping.signal, AbortSignal.timeout(env.NOTIFY_TIMEOUT_MS)]);
    const started = performance.now();
    let outcome: ReturnType<typeof classifyResponse>;
    let httpStatus: number | null = null;
    try {
      const answer = await postStream(url!, headers, once(body), body.length, signal);
      httpStatus = answer.status;
      outcome = classifyResponse(answer.status, answer.retryAfter);
    } catch (error) {
      // Due again when the lease ends; its attempt row keeps saying 'interrupted'.
      if (stopping.signal.aborted) return;
      outcome = { kind: 'retry', error: describeNetworkError(error) };
    }
    const durationMs = Math.round(performance.now() - started);
    log.info(
      { eventId: event.id, attempt: event.attempts, outcome: outcome.kind, httpStatus, durationMs },
      'status event attempt',
    );
    await record(event, outcome, httpStatus, durationMs);
  }

  async function deliverDue(): Promise<void> {
    try {
      do {
        again = false;
        for (;;) {
          if (stopping.signal.aborted) return;
          const event = await claim();
          if (!event) break;
          await send(event);
        }
      } while (again && !stopping.signal.aborted);
    } catch (error) {
      if (options.health && (options.health.isUnavailable(error) || isSocketError(error))) {
        options.health.suspect(error);
      } else {
        log.warn({ err: error }, 'status event delivery failed; retrying at the next poll');
      }
    }
  }

  function kick(): Promise<void> {
    if (!url || !key || stopping.signal.aborted) return Promise.resolve();
    if (pass) {
      again = true;
      return pass;
    }
    pass = deliverDue().finally(() => {
      pass = undefined;
    });
    return pass;
  }

  return {
    configured: Boolean(url && key),
    kick,
    start() {
      if (!url || !key) return;
      const poll = () => {
        timer = setTimeout(() => {
          void kick().finally(() => {
            if (!stopping.signal.aborted) poll();
          });
        }, env.NOTIFY_POLL_INTERVAL_MS);
        timer.unref();
      };
      void kick();
      poll();
    },
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      await pass;
    },
  };
}
