/**
 * What the documents suites share (documents.routes.test.ts, documents-storage.test.ts): the storage
 * drivers a suite runs once with each (local disk, and S3 against an s3rver started here), the upload
 * form, and the helpers a suite uses on its app: files on disk, stored keys, rows, download, upload.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { type Client, signUpAndSignIn, type TestApp } from '../../../tests/harness.ts';
import { startTestS3Server, type TestS3Server } from '../../storage/s3rver-test-server.ts';

/** A document as the API answers it. */
export interface DocumentDto {
  id: string;
  applicationId: string;
  documentName: string;
  documentType: string;
  fileSize: number;
  mimeType: string;
  sha256: string;
  uploadedAt: string;
  downloadUrl: string;
}

/** A multipart upload body: a document type and a file, in either order, or parts missing. */
export function uploadForm(parts: {
  documentType?: string;
  file?: { name: string; bytes: Buffer };
  fileFirst?: boolean;
}) {
  const form = new FormData();
  const appendFile = () => {
    if (parts.file) form.append('file', new Blob([new Uint8Array(parts.file.bytes)]), parts.file.name);
  };
  if (parts.fileFirst) appendFile();
  if (parts.documentType !== undefined) form.append('documentType', parts.documentType);
  if (!parts.fileFirst) appendFile();
  return form;
}

/** A storage driver started for a suite. */
export interface StorageFixture {
  env: Record<string, string>;
  /** Folders the driver writes to besides DATA_DIR (s3rver's bucket files). */
  directories: string[];
  close(): Promise<void>;
}

/** The storage drivers every documents suite runs with. */
export const storageDrivers: { name: string; start(): Promise<StorageFixture> }[] = [
  { name: 'local', start: async () => ({ env: {}, directories: [], close: async () => {} }) },
  {
    name: 's3',
    async start() {
      const s3: TestS3Server = await startTestS3Server();
      return { env: s3.env, directories: [s3.directory], close: () => s3.close() };
    },
  },
];

/** Every file under `directory`, recursively, hidden and temporary ones included. */
function filesUnder(directory: string): string[] {
  if (!fs.existsSync(directory)) return [];
  return fs
    .readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * The helpers of a documents suite over `suite()`'s app and storage (read when a helper runs, so
 * after the suite's beforeAll started them).
 */
export function documentsSuite(suite: () => { app: TestApp; storage: StorageFixture | undefined }) {
  /**
   * Every file the server could have written for a document: all of DATA_DIR (local objects and their
   * `.tmp-` files, the S3 spool) and the S3 server's bucket files. Not the driver's `list`, which
   * skips temporary files.
   */
  function filesOnDisk(): string[] {
    const { app, storage } = suite();
    return [app.dataDir, ...(storage?.directories ?? [])].flatMap(filesUnder).sort();
  }

  async function storedKeys(prefix?: string): Promise<string[]> {
    const keys: string[] = [];
    for await (const object of suite().app.runtime.deps.storage.list(prefix)) keys.push(object.key);
    return keys;
  }

  async function documentRowCount(applicationId: string): Promise<number> {
    const { rows } = await suite().app.runtime.deps.database.pool.query(
      'select count(*)::int as n from documents where application_id = $1',
      [applicationId],
    );
    return rows[0].n;
  }

  /**
   * GET a download and read it to the end. `connection: close`, because a streamed response still
   * finishing when the suite closes the server would keep its keep-alive socket (and the close) open.
   */
  async function download(client: Client, url: string): Promise<{ response: Response; bytes: Buffer }> {
    const response = await client.request('GET', url, undefined, { connection: 'close' });
    return { response, bytes: Buffer.from(await response.arrayBuffer()) };
  }

  async function providerWithApplication() {
    const provider = await signUpAndSignIn(suite().app);
    const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
    expect(created.status).toBe(201);
    return Object.assign(provider, { applicationId: created.body.id });
  }

  async function upload(
    client: Client,
    applicationId: string,
    parts: Parameters<typeof uploadForm>[0],
  ): Promise<{ status: number; body: DocumentDto & { code?: string; message?: string } }> {
    return client.json('POST', `/api/applications/${applicationId}/documents`, uploadForm(parts));
  }

  return { filesOnDisk, storedKeys, documentRowCount, download, providerWithApplication, upload };
}
