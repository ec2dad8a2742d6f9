/**
 * One object-storage interface (issue 4), two drivers: local disk under $DATA_DIR (the embedded
 * default, local-storage.ts) and S3-compatible (s3-storage.ts). Keys look like
 * `{userId}/{documentType}/{timestamp}.{extension}` (spec §7). Bodies are streams: nothing buffers
 * whole files in memory.
 */
import type { Readable } from 'node:stream';
import type { TempSweepResult } from './temp-files.ts';

export class ObjectNotFoundError extends Error {
  readonly key: string;
  constructor(key: string) {
    super(`No stored object at ${key}`);
    this.name = 'ObjectNotFoundError';
    this.key = key;
  }
}

export interface StoredObjectInfo {
  key: string;
  /** Bytes. */
  size: number;
  lastModified: Date;
}

export interface ObjectStorage {
  /** Driver name for logs: 'local' | 's3'. */
  readonly driver: string;
  /**
   * Write `body` at `key` (replacing any object there). Resolves once the object is durable; on any
   * error (including an error emitted by `body`) nothing is left at `key` by this call.
   */
  put(key: string, body: Readable, options: { contentType: string }): Promise<{ size: number }>;
  /** @throws ObjectNotFoundError */
  get(key: string): Promise<Readable>;
  /** @throws ObjectNotFoundError */
  stat(key: string): Promise<StoredObjectInfo>;
  /** Idempotent: deleting a missing object succeeds. */
  delete(key: string): Promise<void>;
  /** Every object under `prefix` (all when omitted), in key order. */
  list(prefix?: string): AsyncIterable<StoredObjectInfo>;
  /**
   * Remove the driver's leftover temporary files (a killed upload's temp or spool files; never one
   * in use: see temp-files.ts). Run by the orphan sweep at start-up and hourly.
   */
  sweepTempFiles(): Promise<TempSweepResult>;
}

/**
 * Keys are relative, `/`-separated paths of safe segments (letters, digits, `.`, `_`, `-`), no `..`.
 * @throws Error on any other key (a programming error: keys come from `documentObjectKey`).
 */
export function assertValidKey(key: string): void {
  const segments = key.split('/');
  const ok =
    key.length > 0 &&
    key.length <= 1024 &&
    segments.every((s) => /^[A-Za-z0-9._-]+$/.test(s) && s !== '.' && s !== '..' && !s.startsWith('.tmp-'));
  if (!ok) throw new Error(`Invalid object key: ${JSON.stringify(key)}`);
}
