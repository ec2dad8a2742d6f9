/**
 * Free-space guard for the local storage driver (issue 10 item 5). Documents and the embedded
 * database share DATA_DIR's disk; a disk filled by uploads stops PostgreSQL. Uploads are refused
 * while less than STORAGE_MIN_FREE_MB is free, before a byte is written.
 */
import fs from 'node:fs/promises';
import { AppError } from '../../domain/app-error.ts';

/** Bytes available to this process on the filesystem holding `dir`. */
export async function freeBytes(dir: string): Promise<number> {
  const stats = await fs.statfs(dir);
  return stats.bavail * stats.bsize;
}

/**
 * @param minFreeMb MiB that must stay free after a maximum-size upload (STORAGE_MIN_FREE_MB)
 * @param incomingBytes the most the upload can add
 * @throws AppError insufficient_storage (507) when the disk is too full
 */
export async function assertFreeSpace(dir: string, minFreeMb: number, incomingBytes: number): Promise<void> {
  if (minFreeMb <= 0) return;
  const available = await freeBytes(dir);
  if (available - incomingBytes < minFreeMb * 1024 * 1024) {
    throw new AppError(
      'insufficient_storage',
      'The server is running out of storage space, so uploads are paused. Try again later, and tell your credentialing team.',
    );
  }
}
