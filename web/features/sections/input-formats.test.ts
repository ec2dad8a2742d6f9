import { describe, expect, it } from 'vitest';
import { formatSsn } from './input-formats.ts';

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
