/**
 * Temporary upload files of the storage drivers (issue 19 item 4): the local driver's `.tmp-*` files
 * (written, then renamed over the object) and the S3 driver's spool files. A process killed
 * mid-upload leaves them behind; `sweepTempFiles` removes them without ever touching one in use.
 *
 * How a file in use is recognised (decision: track, with an age fallback):
 * - every temp file's name carries its writer: `{host}-{pid}-{uuid}`, where host is a short hash of
 *   the host name;
 * - this process registers each temp file it creates in `liveTempFiles` until it is renamed or
 *   removed, and the sweep never touches a registered file;
 * - so a file named with this host and this pid but not registered is a leftover (a pid runs one
 *   process at a time: it was written by a predecessor that had the same pid, e.g. PID 1 in a
 *   container), and so is a file of this host whose pid is no longer running. Both go at once,
 *   which is what clears a crash's leftovers at the next start-up;
 * - anything else (another host sharing the folder, a pid that runs again, an older name without
 *   writer) goes only once untouched for STALE_TEMP_MS. The file's mtime moves with every write, so
 *   this is an hour without a byte, far longer than any upload (10 MB) may stall.
 */
import { createHash, randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Temp files of other writers untouched this long (ms) are leftovers. */
export const STALE_TEMP_MS = 60 * 60 * 1000;

/** Paths of temp files this process is writing now. */
const liveTempFiles = new Set<string>();

const HOST_TAG = createHash('sha256').update(os.hostname()).digest('hex').slice(0, 8);
const WRITER = /^([0-9a-f]{8})-(\d+)-/;

/**
 * A new temp file path in `dir`, named `{prefix}{host}-{pid}-{uuid}{suffix}` and registered as live
 * until `release` is called (call it once the file is renamed or removed, in a `finally`).
 */
export function claimTempFile(dir: string, prefix: string, suffix = ''): { file: string; release(): void } {
  const file = path.join(dir, `${prefix}${HOST_TAG}-${process.pid}-${randomUUID()}${suffix}`);
  liveTempFiles.add(file);
  return { file, release: () => liveTempFiles.delete(file) };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the temp file `name` (without its prefix), last written at `mtimeMs`, is a leftover. */
function isLeftover(name: string, mtimeMs: number, now: number): boolean {
  const writer = WRITER.exec(name);
  if (writer && writer[1] === HOST_TAG) {
    const pid = Number(writer[2]);
    if (pid === process.pid || !isRunning(pid)) return true;
  }
  return now - mtimeMs > STALE_TEMP_MS;
}

/** What a sweep removed: files and their bytes. */
export interface TempSweepResult {
  count: number;
  bytes: number;
}

/**
 * Remove the leftover temp files (see the file comment) whose names start with `prefix` under `root`
 * (`recursive`: in every sub-folder too). A missing `root` is empty; a file that vanishes meanwhile
 * (renamed by its upload) is skipped.
 */
export async function sweepTempFiles(
  root: string,
  options: { prefix: string; recursive: boolean; now?: number },
): Promise<TempSweepResult> {
  const now = options.now ?? Date.now();
  const result: TempSweepResult = { count: 0, bytes: 0 };
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fsp.readdir(root, { recursive: options.recursive, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return result;
    throw error;
  }
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.startsWith(options.prefix)) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (liveTempFiles.has(file)) continue;
    const stats = await fsp.stat(file).catch(() => null);
    if (!stats || !isLeftover(entry.name.slice(options.prefix.length), stats.mtimeMs, now)) continue;
    await fsp.rm(file, { force: true });
    result.count += 1;
    result.bytes += stats.size;
  }
  return result;
}
