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
    expect(snapshotSectionLabel('specialties')).toBe('Specialties');
    expect(snapshotSectionLabel('practiceLocations')).toBe('Practice Locations');
    expect(snapshotSectionLabel('hospitalAffiliations')).toBe('Hospital Affiliations');
    expect(snapshotSectionLabel('training')).toBe('Training');
    expect(snapshotSectionLabel('malpracticeClaims')).toBe('Malpractice Claims');
  });

  it("labels fields from the registry, the payload's renamed dates too, and other columns in words", () => {
    expect(snapshotFieldLabel('licenses', 'license_number')).toBe('License Number');
    expect(snapshotFieldLabel('licenses', 'license_exp')).toBe('Expiration Date');
    expect(snapshotFieldLabel('certifications', 'cert_issue_date')).toBe('Issue Date');
    expect(snapshotFieldLabel('personalInformation', 'npi_number')).toBe('NPI Number');
    expect(snapshotFieldLabel('profile', 'first_name')).toBe('First name');
    expect(snapshotFieldLabel('documents', 'sha256')).toBe('File');
    // Issue 31: a specialty's certification is sent by name under its own column.
    expect(snapshotFieldLabel('specialties', 'board_certification')).toBe('Board Certification');
    expect(snapshotFieldLabel('malpracticeClaims', 'amount_paid')).toBe('Amount Paid (USD)');
    expect(snapshotFieldLabel('training', 'no_training')).toBe('No internship, residency or fellowship');
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
    expect(
      snapshotRowLabel(
        'malpracticeClaims',
        {
          no_claims: false,
          claim_date: '2018-03-01',
          status: 'settled',
          amount_paid: 125000.5,
          insurer: 'MedPro',
        },
        0,
      ),
    ).toBe('2018-03-01 · Settled · paid $125,000.50 · MedPro');
    expect(snapshotRowLabel('training', { no_training: true }, 0)).toBe(
      'No internship, residency or fellowship',
    );
  });
});

describe('describeSnapshot', () => {
  it('lists the sixteen sections in dashboard order with labelled fields from the snake_case snapshot', () => {
    const views = describeSnapshot({
      personalInformation: { npi_number: '1234567893', ssn: '***-**-6789' },
      lists: {
        licenses: [{ license_number: 'MD-1', issuing_state: 'IL', license_exp: '2026-12-15' }],
        specialties: [
          {
            specialty_rank: 'primary',
            taxonomy_code: '207R00000X',
            classification: 'Internal Medicine',
            specialization: null,
            // In jsonb's key order, as a stored version reads back: shown name, body, number all the same.
            board_certification: {
              certifying_body: 'ABIM',
              certification_name: 'Board Certified, Internal Medicine',
              certification_number: 'C-1',
            },
          },
        ],
      },
      documents: [{ document_name: 'CV', filename: 'cv.pdf', sha256: 'ab' }],
    });
    // The spec's eleven, documents last of them, then the five of issue 31 (the dashboard's two cards).
    expect(views.map((v) => v.key)).toEqual([
      'personalInformation',
      'professionalLicenses',
      'education',
      'workHistory',
      'malpracticeInsurance',
      'vaccinations',
      'payors',
      'certifications',
      'cme',
      'peerReferences',
      'documents',
      'specialties',
      'practiceLocations',
      'hospitalAffiliations',
      'training',
      'malpracticeClaims',
    ]);
    expect(views[11]!.entries).toEqual([
      [
        { label: 'Primary or Secondary', value: 'Primary' },
        { label: 'Taxonomy Code', value: '207R00000X' },
        { label: 'Classification', value: 'Internal Medicine' },
        { label: 'Specialization', value: '' },
        { label: 'Board Certification', value: 'Board Certified, Internal Medicine · ABIM · C-1' },
      ],
    ]);
    // A snapshot stored before issue 31 has none of the five: listed, empty.
    expect(views.slice(12).map((v) => v.entries)).toEqual([[], [], [], []]);
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
