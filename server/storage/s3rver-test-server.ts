/**
 * Test helper: an s3rver instance (S3-compatible server) on 127.0.0.1 at a random port, storing in a
 * temporary folder, with one bucket created. Used by the storage driver suite and the documents tests.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export interface TestS3Server {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  bucket: string;
  /** The folder s3rver keeps its buckets' files in (`<directory>/<bucket>/<key>._S3rver_object`, ...). */
  directory: string;
  /** s3rver's fixed credentials. */
  accessKeyId: string;
  secretAccessKey: string;
  /** Env variables selecting this server for createRuntime/loadEnv. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Start s3rver with `bucket` created. */
export async function startTestS3Server(bucket = 'provider-documents'): Promise<TestS3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    directory,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    env: {
      STORAGE_DRIVER: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
