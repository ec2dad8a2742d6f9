/** The intake's magic-byte, size and hash checks for every accepted extension (issue 4, spec §5). */
import { createHash } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import type { DocumentExtension } from '../../domain/sections/documents.ts';
import { tinyPng } from '../../tests/fixtures/files.ts';
import { DocumentIntake } from './document-intake.ts';

const JPEG = Buffer.concat([
  Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'),
  Buffer.alloc(200),
]);
const CFB = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(600)]);
const ZIP = Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.alloc(200)]);
const PDF = Buffer.from('%PDF-1.4\n%%EOF\n');

/** Run `bytes` (in `chunkSize` pieces) through an intake; the bytes that came out, or the error. */
async function intake(
  extension: DocumentExtension,
  bytes: Buffer,
  options: { chunkSize?: number; max?: number } = {},
) {
  const chunkSize = options.chunkSize ?? 1000;
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) chunks.push(bytes.subarray(i, i + chunkSize));
  const stream = new DocumentIntake(extension, options.max);
  const out: Buffer[] = [];
  await pipeline(
    Readable.from(chunks),
    stream,
    new Writable({
      write(chunk, _e, cb) {
        out.push(chunk);
        cb();
      },
    }),
  );
  return { out: Buffer.concat(out), size: stream.size, sha256: stream.sha256 };
}

describe('DocumentIntake', () => {
  it.each([
    ['pdf', PDF],
    ['png', tinyPng],
    ['jpg', JPEG],
    ['jpeg', JPEG],
    ['doc', CFB],
    ['docx', ZIP],
  ] as const)(
    'accepts a real .%s and passes every byte through with its size and SHA-256',
    async (ext, bytes) => {
      const result = await intake(ext, bytes, { chunkSize: 7 });
      expect(result.out).toEqual(bytes);
      expect(result.size).toBe(bytes.length);
      expect(result.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    },
  );

  it('passes a file larger than the sniffed head through intact', async () => {
    const bytes = Buffer.concat([PDF, Buffer.alloc(100_000, 7)]);
    expect((await intake('pdf', bytes, { chunkSize: 65536 })).out).toEqual(bytes);
  });

  it.each([
    ['pdf', Buffer.from('MZ'.padEnd(300, '\0'))],
    ['pdf', Buffer.from('plain text '.repeat(50))],
    ['docx', CFB],
    ['doc', ZIP],
    ['png', JPEG],
  ] as const)('refuses .%s content of another kind with 415', async (ext, bytes) => {
    await expect(intake(ext, bytes)).rejects.toMatchObject({ code: 'unsupported_media_type' });
  });

  it('refuses more than the limit with 413 and an empty file with 400', async () => {
    await expect(intake('pdf', Buffer.concat([PDF, Buffer.alloc(100)]), { max: 50 })).rejects.toMatchObject({
      code: 'payload_too_large',
    });
    await expect(intake('pdf', Buffer.alloc(0))).rejects.toMatchObject({ code: 'bad_request' });
  });
});
