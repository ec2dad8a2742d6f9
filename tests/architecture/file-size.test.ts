/**
 * No server file is over MAX_LINES (issue 49 item 6): a file that grows past it is split by
 * capability (decision 036). Every .ts and .tsx file under server/ counts, tests and test
 * helpers included, except the Drizzle schema (server/db/schema/, the tables' source of truth) and
 * what drizzle-kit generates (server/db/migrations/). The checker is also run on a fixture tree, so
 * it is known to fail.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** The most lines a server file may have. */
const MAX_LINES = 600;

/** Folders under server/ whose files are not counted: the schema and generated migrations. */
const EXEMPT = ['server/db/schema/', 'server/db/migrations/'];

/** Lines of `text` as an editor numbers them (a last line without its newline counts). */
function lineCount(text: string): number {
  if (text === '') return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

/** `server/x.ts: 612 lines` for each counted file under `base`/server over `limit`, longest first. */
function filesOverLimit(base: string, limit: number): string[] {
  const server = path.join(base, 'server');
  return fs
    .readdirSync(server, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(base, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((file) => !EXEMPT.some((folder) => file.startsWith(folder)))
    .map((file) => ({ file, lines: lineCount(fs.readFileSync(path.join(base, file), 'utf8')) }))
    .filter(({ lines }) => lines > limit)
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file))
    .map(({ file, lines }) => `${file}: ${lines} lines`);
}

describe('file size', () => {
  it(`keeps every server file at ${MAX_LINES} lines or fewer`, () => {
    expect(filesOverLimit(root, MAX_LINES)).toEqual([]);
  });

  describe('the checker', () => {
    const fixture = fs.mkdtempSync(path.join(os.tmpdir(), 'file-size-'));
    afterAll(() => fs.rmSync(fixture, { recursive: true, force: true }));
    const write = (file: string, lines: number, lastNewline = true) => {
      fs.mkdirSync(path.dirname(path.join(fixture, file)), { recursive: true });
      const text = Array.from({ length: lines }, (_, i) => `export const line${i} = ${i};`).join('\n');
      fs.writeFileSync(path.join(fixture, file), lastNewline ? `${text}\n` : text);
    };

    it('names each file over the limit, tests and .tsx included, and leaves the schema and migrations out', () => {
      write('server/review/everything.service.ts', MAX_LINES + 1);
      write('server/review/review.routes.test.ts', MAX_LINES + 20, false);
      write('server/pdf/page.tsx', MAX_LINES + 2);
      write('server/admin/admin.service.ts', MAX_LINES);
      write('server/db/schema/core.ts', MAX_LINES * 2);
      write('server/db/migrations/0001_generated.ts', MAX_LINES * 2);
      write('web/features/big-page.tsx', MAX_LINES * 2);
      expect(filesOverLimit(fixture, MAX_LINES)).toEqual([
        `server/review/review.routes.test.ts: ${MAX_LINES + 20} lines`,
        `server/pdf/page.tsx: ${MAX_LINES + 2} lines`,
        `server/review/everything.service.ts: ${MAX_LINES + 1} lines`,
      ]);
    });
  });
});
