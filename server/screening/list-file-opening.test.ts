/**
 * A list file as uploaded made into text (issue 52 item 1): text as it is, SAM.gov's ZIP through its
 * one CSV, New York OMIG's workbook through its first sheet, anything else refused with what it is.
 * Fixtures: tests/fixtures/exclusions (SOURCES.md).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { sweepTempFiles } from '../storage/temp-files.ts';
import { openListFile, workbookToCsv } from './list-file-opening.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../tests/fixtures/exclusions');
const fixture = (name: string) => path.join(FIXTURES, name);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'list-file-opening-test-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe('openListFile', () => {
  it('reads a text list as it is, under its own name', async () => {
    const opened = await openListFile(fixture('pa/medicheck.txt'), 'medicheck.txt');
    expect([opened.file, opened.fileName]).toEqual([fixture('pa/medicheck.txt'), 'medicheck.txt']);
    await opened.done();
    expect(fs.existsSync(fixture('pa/medicheck.txt'))).toBe(true);
  });

  it("takes SAM.gov's CSV out of its ZIP and removes the copy when done", async () => {
    const opened = await openListFile(fixture('sam/SAM_Exclusions_Public_Extract_V2_23326.ZIP'), 'x.ZIP');
    expect(opened.fileName).toBe('SAM_Exclusions_Public_Extract_V2_23326.CSV');
    expect(fs.readFileSync(opened.file)).toEqual(
      fs.readFileSync(fixture('sam/SAM_Exclusions_Public_Extract_V2_23326.CSV')),
    );
    await opened.done();
    expect(fs.existsSync(opened.file)).toBe(false);
  });

  it('unpacks into the given folder as a temp file the start-up sweep knows, never sweeping it while in use', async () => {
    const dir = path.join(work, 'spool');
    const place = { dir, prefix: 'exclusions-' };
    const opened = await openListFile(
      fixture('sam/SAM_Exclusions_Public_Extract_V2_23326.ZIP'),
      'x.ZIP',
      place,
    );
    expect(path.dirname(opened.file)).toBe(dir);
    expect(path.basename(opened.file)).toMatch(new RegExp(`^exclusions-[0-9a-f]{8}-${process.pid}-`));
    // A leftover of a killed run of this host (a pid that no longer runs) beside it.
    const leftover = path.join(dir, path.basename(opened.file).replace(`-${process.pid}-`, '-999999999-'));
    fs.writeFileSync(leftover, 'half a list');
    expect(await sweepTempFiles(dir, { prefix: 'exclusions-', recursive: false })).toMatchObject({
      count: 1,
    });
    expect(fs.readdirSync(dir)).toEqual([path.basename(opened.file)]);
    await opened.done();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("reads New York OMIG's workbook as the same rows as its CSV", async () => {
    const opened = await openListFile(fixture('ny/exclusion-list-current.xlsx'), 'Exclusion List.xlsx');
    expect(opened.fileName).toBe('Exclusion List.csv');
    const rows = parse(fs.readFileSync(opened.file));
    expect(rows).toEqual(parse(fs.readFileSync(fixture('ny/exclusion-list-current.csv'))));
    await opened.done();
  });

  it('refuses an archive of two files, saying so', async () => {
    await expect(openListFile(fixture('sam/two-extracts.zip'), 'two.zip')).rejects.toThrow(
      /^This is a ZIP archive with 2 files; .*Nothing was imported; the lists are unchanged\.$/,
    );
  });
});

describe('workbookToCsv', () => {
  it('writes date cells as MM/DD/YYYY, numbers as written, formulas by their result', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Exclusions');
    sheet.addRow(['provider_name', 'license_num', 'npi_num', 'provider_type', 'exclusion_effective_date']);
    sheet.addRow(['SAMPLE PAT Q MD', 123456, 1234567893, 'Physician', new Date(Date.UTC(2024, 2, 5))]);
    sheet.addRow(['EXAMPLE, "ALEX"', { formula: '"0"&"42"', result: '042' }, null, 'RN', '07/02/2012']);
    book.addWorksheet('Notes').addRow(['not the list']);
    const file = path.join(work, 'book.xlsx');
    await book.xlsx.writeFile(file);
    const out = path.join(work, 'book.csv');
    await workbookToCsv(file, out, 1024 * 1024);
    const rows = parse(fs.readFileSync(out), { relax_column_count: true });
    expect(rows).toEqual([
      ['provider_name', 'license_num', 'npi_num', 'provider_type', 'exclusion_effective_date'],
      ['SAMPLE PAT Q MD', '123456', '1234567893', 'Physician', '03/05/2024'],
      ['EXAMPLE, "ALEX"', '042', '', 'RN', '07/02/2012'],
    ]);
    await expect(workbookToCsv(file, path.join(work, 'small.csv'), 50)).rejects.toThrow(/larger than/);
  });
});
