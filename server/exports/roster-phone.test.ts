/** The roster's phone format (issue 52 item 4): one format, the extension apart, never a formula start. */
import { describe, expect, it } from 'vitest';
import { rosterFax, rosterPhone } from './roster-phone.ts';

describe('rosterPhone', () => {
  it.each([
    ['+1 (305) 555-0100', '(305) 555-0100', null],
    ['1-305-555-0100', '(305) 555-0100', null],
    ['305.555.0100', '(305) 555-0100', null],
    ['305-555-0100 x7', '(305) 555-0100', '7'],
    ['(305) 555-0100, ext. 12', '(305) 555-0100', '12'],
    ['+1 305 555 0100;ext=4', '(305) 555-0100', '4'],
    // Possible though not assigned (the 555 area code): the same shape, as the factory's number.
    ['(555) 010-3000', '(555) 010-3000', null],
    // Another country's number as dialled from the United States: no leading '+'.
    ['+44 20 7946 0958', '011 44 20 7946 0958', null],
    ['+44 20 7946 0958 ext. 5', '011 44 20 7946 0958', '5'],
  ])('%s -> %s, extension %s', (typed, number, extension) => {
    expect(rosterPhone(typed)).toEqual({ number, extension });
  });

  it('keeps text that is not a possible number as typed, and nothing for blank input', () => {
    expect(rosterPhone('call the front desk')).toEqual({ number: 'call the front desk', extension: null });
    expect(rosterPhone(' 12345 ')).toEqual({ number: '12345', extension: null });
    expect(rosterPhone('   ')).toBeNull();
    expect(rosterPhone(null)).toBeNull();
  });

  it('never starts a parsed number with a character a spreadsheet runs as a formula', () => {
    for (const typed of ['+1 (305) 555-0100', '+44 20 7946 0958', '+33 1 23 45 67 89', '-305-555-0100']) {
      expect(rosterPhone(typed)!.number).not.toMatch(/^[=+\-@]/);
    }
  });
});

describe('rosterFax', () => {
  it('writes a fax in the same format, a rare extension in the same cell', () => {
    expect(rosterFax('+1 305 555 0199')).toBe('(305) 555-0199');
    expect(rosterFax('305 555 0199 x2')).toBe('(305) 555-0199 ext. 2');
    expect(rosterFax(null)).toBeNull();
  });
});
