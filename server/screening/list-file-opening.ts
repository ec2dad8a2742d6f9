/**
 * A list file as uploaded, made into the text the import reads (issue 52 item 1: "import reads a file
 * by its content, never its name"):
 * - text (CSV, tab-separated): read as it is;
 * - a ZIP archive holding one `.csv`/`.txt` file (SAM.gov's `SAM_Exclusions_Public_Extract_V2_YYDDD.ZIP`):
 *   that file, streamed out (server/screening/zip-directory.ts);
 * - an Excel workbook (.xlsx, New York OMIG's download): its first sheet written out as CSV, streamed
 *   with exceljs's reader;
 * - anything else (other archives, .xls, PDF, gzip, UTF-16, binary bytes): refused with a sentence
 *   saying what the file is and what to do (domain/screening/list-file-sniffing.ts).
 * What is written out is one temp file (server/storage/temp-files.ts names: its writer's host and
 * pid) in `unpack.dir` (0700; the upload spool for the admin tab, `DEFAULT_UNPACK` for the CLI),
 * removed by `done()`, at most `MAX_UNPACKED` bytes. A process killed mid-import leaves it behind; the
 * next start sweeps it (`sweepTempFiles`, never a file in use). What comes out is sniffed again: a
 * ZIP in a ZIP is refused, not opened.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { AppError } from '../../domain/app-error.ts';
import {
  type NonListFile,
  nonListFileMessage,
  sniffListFile,
} from '../../domain/screening/list-file-sniffing.ts';
import { claimTempFile } from '../storage/temp-files.ts';
import { extractZipEntry, type ZipEntry, zipEntries } from './zip-directory.ts';

/** A list file inside a ZIP archive. */
const LIST_IN_ZIP = /\.(?:csv|txt)$/i;
/** The part every .xlsx workbook has. */
const WORKBOOK_PART = 'xl/workbook.xml';
/** Largest text taken out of an archive or workbook (SAM.gov's whole extract is tens of MB). */
export const MAX_UNPACKED = 512 * 1024 * 1024;

/** Where an archive's or workbook's text is written out: a folder and the temp files' name prefix. */
export interface UnpackPlace {
  dir: string;
  prefix: string;
}

/** Where the CLI and the benches unpack: a private folder under the system's temp folder. */
export const DEFAULT_UNPACK: UnpackPlace = {
  dir: path.join(os.tmpdir(), 'credentialing-exclusion-lists'),
  prefix: 'unpacked-',
};

/** The text to read and the name it goes by; `done()` removes what was written out. */
export interface OpenedListFile {
  file: string;
  fileName: string;
  /** The first 64 KB of `file`, for the dialect. */
  head: Buffer;
  done(): Promise<void>;
}

const refused = (sentence: string) =>
  new AppError('bad_request', `${sentence} Nothing was imported; the lists are unchanged.`);

/**
 * `file` (uploaded as `fileName`) as text to import: itself, the one CSV of a ZIP, or a workbook's
 * first sheet as CSV (see the module comment).
 * @throws AppError bad_request: not a list's text, with what it is and what to do
 */
export async function openListFile(
  file: string,
  fileName: string,
  unpack: UnpackPlace = DEFAULT_UNPACK,
): Promise<OpenedListFile> {
  const head = await fileHead(file);
  const nonList = sniffListFile(head);
  const asIs: OpenedListFile = { file, fileName, head, done: async () => {} };
  if (!nonList) return asIs;
  const entries = nonList.kind === 'zip' ? await zipEntries(file) : null;
  if (!entries) throw refused(nonListFileMessage(nonList, null));
  const workbook = entries.some((e) => e.name === WORKBOOK_PART);
  const [only] = entries;
  if (!workbook && !(entries.length === 1 && only && LIST_IN_ZIP.test(only.name))) {
    throw refused(
      nonListFileMessage(
        nonList,
        entries.map((e) => e.name),
      ),
    );
  }
  await fs.promises.mkdir(unpack.dir, { recursive: true, mode: 0o700 });
  const temp = claimTempFile(unpack.dir, unpack.prefix, '.unpacked');
  const done = async () => {
    try {
      await fs.promises.rm(temp.file, { force: true });
    } finally {
      temp.release();
    }
  };
  try {
    const out = temp.file;
    const name = workbook
      ? `${fileName.replace(/\.xlsx$/i, '').slice(0, 240)}.csv`
      : (only!.name.split(/[\\/]/).pop() ?? only!.name);
    try {
      if (workbook) await workbookToCsv(file, out, MAX_UNPACKED);
      else await extractZipEntry(file, only as ZipEntry, out, MAX_UNPACKED);
    } catch (error) {
      // Our own sentences (size, method) are shown; a library's error is not (it may quote content).
      const own = error instanceof Error && error.message.startsWith('The ');
      throw refused(
        own
          ? (error as Error).message
          : `This ${workbook ? 'workbook' : 'ZIP archive'} could not be read: it may be damaged or cut off. Download it again.`,
      );
    }
    const innerHead = await fileHead(out);
    const inner: NonListFile | null = sniffListFile(innerHead);
    if (inner) throw refused(`Inside the archive: ${nonListFileMessage(inner, null)}`);
    return { file: out, fileName: name, head: innerHead, done };
  } catch (error) {
    await done();
    throw error;
  }
}

/** The first 64 KB of `file` (less when it is shorter). */
async function fileHead(file: string): Promise<Buffer> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(64 * 1024), 0, 64 * 1024, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * The first worksheet of workbook `file` as CSV in `destination` (UTF-8, every field quoted, CRLF),
 * streamed row by row. A date cell is written `MM/DD/YYYY` (its UTC day, as Excel stores days), a
 * number as written, a formula by its result, rich text by its text.
 * @throws Error 'The workbook …' past `maxBytes` of CSV
 */
export async function workbookToCsv(file: string, destination: string, maxBytes: number): Promise<void> {
  const out = fs.createWriteStream(destination, { mode: 0o600, flags: 'wx' });
  const closed = new Promise<void>((resolve, reject) => {
    out.once('finish', () => resolve());
    out.once('error', reject);
  });
  let written = 0;
  try {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
      worksheets: 'emit',
      sharedStrings: 'cache',
      styles: 'cache',
      hyperlinks: 'ignore',
      entries: 'ignore',
    });
    for await (const sheet of reader) {
      for await (const row of sheet) {
        const values = (row.values as unknown[]).slice(1);
        const line = `${Array.from(values, (v) => `"${cellText(v).replace(/"/g, '""')}"`).join(',')}\r\n`;
        written += Buffer.byteLength(line);
        if (written > maxBytes) {
          throw new Error(
            `The workbook is larger than ${Math.round(maxBytes / 1024 / 1024)} MB as CSV: it is not an exclusion list.`,
          );
        }
        if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      }
      break; // The first sheet is the list.
    }
  } finally {
    out.end();
  }
  await closed;
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${pad(value.getUTCMonth() + 1)}/${pad(value.getUTCDate())}/${value.getUTCFullYear()}`;
  }
  if (typeof value === 'object') {
    const v = value as { richText?: { text: string }[]; result?: unknown; text?: unknown };
    if (v.richText) return v.richText.map((r) => r.text).join('');
    if ('result' in v) return cellText(v.result);
    if ('text' in v) return cellText(v.text);
    return '';
  }
  return String(value);
}
