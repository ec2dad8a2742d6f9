/**
 * Fingerprints of deployment secrets (issue 12): instances on one database compare them to find out
 * whether they share AUTH_SECRET and FIELD_ENCRYPTION_KEYS, without ever storing a secret.
 *
 * A fingerprint is HMAC-SHA256 keyed by the secret over a fixed label naming the variable, truncated
 * to 128 bits, in hex. Knowing it does not help to find the secret (the secrets are 32+ random
 * characters or 32 random bytes), and the same secret gives different fingerprints for different
 * variables.
 */
import { createHmac } from 'node:crypto';

/** The variables whose values instances on one database must share. */
export type SharedSecretName = 'AUTH_SECRET' | 'FIELD_ENCRYPTION_KEYS';

/** 32 hex characters identifying `secret` as the value of `name`. */
export function secretFingerprint(name: SharedSecretName, secret: string | Buffer): string {
  return createHmac('sha256', secret)
    .update(`credentialing-portal secret fingerprint v1 ${name}`)
    .digest('hex')
    .slice(0, 32);
}

/**
 * The fingerprint of a field encryption key list, in order (the first key is the one new values are
 * written with, so the order matters): instances listing other keys, or the same keys in another
 * order, differ.
 */
export function fieldKeysFingerprint(keys: [string, Buffer][]): string {
  const canonical = keys.map(([id, key]) => `${id}:${key.toString('base64')}`).join(',');
  return secretFingerprint('FIELD_ENCRYPTION_KEYS', canonical);
}
