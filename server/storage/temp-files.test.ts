/**
 * The temp file sweep (issue 19 item 4) removes leftovers and never a temp file in use: an upload in
 * progress keeps its file while the sweep runs.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, expect, it } from 'vitest';
import { createLocalStorage } from './local-storage.ts';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

function tempRoot(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'temp-sweep-'));
  roots.push(root);
  return root;
}

const hostTag = createHash('sha256').update(os.hostname()).digest('hex').slice(0, 8);
const tempFiles = (root: string) =>
  fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.startsWith('.tmp-'))
    .map((e) => e.name)
    .sort();

/** A pid that runs no process now. */
function deadPid(): number {
  for (let pid = 4_000_000; ; pid--) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return pid;
    }
  }
}

it('keeps the temp file of an upload in progress, removes leftovers', async () => {
  const root = tempRoot();
  const storage = createLocalStorage(root);
  const folder = path.join(root, 'u1', 'other');
  fs.mkdirSync(folder, { recursive: true });
  const leftover = (name: string, ageMs = 0) => {
    const file = path.join(folder, `.tmp-${name}`);
    fs.writeFileSync(file, 'x'.repeat(10));
    const at = new Date(Date.now() - ageMs);
    fs.utimesSync(file, at, at);
  };
  // Leftovers: a dead writer on this host; this pid (a predecessor that had it); an old file of a
  // writer that still runs; an old name without writer.
  const dead = deadPid();
  leftover(`${hostTag}-${dead}-a`);
  leftover(`${hostTag}-${process.pid}-b`);
  leftover(`${hostTag}-${process.ppid}-c`, 2 * 60 * 60 * 1000);
  leftover('0b5e6f3c-old', 2 * 60 * 60 * 1000);
  // Kept: a recent file of a writer that still runs, another host's recent file.
  leftover(`${hostTag}-${process.ppid}-live`);
  leftover(`ffffffff-${dead}-other-host`);

  // An upload is in progress: its temp file exists, not yet renamed.
  const body = new PassThrough();
  const put = storage.put('u1/other/1.pdf', body, { contentType: 'application/pdf' });
  body.write(Buffer.alloc(64 * 1024));
  await expect.poll(() => tempFiles(root).filter((n) => n.includes(`-${process.pid}-`)).length).toBe(2);

  const swept = await storage.sweepTempFiles();

  expect(swept).toEqual({ count: 4, bytes: 40 });
  const uploading = tempFiles(root).filter((n) => n.startsWith(`.tmp-${hostTag}-${process.pid}-`));
  expect(uploading).toHaveLength(1);
  expect(tempFiles(root)).toEqual(
    [`.tmp-${hostTag}-${process.ppid}-live`, `.tmp-ffffffff-${dead}-other-host`, uploading[0]].sort(),
  );
  body.end(Buffer.alloc(1024));
  expect(await put).toEqual({ size: 65 * 1024 });
  expect(tempFiles(root)).toHaveLength(2);
});
