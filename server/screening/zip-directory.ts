/**
 * ZIP archives as exclusion lists arrive in them (issue 52 item 1): the files an archive holds, read
 * from its central directory at the end of the file (at most the last 64 KB and the directory itself,
 * bounded), so a refused ZIP is described by what it holds ('a ZIP archive with 2 files'); and one
 * file taken out, streamed through zlib to disk with its size bounded (SAM.gov publishes its extract
 * as `SAM_Exclusions_Public_Extract_V2_YYDDD.ZIP`, one CSV inside). Stored and deflated entries only;
 * no ZIP64 (a list file is far below 4 GB).
 */
import fs from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInflateRaw } from 'node:zlib';

/** End of central directory record: signature, and its fixed size without the comment. */
const EOCD_SIGNATURE = 0x06054b50;
const EOCD_SIZE = 22;
/** A central directory entry's signature and fixed size without name, extra field and comment. */
const ENTRY_SIGNATURE = 0x02014b50;
const ENTRY_SIZE = 46;
/** Longest central directory read: 1 MB holds tens of thousands of names. */
const MAX_DIRECTORY = 1024 * 1024;
/** A local file header's signature and fixed size without name and extra field. */
const LOCAL_SIGNATURE = 0x04034b50;
const LOCAL_SIZE = 30;

/** One file in an archive, as its central directory describes it. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated (others are refused when taken out). */
  method: number;
  compressedSize: number;
  /** Uncompressed size, as the directory states it (checked again while inflating). */
  size: number;
  localHeaderOffset: number;
}

/** The names of the files (folders excluded) in the ZIP archive `file`; null as `zipEntries`. */
export async function zipEntryNames(file: string): Promise<string[] | null> {
  return (await zipEntries(file))?.map((e) => e.name) ?? null;
}

/**
 * The files (folders excluded) in the ZIP archive `file`, in directory order; null when the
 * directory cannot be found or read (a cut-off download, a ZIP64 archive, a directory over 1 MB).
 */
export async function zipEntries(file: string): Promise<ZipEntry[] | null> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const tailLength = Math.min(size, EOCD_SIZE + 0xffff);
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, size - tailLength);
    let eocd = -1;
    for (let i = tailLength - EOCD_SIZE; i >= 0; i -= 1) {
      if (tail.readUInt32LE(i) === EOCD_SIGNATURE) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) return null;
    const entries = tail.readUInt16LE(eocd + 10);
    const directorySize = tail.readUInt32LE(eocd + 12);
    const directoryOffset = tail.readUInt32LE(eocd + 16);
    if (directorySize > MAX_DIRECTORY || directoryOffset + directorySize > size) return null;
    const directory = Buffer.alloc(directorySize);
    await handle.read(directory, 0, directorySize, directoryOffset);
    const names: ZipEntry[] = [];
    let at = 0;
    for (let n = 0; n < entries; n += 1) {
      if (at + ENTRY_SIZE > directory.length || directory.readUInt32LE(at) !== ENTRY_SIGNATURE) return null;
      const nameLength = directory.readUInt16LE(at + 28);
      const extraLength = directory.readUInt16LE(at + 30);
      const commentLength = directory.readUInt16LE(at + 32);
      const name = directory.toString('utf8', at + ENTRY_SIZE, at + ENTRY_SIZE + nameLength);
      if (!name.endsWith('/')) {
        names.push({
          name,
          method: directory.readUInt16LE(at + 10),
          compressedSize: directory.readUInt32LE(at + 20),
          size: directory.readUInt32LE(at + 24),
          localHeaderOffset: directory.readUInt32LE(at + 42),
        });
      }
      at += ENTRY_SIZE + nameLength + extraLength + commentLength;
    }
    return names;
  } finally {
    await handle.close();
  }
}

/**
 * Write `entry` of archive `file` to `destination` (created 0600), streaming: memory stays at one
 * chunk. Refused (an Error whose message is a sentence for the person importing) when the entry is
 * larger than `maxBytes` by the directory or once inflated (an archive may misstate it), or uses a
 * compression method other than stored or deflated.
 */
export async function extractZipEntry(
  file: string,
  entry: ZipEntry,
  destination: string,
  maxBytes: number,
): Promise<void> {
  const tooLarge = () =>
    new Error(
      `The file inside the ZIP archive is larger than ${Math.round(maxBytes / 1024 / 1024)} MB: it is not an exclusion list.`,
    );
  if (entry.size > maxBytes) throw tooLarge();
  if (entry.method !== 0 && entry.method !== 8) {
    throw new Error(
      'The file inside the ZIP archive is compressed in a way this import does not read. Unzip it and import the CSV file.',
    );
  }
  const handle = await fs.promises.open(file, 'r');
  let dataStart: number;
  try {
    const local = Buffer.alloc(LOCAL_SIZE);
    await handle.read(local, 0, LOCAL_SIZE, entry.localHeaderOffset);
    if (local.readUInt32LE(0) !== LOCAL_SIGNATURE) {
      throw new Error('The ZIP archive is damaged: the download may be cut off. Download it again.');
    }
    dataStart = entry.localHeaderOffset + LOCAL_SIZE + local.readUInt16LE(26) + local.readUInt16LE(28);
  } finally {
    await handle.close();
  }
  let written = 0;
  const bounded = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      written += chunk.length;
      done(written > maxBytes ? tooLarge() : null, chunk);
    },
  });
  const out = fs.createWriteStream(destination, { mode: 0o600, flags: 'wx' });
  if (entry.compressedSize === 0) {
    // An empty file (a stream's end may not be before its start).
    await pipeline(async function* () {}, out);
    return;
  }
  const compressed = fs.createReadStream(file, {
    start: dataStart,
    end: dataStart + entry.compressedSize - 1,
  });
  if (entry.method === 8) await pipeline(compressed, createInflateRaw(), bounded, out);
  else await pipeline(compressed, bounded, out);
}
