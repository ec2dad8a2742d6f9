/**
 * Exclusion file formats (issue 30 items 1 and 3): detection from the real headers and names, and
 * rows read one by one from the real-format fixtures in tests/fixtures/exclusions (SOURCES.md says
 * where each sample was published).
 */
import { describe, expect, it } from 'vitest';
import { LEIE_COLUMNS } from '../review/leie-screening.ts';
import { detectExclusionFormat, type ExclusionFormat, readExclusionRow } from './exclusion-formats.ts';

const now = new Date('2026-08-15T12:00:00Z');

function format(header: readonly string[], fileName: string): ExclusionFormat {
  const detected = detectExclusionFormat(header, fileName);
  if ('error' in detected) throw new Error(detected.error);
  return detected.format;
}

describe('detectExclusionFormat', () => {
  it('tells the three LEIE files apart by name, the header being the same', () => {
    expect(format(LEIE_COLUMNS, 'UPDATED.csv').kind).toBe('full');
    expect(format(LEIE_COLUMNS, '1701REIN.csv').kind).toBe('reinstatements');
    expect(format(LEIE_COLUMNS, '2403excl.CSV').kind).toBe('additions');
    expect(format(LEIE_COLUMNS, 'C:\\Downloads\\1701REIN (1).csv').kind).toBe('reinstatements');
    expect(format(LEIE_COLUMNS, 'leie-2026-08.csv').kind).toBe('full');
  });

  it('refuses an unknown header with a sentence naming the files accepted', () => {
    const detected = detectExclusionFormat(['Name', 'DOB'], 'list.csv');
    expect(detected).toEqual({ error: expect.stringContaining('UPDATED.csv') });
    expect(detected).toEqual({ error: expect.stringContaining('SAM.gov') });
  });
});

describe('readExclusionRow', () => {
  const leie = format(LEIE_COLUMNS, '1701REIN.csv');
  it('skips a reinstatement without its REINDATE', () => {
    const row = [
      'DOE',
      'JANE',
      '',
      '',
      'IND- LIC HC SERV PRO',
      'NURSE/NURSES AIDE',
      '',
      '0000000000',
      '19700102',
      '1 MAIN ST',
      'BOISE',
      'ID',
      '83702',
      '1128b4',
      '20190515',
      '00000000',
      '00000000',
      '',
    ];
    expect(readExclusionRow(leie, row, 4, now)).toEqual({
      skip: 'line 4: a reinstatement needs its REINDATE',
    });
  });
});
