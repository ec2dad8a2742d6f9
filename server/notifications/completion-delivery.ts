/**
 * Delivery of completion notifications (issue 5; docs/decisions/004-completion-delivery.md): the
 * worker and the interface the rest of the server uses.
 *
 * The `completion_notifications` table is its own outbox. An attempt first claims and leases a due
 * row (delivery-lease.ts), then builds, signs and sends the message (delivery-attempt.ts), then records
 * the outcome while it still holds the lease (delivery-lease.ts).
 *
 * Retries: network errors, timeouts, 408, 429 and 5xx, after `retryDelayMs` (full jitter, Retry-After
 * honoured), until NOTIFY_MAX_ATTEMPTS; other answers are final. The worker polls every
 * NOTIFY_POLL_INTERVAL_MS (and at start-up) and runs at most `DELIVERY_CONCURRENCY` attempts at once.
 * 404 and 410 are retried for NOTIFY_RETRY_NOT_FOUND_MINUTES; documents go inline or as signed links
 * (NOTIFY_DOCUMENTS, issue 20, decision 017).
 */
import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { type DatabaseHealth, isSocketError } from '../db/database-health.ts';
import { completionNotifications } from '../db/schema/notifications.ts';
import type { Env } from '../env.ts';
import type { FieldCipher } from '../security/field-cipher.ts';
import type { ObjectStorage } from '../storage/object-storage.ts';
import { attemptDelivery } from './delivery-attempt.ts';
import {
  type Claim,
  claimNotification,
  LEASE_MARGIN_MS,
  NO_ENDPOINT_ERROR,
  type NotificationRow,
  readNotification,
  recordOutcome,
} from './delivery-lease.ts';
import { createDocumentLinks, type DocumentLinks } from './document-links.ts';
import { webhookKey } from './webhook-signature.ts';

export {
  type Claim,
  INTERRUPTED_ERROR,
  insertAttempt,
  LEASE_MARGIN_MS,
  NO_ENDPOINT_ERROR,
  type NotificationRow,
} from './delivery-lease.ts';

/**
 * Attempts the worker runs in parallel (issue 19 item 5). An attempt to a receiver that hangs holds
 * its slot for up to NOTIFY_TIMEOUT_MS, and the attempts run by completion requests count too; with 2
 * slots two hanging requests stopped every other delivery until their timeout. 8 slots leave room for
 * the rest while several requests hang. Costs stay bounded: bodies are generated and streamed (no
 * payload is held whole), and an attempt uses a database connection only between its queries, not
 * while it waits for the receiver (the pool has 10).
 */
export const DELIVERY_CONCURRENCY = 8;

declare module '../app-types.ts' {
  interface AppDeps {
    /** Sends completion notifications; created, started and stopped by runtime.ts. */
    completionDelivery: CompletionDelivery;
  }
}

export interface CompletionDeliveryOptions {
  db: Database;
  /** The pool's health monitor: a poll that fails because the database is down is not logged each time. */
  health?: Pick<DatabaseHealth, 'isUnavailable' | 'suspect'>;
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
    | 'NOTIFY_DOCUMENTS'
    | 'NOTIFY_LINK_TTL_MINUTES'
    | 'NOTIFY_RETRY_NOT_FOUND_MINUTES'
    | 'appUrl'
  >;
  /** The server-only secret `links` mode download links are signed with (AUTH_SECRET; decision 017). */
  linkSecret: string;
  logger: Logger;
}

export interface CompletionDelivery {
  /** True when NOTIFY_WEBHOOK_URL is set. */
  readonly configured: boolean;
  /** Lease length of one attempt, ms. */
  readonly leaseMs: number;
  /** Signs the `links` mode download links and checks them (GET /api/notification-documents/...). */
  readonly documentLinks: DocumentLinks;
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
  const documentLinks = createDocumentLinks({ secret: options.linkSecret, appUrl: env.appUrl });
  const attemptDeps = { db, storage, cipher, env, log, url, key, links: documentLinks };

  async function run(claimed: Claim): Promise<NotificationRow | undefined> {
    const started = performance.now();
    const signal = AbortSignal.any([stopping.signal, AbortSignal.timeout(env.NOTIFY_TIMEOUT_MS)]);
    const { verdict, httpStatus } = await attemptDelivery(attemptDeps, claimed.notification, signal);
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
      await recordOutcome(db, env, claimed, verdict, httpStatus, durationMs);
    } catch (error) {
      // The lease ends on its own; the row is retried then.
      log.error(
        { notificationId: claimed.notification.id, err: error },
        'could not record a delivery attempt',
      );
    }
    return readNotification(db, claimed.notification.id).catch(() => undefined);
  }

  /** Track a running attempt so stop() can wait for it. */
  function track<T>(promise: Promise<T>): Promise<T> {
    running.add(promise);
    promise.finally(() => running.delete(promise)).catch(() => {});
    return promise;
  }

  /** Claim due rows until none is left or DELIVERY_CONCURRENCY attempts run. Only kick() calls it. */
  async function tick(): Promise<void> {
    ticking = true;
    try {
      do {
        tickAgain = false;
        while (!stopping.signal.aborted && running.size < DELIVERY_CONCURRENCY) {
          const claimed = await claimNotification(db, leaseMs);
          if (!claimed) break;
          track(run(claimed))
            .finally(() => {
              if (!stopping.signal.aborted) kick();
            })
            .catch(() => {});
        }
      } while (tickAgain && !stopping.signal.aborted);
    } catch (error) {
      // While the database is down the health monitor says so once; a line per poll would flood.
      // This block only talks to the database: a socket error here is the database's.
      if (options.health && (options.health.isUnavailable(error) || isSocketError(error))) {
        options.health.suspect(error);
        log.debug({ err: error }, 'completion delivery poll skipped: database unreachable');
      } else {
        log.warn({ err: error }, 'completion delivery poll failed; retrying at the next poll');
      }
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
    documentLinks,
    async deliverNow(notificationId) {
      if (stopping.signal.aborted) return readNotification(db, notificationId);
      const claimed = url ? await claimNotification(db, leaseMs, notificationId) : undefined;
      if (!claimed) return readNotification(db, notificationId);
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
