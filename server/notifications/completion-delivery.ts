/**
 * Delivery of completion notifications (issue 5; docs/decisions/004-completion-delivery.md).
 *
 * The `completion_notifications` table is its own outbox. An attempt first *claims* a due row with
 * `FOR UPDATE SKIP LOCKED` (so several server processes never send the same row at once), which
 * leases it until `now + NOTIFY_TIMEOUT_MS + LEASE_MARGIN_MS` and inserts the attempt row; a process
 * that dies mid-attempt leaves the row to be claimed again when the lease ends. The attempt then:
 *
 * 1. loads the payload's data (completion-payload.ts) and fixes `webhook-timestamp`;
 * 2. signing pass: generates the body into the HMAC while counting bytes; more than
 *    NOTIFY_MAX_PAYLOAD_BYTES -> failed ("payload too large"), never retried;
 * 3. sending pass: generates the same bytes again into the request (Content-Length from pass 2);
 * 4. records the outcome on the attempt row and the notification, only if it still holds the lease.
 *
 * Retries: network errors, timeouts, 408, 429 and 5xx, after `retryDelayMs` (full jitter, Retry-After
 * honoured), until NOTIFY_MAX_ATTEMPTS; other answers are final. The worker polls every
 * NOTIFY_POLL_INTERVAL_MS (and at start-up) and runs at most `CONCURRENCY` attempts at once.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { completionNotifications, notificationAttempts } from '../db/schema/notifications.ts';
import type { Env } from '../env.ts';
import type { FieldCipher } from '../security/field-cipher.ts';
import type { ObjectStorage } from '../storage/object-storage.ts';
import { completionBody, DocumentReadError, loadCompletionSource } from './completion-payload.ts';
import {
  type AttemptVerdict,
  classifyResponse,
  describeNetworkError,
  retryDelayMs,
} from './delivery-policy.ts';
import { postStream } from './webhook-sender.ts';
import { createWebhookSigner, webhookKey } from './webhook-signature.ts';

/** Extra lease beyond the attempt's timeout, for the database writes around it. */
export const LEASE_MARGIN_MS = 5_000;
/** Attempts the worker runs in parallel. */
const CONCURRENCY = 2;
/** `last_error` of a completion recorded while no endpoint is configured. */
export const NO_ENDPOINT_ERROR = 'no endpoint configured';
/** `error` of an attempt row whose process stopped before knowing the outcome. */
export const INTERRUPTED_ERROR = 'interrupted: the server stopped during the attempt';

declare module '../app-types.ts' {
  interface AppDeps {
    /** Sends completion notifications; created, started and stopped by runtime.ts. */
    completionDelivery: CompletionDelivery;
  }
}

export type NotificationRow = typeof completionNotifications.$inferSelect;

/** A claimed attempt: the notification as claimed, the lease and the attempt row to complete. */
export interface Claim {
  notification: NotificationRow;
  leaseId: string;
  attemptId: number;
}

export interface CompletionDeliveryOptions {
  db: Database;
  storage: ObjectStorage;
  cipher: FieldCipher;
  env: Pick<
    Env,
    | 'NOTIFY_WEBHOOK_URL'
    | 'NOTIFY_WEBHOOK_SECRET'
    | 'NOTIFY_MAX_PAYLOAD_BYTES'
    | 'NOTIFY_TIMEOUT_MS'
    | 'NOTIFY_MAX_ATTEMPTS'
    | 'NOTIFY_RETRY_BASE_MS'
    | 'NOTIFY_RETRY_MAX_MS'
    | 'NOTIFY_POLL_INTERVAL_MS'
  >;
  logger: Logger;
}

export interface CompletionDelivery {
  /** True when NOTIFY_WEBHOOK_URL is set. */
  readonly configured: boolean;
  /** Lease length of one attempt, ms. */
  readonly leaseMs: number;
  /**
   * Claim `notificationId` now if it is pending and no attempt is running (its backoff is skipped: a
   * person asked), run the attempt and return the row afterwards. Returns the current row unchanged
   * when it cannot be claimed.
   */
  deliverNow(notificationId: string): Promise<NotificationRow | undefined>;
  /** Run the attempt of a claim made elsewhere (the completion request's transaction). */
  runClaim(claim: Claim): Promise<NotificationRow | undefined>;
  /**
   * Look for due notifications now instead of at the next poll. Resolves (never rejects) once a look
   * that began at or after this call has claimed what was due, up to the concurrency limit; the
   * attempts it claimed run on. Tests await it to know the worker looked, instead of sleeping.
   */
  kick(): Promise<void>;
  /** Re-queue undelivered rows when an endpoint is configured, then poll. */
  start(): Promise<void>;
  /** Stop polling, abort running attempts (recorded as interrupted, due again at once) and wait. */
  stop(): Promise<void>;
}

/** Insert the attempt row of a claim and return its id. */
export async function insertAttempt(db: Pick<Database, 'insert'>, notificationId: string): Promise<number> {
  const [attempt] = await db
    .insert(notificationAttempts)
    .values({ notificationId, error: INTERRUPTED_ERROR })
    .returning({ id: notificationAttempts.id });
  return attempt!.id;
}

export function createCompletionDelivery(options: CompletionDeliveryOptions): CompletionDelivery {
  const { db, storage, cipher, env, logger } = options;
  const log = logger.child({ component: 'completion-delivery' });
  const url = env.NOTIFY_WEBHOOK_URL ? new URL(env.NOTIFY_WEBHOOK_URL) : undefined;
  const key = env.NOTIFY_WEBHOOK_SECRET ? webhookKey(env.NOTIFY_WEBHOOK_SECRET) : undefined;
  const leaseMs = env.NOTIFY_TIMEOUT_MS + LEASE_MARGIN_MS;
  const stopping = new AbortController();
  const running = new Set<Promise<unknown>>();
  let timer: NodeJS.Timeout | undefined;
  let ticking = false;
  /** Ticks in progress (tick() never rejects). */
  const ticks = new Set<Promise<void>>();
  /** The tick running while `ticking`; with `tickAgain` set it looks once more before it ends. */
  let currentTick: Promise<void> = Promise.resolve();
  let tickAgain = false;

  /** Claim one row: a given id (when not running), or the most overdue pending row. */
  async function claim(notificationId?: string): Promise<Claim | undefined> {
    const leaseId = randomUUID();
    return db.transaction(async (tx) => {
      const candidate = notificationId
        ? sql`select id from ${completionNotifications}
              where id = ${notificationId} and status = 'pending'
                and (lease_id is null or next_attempt_at <= now())
              for update skip locked`
        : sql`select id from ${completionNotifications}
              where status = 'pending' and next_attempt_at <= now()
              order by next_attempt_at limit 1
              for update skip locked`;
      const claimed = await tx.execute<{ id: string }>(sql`
        update ${completionNotifications}
        set attempts = attempts + 1, lease_id = ${leaseId},
            next_attempt_at = now() + ${leaseMs} * interval '1 millisecond', updated_at = now()
        where id = (${candidate})
        returning id`);
      const id = claimed.rows[0]?.id;
      if (!id) return undefined;
      const [notification] = await tx
        .select()
        .from(completionNotifications)
        .where(eq(completionNotifications.id, id));
      const attemptId = await insertAttempt(tx, id);
      return { notification: notification!, leaseId, attemptId };
    });
  }

  async function readRow(id: string): Promise<NotificationRow | undefined> {
    const [row] = await db.select().from(completionNotifications).where(eq(completionNotifications.id, id));
    return row;
  }

  /** Steps 1-3 of the module comment: build, sign and send. Never throws. */
  async function attempt(
    notification: NotificationRow,
    signal: AbortSignal,
  ): Promise<{ verdict: AttemptVerdict; httpStatus: number | null }> {
    if (!url || !key) return { verdict: { kind: 'final', error: NO_ENDPOINT_ERROR }, httpStatus: null };
    try {
      const source = await loadCompletionSource({ db, cipher, logger: log, notification });
      const timestamp = Math.floor(Date.now() / 1000);
      const unreadable = new Set<string>();
      const bodyOptions = { storage, logger: log, notificationId: notification.id, unreadable, signal };

      // Signing pass. A document that breaks mid-stream is marked unreadable and the pass restarts.
      let size = 0;
      let signature = '';
      for (let pass = 0; ; pass++) {
        const signer = createWebhookSigner(key, notification.id, timestamp);
        size = 0;
        try {
          for await (const chunk of completionBody(source, { ...bodyOptions, discover: true })) {
            size += chunk.length;
            if (size > env.NOTIFY_MAX_PAYLOAD_BYTES) {
              return {
                verdict: {
                  kind: 'final',
                  error: `payload too large: more than ${env.NOTIFY_MAX_PAYLOAD_BYTES} bytes (NOTIFY_MAX_PAYLOAD_BYTES); raise the limit here and in the receiver, or send fewer or smaller documents`,
                },
                httpStatus: null,
              };
            }
            signer.update(chunk);
          }
        } catch (error) {
          if (error instanceof DocumentReadError && pass < source.documents.length) {
            log.warn(
              { notificationId: notification.id, documentId: error.documentId },
              'completion payload: document failed while reading; sent with base64Content null',
            );
            unreadable.add(error.documentId);
            continue;
          }
          throw error;
        }
        signature = signer.header();
        break;
      }

      // Sending pass: the same bytes, streamed into the request.
      const result = await postStream(
        url,
        {
          'content-type': 'application/json',
          'user-agent': 'credentialing-portal/completion-notifier',
          'webhook-id': notification.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signature,
        },
        completionBody(source, { ...bodyOptions, discover: false }),
        size,
        signal,
      );
      return { verdict: classifyResponse(result.status, result.retryAfter), httpStatus: result.status };
    } catch (error) {
      if (signal.aborted) {
        const reason = signal.reason as Error | undefined;
        const message =
          reason?.name === 'TimeoutError'
            ? `No answer from the receiver within ${env.NOTIFY_TIMEOUT_MS} ms`
            : INTERRUPTED_ERROR;
        return { verdict: { kind: 'retry', error: message }, httpStatus: null };
      }
      const code = (error as NodeJS.ErrnoException).code;
      if (code && /^E[A-Z]+$/.test(code)) {
        return { verdict: { kind: 'retry', error: describeNetworkError(error) }, httpStatus: null };
      }
      // Database hiccups, a document vanishing between the passes...: try again later.
      log.warn({ notificationId: notification.id, err: error }, 'completion delivery attempt failed');
      return {
        verdict: { kind: 'retry', error: `Delivery error: ${(error as Error).message}` },
        httpStatus: null,
      };
    }
  }

  /** Step 4: record the outcome, if the lease is still ours. */
  async function record(
    { notification, leaseId, attemptId }: Claim,
    verdict: AttemptVerdict,
    httpStatus: number | null,
    durationMs: number,
  ): Promise<void> {
    await db.transaction(async (tx) => {
      await tx
        .update(notificationAttempts)
        .set({ httpStatus, durationMs, error: verdict.kind === 'delivered' ? null : verdict.error })
        .where(eq(notificationAttempts.id, attemptId));
      const owned = and(
        eq(completionNotifications.id, notification.id),
        eq(completionNotifications.leaseId, leaseId),
      );
      const base = { leaseId: null, updatedAt: new Date() };
      if (verdict.kind === 'delivered') {
        await tx
          .update(completionNotifications)
          .set({
            ...base,
            status: 'delivered',
            deliveredAt: new Date(),
            nextAttemptAt: null,
            lastError: null,
          })
          .where(owned);
      } else if (verdict.kind === 'final') {
        const undelivered = verdict.error === NO_ENDPOINT_ERROR;
        await tx
          .update(completionNotifications)
          .set({
            ...base,
            status: undelivered ? 'undelivered' : 'failed',
            nextAttemptAt: null,
            lastError: verdict.error,
          })
          .where(owned);
      } else if (notification.attempts >= env.NOTIFY_MAX_ATTEMPTS && verdict.error !== INTERRUPTED_ERROR) {
        await tx
          .update(completionNotifications)
          .set({
            ...base,
            status: 'failed',
            nextAttemptAt: null,
            lastError: `Gave up after ${notification.attempts} attempts. Last error: ${verdict.error}`,
          })
          .where(owned);
      } else {
        // An interrupted attempt (shutdown) is due again at once; others wait out the backoff.
        const delay =
          verdict.error === INTERRUPTED_ERROR
            ? 0
            : retryDelayMs(
                notification.attempts,
                { baseMs: env.NOTIFY_RETRY_BASE_MS, maxMs: env.NOTIFY_RETRY_MAX_MS },
                verdict.retryAfterMs,
              );
        await tx
          .update(completionNotifications)
          .set({ ...base, nextAttemptAt: new Date(Date.now() + delay), lastError: verdict.error })
          .where(owned);
      }
    });
  }

  async function run(claimed: Claim): Promise<NotificationRow | undefined> {
    const started = performance.now();
    const signal = AbortSignal.any([stopping.signal, AbortSignal.timeout(env.NOTIFY_TIMEOUT_MS)]);
    const { verdict, httpStatus } = await attempt(claimed.notification, signal);
    const durationMs = Math.round(performance.now() - started);
    log.info(
      {
        notificationId: claimed.notification.id,
        attempt: claimed.notification.attempts,
        outcome: verdict.kind,
        httpStatus,
        durationMs,
      },
      'completion notification attempt',
    );
    try {
      await record(claimed, verdict, httpStatus, durationMs);
    } catch (error) {
      // The lease ends on its own; the row is retried then.
      log.error(
        { notificationId: claimed.notification.id, err: error },
        'could not record a delivery attempt',
      );
    }
    return readRow(claimed.notification.id).catch(() => undefined);
  }

  /** Track a running attempt so stop() can wait for it. */
  function track<T>(promise: Promise<T>): Promise<T> {
    running.add(promise);
    promise.finally(() => running.delete(promise)).catch(() => {});
    return promise;
  }

  /** Claim due rows until none is left or CONCURRENCY attempts run. Only kick() calls it. */
  async function tick(): Promise<void> {
    ticking = true;
    try {
      do {
        tickAgain = false;
        while (!stopping.signal.aborted && running.size < CONCURRENCY) {
          const claimed = await claim();
          if (!claimed) break;
          track(run(claimed))
            .finally(() => {
              if (!stopping.signal.aborted) kick();
            })
            .catch(() => {});
        }
      } while (tickAgain && !stopping.signal.aborted);
    } catch (error) {
      log.warn({ err: error }, 'completion delivery poll failed; retrying at the next poll');
    } finally {
      ticking = false;
    }
  }

  function kick(): Promise<void> {
    if (!url || stopping.signal.aborted) return Promise.resolve();
    // A running tick sees tickAgain and looks once more before it ends: wait for that one.
    if (ticking) {
      tickAgain = true;
      return currentTick;
    }
    // Kept so stop() can wait for a tick still claiming: a claim it wins after stop() began is run
    // (and recorded as interrupted) while the database is still open, not left leased.
    const current = tick();
    currentTick = current;
    ticks.add(current);
    void current.finally(() => ticks.delete(current));
    return current;
  }

  return {
    configured: Boolean(url),
    leaseMs,
    async deliverNow(notificationId) {
      if (stopping.signal.aborted) return readRow(notificationId);
      const claimed = url ? await claim(notificationId) : undefined;
      if (!claimed) return readRow(notificationId);
      return track(run(claimed));
    },
    runClaim(claimed) {
      return track(run(claimed));
    },
    kick,
    async start() {
      if (url) {
        // Completions recorded while no endpoint was configured are sent now that one is.
        const requeued = await db
          .update(completionNotifications)
          .set({ status: 'pending', nextAttemptAt: new Date(), lastError: null, updatedAt: new Date() })
          .where(eq(completionNotifications.status, 'undelivered'))
          .returning({ id: completionNotifications.id });
        if (requeued.length > 0)
          log.info({ count: requeued.length }, 'queued undelivered completion notifications');
        timer = setInterval(kick, env.NOTIFY_POLL_INTERVAL_MS);
        timer.unref();
        kick();
      } else {
        // Without an endpoint nothing can be sent: say so on every queued row (admins see it).
        await db
          .update(completionNotifications)
          .set({
            status: 'undelivered',
            nextAttemptAt: null,
            lastError: NO_ENDPOINT_ERROR,
            updatedAt: new Date(),
          })
          .where(eq(completionNotifications.status, 'pending'));
      }
    },
    async stop() {
      if (timer) clearInterval(timer);
      stopping.abort(new Error('server stopping'));
      await Promise.allSettled([...ticks]);
      await Promise.allSettled([...running]);
    },
  };
}
