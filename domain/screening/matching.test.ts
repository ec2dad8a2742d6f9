/** Screening's matching rules (issues 15 and 30): name folding, list NPIs, and how a row matches. */
import { describe, expect, it } from 'vitest';
import { listNpi, matchOf, nameKey, normaliseName } from './matching.ts';

describe('name folding and NPIs', () => {
  it('compares names by their letters only, without accents, case, spaces or hyphens', () => {
    expect(normaliseName("O'Brien-Smith")).toBe('OBRIENSMITH');
    expect(normaliseName('  José ')).toBe('JOSE');
    expect(nameKey('Muñoz Díaz', 'Élise')).toBe(nameKey('MUNOZ-DIAZ', 'ELISE'));
    expect(nameKey('Doe', 'Jane')).toBe('DOE|JANE');
    expect(nameKey('Doe', '')).toBe('');
  });

  it('reads list NPIs, with the zero placeholder as none', () => {
    expect(listNpi(' 1234567893 ')).toBe('1234567893');
    expect(listNpi('0000000000')).toBeNull();
    expect(listNpi('123')).toBeNull();
  });
});

describe('matchOf', () => {
  const subject = { npi: '1234567893', key: 'DOE|JANE', dob: '1980-02-29' };
  it('is a match by NPI whatever the name, or by name and birth date', () => {
    expect(matchOf(subject, { npi: '1234567893', nameKey: 'X|Y', dob: null })).toEqual({
      strength: 'match',
      on: 'npi',
    });
    expect(matchOf(subject, { npi: null, nameKey: 'DOE|JANE', dob: '1980-02-29' })).toEqual({
      strength: 'match',
      on: 'name_dob',
    });
  });
  it('is a possible match by name alone, and nothing otherwise', () => {
    expect(matchOf(subject, { npi: null, nameKey: 'DOE|JANE', dob: '1970-01-01' })).toEqual({
      strength: 'possible_match',
      on: 'name',
    });
    expect(matchOf(subject, { npi: '1245319599', nameKey: 'ROE|RICHARD', dob: null })).toBeNull();
    // A provider without a name key never matches by name, even a row without one.
    expect(matchOf({ npi: null, key: '', dob: null }, { npi: null, nameKey: '', dob: null })).toBeNull();
  });
});
