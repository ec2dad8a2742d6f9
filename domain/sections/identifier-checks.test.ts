/** NPI and DEA format checks (issue 15): known valid and invalid numbers; warnings, never refusals. */
import { describe, expect, it } from 'vitest';
import {
  DEA_CHECK_DIGIT_WARNING,
  DEA_FORMAT_WARNING,
  deaCheckDigitValid,
  deaWarnings,
  identifierWarnings,
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
