/**
 * Field-level encryption at rest for the most sensitive PHI (issue 7; HIPAA 164.312(a)(2)(iv)):
 * AES-256-GCM with a random 96-bit IV per value and the key id stored with the ciphertext, so keys
 * can rotate: new values use the active key, old values stay readable while their key is listed.
 *
 * Stored format: `v1:<keyId>:<iv base64url>:<ciphertext+tag base64url>`.
 * Keys: FIELD_ENCRYPTION_KEYS="id1:base64key,id2:base64key" (the first is active), or, when unset,
 * a key file `$DATA_DIR/field-encryption.key` created with 0600 permissions on first start.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fieldKeysFingerprint } from './secret-fingerprints.ts';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface FieldCipher {
  /** Id of the key new values are encrypted with. */
  readonly activeKeyId: string;
  /** Fingerprint of the key list (secret-fingerprints.ts), compared between instances; not a key. */
  readonly fingerprint: string;
  encrypt(plaintext: string): string;
  /** @throws Error when the value was not made by a listed key or was tampered with */
  decrypt(stored: string): string;
  /** The key id a stored value was made with (for rotation jobs). */
  keyIdOf(stored: string): string;
}

/** @param keys id -> 32-byte key; the first entry is the active key */
export function createFieldCipher(keys: [string, Buffer][]): FieldCipher {
  if (keys.length === 0) throw new Error('At least one field encryption key is required.');
  for (const [id, key] of keys) {
    if (key.length !== 32)
      throw new Error(`Field encryption key "${id}" must be 32 bytes (base64 of 32 random bytes).`);
    if (!/^[A-Za-z0-9_-]+$/.test(id))
      throw new Error(`Field encryption key id "${id}" may use letters, digits, _ and - only.`);
  }
  const byId = new Map(keys);
  const [activeKeyId, activeKey] = keys[0]!;
  return {
    activeKeyId,
    fingerprint: fieldKeysFingerprint(keys),
    encrypt(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv(ALGORITHM, activeKey, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `v1:${activeKeyId}:${iv.toString('base64url')}:${body.toString('base64url')}`;
    },
    decrypt(stored) {
      const [version, keyId, ivText, bodyText] = stored.split(':');
      if (version !== 'v1' || !keyId || !ivText || !bodyText) throw new Error('Unrecognised encrypted value');
      const key = byId.get(keyId);
      if (!key) throw new Error(`Encrypted with unknown key "${keyId}"`);
      const body = Buffer.from(bodyText, 'base64url');
      const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(ivText, 'base64url'));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([
        decipher.update(body.subarray(0, body.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    },
    keyIdOf(stored) {
      return stored.split(':')[1] ?? '';
    },
  };
}

/** Parse FIELD_ENCRYPTION_KEYS ("id:base64,id:base64"). */
export function parseKeyList(value: string): [string, Buffer][] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [id, key] = entry.split(':');
      if (!id || !key)
        throw new Error('FIELD_ENCRYPTION_KEYS must look like "keyid:base64key,otherid:base64key".');
      return [id, Buffer.from(key, 'base64')] as [string, Buffer];
    });
}

/**
 * The configured cipher: FIELD_ENCRYPTION_KEYS when set, otherwise the key file in DATA_DIR
 * (created on first start; `onCreate` is told so the server can log it).
 */
export function loadFieldCipher(options: {
  keyList?: string;
  dataDir: string;
  onCreate?: (file: string) => void;
}): FieldCipher {
  if (options.keyList) return createFieldCipher(parseKeyList(options.keyList));
  const file = path.join(options.dataDir, 'field-encryption.key');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(options.dataDir, { recursive: true });
    fs.writeFileSync(file, `local:${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    options.onCreate?.(file);
  }
  return createFieldCipher(parseKeyList(fs.readFileSync(file, 'utf8').trim()));
}
