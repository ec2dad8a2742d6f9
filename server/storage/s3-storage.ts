/**
 * S3-compatible driver of ObjectStorage (issue 4): AWS S3, MinIO, R2, s3rver (tests). Objects live in
 * one bucket (spec §3: provider-documents) under the document keys.
 *
 * Memory: S3 needs a body's length up front (PutObject) or buffers whole parts of at least 5 MiB
 * (multipart via lib-storage `Upload`); with 20 uploads of 10 MB at once the latter held ~245 MiB of
 * parts in memory (bench/uploads.bench.ts). So `put` first spools the incoming stream to a 0600 file
 * in `spoolDir` (counting its bytes), then streams that file to S3: one PutObject with a known
 * ContentLength up to `multipartThresholdBytes` (documents are at most 10 MB), a multipart `Upload`
 * above it. The spool file is removed in every case. A failed body or upload leaves nothing in the
 * bucket (an aborted multipart upload is aborted; a landed single object is deleted).
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { assertValidKey, ObjectNotFoundError, type ObjectStorage } from './object-storage.ts';
import { claimTempFile, sweepTempFiles } from './temp-files.ts';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** e.g. http://127.0.0.1:4568; unset = AWS. */
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  forcePathStyle?: boolean;
  /** Folder for spool files (created, 0700). Holds PHI briefly: keep it on the server's own disk. */
  spoolDir: string;
  /** Bytes above which `put` uses a multipart upload (default 16 MiB). */
  multipartThresholdBytes?: number;
}

/** S3 minimum part size (bytes), used as the multipart part size. */
const PART_SIZE = 5 * 1024 * 1024;

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/** Create the S3 driver. The bucket must exist (it is not created here: that needs wider rights). */
export function createS3Storage(options: S3StorageOptions): ObjectStorage & { client: S3Client } {
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    credentials: options.credentials,
    forcePathStyle: options.forcePathStyle,
    // Checksums only where S3 requires them: S3-compatible servers do not all understand the
    // aws-chunked trailing checksums newer SDKs send by default.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = options.bucket;
  const multipartThreshold = options.multipartThresholdBytes ?? 16 * 1024 * 1024;
  // Leftover spool files of a crash are removed by sweepTempFiles (the orphan sweep runs it).
  fs.mkdirSync(options.spoolDir, { recursive: true, mode: 0o700 });

  return {
    driver: 's3',
    client,

    async put(key, body, { contentType }) {
      assertValidKey(key);
      const { file: spool, release } = claimTempFile(options.spoolDir, '', '.part');
      try {
        await pipeline(body, fs.createWriteStream(spool, { flags: 'wx', mode: 0o600 }));
        const { size } = await fsp.stat(spool);
        try {
          if (size <= multipartThreshold) {
            await client.send(
              new PutObjectCommand({
                Bucket,
                Key: key,
                Body: fs.createReadStream(spool),
                ContentLength: size,
                ContentType: contentType,
              }),
            );
          } else {
            await new Upload({
              client,
              params: { Bucket, Key: key, Body: fs.createReadStream(spool), ContentType: contentType },
              partSize: PART_SIZE,
              queueSize: 1,
              leavePartsOnError: false,
            }).done();
          }
        } catch (error) {
          // A PutObject may have landed before the failure surfaced: remove it.
          await client.send(new DeleteObjectCommand({ Bucket, Key: key })).catch(() => {});
          throw error;
        }
        return { size };
      } finally {
        // A failing clean-up must not replace the write's own error; the sweep retries it.
        await fsp.rm(spool, { force: true }).catch(() => {});
        release();
      }
    },

    async get(key) {
      assertValidKey(key);
      try {
        const result = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return result.Body as Readable;
      } catch (error) {
        if (isNotFound(error)) throw new ObjectNotFoundError(key);
        throw error;
      }
    },

    async stat(key) {
      assertValidKey(key);
      try {
        const result = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return { key, size: result.ContentLength ?? 0, lastModified: result.LastModified ?? new Date(0) };
      } catch (error) {
        if (isNotFound(error)) throw new ObjectNotFoundError(key);
        throw error;
      }
    },

    async delete(key) {
      assertValidKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },

    async *list(prefix) {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: prefix || undefined, ContinuationToken }),
        );
        for (const object of page.Contents ?? []) {
          if (!object.Key) continue;
          yield { key: object.Key, size: object.Size ?? 0, lastModified: object.LastModified ?? new Date(0) };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },

    sweepTempFiles() {
      // Every file of the spool folder is a spool file; names from before issue 19 (`{uuid}.part`)
      // carry no writer and go once an hour old.
      return sweepTempFiles(options.spoolDir, { prefix: '', recursive: false });
    },
  };
}
