/**
 * What a file that is not a list's text looks like, and what the import tells the person (issue 52
 * item 1): the real list fixtures read as text, SAM.gov's ZIP and a workbook named by what they hold,
 * the other binary formats by their signatures. Fixtures: tests/fixtures/exclusions (SOURCES.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  LIST_FILE_ACCEPT,
  nonListFileMessage,
  sniffListFile,
} from '../../domain/screening/list-file-sniffing.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../tests/fixtures/exclusions');

describe('sniffListFile and nonListFileMessage (issue 52 item 1)', () => {
  const head = (file: string) =>
    new Uint8Array(fs.readFileSync(path.join(FIXTURES, file)).subarray(0, 65536));

  it('reads every list fixture as text, a NUL inside a later row included', () => {
    for (const file of [
      'leie/UPDATED.csv',
      'leie/bad-rows.csv',
      'sam/SAM_Exclusions_Public_Extract_V2_23326.CSV',
      'ny/exclusion-list.txt',
      'ny/exclusion-list-current.csv',
      'pa/medicheck.txt',
      'pa/medicheck-18.csv',
    ]) {
      expect(sniffListFile(head(file)), file).toBeNull();
    }
  });

  it('names a ZIP by what it holds: one CSV, several files, a workbook, a cut-off directory', () => {
    expect(sniffListFile(head('sam/SAM_Exclusions_Public_Extract_V2_23326.ZIP'))).toEqual({ kind: 'zip' });
    expect(sniffListFile(head('ny/exclusion-list-current.xlsx'))).toEqual({ kind: 'zip' });
    const zip = { kind: 'zip' } as const;
    expect(nonListFileMessage(zip, ['SAM_Exclusions_Public_Extract_V2_23326.CSV'])).toBe(
      "This is a ZIP archive with 1 file, 'SAM_Exclusions_Public_Extract_V2_23326.CSV'. Unzip it and import that CSV file.",
    );
    expect(nonListFileMessage(zip, ['a/UPDATED.csv', 'readme.pdf'])).toMatch(
      /^This is a ZIP archive with 2 files; an exclusion list is one CSV file\. Unzip it .*'UPDATED\.csv'/,
    );
    expect(nonListFileMessage(zip, ['[Content_Types].xml', 'xl/workbook.xml'])).toMatch(
      /^This is an Excel workbook \(\.xlsx\), not a CSV file\. .*save it as 'CSV UTF-8/,
    );
    expect(nonListFileMessage(zip, ['photo.jpg'])).toMatch(/1 file and no CSV file/);
    expect(nonListFileMessage(zip, null)).toMatch(/cut off/);
  });

  it("offers the lists' ZIP and workbook in the file picker, with the text files", () => {
    expect(LIST_FILE_ACCEPT.split(',')).toEqual(expect.arrayContaining(['.csv', '.txt', '.zip', '.xlsx']));
  });

  it('names the old Excel format, PDF, gzip, UTF-16 text and other binary bytes', () => {
    const bytes = (...b: number[]) => new Uint8Array([...b, ...new TextEncoder().encode('rest of file\n')]);
    expect(sniffListFile(bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1))).toEqual({ kind: 'xls' });
    expect(sniffListFile(new TextEncoder().encode('%PDF-1.7\n'))).toEqual({ kind: 'pdf' });
    expect(
      sniffListFile(new Uint8Array(gzipSync(fs.readFileSync(path.join(FIXTURES, 'leie/UPDATED.csv'))))),
    ).toEqual({ kind: 'gzip' });
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('PROVIDER_NAME\tNPI\n', 'utf16le')]);
    expect(sniffListFile(new Uint8Array(utf16))).toEqual({ kind: 'utf16' });
    expect(sniffListFile(new Uint8Array([0x4c, 0x41, 0x00, 0x53, 0x0a]))).toEqual({ kind: 'binary' });
    expect(sniffListFile(new Uint8Array(Array.from({ length: 100 }, (_, i) => i % 32)))).toEqual({
      kind: 'binary',
    });
    for (const kind of ['xls', 'pdf', 'gzip', 'utf16', 'binary'] as const) {
      expect(nonListFileMessage({ kind }, null)).toMatch(/^This is /);
    }
    expect(nonListFileMessage({ kind: 'xls' }, null)).toMatch(/Excel 97-2003 workbook \(\.xls\).*CSV UTF-8/);
  });
});
