/**
 * The streamed body: byte-exact base64 across read-chunk boundaries, and what happens to documents
 * that cannot be read. Storage here is an in-memory ObjectStorage (no database involved).
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ObjectNotFoundError, type ObjectStorage } from '../storage/object-storage.ts';
import { type CompletionSource, completionBody, DocumentReadError } from './completion-payload.ts';

/** Objects in memory, served in `chunkSize` slices; `broken` keys fail after the first slice. */
function memoryStorage(
  objects: Map<string, Buffer>,
  chunkSize: number,
  broken = new Set<string>(),
): ObjectStorage {
  return {
    driver: 'memory',
    async put() {
      throw new Error('read-only');
    },
    async get(key) {
      const bytes = objects.get(key);
      if (!bytes) throw new ObjectNotFoundError(key);
      let offset = 0;
      return new Readable({
        read() {
          if (broken.has(key) && offset > 0) return this.destroy(new Error('disk error'));
          if (offset >= bytes.length) return this.push(null);
          this.push(bytes.subarray(offset, offset + chunkSize));
          offset += chunkSize;
        },
      });
    },
    async stat(key) {
      throw new ObjectNotFoundError(key);
    },
    async delete() {},
    async *list() {},
    async sweepTempFiles() {
      return { count: 0, bytes: 0 };
    },
  };
}

function source(documentKeys: string[]): CompletionSource {
  return {
    head: {
      applicationId: 'app',
      userId: 'user',
      userEmail: 'a@example.test',
      timestamp: '2025-01-01T00:00:00.000Z',
      applicantInfo: { profile: null, personalInformation: {} as never },
    },
    documents: documentKeys.map((key) => ({
      id: key,
      filePath: key,
      row: { id: key, filename: `${key}.pdf` },
    })),
    lists: {
      licenses: [],
      education: [],
      workHistory: [],
      malpracticeInsurance: [],
      vaccinations: [],
      payors: [],
      certifications: [],
      cme: [],
      peerReferences: [],
      specialties: [],
      practiceLocations: [],
      hospitalAffiliations: [],
      training: [],
      malpracticeClaims: [],
    },
  };
}

async function collect(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

const logger = pino({ level: 'silent' });

describe('completionBody', () => {
  it.each([0, 1, 2, 3, 4, 65_535, 65_536, 65_537, 200_001])(
    'streams a %i-byte document as exact base64 in valid JSON',
    async (size) => {
      const bytes = randomBytes(size);
      // 7-byte slices: almost every chunk boundary falls inside a 3-byte base64 group.
      const storage = memoryStorage(new Map([['doc', bytes]]), size > 1000 ? 65_536 : 7);
      const json = JSON.parse(
        await collect(
          completionBody(source(['doc']), {
            storage,
            logger,
            notificationId: 'n',
            unreadable: new Set(),
            discover: false,
          }),
        ),
      );
      expect(json.documents[0]).toEqual({
        id: 'doc',
        filename: 'doc.pdf',
        base64Content: bytes.toString('base64'),
      });
      expect(json.licenses).toEqual([]);
      expect(json.applicationId).toBe('app');
    },
  );

  it('sends an unreadable document with base64Content null and remembers it for the second pass', async () => {
    const storage = memoryStorage(new Map([['present', Buffer.from('hello')]]), 4);
    const unreadable = new Set<string>();
    const options = { storage, logger, notificationId: 'n', unreadable };
    const first = await collect(
      completionBody(source(['missing', 'present']), { ...options, discover: true }),
    );
    expect(unreadable).toEqual(new Set(['missing']));
    const parsed = JSON.parse(first);
    expect(parsed.documents.map((d: { base64Content: string | null }) => d.base64Content)).toEqual([
      null,
      Buffer.from('hello').toString('base64'),
    ]);
    // The sending pass yields the very same bytes.
    expect(
      await collect(completionBody(source(['missing', 'present']), { ...options, discover: false })),
    ).toBe(first);
  });

  it('refuses, in the sending pass, a document that became unreadable after signing', async () => {
    const storage = memoryStorage(new Map(), 4);
    const body = completionBody(source(['gone']), {
      storage,
      logger,
      notificationId: 'n',
      unreadable: new Set(),
      discover: false,
    });
    await expect(collect(body)).rejects.toThrow('became unreadable between the two passes');
  });

  it('reports a document failing mid-stream as DocumentReadError', async () => {
    const storage = memoryStorage(new Map([['flaky', randomBytes(100)]]), 10, new Set(['flaky']));
    const body = completionBody(source(['flaky']), {
      storage,
      logger,
      notificationId: 'n',
      unreadable: new Set(),
      discover: true,
    });
    const error = await collect(body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocumentReadError);
    expect((error as DocumentReadError).documentId).toBe('flaky');
  });
});
