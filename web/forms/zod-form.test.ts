import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cmeSchema } from '../../domain/sections/cme.ts';
import { professionalLicenseSchema } from '../../domain/sections/professional-licenses.ts';
import { issuesToFormErrors, toFormValues, zodValidate } from './zod-form.ts';

describe('zodValidate (the section schema as a @mantine/form validator)', () => {
  const validateCards = zodValidate(z.object({ rows: z.array(professionalLicenseSchema) }));
  const card = {
    licenseType: '',
    licenseNumber: 'A1',
    issuingState: '',
    issueDate: '',
    expirationDate: '',
    status: 'active',
  };

  it('passes valid values, empty strings included (empty means null)', () => {
    expect(validateCards({ rows: [card, { ...card, issueDate: '2020-02-29' }] })).toEqual({});
  });

  it("keys an error by the card's form path, so the second card shows it", () => {
    expect(validateCards({ rows: [card, { ...card, issueDate: '2021-02-29', status: 'lapsed' }] })).toEqual({
      'rows.1.issueDate': 'Enter a valid date (YYYY-MM-DD)',
      'rows.1.status': 'Choose a license status from the list',
    });
  });

  it('runs `prepare` first, so form values may differ from the schema input', () => {
    const validate = zodValidate(cmeSchema, (values: { title: string }) => ({
      activityTitle: values.title,
      providerName: 'ACCME',
    }));
    expect(validate({ title: 'Sepsis update' })).toEqual({});
    expect(validate({ title: '  ' })).toEqual({ activityTitle: 'Activity title is required' });
  });

  it('refuses CME credit hours off the 0.5 step', () => {
    const validate = zodValidate(cmeSchema);
    expect(validate({ activityTitle: 'A', providerName: 'B', creditHours: 1.25 })).toEqual({
      creditHours: 'Enter credit hours in steps of 0.5',
    });
    expect(validate({ activityTitle: 'A', providerName: 'B', creditHours: 1.5 })).toEqual({});
  });
});

describe('issuesToFormErrors (server 400 issues -> form errors)', () => {
  it('joins paths with dots and keeps the first message of a path', () => {
    expect(
      issuesToFormErrors([
        { path: ['rows', 1, 'issueDate'], message: 'Enter a valid date (YYYY-MM-DD)' },
        { path: ['rows', 1, 'issueDate'], message: 'second message' },
        { path: ['payorName'], message: 'Payor name is required' },
        { path: [], message: 'Save at most 50 entries at once' },
      ]),
    ).toEqual({
      'rows.1.issueDate': 'Enter a valid date (YYYY-MM-DD)',
      payorName: 'Payor name is required',
      '': 'Save at most 50 entries at once',
    });
  });
});

describe('toFormValues (an API row -> controlled form values)', () => {
  const empty = { licenseNumber: '', creditHours: '' as string | number, isCurrent: false, status: 'active' };

  it('takes stored values and turns nulls back into the empty values', () => {
    expect(
      toFormValues(empty, { id: 'x', licenseNumber: null, creditHours: 1.5, isCurrent: true, status: null }),
    ).toEqual({ licenseNumber: '', creditHours: 1.5, isCurrent: true, status: 'active' });
  });

  it('ignores fields the form does not have, and gives the empty form for no row', () => {
    expect(toFormValues(empty, { createdAt: '2026-01-01T00:00:00Z' })).toEqual(empty);
    expect(toFormValues(empty, null)).toEqual(empty);
  });
});
