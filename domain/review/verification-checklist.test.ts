/**
 * The verification checklist's generation and the approve guard (issue 13), with "now" fixed; the
 * items of issue 31 item 4 (training, hospital privileges or the admitting arrangement, the claims
 * history, the primary specialty's board certification).
 */
import { describe, expect, it } from 'vitest';
import type { ApplicationSnapshot } from './application-snapshot.ts';
import {
  carriedForwardKinds,
  evidenceRequiredMessage,
  generateChecklist,
  hospitalAffiliationItemKey,
  itemsToRedo,
  lapsedCredentialItemKey,
  NPDB_PRIMARY_SOURCE,
} from './verification-checklist.ts';

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

  it("makes only board certifications items (issue 51 item 4: ACLS of kind 'other' stays in the record)", () => {
    const items = generateChecklist(
      snapshot({
        lists: {
          ...snapshot().lists,
          certifications: [
            {
              certification_kind: 'board',
              certification_name: 'Internal Medicine',
              certifying_body: 'ABIM',
              certification_number: 'C-1',
            },
            { certification_kind: 'other', certification_name: 'ACLS', certifying_body: 'AHA' },
            // A snapshot stored before the kind existed: a board certification, as then.
            { certification_name: 'Family Medicine', certifying_body: 'ABFM' },
          ],
        },
      }),
      now,
    );
    expect(items.filter((i) => i.kind === 'board_certification').map((i) => i.target)).toEqual([
      'Board certification: Internal Medicine (ABIM)',
      'Board certification: Family Medicine (ABFM)',
    ]);
    expect(items.some((i) => i.target.includes('ACLS'))).toBe(false);
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

/** The snapshot of `snapshot()` with the sections of issue 31 (decision 028) filled as given. */
function withAdditional(lists: ApplicationSnapshot['lists'], providerType = 'MD'): ApplicationSnapshot {
  const base = snapshot();
  return {
    ...base,
    personalInformation: { ...base.personalInformation, provider_type: providerType },
    lists: { ...base.lists, ...lists },
  };
}

const residency = {
  id: 'tr-1',
  row_key: 'tr-1',
  no_training: false,
  training_type: 'residency',
  program_name: 'IM Residency',
  institution_name: 'Northwestern University',
  specialty: 'Internal Medicine',
  start_date: '2009-07-01',
  end_date: '2012-06-30',
  completed: 'yes',
  not_completed_reason: null,
};

describe('the items of issue 31 item 4', () => {
  it('adds one training item per program, verified with the program or the AMA / AOA profile', () => {
    const fellowship = {
      ...residency,
      id: 'tr-2',
      row_key: 'tr-2',
      training_type: 'fellowship',
      program_name: null,
      institution_name: 'Mayo Clinic',
      specialty: 'Cardiology',
      completed: 'no',
      not_completed_reason: 'Moved',
    };
    const items = generateChecklist(withAdditional({ training: [residency, fellowship] }), now);
    const training = items.filter((i) => i.kind === 'training');
    expect(training).toEqual([
      {
        itemKey: 'training:tr-1',
        rowKey: 'tr-1',
        kind: 'training',
        target: 'Training: Residency in Internal Medicine, IM Residency, Northwestern University',
        primarySource: 'IM Residency or the AMA Physician Profile',
      },
      {
        itemKey: 'training:tr-2',
        rowKey: 'tr-2',
        kind: 'training',
        target: 'Training: Fellowship in Cardiology, Mayo Clinic (not completed)',
        primarySource: 'Mayo Clinic or the AMA Physician Profile',
      },
    ]);
    // Right after the highest education, before work history.
    const kinds = items.map((i) => i.kind);
    expect(kinds.indexOf('training')).toBe(kinds.indexOf('education') + 1);
    const source = (type: string) =>
      generateChecklist(withAdditional({ training: [residency] }, type), now).find(
        (i) => i.kind === 'training',
      )?.primarySource;
    expect(source('DO')).toBe('IM Residency or the AOA Physician Profile');
    expect(source('MD-PhD')).toBe('IM Residency or the AMA Physician Profile');
    expect(source('APN')).toBe('IM Residency');
  });

  it('gives the answer "No internship, residency or fellowship" no item', () => {
    const none = { id: 'tr-n', row_key: 'tr-n', no_training: true };
    const items = generateChecklist(withAdditional({ training: [none] }), now);
    expect(items.filter((i) => i.kind === 'training')).toEqual([]);
  });

  it('verifies privileges with the facility, and an admitting arrangement with the covering group', () => {
    const privileges = {
      id: 'h-1',
      row_key: 'h-1',
      privilege_status: 'courtesy',
      facility_name: 'Mercy Hospital',
      city: 'Chicago',
      state: 'IL',
      end_date: '2027-06-30',
    };
    const arrangement = {
      id: 'h-2',
      row_key: 'h-2',
      privilege_status: 'none',
      admitting_arrangement: 'hospitalist_group',
      arrangement_name: 'Northside Hospitalists',
    };
    const items = generateChecklist(withAdditional({ hospitalAffiliations: [privileges, arrangement] }), now);
    expect(items.filter((i) => i.rowKey === 'h-1' || i.rowKey === 'h-2')).toEqual([
      {
        itemKey: 'hospital_affiliation:h-1',
        rowKey: 'h-1',
        kind: 'hospital_privileges',
        target: 'Hospital privileges: Mercy Hospital, Chicago, IL (Courtesy)',
        primarySource: 'Mercy Hospital (medical staff office)',
      },
      {
        itemKey: 'hospital_affiliation:h-2',
        rowKey: 'h-2',
        kind: 'admitting_arrangement',
        target: 'Admitting arrangement: Hospitalist group, Northside Hospitalists',
        primarySource: 'Northside Hospitalists (written confirmation of the arrangement)',
      },
    ]);
    // Privileges past their end date reopen their item (issue 14); an arrangement has no date watched.
    expect(lapsedCredentialItemKey('hospital_privileges', privileges)).toBe(
      hospitalAffiliationItemKey(privileges),
    );
    expect(lapsedCredentialItemKey('hospital_privileges', arrangement)).toBeNull();
  });

  it('adds one claims history item, verified with the NPDB query result attached, when the section has rows', () => {
    const claim = (over: Record<string, string | number | boolean | null>) => ({
      id: 'c',
      row_key: 'c',
      no_claims: false,
      incident_date: '2020-01-01',
      claim_date: '2020-06-01',
      status: 'closed',
      amount_paid: null,
      ...over,
    });
    const claims = [
      claim({ id: 'c1', row_key: 'c1' }),
      claim({ id: 'c2', row_key: 'c2', amount_paid: 1500 }),
    ];
    const items = generateChecklist(withAdditional({ malpracticeClaims: claims }), now);
    const history = items.filter((i) => i.kind === 'claims_history');
    expect(history).toEqual([
      {
        itemKey: 'claims_history',
        rowKey: null,
        kind: 'claims_history',
        target: 'Claims history: 2 claims in the last 10 years, 1 paid',
        primarySource: NPDB_PRIMARY_SOURCE,
      },
    ]);
    expect(NPDB_PRIMARY_SOURCE).toContain('attach the query result');
    expect(evidenceRequiredMessage.claims_history).toBe(
      'Attach the NPDB query result to the claims history item before verifying it.',
    );
    // Just before exclusion screening, the last item.
    expect(items.map((i) => i.kind).slice(-2)).toEqual(['claims_history', 'exclusions']);

    const none = generateChecklist(
      withAdditional({ malpracticeClaims: [{ id: 'n', row_key: 'n', no_claims: true }] }),
      now,
    );
    expect(none.find((i) => i.kind === 'claims_history')?.target).toBe(
      'Claims history: no claims in the last 10 years',
    );
    // No rows (an application completed before issue 31): no item.
    expect(generateChecklist(snapshot(), now).some((i) => i.kind === 'claims_history')).toBe(false);
  });

  it("names the primary specialty on its linked certification's item, without a second item", () => {
    const specialty = {
      id: 's-1',
      row_key: 's-1',
      specialty_rank: 'primary',
      taxonomy_code: '207RC0000X',
      classification: 'Internal Medicine',
      specialization: 'Cardiovascular Disease',
      board_certification: {
        certification_name: 'Internal Medicine',
        certifying_body: 'ABIM',
        certification_number: 'C-1',
      },
    };
    const items = generateChecklist(withAdditional({ specialties: [specialty] }), now);
    const certifications = items.filter((i) => i.kind === 'board_certification');
    expect(certifications.map((i) => i.target)).toEqual([
      'Board certification: Internal Medicine (ABIM), primary specialty Internal Medicine, Cardiovascular Disease (207RC0000X)',
    ]);
    // The same key as without the link: the item a review already has is the one that names it.
    expect(certifications[0]!.itemKey).toBe(
      generateChecklist(snapshot(), now).find((i) => i.kind === 'board_certification')!.itemKey,
    );
    // A secondary specialty, or a primary one without a link, names nothing.
    for (const other of [
      { ...specialty, specialty_rank: 'secondary' },
      { ...specialty, board_certification: null },
    ]) {
      const plain = generateChecklist(withAdditional({ specialties: [other] }), now);
      expect(plain.find((i) => i.kind === 'board_certification')!.target).toBe(
        'Board certification: Internal Medicine (ABIM)',
      );
    }
  });

  it('carries training forward between cycles like education (NCQA: verified once)', () => {
    expect(carriedForwardKinds).toEqual(['education', 'training']);
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
