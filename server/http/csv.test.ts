/** CSV fields (issue 14 export): RFC 4180 quoting and the formula-injection guard. */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvField, csvRecord } from './csv.ts';

describe('csvField', () => {
  it('leaves plain text and numbers as they are, and writes nothing for empty cells', () => {
    expect(csvField('Medical License IL-20 (IL)')).toBe('Medical License IL-20 (IL)');
    expect(csvField(20)).toBe('20');
    expect(csvField(-3)).toBe('-3');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField('')).toBe('');
  });

  it('quotes fields with a comma, a quote, CR or LF, doubling the quotes (RFC 4180)', () => {
    expect(csvField('Smith, Jane')).toBe('"Smith, Jane"');
    expect(csvField('The "Best" Plan')).toBe('"The ""Best"" Plan"');
    expect(csvField('line one\nline two')).toBe('"line one\nline two"');
    expect(csvField('a\r\nb')).toBe('"a\r\nb"');
  });

  it('prefixes text a spreadsheet would run as a formula with a single quote', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tcmd')).toBe("'\tcmd");
    expect(csvField('\rcmd')).toBe(`"'\rcmd"`);
    // Only the first character counts.
    expect(csvField('a=b')).toBe('a=b');
  });
});

describe('csvRecord', () => {
  it('joins fields with commas and ends with CRLF; a CSV parser reads the values back', () => {
    const cells = ['Smith, Jane', 'x"y', 'two\nlines', 7, null, '=1+1'];
    const record = csvRecord(cells);
    expect(record.endsWith('\r\n')).toBe(true);
    expect(parse(record)).toEqual([['Smith, Jane', 'x"y', 'two\nlines', '7', '', "'=1+1"]]);
  });
});
