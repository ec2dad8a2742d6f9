/**
 * Builds the configured ObjectStorage from env (issue 4): STORAGE_DRIVER=local (default) writes
 * under `$DATA_DIR/objects/provider-documents/`; STORAGE_DRIVER=s3 uses S3_BUCKET (default
 * provider-documents) at S3_ENDPOINT/S3_REGION with S3_ACCESS_KEY_ID/S3_SECRET_ACCESS_KEY, spooling
 * uploads under `$DATA_DIR/tmp/s3-spool/` (see s3-storage.ts).
 */
import path from 'node:path';
import type { Env } from '../env.ts';
import { createLocalStorage } from './local-storage.ts';
import type { ObjectStorage } from './object-storage.ts';

/** Bucket of document objects (spec §3); also the local driver's folder name. */
export const DOCUMENTS_BUCKET = 'provider-documents';

/**
 * The storage driver selected by env. The S3 driver's module (the AWS SDK: about 60 MB and 0.3 s to
 * load on Node 24) is loaded only when it is the one configured (decision 032).
 */
export async function createStorage(env: Env): Promise<ObjectStorage> {
  if (env.STORAGE_DRIVER === 's3') {
    const { createS3Storage } = await import('./s3-storage.ts');
    return createS3Storage({
      bucket: env.S3_BUCKET,
      region: env.S3_REGION,
      endpoint: env.S3_ENDPOINT,
      credentials:
        env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
          ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
          : undefined,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
      spoolDir: path.join(env.dataDir, 'tmp', 's3-spool'),
    });
  }
  return createLocalStorage(path.join(env.dataDir, 'objects', DOCUMENTS_BUCKET));
}
