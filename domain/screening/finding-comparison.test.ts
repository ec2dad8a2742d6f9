/** The side-by-side view of a screening finding (issue 30 item 4): what agrees, differs, or is unknown. */
import { describe, expect, it } from 'vitest';
import { compareFinding } from './finding-comparison.ts';
import { isStaleList } from './staleness.ts';

const provider = {
  lastName: 'Muñoz-Díaz',
  firstName: 'José',
  middleName: 'A',
  npi: '1234567893',
  dob: '1980-02-29',
  state: 'IL',
  licenses: [
    { number: 'MD-12345', state: 'NY' },
    { number: '', state: '' },
  ],
};

describe('compareFinding', () => {
  it('folds names, takes a middle initial for the name it begins, and any licence or state of the provider', () => {
    const lines = compareFinding(provider, {
      lastName: 'MUNOZ DIAZ',
      firstName: 'JOSE',
      middleName: 'ANTONIO',
      npi: null,
      dob: '1980-02-29',
      state: 'NY',
      licenseNumber: 'md12345',
    });
    const byLabel = Object.fromEntries(lines.map((l) => [l.label, l.agreement]));
    expect(byLabel).toEqual({
      'Last name': 'same',
      'First name': 'same',
      'Middle name': 'same',
      'Date of birth': 'same',
      NPI: 'unknown',
      State: 'same',
      'License number': 'same',
    });
    expect(lines.find((l) => l.label === 'State')!.provider).toBe('IL, NY');
  });

  it('marks what differs', () => {
    const lines = compareFinding(provider, {
      lastName: 'MUNOZ',
      firstName: 'JOSE',
      middleName: 'B',
      npi: '1245319599',
      dob: '1955-11-11',
      state: 'CA',
      licenseNumber: 'RN-1',
    });
    const different = lines.filter((l) => l.agreement === 'different').map((l) => l.label);
    expect(different).toEqual([
      'Last name',
      'Middle name',
      'Date of birth',
      'NPI',
      'State',
      'License number',
    ]);
  });
});

describe('isStaleList', () => {
  const now = new Date('2026-11-26T12:00:00Z');
  it('is stale never imported, or applied more than 35 days before now', () => {
    expect(isStaleList(null, now)).toBe(true);
    expect(isStaleList(new Date('2026-10-22T12:00:00Z'), now)).toBe(false); // 35 days
    expect(isStaleList(new Date('2026-10-22T11:59:00Z'), now)).toBe(true);
  });
});
