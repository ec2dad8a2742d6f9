/**
 * One delivery attempt of a completion notification (issue 5; docs/decisions/004-completion-delivery.md):
 *
 * 1. loads the payload's data (completion-payload.ts) and fixes `webhook-timestamp`;
 * 2. signing pass: generates the body into the HMAC while counting bytes; more than
 *    NOTIFY_MAX_PAYLOAD_BYTES -> failed ("payload too large"), never retried;
 * 3. sending pass: generates the same bytes again into the request (Content-Length from pass 2).
 *
 * Network errors, timeouts, 408, 429 and 5xx are retried (delivery-policy.ts), 404 and 410 within
 * NOTIFY_RETRY_NOT_FOUND_MINUTES of the first attempt (issue 20); other answers are final. A 5xx to a
 * body over 16 MiB, and a body refused here as too large, are logged at warn with the likely cause.
 */
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import type { Env } from '../env.ts';
import type { FieldCipher } from '../security/field-cipher.ts';
import type { ObjectStorage } from '../storage/object-storage.ts';
import { completionBody, DocumentReadError, loadCompletionSource } from './completion-payload.ts';
import {
  firstAttemptAt,
  INTERRUPTED_ERROR,
  NO_ENDPOINT_ERROR,
  type NotificationRow,
} from './delivery-lease.ts';
import {
  type AttemptVerdict,
  classifyResponse,
  describeNetworkError,
  oversizeHint,
} from './delivery-policy.ts';
import { recordDocumentLinks } from './document-fetches.ts';
import type { DocumentLinks } from './document-links.ts';
import { postStream } from './webhook-sender.ts';
import { createWebhookSigner, webhookMessageIds } from './webhook-signature.ts';

/** What an attempt reads and where it sends: the endpoint and key are undefined when not configured. */
export interface AttemptDeps {
  db: Database;
  storage: ObjectStorage;
  cipher: FieldCipher;
  env: Pick<
    Env,
    | 'NOTIFY_MAX_PAYLOAD_BYTES'
    | 'NOTIFY_TIMEOUT_MS'
    | 'NOTIFY_DOCUMENTS'
    | 'NOTIFY_LINK_TTL_MINUTES'
    | 'NOTIFY_RETRY_NOT_FOUND_MINUTES'
  >;
  /** Mints the `downloadUrl`s of `links` mode. */
  links: DocumentLinks;
  log: Logger;
  /** NOTIFY_WEBHOOK_URL. */
  url: URL | undefined;
  /** The HMAC key of NOTIFY_WEBHOOK_SECRET (webhookKey). */
  key: Buffer | undefined;
}

/**
 * Run one attempt: build, sign and send the notification's message (steps 1-3 above). Never throws:
 * every failure is a verdict (retry or final) for `recordOutcome`.
 * @param signal aborts the attempt (timeout NOTIFY_TIMEOUT_MS, or the server stopping)
 * @returns the verdict and the receiver's HTTP status (null when no answer came)
 */
export async function attemptDelivery(
  { db, storage, cipher, env, log, url, key, links }: AttemptDeps,
  notification: NotificationRow,
  signal: AbortSignal,
): Promise<{ verdict: AttemptVerdict; httpStatus: number | null }> {
  if (!url || !key) return { verdict: { kind: 'final', error: NO_ENDPOINT_ERROR }, httpStatus: null };
  try {
    const source = await loadCompletionSource({
      db,
      cipher,
      logger: log,
      notification,
      withAttestation: true,
    });
    const timestamp = Math.floor(Date.now() / 1000);
    const unreadable = new Set<string>();
    // links mode: minted per attempt, valid NOTIFY_LINK_TTL_MINUTES from this attempt (decision 017).
    const linksExpireAt = timestamp + env.NOTIFY_LINK_TTL_MINUTES * 60;
    const downloadUrl =
      env.NOTIFY_DOCUMENTS === 'links'
        ? (documentId: string) => links.mint(documentId, linksExpireAt)
        : undefined;
    // A re-send is a new message naming the first; retries of one message keep its id (issue 28).
    const { webhookId, resendOf } = webhookMessageIds(notification);
    const bodyOptions = {
      resendOf,
      storage,
      logger: log,
      notificationId: notification.id,
      unreadable,
      signal,
      downloadUrl,
    };

    // Signing pass. A document that breaks mid-stream is marked unreadable and the pass restarts.
    let size = 0;
    let signature = '';
    for (let pass = 0; ; pass++) {
      const signer = createWebhookSigner(key, webhookId, timestamp);
      size = 0;
      try {
        for await (const chunk of completionBody(source, { ...bodyOptions, discover: true })) {
          size += chunk.length;
          if (size > env.NOTIFY_MAX_PAYLOAD_BYTES) {
            // Issue 20 item 4: the reason at warn (sizes and counts only, no PHI).
            log.warn(
              {
                notificationId: notification.id,
                limitBytes: env.NOTIFY_MAX_PAYLOAD_BYTES,
                documents: source.documents.length,
                documentsMode: env.NOTIFY_DOCUMENTS,
              },
              'completion notification refused: the body is larger than NOTIFY_MAX_PAYLOAD_BYTES; nothing sent',
            );
            return {
              verdict: {
                kind: 'final',
                error: `payload too large: more than ${env.NOTIFY_MAX_PAYLOAD_BYTES} bytes (NOTIFY_MAX_PAYLOAD_BYTES); raise the limit here and in the receiver, set NOTIFY_DOCUMENTS=links, or send fewer or smaller documents`,
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

    // Issue 53 item 3: what this send offers, recorded before it goes out (a receiver may fetch first).
    if (downloadUrl) {
      await recordDocumentLinks(db, {
        notificationId: notification.id,
        messageId: webhookId,
        documentIds: source.documents.map((d) => d.id),
        expiresAt: new Date(linksExpireAt * 1000),
      });
    }

    // Sending pass: the same bytes, streamed into the request.
    const result = await postStream(
      url,
      {
        'content-type': 'application/json',
        'user-agent': 'credentialing-portal/completion-notifier',
        'webhook-id': webhookId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature,
      },
      completionBody(source, { ...bodyOptions, discover: false }),
      size,
      signal,
    );
    const now = Date.now();
    const notFound =
      result.status === 404 || result.status === 410
        ? {
            firstAttemptAt: (await firstAttemptAt(db, notification))?.getTime() ?? now,
            windowMs: env.NOTIFY_RETRY_NOT_FOUND_MINUTES * 60_000,
          }
        : undefined;
    let verdict = classifyResponse(result.status, result.retryAfter, now, notFound);
    const hint = oversizeHint(result.status, size);
    if (hint && verdict.kind !== 'delivered') {
      log.warn(
        { notificationId: notification.id, httpStatus: result.status, bodyBytes: size },
        `completion notification: ${hint}`,
      );
      verdict = { ...verdict, error: `${verdict.error}; ${hint}` };
    }
    return { verdict, httpStatus: result.status };
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
