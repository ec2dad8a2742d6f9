/**
 * Standard Webhooks signing (https://www.standardwebhooks.com, "Verifying webhook authenticity"):
 * `webhook-signature: v1,<base64 HMAC-SHA256(key, "${webhook-id}.${webhook-timestamp}.${body}")>`,
 * where the key is the base64 part of the `whsec_...` secret and the timestamp is Unix seconds.
 * Incremental, so the body can be fed chunk by chunk (it is never held whole in memory).
 */
import { createHmac, type Hmac } from 'node:crypto';

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
