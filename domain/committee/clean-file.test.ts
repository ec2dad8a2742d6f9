/**
 * The clean-file criteria (issue 32 item 4): each criterion alone keeps a file from being clean and
 * names itself; a file with none of them is clean.
 */
import { describe, expect, it } from 'vitest';
import { answersForRecord, disclosureQuestions } from '../attestation.ts';
import { type CleanFileFacts, cleanFileReview } from './clean-file.ts';

const allNo = () => Object.fromEntries(disclosureQuestions.map((q) => [q.id, { answer: 'no' }]));
const cleanFacts = (): CleanFileFacts => ({
  attestation: { answers: answersForRecord(allNo()) },
  paidClaim: false,
  checklist: [
    { kind: 'license', target: 'Medical License IL-1 (IL)', status: 'verified' },
    { kind: 'board_certification', target: 'Board Certified, Internal Medicine', status: 'waived' },
    { kind: 'exclusions', target: 'Exclusion screening', status: 'verified' },
  ],
  exclusion: null,
  screeningGaps: [],
});

describe('clean file', () => {
  it('is clean with every item verified or waived, every disclosure No, no standing and no paid claim', () => {
    expect(cleanFileReview(cleanFacts())).toEqual({ needed: false, reasons: [] });
  });

  it('is not clean for each criterion alone, and names it', () => {
    const licenseAction = disclosureQuestions.find((q) => q.id === 'licenseAction')!;
    const cases: [Partial<CleanFileFacts>, string][] = [
      [
        {
          attestation: {
            answers: answersForRecord({ ...allNo(), licenseAction: { answer: 'yes', explanation: 'x' } }),
          },
        },
        `Yes to: ${licenseAction.text}`,
      ],
      [{ paidClaim: true }, 'A malpractice claim was paid in the last 5 years'],
      [{ exclusion: 'match' }, 'Exclusion screening: Match'],
      [{ exclusion: 'possible_match' }, 'Exclusion screening: Possible match'],
      // Issue 51 item 1: a 'No match' on lists that are not all current is not clean.
      [
        { screeningGaps: [{ label: 'SAM.gov exclusions', why: 'never imported' }] },
        'Exclusion screening incomplete: SAM.gov exclusions (never imported)',
      ],
      [
        {
          checklist: [
            { kind: 'license', target: 'Medical License IL-1 (IL)', status: 'discrepancy' },
            { kind: 'exclusions', target: 'Exclusion screening', status: 'verified' },
          ],
        },
        'Discrepancy: Medical License IL-1 (IL)',
      ],
    ];
    for (const [change, reason] of cases) {
      expect(cleanFileReview({ ...cleanFacts(), ...change })).toEqual({ needed: true, reasons: [reason] });
    }
  });

  it('lists every reason at once: Yes answers, paid claim, exclusion standing, then each discrepancy', () => {
    const facts: CleanFileFacts = {
      attestation: {
        answers: answersForRecord({ ...allNo(), licenseAction: { answer: 'yes', explanation: 'x' } }),
      },
      paidClaim: true,
      checklist: [
        { kind: 'dea', target: 'DEA AB1234563', status: 'discrepancy' },
        { kind: 'license', target: 'Medical License IL-1 (IL)', status: 'pending' },
        { kind: 'education', target: 'MD, Uni', status: 'discrepancy' },
        // In discrepancy because of the possible match, which is named once.
        { kind: 'exclusions', target: 'Exclusion screening', status: 'discrepancy' },
      ],
      exclusion: 'possible_match',
      screeningGaps: [],
    };
    expect(cleanFileReview(facts).reasons.slice(1)).toEqual([
      'A malpractice claim was paid in the last 5 years',
      'Exclusion screening: Possible match',
      'Discrepancy: DEA AB1234563',
      'Discrepancy: MD, Uni',
    ]);
  });
});
