/**
 * ZIP archives as exclusion lists arrive in them (issue 52 item 1), read with yauzl: the files an
 * archive holds, from its central directory, so a refused ZIP is described by what it holds ('a ZIP
 * archive with 2 files'); and one file taken out, streamed to disk with its size bounded (SAM.gov
 * publishes its extract as `SAM_Exclusions_Public_Extract_V2_YYDDD.ZIP`, one CSV inside). yauzl reads
 * ZIP64, checks names and entry sizes, and refuses encrypted entries and unknown compression methods.
 */
import fs from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';

/** Most entries listed: a list archive holds one file; a workbook a few dozen parts. */
const MAX_ENTRIES = 10_000;

/** One file in an archive, as its central directory describes it. */
export interface ZipEntry {
  name: string;
  /** Its position in the central directory (how `extractZipEntry` finds it again). */
  index: number;
  /** Uncompressed size, as the directory states it (bounded again while streaming out). */
  size: number;
}

/** The names of the files (folders excluded) in the ZIP archive `file`; null as `zipEntries`. */
export async function zipEntryNames(file: string): Promise<string[] | null> {
  return (await zipEntries(file))?.map((e) => e.name) ?? null;
}

/**
 * The files (folders excluded) in the ZIP archive `file`, in directory order; null when the archive
 * cannot be read (a cut-off download, a damaged directory, more than 10,000 entries).
 */
export async function zipEntries(file: string): Promise<ZipEntry[] | null> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false });
  } catch {
    return null;
  }
  try {
    if (zip.entryCount > MAX_ENTRIES) return null;
    const entries: ZipEntry[] = [];
    let index = 0;
    for await (const entry of zip.eachEntry()) {
      if (!entry.fileName.endsWith('/')) {
        entries.push({ name: entry.fileName, index, size: entry.uncompressedSize });
      }
      index += 1;
    }
    return entries;
  } catch {
    return null;
  } finally {
    zip.close();
  }
}

/**
 * Write `entry` of archive `file` to `destination` (created 0600), streaming: memory stays at one
 * chunk. Refused (an Error whose message is a sentence for the person importing) when the entry is
 * larger than `maxBytes` by the directory or once inflated (an archive may misstate it), or is
 * encrypted or compressed in a way yauzl does not decode (other errors are yauzl's, for the log).
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
  const zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false });
  try {
    let index = 0;
    let found: yauzl.Entry | undefined;
    for await (const candidate of zip.eachEntry()) {
      if (index === entry.index) {
        found = candidate;
        break;
      }
      index += 1;
    }
    if (!found || found.fileName !== entry.name) {
      throw new Error('The ZIP archive changed while it was read. Import it again.');
    }
    if (!found.canDecodeFileData()) {
      throw new Error(
        'The file inside the ZIP archive is encrypted or compressed in a way this import does not read. Unzip it and import the CSV file.',
      );
    }
    let written = 0;
    const bounded = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        written += chunk.length;
        done(written > maxBytes ? tooLarge() : null, chunk);
      },
    });
    const out = fs.createWriteStream(destination, { mode: 0o600, flags: 'wx' });
    await pipeline(await zip.openReadStreamPromise(found), bounded, out);
  } finally {
    zip.close();
  }
}
