/** LEIE screening rules (issue 15): normalisation, dates, NPIs and the three outcomes. */
import { describe, expect, it } from 'vitest';
import { leieDate, leieNpi, nameKey, normaliseName, screeningOutcome } from './leie-screening.ts';

describe('LEIE normalisation', () => {
  it('compares names by their letters only, without accents or case', () => {
    expect(normaliseName("O'Brien-Smith")).toBe('OBRIENSMITH');
    expect(normaliseName('  José ')).toBe('JOSE');
    expect(nameKey('Doe', 'Jane')).toBe('DOE|JANE');
    expect(nameKey('Doe', '')).toBe('');
  });

  it('reads LEIE dates and NPIs, with the zero placeholders as none', () => {
    expect(leieDate('19700101')).toBe('1970-01-01');
    expect(leieDate('00000000')).toBeNull();
    expect(leieDate('')).toBeNull();
    expect(leieNpi('1234567893')).toBe('1234567893');
    expect(leieNpi('0000000000')).toBeNull();
    expect(leieNpi('123')).toBeNull();
  });
});

describe('screeningOutcome', () => {
  const provider = { npi: '1234567893', key: 'DOE|JANE', dob: '1980-02-29' };
  it('is a match by NPI, or by name and date of birth', () => {
    expect(screeningOutcome(provider, [{ npi: '1234567893', nameKey: 'X|Y', dob: null }]).outcome).toBe(
      'match',
    );
    expect(screeningOutcome(provider, [{ npi: null, nameKey: 'DOE|JANE', dob: '1980-02-29' }]).outcome).toBe(
      'match',
    );
  });
  it('is a possible match by name alone, and no match otherwise', () => {
    expect(screeningOutcome(provider, [{ npi: null, nameKey: 'DOE|JANE', dob: '1970-01-01' }]).outcome).toBe(
      'possible_match',
    );
    expect(
      screeningOutcome(provider, [{ npi: '1245319599', nameKey: 'ROE|RICHARD', dob: null }]).outcome,
    ).toBe('no_match');
    expect(
      screeningOutcome({ npi: null, key: '', dob: null }, [{ npi: null, nameKey: '', dob: null }]).outcome,
    ).toBe('no_match');
  });
});
