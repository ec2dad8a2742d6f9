/**
 * ZIP archives as exclusion lists arrive in them (issue 52 item 1): the directory read from the end
 * of the file, and one file streamed out within a size bound. Fixtures: tests/fixtures/exclusions
 * (SOURCES.md).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractZipEntry, zipEntries, zipEntryNames } from './zip-directory.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../tests/fixtures/exclusions');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'zip-directory-test-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe('zipEntries', () => {
  it("lists the files of SAM.gov's one-CSV archive, of a two-file archive and of a workbook", async () => {
    expect(
      await zipEntryNames(path.join(FIXTURES, 'sam/SAM_Exclusions_Public_Extract_V2_23326.ZIP')),
    ).toEqual(['SAM_Exclusions_Public_Extract_V2_23326.CSV']);
    expect(await zipEntryNames(path.join(FIXTURES, 'sam/two-extracts.zip'))).toHaveLength(2);
    expect(await zipEntryNames(path.join(FIXTURES, 'ny/exclusion-list-current.xlsx'))).toContain(
      'xl/workbook.xml',
    );
  });

  it('answers null for an archive cut off before its directory', async () => {
    const cut = path.join(work, 'cut.zip');
    const whole = fs.readFileSync(path.join(FIXTURES, 'sam/two-extracts.zip'));
    fs.writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    expect(await zipEntries(cut)).toBeNull();
  });
});

describe('extractZipEntry', () => {
  const archive = path.join(FIXTURES, 'sam/SAM_Exclusions_Public_Extract_V2_23326.ZIP');

  it('streams the one CSV out, byte for byte', async () => {
    const [entry] = (await zipEntries(archive))!;
    const out = path.join(work, 'sam.csv');
    await extractZipEntry(archive, entry!, out, 1024 * 1024);
    expect(fs.readFileSync(out)).toEqual(
      fs.readFileSync(path.join(FIXTURES, 'sam/SAM_Exclusions_Public_Extract_V2_23326.CSV')),
    );
  });

  it('refuses a file over the bound, whether the directory says so or only the inflated bytes do', async () => {
    const [entry] = (await zipEntries(archive))!;
    await expect(extractZipEntry(archive, entry!, path.join(work, 'a'), 1000)).rejects.toThrow(/larger than/);
    // An archive that understates the size: caught while inflating.
    await expect(
      extractZipEntry(archive, { ...entry!, size: 10 }, path.join(work, 'b'), 1000),
    ).rejects.toThrow(/larger than/);
  });
});
