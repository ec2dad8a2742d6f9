/**
 * Local-disk driver of ObjectStorage (issue 4; the embedded default): objects are files under
 * `root` (`$DATA_DIR/objects/provider-documents/`), one file per key, keys mapping to sub-folders.
 *
 * Durability: `put` streams into a temporary file in the destination folder, fsyncs it, renames it
 * over the final name (atomic on one file system) and fsyncs the folder, so a crash leaves either the
 * whole object or none (a stray `.tmp-*` file at worst, which `list` skips and `sweepTempFiles`
 * removes: temp-files.ts). Nothing is buffered whole in memory.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  assertValidKey,
  ObjectNotFoundError,
  type ObjectStorage,
  type StoredObjectInfo,
} from './object-storage.ts';
import { claimTempFile, sweepTempFiles } from './temp-files.ts';

const TEMP_PREFIX = '.tmp-';

/** Create the local driver rooted at `root` (created on first write). */
export function createLocalStorage(root: string): ObjectStorage {
  const absoluteRoot = path.resolve(root);

  /** The file of `key`, refusing anything that would leave the root. */
  function fileOf(key: string): string {
    assertValidKey(key);
    const file = path.resolve(absoluteRoot, key);
    if (!file.startsWith(absoluteRoot + path.sep)) throw new Error(`Invalid object key: ${key}`);
    return file;
  }

  async function fsyncDir(dir: string): Promise<void> {
    const handle = await fsp.open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  return {
    driver: 'local',

    async put(key, body) {
      const file = fileOf(key);
      const dir = path.dirname(file);
      // A body that fails while the folder is created is reported by pipeline below, not as uncaught.
      body.on('error', () => {});
      await fsp.mkdir(dir, { recursive: true });
      const { file: temp, release } = claimTempFile(dir, TEMP_PREFIX);
      try {
        // Opened here, before the body flows: a stream that opens its own file could create it after
        // a failed body's clean-up below had run (seen under load), leaving a stray temp file.
        const created = await fsp.open(temp, 'wx', 0o600);
        // The stream closes the handle when it ends or fails.
        await pipeline(body, created.createWriteStream());
        // fsync is per file, so a second descriptor flushes what the stream wrote.
        const handle = await fsp.open(temp, 'r+');
        let size: number;
        try {
          await handle.sync();
          size = (await handle.stat()).size;
        } finally {
          await handle.close();
        }
        await fsp.rename(temp, file);
        await fsyncDir(dir);
        return { size };
      } catch (error) {
        // The write's own error is the one to report: a failing clean-up (EACCES in an unwritable
        // folder) must not replace it; the temp file sweep removes what is left.
        await fsp.rm(temp, { force: true }).catch(() => {});
        throw error;
      } finally {
        release();
      }
    },

    async get(key) {
      const file = fileOf(key);
      // Open first so a missing file is reported here, not as a stream error later.
      const handle = await fsp.open(file, 'r').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') throw new ObjectNotFoundError(key);
        throw error;
      });
      return handle.createReadStream();
    },

    async stat(key) {
      const file = fileOf(key);
      try {
        const stats = await fsp.stat(file);
        return { key, size: stats.size, lastModified: stats.mtime };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new ObjectNotFoundError(key);
        throw error;
      }
    },

    async delete(key) {
      await fsp.rm(fileOf(key), { force: true });
    },

    async *list(prefix = '') {
      if (!fs.existsSync(absoluteRoot)) return;
      const found: StoredObjectInfo[] = [];
      for (const entry of await fsp.readdir(absoluteRoot, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || entry.name.startsWith(TEMP_PREFIX)) continue;
        const file = path.join(entry.parentPath, entry.name);
        const key = path.relative(absoluteRoot, file).split(path.sep).join('/');
        if (!key.startsWith(prefix)) continue;
        const stats = await fsp.stat(file).catch(() => null);
        if (stats) found.push({ key, size: stats.size, lastModified: stats.mtime });
      }
      found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      yield* found;
    },

    sweepTempFiles() {
      return sweepTempFiles(absoluteRoot, { prefix: TEMP_PREFIX, recursive: true });
    },
  };
}
