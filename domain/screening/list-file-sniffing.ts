/**
 * What a file that is not a list's text looks like, from its first bytes, and what the person
 * importing it should do instead (issue 52 item 1: "an unknown or binary file gets a message that
 * says what it looked like and what to do"). Without this a ZIP was refused as a header "starting
 * 'PK…'", quoting binary bytes. Pure: the server reads the bytes (and, for a ZIP, the names in its
 * central directory), these rules say what they are.
 */

/**
 * The files the 'Import File' picker offers (its `accept`): the lists' text downloads, SAM.gov's ZIP
 * and New York OMIG's workbook, which the server opens (issue 52 item 1).
 */
export const LIST_FILE_ACCEPT =
  '.csv,.txt,.zip,.xlsx,text/csv,text/plain,application/zip,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A file the import cannot read as a list's text, by what it is. */
export type NonListFile =
  | { kind: 'zip' }
  | { kind: 'xls' }
  | { kind: 'pdf' }
  | { kind: 'gzip' }
  | { kind: 'utf16' }
  | { kind: 'binary' };

/** Bytes looked at for control characters: text lists have none but tab, CR and LF. */
const SNIFF_BYTES = 4096;

/**
 * What the file whose first bytes are `head` is, when it is not a list's text (null: read it as
 * text). By signature: ZIP (`PK\x03\x04`, also every .xlsx workbook), the old Excel format (OLE2
 * `D0 CF 11 E0`), PDF (`%PDF`), gzip (`1F 8B`), UTF-16 text (a byte-order mark, as Excel's 'Unicode
 * Text' saves). Otherwise binary when its first line holds a NUL byte or more than 1 in 10 of its
 * first 4 KB are control bytes; a NUL inside a later row is that row's problem, reported by line.
 * Source: issue 52 item 1.
 */
export function sniffListFile(head: Uint8Array): NonListFile | null {
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  if (starts(0x50, 0x4b, 0x03, 0x04) || starts(0x50, 0x4b, 0x05, 0x06)) return { kind: 'zip' };
  if (starts(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1)) return { kind: 'xls' };
  if (starts(0x25, 0x50, 0x44, 0x46)) return { kind: 'pdf' };
  if (starts(0x1f, 0x8b)) return { kind: 'gzip' };
  if (starts(0xff, 0xfe) || starts(0xfe, 0xff)) return { kind: 'utf16' };
  const sample = head.subarray(0, SNIFF_BYTES);
  const lineEnd = sample.indexOf(0x0a);
  if (sample.subarray(0, lineEnd < 0 ? sample.length : lineEnd).includes(0)) return { kind: 'binary' };
  let control = 0;
  for (const b of sample) if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) control += 1;
  return control * 10 > sample.length ? { kind: 'binary' } : null;
}

/** An Excel workbook is a ZIP holding these parts (Office Open XML). */
const XLSX_PART = /^(?:\[Content_Types\]\.xml|xl\/workbook\.xml)$/;

const SAVE_AS_CSV =
  "Open it in Excel and save it as 'CSV UTF-8 (Comma delimited)', then import the CSV file (the lists' " +
  'own downloads are CSV, or text).';

/**
 * The sentence the import answers for a file `sniffListFile` recognised; for a ZIP, `zipEntries` are
 * the names of the files inside (folders excluded), or null when its directory could not be read (a
 * cut-off download). An .xlsx workbook is a ZIP too: it is named a workbook, with how to save it as
 * CSV. Source: issue 52 item 1 ("'This is a ZIP archive with 2 files; …'").
 */
export function nonListFileMessage(file: NonListFile, zipEntries: readonly string[] | null): string {
  switch (file.kind) {
    case 'zip': {
      if (zipEntries === null) {
        return 'This is a ZIP archive whose list of files cannot be read: the download may be cut off. Download it again.';
      }
      if (zipEntries.some((name) => XLSX_PART.test(name))) {
        return `This is an Excel workbook (.xlsx), not a CSV file. ${SAVE_AS_CSV}`;
      }
      const csv = zipEntries.filter((name) => /\.(?:csv|txt)$/i.test(name));
      const files = `${zipEntries.length} ${zipEntries.length === 1 ? 'file' : 'files'}`;
      if (zipEntries.length === 1 && csv.length === 1) {
        return `This is a ZIP archive with 1 file, ${quoted(csv[0]!)}. Unzip it and import that CSV file.`;
      }
      if (csv.length === 0) {
        return `This is a ZIP archive with ${files} and no CSV file among them. Import the list's CSV file itself.`;
      }
      return `This is a ZIP archive with ${files}; an exclusion list is one CSV file. Unzip it and import the list's CSV file (${csv.slice(0, 3).map(quoted).join(', ')}${csv.length > 3 ? ', …' : ''}).`;
    }
    case 'xls':
      return `This is an Excel 97-2003 workbook (.xls), not a CSV file. ${SAVE_AS_CSV}`;
    case 'pdf':
      return "This is a PDF document. Import the list's CSV download, not a printed or PDF copy.";
    case 'gzip':
      return 'This is a gzip-compressed file. Decompress it and import the CSV file inside.';
    case 'utf16':
      return "This is UTF-16 text (as Excel's 'Unicode Text' saves). Save it as 'CSV UTF-8 (Comma delimited)' instead and import that file.";
    case 'binary':
      return "This is not a text file (it holds binary bytes). Import the list's CSV file as downloaded.";
  }
}

/** A name from inside an archive, quoted and cut short (it is the uploader's, not a list row). */
function quoted(name: string): string {
  const base = name.split('/').pop() ?? name;
  return `'${base.length > 60 ? `${base.slice(0, 60)}…` : base}'`;
}
