/** NPI and DEA format checks (issue 15): known valid and invalid numbers; warnings, never refusals. */
import { describe, expect, it } from 'vitest';
import {
  DEA_CHECK_DIGIT_WARNING,
  DEA_FORMAT_WARNING,
  DEA_REGISTRANT_TYPE_WARNING,
  DEA_REGISTRANT_TYPES,
  deaCheckDigitValid,
  deaWarnings,
  identifierWarnings,
  isDeaRegistrantType,
  NPI_CHECK_DIGIT_WARNING,
  NPI_FORMAT_WARNING,
  npiWarning,
  savedWithWarningsText,
} from './identifier-checks.ts';

describe('npiWarning (CMS Luhn over 80840 + the first nine digits)', () => {
  it('passes valid NPIs', () => {
    // CMS's worked example, and two more computed by hand with the same rule.
    for (const npi of ['1234567893', '1245319599', ' 1234567893 ']) expect(npiWarning(npi)).toBeNull();
  });

  it('warns for a wrong check digit, and for a wrong shape once judged as final', () => {
    expect(npiWarning('1234567890')).toBe(NPI_CHECK_DIGIT_WARNING);
    expect(npiWarning('1245319598')).toBe(NPI_CHECK_DIGIT_WARNING);
    expect(npiWarning('12345-6789', 'final')).toBe(NPI_FORMAT_WARNING);
    expect(npiWarning('123456789', 'final')).toBe(NPI_FORMAT_WARNING);
    expect(npiWarning('12345678901')).toBe(NPI_FORMAT_WARNING);
  });

  it('stays quiet while a number is being typed, and for nothing at all', () => {
    expect(npiWarning('')).toBeNull();
    expect(npiWarning('123456789')).toBeNull();
    expect(npiWarning('12')).toBeNull();
  });
});

describe('DEA number (two letters, seven digits, (d1+d3+d5 + 2(d2+d4+d6)) mod 10)', () => {
  it('accepts valid check digits', () => {
    // 1+3+5 + 2(2+4+6) = 33 -> 3; 3+4+1 + 2(9+8+5) = 52 -> 2.
    expect(deaCheckDigitValid('AB1234563')).toBe(true);
    expect(deaCheckDigitValid('FS3948152')).toBe(true);
    expect(deaCheckDigitValid('BV1234563')).toBe(true);
    expect(deaCheckDigitValid('A91234563')).toBe(true);
  });

  it('refuses wrong check digits and shapes', () => {
    expect(deaCheckDigitValid('AB1234564')).toBe(false);
    expect(deaCheckDigitValid('A1234563')).toBe(false);
    expect(deaCheckDigitValid('AB12345634')).toBe(false);
    expect(deaCheckDigitValid('1B1234563')).toBe(false);
  });

  it('warns about the check digit and the second letter against the last name', () => {
    expect(deaWarnings('AB1234563', 'Brown')).toEqual([]);
    expect(deaWarnings('ab1234563', 'brown')).toEqual([]);
    expect(deaWarnings('A91234563', 'Smith')).toEqual([]);
    expect(deaWarnings('AB1234564', 'Brown')).toEqual([DEA_CHECK_DIGIT_WARNING]);
    const [initial] = deaWarnings('AB1234563', 'Smith');
    expect(initial).toMatch(/initial of the last name \(S\)/);
    expect(deaWarnings('AB1234563')).toEqual([]);
  });

  it('stays quiet while typing a well-formed prefix, and judges the shape as final', () => {
    expect(deaWarnings('')).toEqual([]);
    expect(deaWarnings('A')).toEqual([]);
    expect(deaWarnings('AB12')).toEqual([]);
    expect(deaWarnings('AB12', undefined, 'final')).toEqual([DEA_FORMAT_WARNING]);
    expect(deaWarnings('12AB')).toEqual([DEA_FORMAT_WARNING]);
  });
});

describe('DEA registrant type, the first letter (issue 30 item 7)', () => {
  it('says the letters in the published words', () => {
    expect(DEA_REGISTRANT_TYPE_WARNING).toBe(
      'The first letter of a DEA number is its registrant type (A, B, C, D, E, F, G, H, J, K, L, M, P, R, S, T, U or X). Check it; you can still save it.',
    );
  });

  it('knows the 18 registrant types and no other letter, in either case', () => {
    const known = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].filter(isDeaRegistrantType);
    expect(known.join('')).toBe('ABCDEFGHJKLMPRSTUX');
    expect(DEA_REGISTRANT_TYPES).toHaveLength(18);
    expect(isDeaRegistrantType('m')).toBe(true);
    expect(isDeaRegistrantType('z')).toBe(false);
  });

  it('warns for ZZ1234563 (valid check digit, matching initial): a warning, not a format refusal', () => {
    expect(deaCheckDigitValid('ZZ1234563')).toBe(true);
    expect(deaWarnings('ZZ1234563', 'Zhang', 'final')).toEqual([DEA_REGISTRANT_TYPE_WARNING]);
    expect(deaWarnings('zz1234563', 'zhang')).toEqual([DEA_REGISTRANT_TYPE_WARNING]);
    // Every unpublished letter warns; every published one passes the same number.
    for (const letter of 'INOQVWYZ') {
      expect(deaWarnings(`${letter}B1234563`, 'Brown', 'final')).toEqual([DEA_REGISTRANT_TYPE_WARNING]);
    }
    for (const letter of DEA_REGISTRANT_TYPES) {
      expect(deaWarnings(`${letter}B1234563`, 'Brown', 'final')).toEqual([]);
    }
  });

  it('lists it first, beside the check digit and initial warnings', () => {
    expect(deaWarnings('QB1234564', 'Smith', 'final')).toEqual([
      DEA_REGISTRANT_TYPE_WARNING,
      DEA_CHECK_DIGIT_WARNING,
      expect.stringMatching(/initial of the last name \(S\)/),
    ]);
  });

  it('says it as soon as the first letter is typed, since no later keystroke mends it', () => {
    expect(deaWarnings('Z')).toEqual([DEA_REGISTRANT_TYPE_WARNING]);
    expect(deaWarnings('ZZ12')).toEqual([DEA_REGISTRANT_TYPE_WARNING]);
    expect(deaWarnings('M')).toEqual([]);
    // A wrong shape is still the format warning alone.
    expect(deaWarnings('ZZ12', undefined, 'final')).toEqual([DEA_FORMAT_WARNING]);
  });

  it('reaches the save confirmation', () => {
    expect(identifierWarnings({ npiNumber: '1234567893', deaNumber: 'ZZ1234563' }, 'Zhang')).toEqual([
      DEA_REGISTRANT_TYPE_WARNING,
    ]);
  });
});

describe('the save confirmation (issue 28)', () => {
  it('lists the final warnings of both identifiers, in field order', () => {
    // A nine-digit NPI is quiet while typed, wrong once saved.
    expect(identifierWarnings({ npiNumber: '123456789', deaNumber: '' })).toEqual([NPI_FORMAT_WARNING]);
    expect(identifierWarnings({ npiNumber: '1234567890', deaNumber: 'AB1234564' }, 'Brown')).toEqual([
      NPI_CHECK_DIGIT_WARNING,
      DEA_CHECK_DIGIT_WARNING,
    ]);
    expect(identifierWarnings({ npiNumber: '1234567893', deaNumber: null })).toEqual([]);
  });

  it("says 'Saved with 1 warning: …', pluralised, or nothing", () => {
    expect(savedWithWarningsText([])).toBeNull();
    expect(savedWithWarningsText([NPI_CHECK_DIGIT_WARNING])).toBe(
      `Saved with 1 warning: ${NPI_CHECK_DIGIT_WARNING}`,
    );
    expect(savedWithWarningsText([NPI_CHECK_DIGIT_WARNING, DEA_CHECK_DIGIT_WARNING])).toBe(
      `Saved with 2 warnings: ${NPI_CHECK_DIGIT_WARNING} ${DEA_CHECK_DIGIT_WARNING}`,
    );
  });
});
