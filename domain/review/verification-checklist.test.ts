/**
 * The verification checklist's generation and the approve guard (issue 13), with "now" fixed.
 */
import { describe, expect, it } from 'vitest';
import type { ApplicationSnapshot } from './application-snapshot.ts';
import { generateChecklist, itemsToRedo } from './verification-checklist.ts';

const now = new Date('2026-11-23T12:00:00Z');

function snapshot(overrides: Partial<ApplicationSnapshot> = {}): ApplicationSnapshot {
  return {
    applicationId: 'a',
    userId: 'u',
    personalInformation: { ssn: '***-**-6789', npi_number: '1234567893', dea_number: '' },
    profile: null,
    lists: {
      licenses: [
        { license_type: 'medical_license', license_number: 'MD-1', issuing_state: 'IL' },
        { license_type: 'nursing_license', license_number: 'RN-7', issuing_state: 'WI' },
      ],
      certifications: [
        { certification_name: 'Internal Medicine', certifying_body: 'ABIM', certification_number: 'C-1' },
      ],
      education: [
        { institution_name: 'College', degree_type: 'bachelor', graduation_date: '2004-05-01' },
        { institution_name: 'Medical School', degree_type: 'doctorate', graduation_date: '2009-05-15' },
      ],
      workHistory: [{ start_date: '2012-01-01', end_date: null, is_current_position: true }],
      malpracticeInsurance: [
        {
          insurance_company: 'Old',
          policy_number: 'P-1',
          effective_date: '2020-01-01',
          expiration_date: '2021-01-01',
        },
        {
          insurance_company: 'MedPro',
          policy_number: 'P-9',
          effective_date: '2026-01-01',
          expiration_date: '2027-01-01',
        },
      ],
    },
    documents: [],
    ...overrides,
  };
}

describe('generateChecklist', () => {
  it('lists one item per license, NPI, each certification, the highest education, work history, malpractice, exclusions', () => {
    const items = generateChecklist(snapshot(), now);
    expect(items.map((i) => i.kind)).toEqual([
      'license',
      'license',
      'npi',
      'board_certification',
      'education',
      'work_history',
      'malpractice',
      'exclusions',
    ]);
    expect(items.find((i) => i.kind === 'education')?.target).toContain('Medical School');
    expect(items.find((i) => i.kind === 'malpractice')?.target).toContain('MedPro');
    expect(items.find((i) => i.kind === 'exclusions')?.primarySource).toBe('OIG LEIE / SAM.gov');
    expect(new Set(items.map((i) => i.itemKey)).size).toBe(items.length);
  });

  it('adds the DEA registration when a DEA number or a DEA license is given', () => {
    const withNumber = snapshot({ personalInformation: { npi_number: '1', dea_number: 'AB1234563' } });
    expect(generateChecklist(withNumber, now).filter((i) => i.kind === 'dea')).toHaveLength(1);
    const withLicense = snapshot();
    withLicense.lists.licenses!.push({
      license_type: 'dea_license',
      license_number: 'D-1',
      issuing_state: '',
    });
    const dea = generateChecklist(withLicense, now).filter((i) => i.kind === 'dea');
    expect(dea).toHaveLength(1);
    expect(dea[0]!.target).toBe('DEA registration D-1');
  });

  it('gives work history one item and no gap items (issue 29 item 7: the gaps are lines of that item)', () => {
    const rows = [
      { start_date: '2019-01-01', end_date: '2023-12-31', is_current_position: false },
      // 9 months after the first.
      { start_date: '2024-10-01', end_date: null, is_current_position: true },
    ];
    const items = generateChecklist(snapshot({ lists: { ...snapshot().lists, workHistory: rows } }), now);
    expect(items.filter((i) => i.kind === 'work_history')).toHaveLength(1);
    expect(items.filter((i) => i.kind === 'work_history_gap')).toEqual([]);
  });
});

describe('itemsToRedo (the approve guard)', () => {
  it('names pending and discrepancy items and verifications older than the limit', () => {
    const items = [
      { target: 'NPI 1', status: 'verified' as const, verifiedAt: '2026-07-26' }, // 120 days: still valid
      { target: 'License', status: 'verified' as const, verifiedAt: '2026-07-25' }, // 121 days
      { target: 'DEA', status: 'waived' as const, verifiedAt: null },
      { target: 'Exclusions', status: 'pending' as const, verifiedAt: null },
      { target: 'Education', status: 'discrepancy' as const, verifiedAt: '2026-11-01' },
    ];
    expect(itemsToRedo(items, now, 120)).toEqual([
      'License (verified 2026-07-25, more than 120 days ago)',
      'Exclusions (pending)',
      'Education (discrepancy)',
    ]);
    expect(itemsToRedo(items.slice(0, 1), now, 120)).toEqual([]);
  });
});
