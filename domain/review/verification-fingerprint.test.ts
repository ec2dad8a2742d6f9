/**
 * What a verification covers, per item kind (issue 29 item 3: "a verification is bound to the data
 * it verified"; NCQA CR 3 primary-source verification). For each item kind: the values
 * `coveredValues` reads from a snapshot shaped like the stored ones (server/notifications/
 * application-snapshot.ts: spec §7 row names, `row_key` on list and document rows; the kinds of issue
 * 31 item 4 over the sections of decision 028), that a change of
 * one covered field is exactly that one change (`changedFields`), that a change of a field the item
 * does not cover is no change, that a replaced file of an evidencing document type is a change, and
 * that a removed row reads as the 'removed' change. "Now" is a parameter: it picks the current
 * malpractice policy.
 */
import { describe, expect, it } from 'vitest';
import type { ApplicationSnapshot, SnapshotRow } from './application-snapshot.ts';
import {
  changeText,
  generateChecklist,
  isBoardCertificationRow,
  rowIdentity,
  type VerificationKind,
} from './verification-checklist.ts';
import {
  type CoveredItem,
  changedFields,
  coveredValues,
  verificationCoverage,
} from './verification-fingerprint.ts';

const now = new Date('2026-11-23T12:00:00Z');

/** A document row as the snapshot stores it (completion payload row plus `row_key`, no object key). */
function documentRow(rowKey: string, type: string, filename: string, sha256: string): SnapshotRow {
  return {
    id: `doc-${rowKey}`,
    row_key: rowKey,
    user_id: 'user-1',
    application_id: 'app-1',
    document_type: type,
    document_name: filename,
    filename,
    file_size: 48_213,
    mime_type: 'application/pdf',
    sha256,
    uploaded_at: '2026-10-01T09:00:00.000Z',
  };
}

/** A complete application's snapshot, as version 1 would hold it. */
function realisticSnapshot(): ApplicationSnapshot {
  return {
    applicationId: 'app-1',
    userId: 'user-1',
    personalInformation: {
      ssn: '***-**-6789',
      date_of_birth: '1980-04-02',
      address_line1: '1 Main St',
      city: 'Chicago',
      state: 'IL',
      zip_code: '60601',
      driver_license_number: 'D1234567',
      driver_license_state: 'IL',
      driver_license_expiration: '2029-04-02',
      caqh_id: '12345678',
      dea_number: 'AB1234563',
      npi_number: '1234567893',
      mobile_phone: '312-555-0100',
      gender: 'female',
      medicaid_number: '',
      medicare_number: '',
      provider_type: 'physician',
    },
    profile: {
      id: 'profile-1',
      user_id: 'user-1',
      first_name: 'Ada',
      last_name: 'Okafor',
      email: 'ada@example.com',
      created_at: '2026-09-01T09:00:00.000Z',
    },
    lists: {
      // Licenses and certifications: spec §7 names, no id (row_key from their position).
      licenses: [
        {
          license_type: 'medical_license',
          license_number: 'MD-1',
          issuing_state: 'IL',
          license_issue: '2016-12-15',
          license_exp: '2026-12-15',
          status: 'active',
          row_key: 'lic-md',
        },
        {
          license_type: 'dea_license',
          license_number: 'DEA-9',
          issuing_state: 'IL',
          license_issue: '2024-01-01',
          license_exp: '2027-01-31',
          status: 'active',
          row_key: 'lic-dea',
        },
      ],
      certifications: [
        {
          certification_name: 'Internal Medicine',
          certifying_body: 'ABIM',
          certification_number: 'C-1',
          cert_issue_date: '2015-07-01',
          cert_exp_date: '2027-12-31',
          row_key: 'cert-1',
        },
      ],
      education: [
        {
          id: 'edu-1',
          row_key: 'edu-1',
          application_id: 'app-1',
          institution_name: 'College',
          degree_type: 'bachelor',
          field_of_study: 'Biology',
          graduation_date: '2004-05-01',
          gpa: '3.8',
          created_at: '2026-09-01T09:00:00.000Z',
        },
        {
          id: 'edu-2',
          row_key: 'edu-2',
          application_id: 'app-1',
          institution_name: 'Medical School',
          degree_type: 'doctorate',
          field_of_study: 'Medicine',
          graduation_date: '2009-05-15',
          gpa: '3.9',
          created_at: '2026-09-01T09:00:00.000Z',
        },
      ],
      workHistory: [
        {
          id: 'wh-2',
          row_key: 'wh-2',
          application_id: 'app-1',
          employer_name: 'Mercy Hospital',
          position_title: 'Attending',
          start_date: '2019-01-01',
          end_date: null,
          is_current_position: true,
          responsibilities: 'Inpatient care',
          supervisor_name: 'Dr. Lee',
          supervisor_contact: 'lee@example.com',
          gap_explanation: 'Parental leave',
        },
        {
          id: 'wh-1',
          row_key: 'wh-1',
          application_id: 'app-1',
          employer_name: 'County Clinic',
          position_title: 'Resident',
          start_date: '2012-07-01',
          end_date: '2018-06-30',
          is_current_position: false,
          responsibilities: 'Residency',
          supervisor_name: 'Dr. Park',
          supervisor_contact: 'park@example.com',
          gap_explanation: null,
        },
      ],
      malpracticeInsurance: [
        {
          id: 'mal-old',
          row_key: 'mal-old',
          application_id: 'app-1',
          insurance_company: 'OldCo',
          policy_number: 'P-1',
          coverage_amount: '1000000',
          effective_date: '2025-01-01',
          expiration_date: '2026-01-01',
        },
        {
          id: 'mal-cur',
          row_key: 'mal-cur',
          application_id: 'app-1',
          insurance_company: 'MedPro',
          policy_number: 'P-9',
          coverage_amount: '3000000',
          effective_date: '2026-01-01',
          expiration_date: '2027-01-01',
        },
      ],
      vaccinations: [],
      payors: [],
      cme: [],
      peerReferences: [],
      // Issue 31 (decision 028): the payload's rows; a specialty sends its linked certification.
      specialties: [
        {
          id: 'sp-1',
          row_key: 'sp-1',
          application_id: 'app-1',
          specialty_rank: 'primary',
          taxonomy_code: '207R00000X',
          classification: 'Internal Medicine',
          specialization: null,
          board_certification: {
            certification_name: 'Internal Medicine',
            certifying_body: 'ABIM',
            certification_number: 'C-1',
          },
        },
      ],
      hospitalAffiliations: [
        {
          id: 'hosp-1',
          row_key: 'hosp-1',
          application_id: 'app-1',
          privilege_status: 'active',
          facility_name: 'Mercy Hospital',
          city: 'Chicago',
          state: 'IL',
          department: 'Medicine',
          start_date: '2019-01-01',
          end_date: '2027-06-30',
          admitting_arrangement: null,
          arrangement_name: null,
        },
        {
          id: 'hosp-2',
          row_key: 'hosp-2',
          application_id: 'app-1',
          privilege_status: 'none',
          facility_name: null,
          city: null,
          state: null,
          department: null,
          start_date: null,
          end_date: null,
          admitting_arrangement: 'hospitalist_group',
          arrangement_name: 'Northside Hospitalists',
        },
      ],
      training: [
        {
          id: 'tr-1',
          row_key: 'tr-1',
          application_id: 'app-1',
          no_training: false,
          training_type: 'residency',
          program_name: 'Internal Medicine Residency',
          institution_name: 'County Clinic',
          specialty: 'Internal Medicine',
          start_date: '2012-07-01',
          end_date: '2015-06-30',
          completed: 'yes',
          not_completed_reason: null,
        },
      ],
      malpracticeClaims: [
        {
          id: 'cl-1',
          row_key: 'cl-1',
          application_id: 'app-1',
          no_claims: false,
          incident_date: '2021-02-01',
          claim_date: '2021-09-15',
          status: 'settled',
          amount_paid: 250000,
          insurer: 'MedPro',
          description: 'Delayed diagnosis',
        },
      ],
    },
    documents: [
      documentRow('doc-cv', 'cv_resume', 'cv.pdf', 'a1'.repeat(32)),
      documentRow('doc-lic', 'medical_license', 'license.pdf', 'b2'.repeat(32)),
      documentRow('doc-dea', 'dea_license', 'dea.pdf', 'c3'.repeat(32)),
      documentRow('doc-mal', 'malpractice_insurance', 'policy.pdf', 'd4'.repeat(32)),
      documentRow('doc-dip', 'diploma', 'diploma.pdf', 'e5'.repeat(32)),
      documentRow('doc-vax', 'vaccination_record', 'flu.pdf', 'f6'.repeat(32)),
    ],
  };
}

/** The snapshot's item of `kind` as the checklist generates it (the gap item is built by hand). */
function itemOf(snapshot: ApplicationSnapshot, kind: VerificationKind): CoveredItem {
  if (kind === 'work_history_gap') {
    // Stored before issue 29 item 7: `work_history_gap:<from>:<to>`, explanation on the later position.
    return { kind, itemKey: 'work_history_gap:2018-06-30:2019-01-01', rowKey: null };
  }
  const item = generateChecklist(snapshot, now).find((i) => i.kind === kind);
  if (!item) throw new Error(`no ${kind} item`);
  return item;
}

const row = (s: ApplicationSnapshot, list: string, rowKey: string) =>
  s.lists[list]!.find((r) => r.row_key === rowKey)!;
const doc = (s: ApplicationSnapshot, rowKey: string) => s.documents.find((d) => d.row_key === rowKey)!;

interface KindCase {
  kind: VerificationKind;
  /** What the item covers in `realisticSnapshot()` (every field, in the domain's order). */
  covered: Record<string, string>;
  /** One covered field changed, and the one change it must give. */
  changeCovered: (s: ApplicationSnapshot) => void;
  expected: { field: string; before: string; after: string };
  /** A field the item does not cover changed: no change. */
  changeUncovered: (s: ApplicationSnapshot) => void;
}

const cases: KindCase[] = [
  {
    kind: 'license',
    covered: {
      'License type': 'medical_license',
      'License number': 'MD-1',
      'Issuing state': 'IL',
      'Issue date': '2016-12-15',
      'Expiration date': '2026-12-15',
      'Documents: Medical License': `license.pdf (${'b2'.repeat(6)})`,
    },
    changeCovered: (s) => {
      row(s, 'licenses', 'lic-md').license_exp = '2028-12-15';
    },
    expected: { field: 'Expiration date', before: '2026-12-15', after: '2028-12-15' },
    changeUncovered: (s) => {
      row(s, 'licenses', 'lic-md').status = 'inactive';
      row(s, 'licenses', 'lic-dea').license_exp = '2030-01-31';
    },
  },
  {
    kind: 'dea',
    covered: {
      'DEA number': 'AB1234563',
      'DEA license number': 'DEA-9',
      'DEA license state': 'IL',
      'DEA license expiration date': '2027-01-31',
      'Documents: DEA License': `dea.pdf (${'c3'.repeat(6)})`,
    },
    changeCovered: (s) => {
      row(s, 'licenses', 'lic-dea').license_exp = '2030-01-31';
    },
    expected: { field: 'DEA license expiration date', before: '2027-01-31', after: '2030-01-31' },
    changeUncovered: (s) => {
      row(s, 'licenses', 'lic-md').license_exp = '2028-12-15';
      s.personalInformation.caqh_id = '87654321';
    },
  },
  {
    kind: 'npi',
    covered: { NPI: '1234567893', 'First name': 'Ada', 'Last name': 'Okafor' },
    changeCovered: (s) => {
      s.personalInformation.npi_number = '1245319599';
    },
    expected: { field: 'NPI', before: '1234567893', after: '1245319599' },
    changeUncovered: (s) => {
      s.personalInformation.dea_number = 'AB7654321';
      s.profile!.email = 'ada.okafor@example.com';
    },
  },
  {
    kind: 'board_certification',
    covered: {
      'Certification name': 'Internal Medicine',
      'Certifying body': 'ABIM',
      'Certification number': 'C-1',
      'Issue date': '2015-07-01',
      'Expiration date': '2027-12-31',
      'Primary specialty': 'Internal Medicine (207R00000X)',
    },
    changeCovered: (s) => {
      row(s, 'certifications', 'cert-1').cert_exp_date = '2037-12-31';
    },
    expected: { field: 'Expiration date', before: '2027-12-31', after: '2037-12-31' },
    changeUncovered: (s) => {
      // A certification carries no document type of its own: a new CV is not its change.
      doc(s, 'doc-cv').sha256 = '99'.repeat(32);
    },
  },
  {
    kind: 'education',
    covered: {
      Institution: 'Medical School',
      Degree: 'doctorate',
      'Field of study': 'Medicine',
      'Graduation date': '2009-05-15',
      'Documents: Diploma': `diploma.pdf (${'e5'.repeat(6)})`,
      'Documents: Transcript': '',
    },
    changeCovered: (s) => {
      row(s, 'education', 'edu-2').graduation_date = '2009-06-01';
    },
    expected: { field: 'Graduation date', before: '2009-05-15', after: '2009-06-01' },
    changeUncovered: (s) => {
      row(s, 'education', 'edu-2').gpa = '4.0';
      row(s, 'education', 'edu-1').graduation_date = '2004-06-01';
    },
  },
  {
    kind: 'work_history',
    covered: {
      Positions:
        'Resident at County Clinic 2012-07-01 – 2018-06-30; Attending at Mercy Hospital 2019-01-01 – present',
      'Gap explanations': 'before 2019-01-01: Parental leave',
      'Documents: CV / Resume': `cv.pdf (${'a1'.repeat(6)})`,
    },
    changeCovered: (s) => {
      row(s, 'workHistory', 'wh-1').end_date = '2018-07-31';
    },
    expected: {
      field: 'Positions',
      before:
        'Resident at County Clinic 2012-07-01 – 2018-06-30; Attending at Mercy Hospital 2019-01-01 – present',
      after:
        'Resident at County Clinic 2012-07-01 – 2018-07-31; Attending at Mercy Hospital 2019-01-01 – present',
    },
    changeUncovered: (s) => {
      row(s, 'workHistory', 'wh-2').supervisor_name = 'Dr. Kim';
      row(s, 'workHistory', 'wh-1').responsibilities = 'Residency and research';
    },
  },
  {
    kind: 'work_history_gap',
    covered: { Gap: '2018-06-30 to 2019-01-01', Explanation: 'Parental leave' },
    changeCovered: (s) => {
      row(s, 'workHistory', 'wh-2').gap_explanation = 'Parental leave, then relocation';
    },
    expected: { field: 'Explanation', before: 'Parental leave', after: 'Parental leave, then relocation' },
    changeUncovered: (s) => {
      row(s, 'workHistory', 'wh-2').position_title = 'Senior Attending';
    },
  },
  {
    kind: 'malpractice',
    covered: {
      'Insurance company': 'MedPro',
      'Policy number': 'P-9',
      'Coverage amount': '3000000',
      'Effective date': '2026-01-01',
      'Expiration date': '2027-01-01',
      'Documents: Malpractice Insurance': `policy.pdf (${'d4'.repeat(6)})`,
    },
    changeCovered: (s) => {
      row(s, 'malpracticeInsurance', 'mal-cur').coverage_amount = '5000000';
    },
    expected: { field: 'Coverage amount', before: '3000000', after: '5000000' },
    changeUncovered: (s) => {
      // The expired policy is not what was verified.
      row(s, 'malpracticeInsurance', 'mal-old').policy_number = 'P-1A';
    },
  },
  {
    kind: 'exclusions',
    covered: { 'First name': 'Ada', 'Last name': 'Okafor', NPI: '1234567893', 'Date of birth': '1980-04-02' },
    changeCovered: (s) => {
      s.profile!.last_name = 'Okafor-Smith';
    },
    expected: { field: 'Last name', before: 'Okafor', after: 'Okafor-Smith' },
    changeUncovered: (s) => {
      s.personalInformation.city = 'Evanston';
      doc(s, 'doc-lic').sha256 = '99'.repeat(32);
    },
  },
  {
    kind: 'training',
    covered: {
      'Training type': 'residency',
      Program: 'Internal Medicine Residency',
      Institution: 'County Clinic',
      Specialty: 'Internal Medicine',
      'Start date': '2012-07-01',
      'End date': '2015-06-30',
      Completed: 'yes',
    },
    changeCovered: (s) => {
      row(s, 'training', 'tr-1').end_date = '2015-07-31';
    },
    expected: { field: 'End date', before: '2015-06-30', after: '2015-07-31' },
    changeUncovered: (s) => {
      row(s, 'training', 'tr-1').not_completed_reason = 'n/a';
      row(s, 'education', 'edu-2').graduation_date = '2009-06-01';
    },
  },
  {
    kind: 'hospital_privileges',
    covered: {
      Facility: 'Mercy Hospital',
      City: 'Chicago',
      State: 'IL',
      Department: 'Medicine',
      'Privilege status': 'active',
      'Start date': '2019-01-01',
      'End date': '2027-06-30',
    },
    changeCovered: (s) => {
      row(s, 'hospitalAffiliations', 'hosp-1').end_date = '2029-06-30';
    },
    expected: { field: 'End date', before: '2027-06-30', after: '2029-06-30' },
    changeUncovered: (s) => {
      // The other affiliation is another item's.
      row(s, 'hospitalAffiliations', 'hosp-2').arrangement_name = 'Southside Hospitalists';
    },
  },
  {
    kind: 'admitting_arrangement',
    covered: {
      'Privilege status': 'none',
      'Admitting arrangement': 'hospitalist_group',
      'Covering physician or group': 'Northside Hospitalists',
    },
    changeCovered: (s) => {
      row(s, 'hospitalAffiliations', 'hosp-2').arrangement_name = 'Southside Hospitalists';
    },
    expected: {
      field: 'Covering physician or group',
      before: 'Northside Hospitalists',
      after: 'Southside Hospitalists',
    },
    changeUncovered: (s) => {
      row(s, 'hospitalAffiliations', 'hosp-1').end_date = '2029-06-30';
    },
  },
  {
    kind: 'claims_history',
    covered: { Claims: '2021-09-15 settled $250,000.00 MedPro' },
    changeCovered: (s) => {
      row(s, 'malpracticeClaims', 'cl-1').amount_paid = 300000;
    },
    expected: {
      field: 'Claims',
      before: '2021-09-15 settled $250,000.00 MedPro',
      after: '2021-09-15 settled $300,000.00 MedPro',
    },
    changeUncovered: (s) => {
      row(s, 'malpracticeClaims', 'cl-1').description = 'Delayed diagnosis, settled in mediation';
    },
  },
];

describe('verificationCoverage', () => {
  it('has a case below for every item kind', () => {
    expect(cases.map((c) => c.kind).sort()).toEqual(Object.keys(verificationCoverage).sort());
  });
});

describe.each(cases)('a $kind item', ({ kind, covered, changeCovered, expected, changeUncovered }) => {
  it('covers exactly its fields and evidencing documents', () => {
    const snapshot = realisticSnapshot();
    const values = coveredValues(itemOf(snapshot, kind), snapshot, now);
    expect(values).toEqual(covered);
    // The fields a person reads come in the domain's order, before the documents.
    expect(Object.keys(values!).slice(0, verificationCoverage[kind].fields.length)).toEqual(
      verificationCoverage[kind].fields,
    );
  });

  it('changes in exactly the covered field that changed', () => {
    const verifiedOn = realisticSnapshot();
    const item = itemOf(verifiedOn, kind);
    const verified = coveredValues(item, verifiedOn, now)!;
    const next = realisticSnapshot();
    changeCovered(next);
    expect(changedFields(verified, coveredValues(item, next, now))).toEqual([expected]);
  });

  it('does not change when only fields it does not cover change', () => {
    const verifiedOn = realisticSnapshot();
    const item = itemOf(verifiedOn, kind);
    const verified = coveredValues(item, verifiedOn, now)!;
    const next = realisticSnapshot();
    changeUncovered(next);
    expect(next).not.toEqual(verifiedOn);
    expect(changedFields(verified, coveredValues(item, next, now))).toEqual([]);
  });
});

describe('documents evidencing an item', () => {
  it.each([
    ['license', 'doc-lic', 'Documents: Medical License', 'license.pdf'],
    ['dea', 'doc-dea', 'Documents: DEA License', 'dea.pdf'],
    ['education', 'doc-dip', 'Documents: Diploma', 'diploma.pdf'],
    ['work_history', 'doc-cv', 'Documents: CV / Resume', 'cv.pdf'],
    ['malpractice', 'doc-mal', 'Documents: Malpractice Insurance', 'policy.pdf'],
  ] as const)('a replaced %s file (same name, new bytes) is a change', (kind, docKey, field, filename) => {
    const verifiedOn = realisticSnapshot();
    const item = itemOf(verifiedOn, kind);
    const verified = coveredValues(item, verifiedOn, now)!;
    const next = realisticSnapshot();
    const before = doc(next, docKey).sha256 as string;
    doc(next, docKey).sha256 = '0f'.repeat(32);
    expect(changedFields(verified, coveredValues(item, next, now))).toEqual([
      { field, before: `${filename} (${before.slice(0, 12)})`, after: `${filename} (${'0f'.repeat(6)})` },
    ]);
  });

  it('an added transcript is a change of the education item; a vaccination record changes nothing', () => {
    const verifiedOn = realisticSnapshot();
    const item = itemOf(verifiedOn, 'education');
    const verified = coveredValues(item, verifiedOn, now)!;
    const next = realisticSnapshot();
    next.documents.push(documentRow('doc-tr', 'transcript', 'transcript.pdf', '77'.repeat(32)));
    next.documents.push(documentRow('doc-vax2', 'vaccination_record', 'covid.pdf', '88'.repeat(32)));
    expect(changedFields(verified, coveredValues(item, next, now))).toEqual([
      { field: 'Documents: Transcript', before: '', after: `transcript.pdf (${'77'.repeat(6)})` },
    ]);
  });

  it('the order of the document list is no change', () => {
    const verifiedOn = realisticSnapshot();
    const item = itemOf(verifiedOn, 'license');
    const verified = coveredValues(item, verifiedOn, now)!;
    const next = realisticSnapshot();
    next.documents.push(documentRow('doc-lic2', 'medical_license', 'license-back.pdf', '12'.repeat(32)));
    const reordered = { ...next, documents: [...next.documents].reverse() };
    expect(coveredValues(item, reordered, now)).toEqual(coveredValues(item, next, now));
    expect(changedFields(verified, coveredValues(item, reordered, now))).toHaveLength(1);
  });
});

describe('a removed row', () => {
  it.each([
    ['license', (s: ApplicationSnapshot) => s.lists.licenses!.splice(0, 1)],
    ['board_certification', (s: ApplicationSnapshot) => s.lists.certifications!.splice(0, 1)],
    ['education', (s: ApplicationSnapshot) => s.lists.education!.splice(1, 1)],
    [
      'dea',
      (s: ApplicationSnapshot) => {
        s.personalInformation.dea_number = '';
        s.lists.licenses!.splice(1, 1);
      },
    ],
  ] as const)('of a %s item reads as removed', (kind, remove) => {
    const verifiedOn = realisticSnapshot();
    const item = itemOf(verifiedOn, kind);
    const verified = coveredValues(item, verifiedOn, now)!;
    const next = realisticSnapshot();
    remove(next);
    expect(coveredValues(item, next, now)).toBeNull();
    const changes = changedFields(verified, coveredValues(item, next, now));
    expect(changes).toEqual([{ field: 'Entry', before: 'on the application', after: 'removed' }]);
    expect(changes.map(changeText)).toEqual(['Entry on the application → removed']);
  });

  it('a license keeps its item when its number changes, found by its row key', () => {
    const verifiedOn = realisticSnapshot();
    const item = itemOf(verifiedOn, 'license');
    const verified = coveredValues(item, verifiedOn, now)!;
    const next = realisticSnapshot();
    row(next, 'licenses', 'lic-md').license_number = 'MD-2';
    expect(changedFields(verified, coveredValues(item, next, now))).toEqual([
      { field: 'License number', before: 'MD-1', after: 'MD-2' },
    ]);
  });
});

describe('the items of issue 31', () => {
  it('the primary specialty names its certification: unlinking it is a change of that certification', () => {
    const verifiedOn = realisticSnapshot();
    const item = itemOf(verifiedOn, 'board_certification');
    const verified = coveredValues(item, verifiedOn, now)!;
    const next = realisticSnapshot();
    row(next, 'specialties', 'sp-1').board_certification = null;
    expect(changedFields(verified, coveredValues(item, next, now))).toEqual([
      { field: 'Primary specialty', before: 'Internal Medicine (207R00000X)', after: '' },
    ]);
    // A secondary specialty names no certification.
    const secondary = realisticSnapshot();
    row(secondary, 'specialties', 'sp-1').specialty_rank = 'secondary';
    expect(coveredValues(item, secondary, now)?.['Primary specialty']).toBe('');
  });

  it('an affiliation that gives up its privileges for an arrangement changes its item', () => {
    const verifiedOn = realisticSnapshot();
    const item = itemOf(verifiedOn, 'hospital_privileges');
    const verified = coveredValues(item, verifiedOn, now)!;
    const next = realisticSnapshot();
    Object.assign(row(next, 'hospitalAffiliations', 'hosp-1'), {
      privilege_status: 'none',
      facility_name: null,
      admitting_arrangement: 'covering_physician',
      arrangement_name: 'Dr. Lee',
    });
    // The same row, now an arrangement: the stored item takes the new kind and the same key.
    const regenerated = generateChecklist(next, now).find((i) => i.rowKey === 'hosp-1')!;
    expect(regenerated).toMatchObject({ kind: 'admitting_arrangement', itemKey: item.itemKey });
    const changes = changedFields(verified, coveredValues({ ...item, kind: regenerated.kind }, next, now));
    expect(changes.map((c) => c.field)).toContain('Privilege status');
    expect(changes.map((c) => c.field)).toContain('Facility');
  });

  it('a removed training row, affiliation or claims history reads as removed', () => {
    for (const [kind, list] of [
      ['training', 'training'],
      ['hospital_privileges', 'hospitalAffiliations'],
      ['claims_history', 'malpracticeClaims'],
    ] as const) {
      const verifiedOn = realisticSnapshot();
      const item = itemOf(verifiedOn, kind);
      const next = realisticSnapshot();
      next.lists[list] = kind === 'hospital_privileges' ? next.lists[list]!.slice(1) : [];
      expect(coveredValues(item, next, now)).toBeNull();
    }
  });

  it('the claims history is the list of claims, whatever their order, or the none answer', () => {
    const verifiedOn = realisticSnapshot();
    const item = itemOf(verifiedOn, 'claims_history');
    const next = realisticSnapshot();
    next.lists.malpracticeClaims!.unshift({
      id: 'cl-0',
      row_key: 'cl-0',
      no_claims: false,
      incident_date: '2019-05-01',
      claim_date: null,
      status: 'dismissed',
      amount_paid: null,
      insurer: null,
      description: null,
    });
    expect(coveredValues(item, next, now)).toEqual({
      Claims: '2019-05-01 dismissed; 2021-09-15 settled $250,000.00 MedPro',
    });
    next.lists.malpracticeClaims = [{ id: 'cl-n', row_key: 'cl-n', no_claims: true }];
    expect(coveredValues(item, next, now)).toEqual({ Claims: 'No claims in the last 10 years' });
  });
});

describe('now and the current malpractice policy', () => {
  it('is the policy in force on the given day', () => {
    const snapshot = realisticSnapshot();
    const unbound = { kind: 'malpractice' as const, itemKey: 'malpractice', rowKey: null };
    expect(coveredValues(unbound, snapshot, now)?.['Policy number']).toBe('P-9');
    expect(coveredValues(unbound, snapshot, new Date('2025-06-01T12:00:00Z'))?.['Policy number']).toBe('P-1');
    // No policy in force: every field empty, the documents still covered.
    const lapsed = coveredValues(unbound, snapshot, new Date('2027-02-01T12:00:00Z'))!;
    expect(lapsed['Policy number']).toBe('');
    expect(lapsed['Documents: Malpractice Insurance']).toBe(`policy.pdf (${'d4'.repeat(6)})`);
  });

  it('a policy that ran out since the verification is a change of every field', () => {
    const snapshot = realisticSnapshot();
    const unbound = { kind: 'malpractice' as const, itemKey: 'malpractice', rowKey: null };
    const verified = coveredValues(unbound, snapshot, now)!;
    const changes = changedFields(
      verified,
      coveredValues(unbound, snapshot, new Date('2027-02-01T12:00:00Z')),
    );
    expect(changes.map((c) => c.field)).toEqual([
      'Insurance company',
      'Policy number',
      'Coverage amount',
      'Effective date',
      'Expiration date',
    ]);
    expect(changes.map(changeText)[0]).toBe('Insurance company MedPro → (none)');
  });

  it("follows the version's date, not the row an item stored before issue 51 was bound to", () => {
    // Issue 51 item 3 replaced issue 29's rule ("an item bound to its row keeps that row whatever the
    // date"): the item is the coverage in force, recomputed from each version, so it has no row.
    const snapshot = realisticSnapshot();
    expect(itemOf(snapshot, 'malpractice').rowKey).toBeNull();
    const storedBefore = { kind: 'malpractice' as const, itemKey: 'malpractice', rowKey: 'mal-cur' };
    expect(coveredValues(storedBefore, snapshot, now)?.['Policy number']).toBe('P-9');
    expect(coveredValues(storedBefore, snapshot, new Date('2025-06-01T12:00:00Z'))?.['Policy number']).toBe(
      'P-1',
    );
  });

  it('covers the renewal not yet in force, so replacing the policy in force is a change', () => {
    // Issue 51 item 3: a credential update replaced the policy in force with a renewal starting
    // 2027-01-01; the item covers the renewal (its start date included) and says it has not started.
    const snapshot = realisticSnapshot();
    const item = itemOf(snapshot, 'malpractice');
    const verified = coveredValues(item, snapshot, now)!;
    Object.assign(row(snapshot, 'malpracticeInsurance', 'mal-cur'), {
      policy_number: 'P-10',
      effective_date: '2027-01-01',
      expiration_date: '2028-01-01',
    });
    expect(changedFields(verified, coveredValues(item, snapshot, now)).map(changeText)).toEqual([
      'Policy number P-9 → P-10',
      'Effective date 2026-01-01 → 2027-01-01',
      'Expiration date 2027-01-01 → 2028-01-01',
    ]);
    expect(generateChecklist(snapshot, now).find((i) => i.kind === 'malpractice')?.target).toBe(
      'Current malpractice coverage: none in force; MedPro P-10 starts 2027-01-01',
    );
  });

  it('a policy re-added after "none current on file" is what the item covers and names', () => {
    // Issue 51 item 3: the recredentialing's item read 'none current on file'; the provider re-added
    // the current policy in a response and the item still said so.
    const snapshot = realisticSnapshot();
    const policies = snapshot.lists.malpracticeInsurance!;
    snapshot.lists.malpracticeInsurance = [policies[0]!];
    const none = generateChecklist(snapshot, now).find((i) => i.kind === 'malpractice')!;
    expect(none.target).toBe('Current malpractice coverage: none current on file');
    const verified = coveredValues(none, snapshot, now)!;
    snapshot.lists.malpracticeInsurance = policies;
    expect(coveredValues(none, snapshot, now)?.['Policy number']).toBe('P-9');
    expect(changedFields(verified, coveredValues(none, snapshot, now)).map((c) => c.field)).toContain(
      'Policy number',
    );
    expect(generateChecklist(snapshot, now).find((i) => i.kind === 'malpractice')?.target).toBe(
      'Current malpractice coverage: MedPro P-9',
    );
  });
});

describe('every row a decision covers is covered by exactly one item (issue 51 item 3)', () => {
  /** The items of `snapshot` whose covered values change when `change` is applied to a copy. */
  function itemsChangedBy(snapshot: ApplicationSnapshot, change: (s: ApplicationSnapshot) => void) {
    const after = structuredClone(snapshot);
    change(after);
    return generateChecklist(snapshot, now).filter(
      (item) =>
        changedFields(coveredValues(item, snapshot, now)!, coveredValues(item, after, now)).length > 0,
    );
  }

  it("a renewed license added as a second card joins the first card's item", () => {
    const snapshot = realisticSnapshot();
    const first = row(snapshot, 'licenses', 'lic-md');
    const item = itemOf(snapshot, 'license');
    const verified = coveredValues(item, snapshot, now)!;
    // The provider adds the renewal as a second card: same type, number and state, a new expiry.
    snapshot.lists.licenses!.push({
      ...first,
      id: 'lic-md-2',
      row_key: 'lic-md-2',
      license_issue: '2026-12-01',
      license_exp: '2028-12-15',
    });
    const licenseItems = generateChecklist(snapshot, now).filter((i) => i.kind === 'license');
    expect(licenseItems.filter((i) => i.itemKey === item.itemKey)).toHaveLength(1);
    expect(licenseItems.find((i) => i.itemKey === item.itemKey)?.target).toMatch(/ \(2 cards\)$/);
    // The verification of the first card does not cover the second: it needs re-verification.
    expect(changedFields(verified, coveredValues(item, snapshot, now)).map(changeText)).toEqual([
      'Card 2: Issue date (none) → 2026-12-01',
      'Card 2: Expiration date (none) → 2028-12-15',
    ]);
    // A change of either card is a change of that one item, and of no other.
    for (const rowKey of ['lic-md', 'lic-md-2']) {
      const changed = itemsChangedBy(snapshot, (s) => {
        row(s, 'licenses', rowKey).license_exp = '2031-01-31';
      });
      expect(changed.map((i) => i.itemKey)).toEqual([item.itemKey]);
    }
  });

  it('a board certification entered twice is one item covering both cards', () => {
    const snapshot = realisticSnapshot();
    const board = snapshot.lists.certifications!.find(isBoardCertificationRow)!;
    const item = generateChecklist(snapshot, now).find((i) => i.kind === 'board_certification')!;
    snapshot.lists.certifications!.push({
      ...board,
      id: 'cert-2',
      row_key: 'cert-2',
      cert_exp_date: '2036-01-01',
    });
    const items = generateChecklist(snapshot, now).filter((i) => i.kind === 'board_certification');
    expect(items.filter((i) => i.itemKey === item.itemKey)).toHaveLength(1);
    for (const rowKey of [rowIdentity(board), 'cert-2']) {
      const changed = itemsChangedBy(snapshot, (s) => {
        row(s, 'certifications', rowKey).cert_exp_date = '2040-01-01';
      });
      expect(changed.map((i) => i.itemKey)).toEqual([item.itemKey]);
    }
  });
});

describe('changedFields', () => {
  it('lists a field new in the current values only when it has a value', () => {
    expect(changedFields({ A: '1' }, { A: '1', B: '' })).toEqual([]);
    expect(changedFields({ A: '1' }, { A: '1', B: 'x' })).toEqual([{ field: 'B', before: '', after: 'x' }]);
  });

  it('reads a field missing from the current values as emptied', () => {
    expect(changedFields({ A: '1', B: '2' }, { A: '1' })).toEqual([{ field: 'B', before: '2', after: '' }]);
  });

  it('is read as the issue quotes it', () => {
    const snapshot = realisticSnapshot();
    const item = itemOf(snapshot, 'license');
    const verified = coveredValues(item, snapshot, now)!;
    row(snapshot, 'licenses', 'lic-md').license_exp = '2028-12-15';
    expect(changedFields(verified, coveredValues(item, snapshot, now)).map(changeText)).toEqual([
      'Expiration date 2026-12-15 → 2028-12-15',
    ]);
  });
});
