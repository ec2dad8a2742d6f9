/** CSV fields (issue 14 export, issue 52 item 4): RFC 4180 quoting and the formula-injection guard. */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvField, csvRecord, defuseFormulas } from './csv.ts';

describe('csvField', () => {
  it('leaves plain text and numbers as they are, and writes nothing for empty cells', () => {
    expect(csvField('Medical License IL-20 (IL)')).toBe('Medical License IL-20 (IL)');
    expect(csvField(20)).toBe('20');
    expect(csvField(-3)).toBe('-3');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField('')).toBe('');
  });

  it('quotes fields with a comma, a semicolon, a quote, a tab, CR or LF, doubling the quotes (RFC 4180)', () => {
    expect(csvField('Smith, Jane')).toBe('"Smith, Jane"');
    expect(csvField('Smith; Jane')).toBe('"Smith; Jane"');
    expect(csvField('a\tb')).toBe('"a\tb"');
    expect(csvField('The "Best" Plan')).toBe('"The ""Best"" Plan"');
    expect(csvField('line one\nline two')).toBe('"line one\nline two"');
    expect(csvField('a\r\nb')).toBe('"a\r\nb"');
  });

  it('prefixes text a spreadsheet would run as a formula with a single quote', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tcmd')).toBe(`"'\tcmd"`);
    expect(csvField('\rcmd')).toBe(`"'\rcmd"`);
    // A formula character that no separator or line break precedes starts no cell.
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField('Mon-Fri 8:00-17:00')).toBe('Mon-Fri 8:00-17:00');
    expect(csvField('x@example.com')).toBe('x@example.com');
  });

  it("defuses a formula after a ';' or ',' inside the cell: the ';'-locale bypass (issue 52 item 4)", () => {
    // Opened by a spreadsheet that splits on ';', 'x;=1+1;' would be 'x', '=1+1' (live) and ''.
    expect(defuseFormulas('x;=1+1;')).toBe("x;'=1+1;");
    expect(csvField('x;=1+1;')).toBe(`"x;'=1+1;"`);
    expect(defuseFormulas('a,-2+3')).toBe("a,'-2+3");
    expect(defuseFormulas('a;+1;@SUM(1)')).toBe("a;'+1;'@SUM(1)");
    // After a line break (a ';' reader ends the line there) and after quotes that would open a piece.
    expect(defuseFormulas('note\n=1+1')).toBe("note\n'=1+1");
    expect(defuseFormulas('note\r\n=1+1')).toBe("note\r\n'=1+1");
    expect(defuseFormulas('x;"=1+1"')).toBe(`x;'"=1+1"`);
    expect(defuseFormulas('x\t=1+1')).toBe("x\t'=1+1");
    // Both at once: the start and the inside.
    expect(defuseFormulas('=1;=2')).toBe("'=1;'=2");
    // A separator followed by anything else is left alone.
    expect(defuseFormulas('Smith, Jane; MD')).toBe('Smith, Jane; MD');
    expect(defuseFormulas('(305) 555-0100')).toBe('(305) 555-0100');
  });

  it("writes every text exactly with guard 'none' (API clients), still quoted per RFC 4180", () => {
    expect(csvField('=1+1', { guard: 'none' })).toBe('=1+1');
    expect(csvField('x;=1+1;', { guard: 'none' })).toBe('"x;=1+1;"');
    expect(csvField('+1 (305) 555-0100', { guard: 'none' })).toBe('+1 (305) 555-0100');
  });
});

describe('csvRecord', () => {
  it('joins fields with commas and ends with CRLF; a CSV parser reads the values back', () => {
    const cells = ['Smith, Jane', 'x"y', 'two\nlines', 7, null, '=1+1'];
    const record = csvRecord(cells);
    expect(record.endsWith('\r\n')).toBe(true);
    expect(parse(record)).toEqual([['Smith, Jane', 'x"y', 'two\nlines', '7', '', "'=1+1"]]);
  });

  it("joins with ';' when asked; a CSV parser with that delimiter reads the values back", () => {
    const cells = ['Smith; Jane', 'a,b', 3, 'x,=1'];
    const record = csvRecord(cells, { separator: ';' });
    expect(record).toBe(`"Smith; Jane";"a,b";3;"x,'=1"\r\n`);
    expect(parse(record, { delimiter: ';' })).toEqual([['Smith; Jane', 'a,b', '3', "x,'=1"]]);
  });
});
