/**
 * The names of the files in a ZIP archive, read from its central directory at the end of the file
 * (issue 52 item 1: a refused ZIP is described by what it holds, 'a ZIP archive with 2 files'). Reads
 * at most the last 64 KB and the directory itself (bounded), never the archive's contents.
 */
import fs from 'node:fs';

/** End of central directory record: signature, and its fixed size without the comment. */
const EOCD_SIGNATURE = 0x06054b50;
const EOCD_SIZE = 22;
/** A central directory entry's signature and fixed size without name, extra field and comment. */
const ENTRY_SIGNATURE = 0x02014b50;
const ENTRY_SIZE = 46;
/** Longest central directory read: 1 MB holds tens of thousands of names. */
const MAX_DIRECTORY = 1024 * 1024;

/**
 * The names of the files (folders excluded) in the ZIP archive `file`, in directory order; null when
 * the directory cannot be found or read (a cut-off download, a ZIP64 archive, a directory over 1 MB).
 */
export async function zipEntryNames(file: string): Promise<string[] | null> {
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
    const names: string[] = [];
    let at = 0;
    for (let n = 0; n < entries; n += 1) {
      if (at + ENTRY_SIZE > directory.length || directory.readUInt32LE(at) !== ENTRY_SIGNATURE) return null;
      const nameLength = directory.readUInt16LE(at + 28);
      const extraLength = directory.readUInt16LE(at + 30);
      const commentLength = directory.readUInt16LE(at + 32);
      const name = directory.toString('utf8', at + ENTRY_SIZE, at + ENTRY_SIZE + nameLength);
      if (!name.endsWith('/')) names.push(name);
      at += ENTRY_SIZE + nameLength + extraLength + commentLength;
    }
    return names;
  } finally {
    await handle.close();
  }
}
