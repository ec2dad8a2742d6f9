/**
 * The disclosure questions (issue 31 item 2) and what is read back from a signed attestation: the
 * full grouped list, a new signature needing every current answer, attestations signed with the
 * first four questions (issue 14) still readable, and the committee review flag (issue 31 item 4).
 */
import { describe, expect, it } from 'vitest';
import {
  answersForRecord,
  attestationInputSchema,
  attestationMessages,
  committeeReviewOfAttestation,
  disclosureGroups,
  disclosureQuestions,
  disclosureSections,
  PAID_CLAIM_COMMITTEE_REASON,
} from './attestation.ts';
import { PAID_CLAIM_REVIEW_YEARS } from './sections/malpractice-claims.ts';

/** The four questions of issue 14, as attestations signed before issue 31 stored them. */
const ISSUE_14_KEYS = [
  'essentialFunctions',
  'illegalDrugUse',
  'licenseLossOrFelony',
  'privilegesOrDiscipline',
];

const allNo = () => Object.fromEntries(disclosureQuestions.map((q) => [q.id, { answer: 'no' }]));

describe('the disclosure questions (issue 31 item 2)', () => {
  it('keeps the four keys of issue 14 and asks about twenty, each key once', () => {
    const ids = disclosureQuestions.map((q) => q.id);
    expect(ids).toEqual(expect.arrayContaining(ISSUE_14_KEYS));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(20);
  });

  it('asks every topic issue 31 lists, under its group', () => {
    const groupOf = (id: string) => disclosureQuestions.find((q) => q.id === id)?.group;
    expect(groupOf('licenseAction')).toBe('licensure');
    expect(groupOf('controlledSubstanceRegistrationAction')).toBe('controlledSubstances');
    expect(groupOf('boardCertificationAction')).toBe('boardCertification');
    expect(groupOf('privilegesAction')).toBe('privileges');
    expect(groupOf('medicareSanction')).toBe('sanctions');
    expect(groupOf('medicaidSanction')).toBe('sanctions');
    expect(groupOf('federalProgramExclusion')).toBe('sanctions');
    expect(groupOf('criminalConvictionOrCharge')).toBe('criminal');
    expect(groupOf('malpracticeJudgmentOrSettlement')).toBe('malpractice');
    expect(groupOf('liabilityInsuranceAction')).toBe('malpractice');
    expect(groupOf('illegalDrugUse')).toBe('health');
    expect(groupOf('impairingCondition')).toBe('health');
    expect(groupOf('resignedUnderInvestigation')).toBe('employment');
  });

  it('lists each group once, in order, so the numbers run 1..n down the dialog', () => {
    const sections = disclosureSections();
    expect(sections.map((s) => s.group.id)).toEqual(disclosureGroups.map((g) => g.id));
    const numbers = sections.flatMap((s) => s.questions.map((q) => q.number));
    expect(numbers).toEqual(disclosureQuestions.map((_, i) => i + 1));
    for (const section of sections) {
      expect(section.questions.length).toBeGreaterThan(0);
      for (const { question } of section.questions) expect(question.group).toBe(section.group.id);
    }
  });

  it('writes each question as one plain question, none contained in another (screen readers and tests find each by its text)', () => {
    for (const q of disclosureQuestions) {
      expect(q.text).toMatch(/^[A-Z][^?]*\?$/);
      for (const other of disclosureQuestions) {
        if (other.id !== q.id) expect(other.text.includes(q.text)).toBe(false);
      }
    }
  });
});

describe('a new signature (attestationInputSchema)', () => {
  it('accepts every question answered, and keeps no explanation with a No', () => {
    const answers = {
      ...allNo(),
      medicareSanction: { answer: 'yes', explanation: ' Opted out of Medicare in 2019. ' },
      illegalDrugUse: { answer: 'no', explanation: 'not meant to be kept' },
    };
    const parsed = attestationInputSchema.parse({ answers, signature: 'Maya Okafor' });
    expect(parsed.answers.medicareSanction).toEqual({
      answer: 'yes',
      explanation: 'Opted out of Medicare in 2019.',
    });
    expect(parsed.answers.illegalDrugUse).toEqual({ answer: 'no' });
  });

  it('refuses the four answers an attestation of issue 14 held: every current question needs one', () => {
    const four = Object.fromEntries(ISSUE_14_KEYS.map((id) => [id, { answer: 'no' }]));
    const result = attestationInputSchema.safeParse({ answers: four, signature: 'Maya Okafor' });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((issue) => issue.path.join('.'));
    expect(paths).toContain('answers.licenseAction');
    expect(paths).toContain('answers.trainingProgramAction');
    expect(paths).toHaveLength(disclosureQuestions.length - ISSUE_14_KEYS.length);
  });

  it('refuses a Yes without an explanation, on that question', () => {
    const answers = { ...allNo(), impairingCondition: { answer: 'yes', explanation: '   ' } };
    const result = attestationInputSchema.safeParse({ answers, signature: 'Maya Okafor' });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        path: ['answers', 'impairingCondition', 'explanation'],
        message: attestationMessages.explanationRequired,
      }),
    ]);
  });
});

describe('stored answers read back (answersForRecord)', () => {
  it('shows an attestation signed with the four questions of issue 14 as it was: four answers, current texts', () => {
    const stored = {
      essentialFunctions: { answer: 'no' },
      illegalDrugUse: { answer: 'no' },
      licenseLossOrFelony: { answer: 'yes', explanation: 'License suspended for 30 days in 2015.' },
      privilegesOrDiscipline: { answer: 'no' },
    };
    const answers = answersForRecord(stored);
    expect(answers.map((a) => a.questionId).sort()).toEqual([...ISSUE_14_KEYS].sort());
    // In the dialog's current order, each with the text of its key.
    const order = disclosureQuestions.map((q) => q.id as string).filter((id) => ISSUE_14_KEYS.includes(id));
    expect(answers.map((a) => a.questionId)).toEqual(order);
    expect(answers.find((a) => a.questionId === 'licenseLossOrFelony')).toEqual({
      questionId: 'licenseLossOrFelony',
      question: disclosureQuestions.find((q) => q.id === 'licenseLossOrFelony')!.text,
      answer: 'yes',
      explanation: 'License suspended for 30 days in 2015.',
    });
    expect(answers.find((a) => a.questionId === 'illegalDrugUse')?.explanation).toBeNull();
  });

  it('shows a current attestation with every question', () => {
    expect(answersForRecord(allNo())).toHaveLength(disclosureQuestions.length);
  });

  it('fails loudly on a key no question has, or an answer that is not Yes or No', () => {
    expect(() => answersForRecord({ retiredQuestion: { answer: 'no' } })).toThrow();
    expect(() => answersForRecord({ illegalDrugUse: { answer: 'maybe' } })).toThrow();
    expect(() => answersForRecord('not an object')).toThrow();
  });
});

describe('committee review (issue 31 item 4)', () => {
  it('is needed with one reason per Yes, in the dialog order, and not with every answer No or no attestation', () => {
    const stored = {
      ...allNo(),
      trainingProgramAction: { answer: 'yes', explanation: 'Probation in PGY-1, completed.' },
      licenseAction: { answer: 'yes', explanation: 'Probation in 2012.' },
    };
    const text = (id: string) => disclosureQuestions.find((q) => q.id === id)!.text;
    expect(committeeReviewOfAttestation({ answers: answersForRecord(stored) })).toEqual({
      needed: true,
      reasons: [`Yes to: ${text('licenseAction')}`, `Yes to: ${text('trainingProgramAction')}`],
    });
    expect(committeeReviewOfAttestation({ answers: answersForRecord(allNo()) })).toEqual({
      needed: false,
      reasons: [],
    });
    expect(committeeReviewOfAttestation(undefined)).toEqual({ needed: false, reasons: [] });
  });

  it('a claim paid in the last five years is a reason of its own, after the Yes answers', () => {
    const stored = { ...allNo(), licenseAction: { answer: 'yes', explanation: 'Probation in 2012.' } };
    const text = disclosureQuestions.find((q) => q.id === 'licenseAction')!.text;
    expect(committeeReviewOfAttestation({ answers: answersForRecord(stored) }, true)).toEqual({
      needed: true,
      reasons: [`Yes to: ${text}`, 'A malpractice claim was paid in the last 5 years'],
    });
    expect(committeeReviewOfAttestation({ answers: answersForRecord(allNo()) }, true)).toEqual({
      needed: true,
      reasons: [PAID_CLAIM_COMMITTEE_REASON],
    });
    expect(committeeReviewOfAttestation(undefined, true).needed).toBe(true);
    // The reason's years are the claims section's.
    expect(PAID_CLAIM_COMMITTEE_REASON).toContain(`last ${PAID_CLAIM_REVIEW_YEARS} years`);
  });
});
