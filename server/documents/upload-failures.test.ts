/**
 * Uploads that fail below the route (issue 19 item 4): a server killed mid-upload leaves a temp file
 * that the next start-up removes, and a storage write that fails answers 507 or 500 with a clear
 * message, logs its cause and leaves neither temp file, object nor row.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pdfOfSize } from '../../tests/fixtures/files.ts';
import {
  createTestApp,
  createTestDatabase,
  STRONG_PASSWORD,
  signUpAndSignIn,
  type TestApp,
} from '../../tests/harness.ts';
import { HttpClient, linkFromOutbox, signUpConfirmSignIn } from '../../tests/http-client.ts';
import { freePort } from '../db/embedded-postgres.ts';
import type { ObjectStorage } from '../storage/object-storage.ts';

/** Every file under `dir` (relative paths), or none when it does not exist. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

const isTemp = (file: string) => path.basename(file).startsWith('.tmp-');

/**
 * Send the head of a multipart upload of a 6 MiB PDF and `sendBytes` of it, and never finish.
 * Resolves with the request (destroy it to clean up).
 */
function startUpload(
  baseUrl: string,
  client: HttpClient,
  applicationId: string,
  sendBytes: number,
): http.ClientRequest {
  const boundary = '----killed-upload';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="documentType"\r\n\r\nother\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\n` +
      'Content-Type: application/pdf\r\n\r\n',
  );
  const request = http.request(new URL(`${baseUrl}/api/applications/${applicationId}/documents`), {
    method: 'POST',
    headers: {
      origin: client.origin,
      cookie: client.cookie,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(head.length + 6 * 1024 * 1024),
    },
  });
  request.on('error', () => {}); // the server is killed under it
  request.write(head);
  request.write(pdfOfSize(sendBytes));
  return request;
}

describe('a server killed mid-upload', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** Start server/main.ts; resolves once it logs that it is ready. `lines` keeps every log message. */
  async function startServer(env: Record<string, string>) {
    const child: ChildProcess = spawn(process.execPath, ['server/main.ts'], {
      env: { ...process.env, LOG_LEVEL: 'info', NODE_ENV: 'development', HOST: '127.0.0.1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    });
    const lines: string[] = [];
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      for (const part of parts) lines.push((JSON.parse(part) as { msg?: string }).msg ?? '');
    });
    child.stderr!.on('data', (chunk: Buffer) => lines.push(`stderr: ${chunk}`));
    await expect
      .poll(
        () => {
          if (child.exitCode !== null) throw new Error(`server exited:\n${lines.join('\n')}`);
          return lines.some((l) => l.startsWith('Credentialing portal ready'));
        },
        { interval: 50, timeout: 30_000 },
      )
      .toBe(true);
    return { child, lines, exited };
  }

  it('leaves a temp file that the next start-up removes', async () => {
    const database = await createTestDatabase();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cred-killed-'));
    cleanups.push(async () => {
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    const port = await freePort();
    const env = { DATABASE_URL: database.url, DATA_DIR: dataDir, PORT: String(port) };
    const objectsDir = path.join(dataDir, 'objects');
    const baseUrl = `http://127.0.0.1:${port}`;

    // First, Alice signs up on a running server and starts uploading a 6 MiB file.
    const first = await startServer(env);
    const alice = new HttpClient({ baseUrl, origin: `http://localhost:${port}` });
    await signUpConfirmSignIn(
      alice,
      {
        email: 'alice.killed@example.test',
        password: STRONG_PASSWORD,
        firstName: 'Alice',
        lastName: 'Killed',
      },
      linkFromOutbox(path.join(dataDir, 'mail')),
    );
    const created = await alice.json<{ id: string }>('POST', '/api/applications', {});
    expect(created.status).toBe(201);
    const upload = startUpload(baseUrl, alice, created.body.id, 2 * 1024 * 1024);
    cleanups.push(async () => void upload.destroy());
    // Wait until the server has written part of the file into its temp file (not just created it).
    const tempBytes = () =>
      filesUnder(objectsDir)
        .filter(isTemp)
        .map((file) => fs.statSync(path.join(objectsDir, file), { throwIfNoEntry: false })?.size ?? 0);
    await expect
      .poll(() => tempBytes().filter((size) => size > 0).length, { interval: 5, timeout: 10_000 })
      .toBe(1);

    // Second, the server is killed while it writes the temp file: nothing can clean up.
    first.child.kill('SIGKILL');
    await first.exited;
    upload.destroy();
    const [temp] = filesUnder(objectsDir).filter(isTemp);
    expect(fs.statSync(path.join(objectsDir, temp!)).size).toBeGreaterThan(0);

    // Third, the server starts again on the same data: its start-up sweep removes the leftover.
    const second = await startServer(env);
    await expect
      .poll(() => filesUnder(objectsDir).filter(isTemp), { interval: 50, timeout: 10_000 })
      .toEqual([]);
    await expect
      .poll(() => second.lines.includes('removed leftover temporary upload files'), { timeout: 5_000 })
      .toBe(true);
    expect(filesUnder(objectsDir)).toEqual([]);
  });
});

describe('a storage write that fails', () => {
  let app: TestApp;
  let realStorage: ObjectStorage;
  beforeAll(async () => {
    app = await createTestApp();
    realStorage = app.runtime.deps.storage;
  });
  afterEach(() => {
    app.runtime.deps.storage = realStorage;
  });
  afterAll(async () => {
    await app?.close();
  });

  const objectsDir = () => path.join(app.dataDir, 'objects');

  async function providerWithApplication() {
    const provider = await signUpAndSignIn(app);
    const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
    return { provider, applicationId: created.body.id };
  }

  function upload(provider: HttpClient, applicationId: string, bytes: Buffer) {
    const form = new FormData();
    form.append('documentType', 'other');
    form.append('file', new Blob([new Uint8Array(bytes)]), 'license.pdf');
    return provider.json<{ code: string; message: string }>(
      'POST',
      `/api/applications/${applicationId}/documents`,
      form,
    );
  }

  async function documentRows(applicationId: string): Promise<number> {
    const result = await app.runtime.deps.database.pool.query(
      'select count(*)::int as n from documents where application_id = $1',
      [applicationId],
    );
    return result.rows[0].n as number;
  }

  /** The log lines (parsed) whose message is `msg`. */
  const logged = (msg: string) =>
    app.logs
      .map((l) => JSON.parse(l) as { msg: string; err?: { code?: string } })
      .filter((l) => l.msg === msg);

  it('answers 507 on a full disk (ENOSPC), logs the cause and keeps no temp file or row', async () => {
    // Root ignores chmod and no small file system is at hand: the real local driver writes the temp
    // file, and the disk "fills up" after 256 KiB of it, as a write() failing with ENOSPC would.
    let tempFilesWhenFull: string[] = [];
    app.runtime.deps.storage = {
      ...realStorage,
      put(key, body, options) {
        let written = 0;
        const disk = new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            written += chunk.length;
            if (written <= 256 * 1024) return callback(null, chunk);
            tempFilesWhenFull = filesUnder(objectsDir()).filter(isTemp);
            callback(
              Object.assign(new Error('ENOSPC: no space left on device, write'), {
                code: 'ENOSPC',
                errno: -28,
                syscall: 'write',
              }),
            );
          },
        });
        body.on('error', (error) => disk.destroy(error));
        return realStorage.put(key, body.pipe(disk), options);
      },
    };
    const { provider, applicationId } = await providerWithApplication();

    const response = await upload(provider, applicationId, pdfOfSize(2 * 1024 * 1024));

    expect(response.status).toBe(507);
    expect(response.body).toEqual({
      code: 'insufficient_storage',
      message:
        'The server has no storage space left, so your file was not saved. Try again later, and tell your credentialing team.',
    });
    expect(tempFilesWhenFull).toHaveLength(1);
    expect(filesUnder(objectsDir()).filter((f) => f.includes(provider.userId))).toEqual([]);
    expect(await documentRows(applicationId)).toBe(0);
    const [failure] = logged('document upload: storage write failed');
    expect(failure?.err?.code).toBe('ENOSPC');
  });

  it('answers 500 with a clear message when the folder cannot be written, and logs why', async () => {
    // The provider's folder is a file: mkdir fails with ENOTDIR on the real disk (chmod 0500 would
    // not stop root, which runs the tests).
    const { provider, applicationId } = await providerWithApplication();
    const documentsRoot = path.join(objectsDir(), 'provider-documents');
    fs.mkdirSync(documentsRoot, { recursive: true });
    fs.writeFileSync(path.join(documentsRoot, provider.userId), '');
    const before = logged('document upload: storage write failed').length;

    const response = await upload(provider, applicationId, pdfOfSize(300 * 1024));

    expect(response.status).toBe(500);
    expect(response.body).toEqual({
      code: 'internal',
      message:
        'Your file could not be saved because of a storage problem on our side. Try again in a moment, and tell your credentialing team if it keeps happening.',
    });
    const failures = logged('document upload: storage write failed').slice(before);
    expect(failures.map((f) => f.err?.code)).toEqual([expect.stringMatching(/^(ENOTDIR|EEXIST)$/)]);
    expect(filesUnder(objectsDir()).filter(isTemp)).toEqual([]);
    expect(await documentRows(applicationId)).toBe(0);
    fs.rmSync(path.join(documentsRoot, provider.userId));
  });
});
