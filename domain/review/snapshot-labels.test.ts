/** Labels of snapshot change paths (decision 018): the registry's titles and field labels. */
import { describe, expect, it } from 'vitest';
import { changeLabel, describeSnapshot } from './snapshot-labels.ts';

describe('changeLabel', () => {
  it('names a list field with its section title, entry number and field label', () => {
    expect(changeLabel('lists.licenses[0].license_number')).toEqual({
      section: 'Professional Licenses',
      entry: 1,
      field: 'License Number',
    });
    expect(changeLabel('lists.workHistory[2].start_date')).toMatchObject({
      section: 'Work History',
      entry: 3,
    });
  });

  it('names personal information fields from the registry and profile columns in words', () => {
    expect(changeLabel('personalInformation.npi_number')).toEqual({
      section: 'Personal Information',
      field: 'NPI Number',
    });
    expect(changeLabel('profile.first_name')).toEqual({ section: 'Profile', field: 'First name' });
  });

  it('names documents and whole added entries, and falls back to the path for unknown shapes', () => {
    expect(changeLabel('documents[1].document_name')).toEqual({
      section: 'Documents',
      entry: 2,
      field: 'Document Name',
    });
    expect(changeLabel('lists.cme[0]')).toMatchObject({ section: 'CME Credits', entry: 1, field: 'Entry' });
    expect(changeLabel('somethingElse')).toEqual({ section: 'Application', field: 'somethingElse' });
  });
});

describe('describeSnapshot', () => {
  it('lists the eleven sections in order with labelled fields from the snake_case snapshot', () => {
    const views = describeSnapshot({
      personalInformation: { npi_number: '1234567893', ssn: '***-**-6789' },
      lists: { licenses: [{ license_number: 'MD-1', issuing_state: 'IL' }] },
      documents: [{ document_name: 'CV', filename: 'cv.pdf', sha256: 'ab' }],
    });
    expect(views.map((v) => v.title)).toHaveLength(11);
    expect(views[0]!.entries[0]).toContainEqual({ label: 'NPI Number', value: '1234567893' });
    expect(views[0]!.entries[0]).toContainEqual({ label: 'SSN', value: '***-**-6789' });
    expect(views[1]!.title).toBe('Professional Licenses');
    expect(views[1]!.entries[0]).toContainEqual({ label: 'License Number', value: 'MD-1' });
    expect(views[2]!.entries).toEqual([]);
    expect(views[10]!.entries[0]).toContainEqual({ label: 'SHA-256', value: 'ab' });
  });
});
