/**
 * Documents over real HTTP (issue 4), once per storage driver: a row exists if and only if its
 * object exists. A row the database refuses leaves no object; a client that vanishes mid-upload
 * leaves neither row nor file; the sweep removes objects no row points to once an hour old.
 */
import diagnostics from 'node:diagnostics_channel';
import http from 'node:http';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalPdf, pdfOfSize } from '../../tests/fixtures/files.ts';
import { type Client, createTestApp, TEST_ORIGIN, type TestApp } from '../../tests/harness.ts';
import { sweepOrphanObjects } from './documents.service.ts';
import { documentsSuite, type StorageFixture, storageDrivers } from './testing/documents-suite.ts';

/**
 * Resolves once Fastify has finished running the handler of `method url`, with the error it ended
 * with (if any). Fastify publishes `tracing:fastify.request.handler:asyncEnd` after an async
 * handler's promise settled and its answer went to `reply.send`. A client that vanished gets no
 * answer, so no 'request completed' log or onResponse hook follows: this is the event that says the
 * server is done with the request, cleanup included.
 */
function handlerSettled(method: string, url: string, timeoutMs = 10_000): Promise<{ error?: unknown }> {
  const channel = 'tracing:fastify.request.handler:asyncEnd';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      diagnostics.unsubscribe(channel, onEnd);
      reject(new Error(`the server did not finish handling ${method} ${url} within ${timeoutMs} ms`));
    }, timeoutMs);
    function onEnd(message: unknown) {
      const store = message as { request: { method: string; url: string }; error?: unknown };
      if (store.request.method !== method || store.request.url !== url) return;
      clearTimeout(timer);
      diagnostics.unsubscribe(channel, onEnd);
      resolve({ error: store.error });
    }
    diagnostics.subscribe(channel, onEnd);
  });
}

describe.each(storageDrivers)(
  'documents and their objects with the $name storage driver',
  ({ name, start }) => {
    let app: TestApp;
    let storage: StorageFixture | undefined;

    beforeAll(async () => {
      storage = await start();
      app = await createTestApp(storage.env);
      expect(app.runtime.deps.storage.driver).toBe(name);
    });
    afterAll(async () => {
      await app?.close();
      await storage?.close();
    });

    const { filesOnDisk, storedKeys, documentRowCount, download, providerWithApplication, upload } =
      documentsSuite(() => ({ app, storage }));

    it('deletes the stored object when the row cannot be inserted', async () => {
      const alice = await providerWithApplication();
      const pool = app.runtime.deps.database.pool;
      // Make the database refuse the next document row, as a failing insert would.
      await pool.query(`create or replace function refuse_document() returns trigger language plpgsql as
      $$ begin raise exception 'refused by the test'; end $$`);
      await pool.query(
        'create trigger refuse_document before insert on documents for each row execute function refuse_document()',
      );
      try {
        const response = await upload(alice, alice.applicationId, {
          documentType: 'other',
          file: { name: 'a.pdf', bytes: minimalPdf() },
        });
        expect(response.status).toBe(500);
        expect(response.body.message).not.toMatch(/refused by the test/);
      } finally {
        await pool.query('drop trigger refuse_document on documents');
      }
      expect(await documentRowCount(alice.applicationId)).toBe(0);
      expect(await storedKeys(`${alice.userId}/`)).toEqual([]);
    });

    const uploadPath = (applicationId: string) => `/api/applications/${applicationId}/documents`;

    /**
     * Start a multipart upload of a 6 MiB PDF by raw HTTP, send `sendBytes` of it, then vanish once
     * `disconnectWhen` resolves.
     */
    async function uploadAndDisconnect(
      client: Client,
      applicationId: string,
      sendBytes: number,
      disconnectWhen: () => Promise<void>,
    ) {
      const boundary = '----interrupted-upload';
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="documentType"\r\n\r\nother\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\n` +
          'Content-Type: application/pdf\r\n\r\n',
      );
      const url = new URL(`${app.baseUrl}${uploadPath(applicationId)}`);
      const request = http.request(url, {
        method: 'POST',
        headers: {
          origin: TEST_ORIGIN,
          cookie: client.cookie,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + 6 * 1024 * 1024),
        },
      });
      const ended = new Promise<void>((resolve) => {
        request.on('error', () => resolve());
        request.on('response', (response) => {
          response.resume();
          resolve();
        });
      });
      request.write(head);
      if (sendBytes > 0) request.write(pdfOfSize(sendBytes));
      await disconnectWhen();
      request.destroy();
      await ended;
    }

    /** Resolves when the server has parsed the headers of a request for `url` (the body may be unread). */
    function serverReceived(url: string): Promise<void> {
      return new Promise((resolve) => {
        const onRequest = (request: http.IncomingMessage) => {
          if (request.url !== url) return;
          app.runtime.app.server.off('request', onRequest);
          resolve();
        };
        app.runtime.app.server.on('request', onRequest);
      });
    }

    /** Resolves once a file that is not in `before` exists on disk: the server is storing the upload. */
    async function newFileOnDisk(before: string[]): Promise<void> {
      await expect
        .poll(() => filesOnDisk().some((file) => !before.includes(file)), { interval: 5, timeout: 10_000 })
        .toBe(true);
    }

    it.each([
      [
        'mid-file, while the server stores it',
        2 * 1024 * 1024,
        (_url: string, before: string[]) => () => newFileOnDisk(before),
      ],
      [
        'right after the headers, before the server reads the body',
        0,
        (url: string, _before: string[]) => {
          const received = serverReceived(url);
          return () => received;
        },
      ],
    ] as const)(
      'leaves neither row nor file when the client disconnects %s',
      async (_when, sendBytes, disconnectWhen) => {
        const alice = await providerWithApplication();
        const url = uploadPath(alice.applicationId);
        const before = filesOnDisk();
        const settled = handlerSettled('POST', url);
        await uploadAndDisconnect(alice, alice.applicationId, sendBytes, disconnectWhen(url, before));

        // The server noticed the disconnect and finished the request (its cleanup is awaited before that).
        const { error } = await settled;
        expect(error).toMatchObject({
          code: 'bad_request',
          message: 'The upload was interrupted. Please try again.',
        });
        // Nothing at all was left: no object, no temporary or spool file, no row.
        expect(filesOnDisk()).toEqual(before);
        expect(await documentRowCount(alice.applicationId)).toBe(0);
        // The server still serves this provider normally.
        const after = await upload(alice, alice.applicationId, {
          documentType: 'other',
          file: { name: 'ok.pdf', bytes: minimalPdf() },
        });
        expect(after.status).toBe(201);
      },
    );

    it('sweeps objects that no row points to once they are an hour old, and nothing else', async () => {
      const alice = await providerWithApplication();
      const kept = await upload(alice, alice.applicationId, {
        documentType: 'other',
        file: { name: 'kept.pdf', bytes: minimalPdf() },
      });
      expect(kept.status).toBe(201);
      const storage = app.runtime.deps.storage;
      // An object left by a delete (or a crashed upload) that died before removing it.
      const orphan = `${alice.userId}/other/1000.pdf`;
      await storage.put(orphan, Readable.from([minimalPdf()]), { contentType: 'application/pdf' });

      // Too young: an upload may be between its object and its row.
      expect(await sweepOrphanObjects(app.runtime.deps.db, storage)).toEqual([]);
      expect(await storedKeys(`${alice.userId}/`)).toHaveLength(2);

      const later = new Date(Date.now() + 2 * 60 * 60 * 1000);
      expect(await sweepOrphanObjects(app.runtime.deps.db, storage, { now: later })).toEqual([orphan]);
      const left = await storedKeys(`${alice.userId}/`);
      expect(left).toHaveLength(1);
      expect(left[0]).not.toBe(orphan);
      // The kept document still downloads, byte for byte.
      const kept2 = await download(alice, kept.body.downloadUrl);
      expect(kept2.response.status).toBe(200);
      expect(kept2.bytes).toEqual(minimalPdf());
    });
  },
);
