/** Labels of snapshot sections, fields and rows (decision 018, issue 29 item 5): the registry's titles and labels. */
import { describe, expect, it } from 'vitest';
import {
  describeSnapshot,
  snapshotFieldLabel,
  snapshotRowLabel,
  snapshotSectionLabel,
} from './snapshot-labels.ts';

describe('snapshot labels', () => {
  it('names sections by their registry titles, and the profile', () => {
    expect(snapshotSectionLabel('licenses')).toBe('Professional Licenses');
    expect(snapshotSectionLabel('workHistory')).toBe('Work History');
    expect(snapshotSectionLabel('personalInformation')).toBe('Personal Information');
    expect(snapshotSectionLabel('profile')).toBe('Profile');
    expect(snapshotSectionLabel('documents')).toBe('Documents');
  });

  it("labels fields from the registry, the payload's renamed dates too, and other columns in words", () => {
    expect(snapshotFieldLabel('licenses', 'license_number')).toBe('License Number');
    expect(snapshotFieldLabel('licenses', 'license_exp')).toBe('Expiration Date');
    expect(snapshotFieldLabel('certifications', 'cert_issue_date')).toBe('Issue Date');
    expect(snapshotFieldLabel('personalInformation', 'npi_number')).toBe('NPI Number');
    expect(snapshotFieldLabel('profile', 'first_name')).toBe('First name');
    expect(snapshotFieldLabel('documents', 'sha256')).toBe('File');
  });

  it('names a row as a person would: a summary, a document by its name, else its entry number', () => {
    expect(
      snapshotRowLabel(
        'licenses',
        { license_type: 'medical_license', license_number: '12345', issuing_state: 'CA', status: 'active' },
        0,
      ),
    ).toBe('Medical License · 12345 · CA · Active');
    expect(snapshotRowLabel('documents', { document_name: 'cv.pdf' }, 3)).toBe('cv.pdf');
    expect(snapshotRowLabel('workHistory', {}, 2)).toBe('Entry 3');
    expect(snapshotRowLabel('personalInformation', { city: 'Chicago' }, 0)).toBeNull();
  });
});

describe('describeSnapshot', () => {
  it('lists the eleven sections in order with labelled fields from the snake_case snapshot', () => {
    const views = describeSnapshot({
      personalInformation: { npi_number: '1234567893', ssn: '***-**-6789' },
      lists: { licenses: [{ license_number: 'MD-1', issuing_state: 'IL', license_exp: '2026-12-15' }] },
      documents: [{ document_name: 'CV', filename: 'cv.pdf', sha256: 'ab' }],
    });
    expect(views.map((v) => v.title)).toHaveLength(11);
    expect(views[0]!.entries[0]).toContainEqual({ label: 'NPI Number', value: '1234567893' });
    expect(views[0]!.entries[0]).toContainEqual({ label: 'SSN', value: '***-**-6789' });
    expect(views[1]!.title).toBe('Professional Licenses');
    expect(views[1]!.entries[0]).toContainEqual({ label: 'License Number', value: 'MD-1' });
    // The payload's renamed date columns (spec §7) are read under their own names.
    expect(views[1]!.entries[0]).toContainEqual({ label: 'Expiration Date', value: '2026-12-15' });
    expect(views[2]!.entries).toEqual([]);
    expect(views[10]!.entries[0]).toContainEqual({ label: 'SHA-256', value: 'ab' });
  });
});
