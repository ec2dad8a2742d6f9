/**
 * The five sections of issue 31 (decision 028): their row schemas (required fields, conditional
 * rules, the none answer row), their rules over all rows, their summaries, and the committee review
 * rule of a paid claim with the date driven by the caller.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { hospitalAffiliationSchema, hospitalAffiliationsSection } from './hospital-affiliations.ts';
import {
  CLAIM_AMOUNT_MAX,
  formatUsd,
  malpracticeClaimSchema,
  malpracticeClaimsSection,
  paidClaimInLastFiveYears,
} from './malpractice-claims.ts';
import {
  GROUP_NPI_INVALID,
  ONE_PRIMARY_LOCATION,
  practiceLocationSchema,
  practiceLocationsRowsIssue,
} from './practice-locations.ts';
import {
  ONE_PRIMARY_SPECIALTY,
  PRIMARY_SPECIALTY_REQUIRED,
  specialtiesRowsIssue,
  specialtiesSection,
  specialtyName,
  specialtySchema,
} from './specialties.ts';
import { trainingSchema, trainingSection } from './training.ts';

/** The messages of a failed parse, by field path. */
function messagesOf(schema: z.ZodType, input: unknown): Record<string, string> {
  const result = schema.safeParse(input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

describe('Specialties', () => {
  it('requires a NUCC-shaped code, upper-cases it, and defaults the rank to primary', () => {
    expect(messagesOf(specialtySchema, {})).toEqual({ taxonomyCode: 'Choose a specialty from the list' });
    expect(messagesOf(specialtySchema, { taxonomyCode: '  ' })).toEqual({
      taxonomyCode: 'Choose a specialty from the list',
    });
    // Nine characters, or not ending in X: not a taxonomy code.
    for (const code of ['207RC0000', '207RC00001', 'Cardiology']) {
      expect(messagesOf(specialtySchema, { taxonomyCode: code })).toEqual({
        taxonomyCode: 'Choose a specialty from the list',
      });
    }
    expect(specialtySchema.parse({ taxonomyCode: ' 207rc0000x ' })).toEqual({
      specialtyRank: 'primary',
      taxonomyCode: '207RC0000X',
      classification: null,
      specialization: null,
      boardCertificationId: null,
    });
    expect(messagesOf(specialtySchema, { taxonomyCode: '207R00000X', specialtyRank: 'tertiary' })).toEqual({
      specialtyRank: 'Choose primary or secondary',
    });
  });

  it('links a board certification by row id, or none', () => {
    const id = '3f2b8c1e-2a4d-4c6b-9e8f-0a1b2c3d4e5f';
    expect(
      specialtySchema.parse({ taxonomyCode: '207R00000X', boardCertificationId: id }).boardCertificationId,
    ).toBe(id);
    expect(
      specialtySchema.parse({ taxonomyCode: '207R00000X', boardCertificationId: '' }).boardCertificationId,
    ).toBeNull();
    expect(messagesOf(specialtySchema, { taxonomyCode: '207R00000X', boardCertificationId: 'ABIM' })).toEqual(
      {
        boardCertificationId: 'Choose a certification from the list',
      },
    );
  });

  it('requires exactly one primary specialty when any are listed (issue 51 item 4; a missing rank counts as primary)', () => {
    // None listed: nothing to mark (the section is simply incomplete).
    expect(specialtiesRowsIssue([])).toBeNull();
    // One primary, with or without secondaries.
    expect(specialtiesRowsIssue([{ specialtyRank: 'primary' }])).toBeNull();
    expect(specialtiesRowsIssue([{ specialtyRank: 'secondary' }, { specialtyRank: 'primary' }])).toBeNull();
    expect(specialtiesRowsIssue([{ specialtyRank: 'secondary' }, {}])).toBeNull();
    // Two primaries: the issue is on the second.
    expect(specialtiesRowsIssue([{ specialtyRank: 'secondary' }, { specialtyRank: 'primary' }, {}])).toEqual({
      message: ONE_PRIMARY_SPECIALTY,
      index: 2,
      field: 'specialtyRank',
    });
    // Rows, none primary: the issue is on the first.
    expect(specialtiesRowsIssue([{ specialtyRank: 'secondary' }])).toEqual({
      message: PRIMARY_SPECIALTY_REQUIRED,
      index: 0,
      field: 'specialtyRank',
    });
    expect(specialtiesRowsIssue([{ specialtyRank: 'secondary' }, { specialtyRank: 'secondary' }])).toEqual({
      message: PRIMARY_SPECIALTY_REQUIRED,
      index: 0,
      field: 'specialtyRank',
    });
    expect(specialtiesSection.rowsRule).toBe(specialtiesRowsIssue);
    expect(ONE_PRIMARY_SPECIALTY).toBe('Only one specialty can be primary. Make the others secondary.');
    expect(PRIMARY_SPECIALTY_REQUIRED).toBe('Mark exactly one specialty as primary.');
  });

  it('names a specialty by its code set names and code', () => {
    const cardiology = {
      taxonomyCode: '207RC0000X',
      classification: 'Internal Medicine',
      specialization: 'Cardiovascular Disease',
    };
    expect(specialtyName(cardiology)).toBe('Internal Medicine, Cardiovascular Disease (207RC0000X)');
    expect(specialtyName({ ...cardiology, specialization: null })).toBe('Internal Medicine (207RC0000X)');
    expect(specialtyName({ taxonomyCode: '207RC0000X', classification: null, specialization: null })).toBe(
      '207RC0000X',
    );
    expect(
      specialtiesSection.summarize(specialtySchema.parse({ ...cardiology, specialtyRank: 'secondary' })),
    ).toBe('Secondary · Internal Medicine, Cardiovascular Disease (207RC0000X)');
  });
});

describe('Practice Locations', () => {
  it('requires the practice name and checks the group NPI check digit', () => {
    expect(messagesOf(practiceLocationSchema, {})).toEqual({ practiceName: 'Practice name is required' });
    const base = { practiceName: 'Lakeside Family Practice' };
    expect(practiceLocationSchema.parse({ ...base, groupNpi: '1987654328' }).groupNpi).toBe('1987654328');
    expect(practiceLocationSchema.parse({ ...base, groupNpi: '' }).groupNpi).toBeNull();
    for (const npi of ['1987654320', '198765432', 'ABCDEFGHIJ']) {
      expect(messagesOf(practiceLocationSchema, { ...base, groupNpi: npi })).toEqual({
        groupNpi: GROUP_NPI_INVALID,
      });
    }
    expect(messagesOf(practiceLocationSchema, { ...base, email: 'desk@' })).toEqual({
      email: 'Enter a valid email address',
    });
    expect(messagesOf(practiceLocationSchema, { ...base, acceptingNewPatients: 'maybe' })).toEqual({
      acceptingNewPatients: 'Choose an answer from the list',
    });
    expect(practiceLocationSchema.parse(base)).toMatchObject({
      isPrimaryLocation: false,
      acceptingNewPatients: null,
    });
  });

  it('allows one primary location and points at the second', () => {
    expect(
      practiceLocationsRowsIssue([{ isPrimaryLocation: true }, { isPrimaryLocation: false }]),
    ).toBeNull();
    expect(
      practiceLocationsRowsIssue([{ isPrimaryLocation: true }, {}, { isPrimaryLocation: true }]),
    ).toEqual({ message: ONE_PRIMARY_LOCATION, index: 2, field: 'isPrimaryLocation' });
  });
});

describe('Hospital Affiliations', () => {
  it('with privileges requires the facility; with none, the admitting arrangement and its name', () => {
    expect(messagesOf(hospitalAffiliationSchema, {})).toEqual({ facilityName: 'Facility name is required' });
    expect(messagesOf(hospitalAffiliationSchema, { privilegeStatus: 'provisional' })).toEqual({
      facilityName: 'Facility name is required',
    });
    expect(messagesOf(hospitalAffiliationSchema, { privilegeStatus: 'none' })).toEqual({
      admittingArrangement: 'Without admitting privileges, choose who admits your patients',
      arrangementName: 'Name the covering physician or hospitalist group',
    });
    expect(
      messagesOf(hospitalAffiliationSchema, {
        privilegeStatus: 'none',
        admittingArrangement: 'hospitalist_group',
      }),
    ).toEqual({ arrangementName: 'Name the covering physician or hospitalist group' });
    const none = hospitalAffiliationSchema.parse({
      privilegeStatus: 'none',
      admittingArrangement: 'covering_physician',
      arrangementName: 'Dr. Ana Ruiz',
    });
    expect(none).toMatchObject({ privilegeStatus: 'none', facilityName: null });
    expect(hospitalAffiliationsSection.summarize(none)).toBe(
      'No admitting privileges · Covering physician · Dr. Ana Ruiz',
    );
  });

  it('refuses an end date before the start date and an unknown status', () => {
    const base = { facilityName: 'Rush University Medical Center' };
    expect(
      messagesOf(hospitalAffiliationSchema, { ...base, startDate: '2020-01-01', endDate: '2019-12-31' }),
    ).toEqual({ endDate: 'The end date is before the start date' });
    expect(
      hospitalAffiliationSchema.parse({ ...base, startDate: '2020-01-01', endDate: '2020-01-01' }).endDate,
    ).toBe('2020-01-01');
    expect(messagesOf(hospitalAffiliationSchema, { ...base, privilegeStatus: 'revoked' })).toEqual({
      privilegeStatus: 'Choose a privilege status from the list',
    });
    expect(
      hospitalAffiliationsSection.summarize(
        hospitalAffiliationSchema.parse({ ...base, city: 'Chicago', state: 'IL', endDate: '2027-06-30' }),
      ),
    ).toBe('Rush University Medical Center · Chicago, IL · Active · ends 2027-06-30');
  });
});

describe('Training', () => {
  const residency = { trainingType: 'residency', institutionName: 'Cook County Hospital' };

  it('requires the type and the institution or program name', () => {
    expect(messagesOf(trainingSchema, {})).toEqual({
      trainingType: 'Choose internship, residency or fellowship',
      institutionName: 'Enter the institution or the program name',
    });
    expect(
      trainingSchema.safeParse({ trainingType: 'fellowship', programName: 'Cardiology Fellowship' }).success,
    ).toBe(true);
    expect(messagesOf(trainingSchema, { ...residency, trainingType: 'externship' })).toEqual({
      trainingType: 'Choose internship, residency or fellowship',
    });
  });

  it("needs the reason when not completed ('completed: no')", () => {
    expect(messagesOf(trainingSchema, { ...residency, completed: 'no' })).toEqual({
      notCompletedReason: 'Explain why the program was not completed',
    });
    expect(messagesOf(trainingSchema, { ...residency, completed: 'no', notCompletedReason: '   ' })).toEqual({
      notCompletedReason: 'Explain why the program was not completed',
    });
    expect(
      trainingSchema.safeParse({ ...residency, completed: 'no', notCompletedReason: 'Moved abroad.' })
        .success,
    ).toBe(true);
    expect(trainingSchema.safeParse({ ...residency, completed: 'yes' }).success).toBe(true);
    expect(
      messagesOf(trainingSchema, { ...residency, startDate: '2015-07-01', endDate: '2014-06-30' }),
    ).toEqual({
      endDate: 'The end date is before the start date',
    });
  });

  it("gives 'No internship, residency or fellowship' as a row of its own, refusing any other field", () => {
    const answer = trainingSchema.parse({ noTraining: true });
    expect(answer).toMatchObject({
      noTraining: true,
      trainingType: null,
      institutionName: null,
      completed: null,
    });
    expect(trainingSection.summarize(answer)).toBe('No internship, residency or fellowship');
    expect(messagesOf(trainingSchema, { noTraining: true, ...residency })).toEqual({
      trainingType: "Clear this field, or clear 'No internship, residency or fellowship'",
      institutionName: "Clear this field, or clear 'No internship, residency or fellowship'",
    });
    // Blank values are empty, not filled in.
    expect(trainingSchema.safeParse({ noTraining: true, programName: '  ', completed: '' }).success).toBe(
      true,
    );
    // The answer is the section's only row.
    const rule = trainingSection.rowsRule!;
    expect(rule([{ noTraining: true }])).toBeNull();
    expect(rule([{ noTraining: false }, { noTraining: false }])).toBeNull();
    expect(rule([{ noTraining: false }, { noTraining: true }])).toEqual({
      message:
        "'No internship, residency or fellowship' cannot be saved together with training programs. Remove the training programs, or clear 'No internship, residency or fellowship'.",
      index: 1,
      field: 'noTraining',
    });
  });
});

describe('Malpractice Claims', () => {
  const claim = { status: 'settled', claimDate: '2020-02-17' };

  it('requires a status and a date (claim or incident), the claim not before the incident', () => {
    expect(messagesOf(malpracticeClaimSchema, {})).toEqual({
      status: 'Choose a claim status from the list',
      claimDate: 'Enter the claim date or the incident date',
    });
    expect(malpracticeClaimSchema.safeParse({ status: 'open', incidentDate: '2024-05-02' }).success).toBe(
      true,
    );
    expect(messagesOf(malpracticeClaimSchema, { status: 'pending', claimDate: '2020-02-17' })).toEqual({
      status: 'Choose a claim status from the list',
    });
    expect(messagesOf(malpracticeClaimSchema, { ...claim, incidentDate: '2020-02-18' })).toEqual({
      claimDate: 'The claim date is before the incident date',
    });
  });

  it('takes the amount paid in dollars and cents, from 0 to the bound, as a number', () => {
    const amount = (value: unknown) => malpracticeClaimSchema.safeParse({ ...claim, amountPaid: value });
    expect(amount(0).data?.amountPaid).toBe(0);
    expect(amount('250000.75').data?.amountPaid).toBe(250000.75);
    expect(amount(CLAIM_AMOUNT_MAX).data?.amountPaid).toBe(100_000_000);
    expect(amount('').data?.amountPaid).toBeNull();
    const message = 'Enter the amount paid in US dollars, e.g. 250000';
    for (const wrong of [-0.01, CLAIM_AMOUNT_MAX + 0.01, 12.345, 'lots', '$250,000']) {
      expect(messagesOf(malpracticeClaimSchema, { ...claim, amountPaid: wrong })).toEqual({
        amountPaid: message,
      });
    }
    expect(formatUsd(250000.75)).toBe('$250,000.75');
    expect(
      malpracticeClaimsSection.summarize(
        malpracticeClaimSchema.parse({ ...claim, amountPaid: 1200, insurer: 'MedPro' }),
      ),
    ).toBe('2020-02-17 · Settled · paid $1,200.00 · MedPro');
  });

  it("gives 'No claims in the last 10 years' as a row of its own, refusing any other field", () => {
    expect(malpracticeClaimSchema.parse({ noClaims: true })).toMatchObject({
      noClaims: true,
      status: null,
      amountPaid: null,
    });
    expect(messagesOf(malpracticeClaimSchema, { noClaims: true, amountPaid: 0 })).toEqual({
      amountPaid: "Clear this field, or clear 'No claims in the last 10 years'",
    });
    expect(messagesOf(malpracticeClaimSchema, { noClaims: true, ...claim })).toEqual({
      status: "Clear this field, or clear 'No claims in the last 10 years'",
      claimDate: "Clear this field, or clear 'No claims in the last 10 years'",
    });
    expect(malpracticeClaimsSection.rowsRule!([{ noClaims: true }, { noClaims: false }])).toMatchObject({
      index: 0,
    });
  });

  describe('paidClaimInLastFiveYears (committee review, issue 31 item 4)', () => {
    const paid = (
      claimDate: string | null,
      incidentDate: string | null = null,
      amountPaid: number | null = 1,
    ) => ({
      noClaims: false,
      amountPaid,
      claimDate,
      incidentDate,
    });
    const today = '2026-11-26';

    it('counts a claim paid exactly 5 years ago, not one a day older', () => {
      expect(paidClaimInLastFiveYears([paid('2021-11-26')], today)).toBe(true);
      expect(paidClaimInLastFiveYears([paid('2021-11-25')], today)).toBe(false);
      expect(paidClaimInLastFiveYears([paid(today)], today)).toBe(true);
      // The day before, the same claim is inside the window; five years and a day later, it is out.
      expect(paidClaimInLastFiveYears([paid('2021-11-25')], '2026-11-25')).toBe(true);
      expect(paidClaimInLastFiveYears([paid('2021-11-26')], '2026-11-27')).toBe(false);
    });

    it('takes the claim date, else the incident date, on a leap day too', () => {
      expect(paidClaimInLastFiveYears([paid(null, '2022-06-01')], today)).toBe(true);
      // The claim date decides when both are given.
      expect(paidClaimInLastFiveYears([paid('2019-01-01', '2023-01-01')], today)).toBe(false);
      expect(paidClaimInLastFiveYears([paid(null, null)], today)).toBe(false);
      // Five years before 29 February 2028 is 28 February 2023.
      expect(paidClaimInLastFiveYears([paid('2023-02-28')], '2028-02-29')).toBe(true);
      expect(paidClaimInLastFiveYears([paid('2023-02-27')], '2028-02-29')).toBe(false);
    });

    it('ignores claims with nothing paid and the none answer', () => {
      expect(paidClaimInLastFiveYears([paid('2025-01-01', null, 0)], today)).toBe(false);
      expect(paidClaimInLastFiveYears([paid('2025-01-01', null, null)], today)).toBe(false);
      expect(
        paidClaimInLastFiveYears(
          [{ noClaims: true, amountPaid: null, claimDate: null, incidentDate: null }],
          today,
        ),
      ).toBe(false);
      expect(paidClaimInLastFiveYears([], today)).toBe(false);
      expect(paidClaimInLastFiveYears([paid('2019-01-01'), paid('2024-03-01', null, 0.01)], today)).toBe(
        true,
      );
    });
  });
});
