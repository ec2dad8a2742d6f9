/**
 * Standard Webhooks signing (https://www.standardwebhooks.com, "Verifying webhook authenticity"):
 * `webhook-signature: v1,<base64 HMAC-SHA256(key, "${webhook-id}.${webhook-timestamp}.${body}")>`,
 * where the key is the base64 part of the `whsec_...` secret and the timestamp is Unix seconds.
 * Incremental, so the body can be fed chunk by chunk (it is never held whole in memory).
 */
import { createHmac, type Hmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { AppError } from '../../domain/app-error.ts';

const SECRET_PREFIX = 'whsec_';

/** The HMAC key of a `whsec_<base64>` secret. @throws Error when the secret is not base64 */
export function webhookKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new Error('The webhook secret is empty.');
  return key;
}

/** A running signature over one message. */
export interface WebhookSigner {
  update(chunk: Buffer): void;
  /** The `webhook-signature` header value, `v1,<base64>`. Call once, after the last chunk. */
  header(): string;
}

/**
 * Start signing message `id` sent at `timestamp` (Unix seconds, the `webhook-timestamp` header).
 * @param key from `webhookKey`
 */
export function createWebhookSigner(key: Buffer, id: string, timestamp: number): WebhookSigner {
  const hmac: Hmac = createHmac('sha256', key);
  hmac.update(`${id}.${timestamp}.`);
  return {
    update: (chunk) => void hmac.update(chunk),
    header: () => `v1,${hmac.digest('base64')}`,
  };
}

/** The ids of the message an outbox row sends now (completion notifications and status events). */
export interface WebhookMessageIds {
  /** The `webhook-id` header (and the id the signature covers). */
  webhookId: string;
  /** The payload's `resendOf`: the first message's id on an administrator's re-send, else null. */
  resendOf: string | null;
}

/**
 * Which message a row sends (issue 28 item 7). Standard Webhooks: the retries of one message keep its
 * `webhook-id`, and a receiver drops an id it has seen (the shipped n8n workflow does), so an
 * administrator's re-send is a new message: `messageId`, set by the re-send, naming the first
 * message (the row's `id`) in `resendOf`. Before any re-send the row's `id` is the `webhook-id`.
 */
export function webhookMessageIds(row: { id: string; messageId: string | null }): WebhookMessageIds {
  return row.messageId
    ? { webhookId: row.messageId, resendOf: row.id }
    : { webhookId: row.id, resendOf: null };
}

/**
 * Verify a signed request to the portal (Standard Webhooks, with the `standardwebhooks` package): the
 * three headers, the HMAC over the exact body bytes, and a timestamp within 5 minutes of the server's
 * clock. Used by the inbound integration webhook and by the receivers' receipts.
 * @param secretName the variable holding `secret`, named in the refusal (e.g. NOTIFY_WEBHOOK_SECRET)
 * @param maxIdLength the longest `webhook-id` accepted, characters
 * @returns the verified `webhook-id`
 * @throws AppError unauthorized (401) saying what is wrong, never which byte
 */
export function verifySignedRequest(options: {
  secret: string;
  secretName: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  maxIdLength: number;
}): string {
  const header = (name: string) => {
    const value = options.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  const id = header('webhook-id');
  const timestamp = header('webhook-timestamp');
  const signature = header('webhook-signature');
  if (!id || !timestamp || !signature) {
    throw new AppError(
      'unauthorized',
      'Sign the request: webhook-id, webhook-timestamp and webhook-signature are required.',
    );
  }
  if (id.length > options.maxIdLength) {
    throw new AppError('unauthorized', `webhook-id may be at most ${options.maxIdLength} characters.`);
  }
  try {
    new Webhook(options.secret).verify(options.body, {
      'webhook-id': id,
      'webhook-timestamp': timestamp,
      'webhook-signature': signature,
    });
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    throw new AppError(
      'unauthorized',
      /timestamp/i.test(error.message)
        ? 'The webhook-timestamp is more than 5 minutes from the server time: send the message again with the current time.'
        : `The webhook-signature does not match the body: sign it with ${options.secretName}.`,
    );
  }
  return id;
}
