import { describe, expect, it } from 'vitest';
import { formatSsn, NPI_CHECK_DIGIT_WARNING, npiWarning } from './input-formats.ts';

describe('formatSsn (the XXX-XX-XXXX mask)', () => {
  it.each([
    ['', ''],
    ['1', '1'],
    ['123', '123'],
    ['1234', '123-4'],
    ['12345', '123-45'],
    ['123456', '123-45-6'],
    ['123456789', '123-45-6789'],
    // Pasted with other separators, or with too many digits: digits kept, nine at most.
    ['123 45 6789', '123-45-6789'],
    ['123-45-67890000', '123-45-6789'],
    ['abc', ''],
    // Backspace over a dash leaves the digits before it.
    ['123-', '123'],
  ])('%j -> %j', (typed, shown) => {
    expect(formatSsn(typed)).toBe(shown);
  });
});

describe('npiWarning (advisory check digit, spec §5: never blocks)', () => {
  it('is silent for a valid NPI (CMS example 1234567893)', () => {
    expect(npiWarning('1234567893')).toBeNull();
    expect(npiWarning(' 1234567893 ')).toBeNull();
  });

  it('warns for ten digits with a wrong check digit', () => {
    expect(npiWarning('1234567890')).toBe(NPI_CHECK_DIGIT_WARNING);
  });

  it('is silent while the number is not ten digits', () => {
    expect(npiWarning('')).toBeNull();
    expect(npiWarning('123456789')).toBeNull();
    expect(npiWarning('12345678901')).toBeNull();
    expect(npiWarning('12345-6789')).toBeNull();
  });
});
