/**
 * One suite, both drivers (issue 4): the local driver in a temporary folder and the S3 driver against
 * an s3rver started here. Whatever passes here is what the documents feature relies on.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorage } from './local-storage.ts';
import { ObjectNotFoundError, type ObjectStorage } from './object-storage.ts';
import { createS3Storage } from './s3-storage.ts';
import { startTestS3Server } from './s3rver-test-server.ts';

interface DriverFixture {
  storage: ObjectStorage;
  /** Where the S3 driver spools uploads (must be empty between uploads). */
  spoolDir?: string;
  close(): Promise<void>;
}

const drivers: { name: string; start(): Promise<DriverFixture> }[] = [
  {
    name: 'local',
    async start() {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'storage-test-'));
      return {
        storage: createLocalStorage(path.join(root, 'provider-documents')),
        async close() {
          fs.rmSync(root, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 's3',
    async start() {
      const server = await startTestS3Server();
      const spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storage-spool-'));
      const storage = createS3Storage({
        bucket: server.bucket,
        region: 'us-east-1',
        endpoint: server.endpoint,
        credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
        forcePathStyle: true,
        spoolDir,
        // So the 6 MiB object below goes up as a multipart upload, and the small ones as PutObject.
        multipartThresholdBytes: 5 * 1024 * 1024,
      });
      return {
        storage,
        spoolDir,
        async close() {
          storage.client.destroy();
          await server.close();
          fs.rmSync(spoolDir, { recursive: true, force: true });
        },
      };
    },
  },
];

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function listKeys(storage: ObjectStorage, prefix?: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of storage.list(prefix)) keys.push(o.key);
  return keys;
}

/** A stream of `total` random bytes in 64 KiB chunks, never held whole; reports its SHA-256. */
function randomStream(total: number): { stream: Readable; digest: () => string } {
  const hash = createHash('sha256');
  let sent = 0;
  const stream = new Readable({
    read() {
      if (sent >= total) return this.push(null);
      const chunk = randomBytes(Math.min(64 * 1024, total - sent));
      sent += chunk.length;
      hash.update(chunk);
      this.push(chunk);
    },
  });
  return { stream, digest: () => hash.digest('hex') };
}

/** A stream that sends `bytes` and then fails, like a client that disconnects mid-upload. */
function failingStream(bytes: number): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(randomBytes(bytes));
      } else {
        this.destroy(new Error('client went away'));
      }
    },
  });
}

describe.each(drivers)('ObjectStorage driver: $name', ({ start }) => {
  let fixture: DriverFixture;
  let storage: ObjectStorage;
  beforeAll(async () => {
    fixture = await start();
    storage = fixture.storage;
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it('stores a stream and gives the same bytes back, with its size', async () => {
    const body = Buffer.from('%PDF-1.4\nhello\n%%EOF\n');
    const put = await storage.put('user-1/cv_resume/1.pdf', Readable.from([body]), {
      contentType: 'application/pdf',
    });
    expect(put.size).toBe(body.length);
    expect(await readAll(await storage.get('user-1/cv_resume/1.pdf'))).toEqual(body);
    const info = await storage.stat('user-1/cv_resume/1.pdf');
    expect(info).toMatchObject({ key: 'user-1/cv_resume/1.pdf', size: body.length });
    expect(info.lastModified.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('streams an object larger than one S3 part (6 MiB) intact', async () => {
    const total = 6 * 1024 * 1024 + 123;
    const source = randomStream(total);
    const put = await storage.put('user-1/diploma/2.png', source.stream, { contentType: 'image/png' });
    expect(put.size).toBe(total);
    const back = createHash('sha256');
    let size = 0;
    for await (const chunk of await storage.get('user-1/diploma/2.png')) {
      back.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    expect(size).toBe(total);
    expect(back.digest('hex')).toBe(source.digest());
    if (fixture.spoolDir) expect(fs.readdirSync(fixture.spoolDir)).toEqual([]);
  });

  it('replaces an object written again at the same key', async () => {
    await storage.put('user-2/other/3.pdf', Readable.from([Buffer.from('first')]), {
      contentType: 'application/pdf',
    });
    await storage.put('user-2/other/3.pdf', Readable.from([Buffer.from('second!')]), {
      contentType: 'application/pdf',
    });
    expect((await readAll(await storage.get('user-2/other/3.pdf'))).toString()).toBe('second!');
  });

  it('reports a missing object as ObjectNotFoundError', async () => {
    await expect(storage.get('nobody/other/0.pdf')).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(storage.stat('nobody/other/0.pdf')).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it('deletes idempotently', async () => {
    await storage.put('user-3/other/4.pdf', Readable.from([Buffer.from('x')]), {
      contentType: 'application/pdf',
    });
    await storage.delete('user-3/other/4.pdf');
    await expect(storage.stat('user-3/other/4.pdf')).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(storage.delete('user-3/other/4.pdf')).resolves.toBeUndefined();
  });

  it('lists objects under a prefix in key order', async () => {
    for (const key of ['list-b/other/2.pdf', 'list-a/other/9.pdf', 'list-a/cv_resume/1.pdf']) {
      await storage.put(key, Readable.from([Buffer.from(key)]), { contentType: 'application/pdf' });
    }
    expect(await listKeys(storage, 'list-a/')).toEqual(['list-a/cv_resume/1.pdf', 'list-a/other/9.pdf']);
    const all = await listKeys(storage);
    expect(all).toEqual(expect.arrayContaining(['list-a/cv_resume/1.pdf', 'list-b/other/2.pdf']));
    expect(all).toEqual([...all].sort());
  });

  it('leaves nothing behind when the body fails part-way, small or multipart', async () => {
    await expect(
      storage.put('broken/other/1.pdf', failingStream(1000), { contentType: 'application/pdf' }),
    ).rejects.toThrow();
    await expect(
      storage.put('broken/other/2.pdf', failingStream(6 * 1024 * 1024), { contentType: 'application/pdf' }),
    ).rejects.toThrow();
    expect(await listKeys(storage, 'broken/')).toEqual([]);
    await expect(storage.stat('broken/other/1.pdf')).rejects.toBeInstanceOf(ObjectNotFoundError);
    if (fixture.spoolDir) expect(fs.readdirSync(fixture.spoolDir)).toEqual([]);
  });

  it('rejects a body that failed before put started reading it, without an uncaught error', async () => {
    const body = new PassThrough();
    body.destroy(new Error('failed early'));
    await expect(
      storage.put('early/other/1.pdf', body, { contentType: 'application/pdf' }),
    ).rejects.toThrow();
    expect(await listKeys(storage, 'early/')).toEqual([]);
  });

  it('refuses keys that could escape the bucket', async () => {
    for (const key of ['../etc/passwd', 'a/../../b', '/abs/path', 'a//b', 'a/.tmp-x']) {
      await expect(
        storage.put(key, Readable.from([Buffer.from('x')]), { contentType: 'text/plain' }),
      ).rejects.toThrow(/Invalid object key/);
      await expect(storage.get(key)).rejects.toThrow(/Invalid object key/);
    }
  });
});

describe('local driver specifics', () => {
  it('writes atomically: no temporary file remains after a failed write', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'storage-test-'));
    try {
      const storage = createLocalStorage(root);
      await expect(
        storage.put('u/other/1.pdf', failingStream(5000), { contentType: 'application/pdf' }),
      ).rejects.toThrow('client went away');
      expect(fs.readdirSync(path.join(root, 'u', 'other'))).toEqual([]);
      await storage.put('u/other/2.pdf', Readable.from([Buffer.from('ok')]), {
        contentType: 'application/pdf',
      });
      expect(fs.readdirSync(path.join(root, 'u', 'other'))).toEqual(['2.pdf']);
      expect(fs.statSync(path.join(root, 'u', 'other', '2.pdf')).mode & 0o777).toBe(0o600);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
