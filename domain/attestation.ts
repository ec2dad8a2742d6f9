/**
 * The provider's attestation at completion (issue 14; NCQA CR 3, credentialing application content):
 * the professional disclosure questions the uniform credentialing applications ask (issue 31 item 2),
 * grouped, each answered Yes or No (a "Yes" needs an explanation), and the statement that the
 * application is correct and complete, signed by typing the full name as the profile holds it. The same schema bounds the dialog and the completion
 * route; the server also checks the typed name against the profile, and stores the attestation
 * immutably with the SHA-256 of the application snapshot it signs (decision 022).
 */
import { z } from 'zod';

/**
 * The groups the dialog shows the disclosure questions under, in order (issue 31 item 2). The
 * topics follow the uniform credentialing applications' attestation questions (CAQH ProView's
 * disclosure section; the Texas Standardized Credentialing Application, section XVI; NCQA CR 3).
 */
export const disclosureGroups = [
  { id: 'licensure', title: 'Licensure' },
  { id: 'controlledSubstances', title: 'DEA and controlled substances' },
  { id: 'boardCertification', title: 'Board certification' },
  { id: 'privileges', title: 'Hospital privileges and affiliations' },
  { id: 'sanctions', title: 'Sanctions and program participation' },
  { id: 'criminal', title: 'Criminal history' },
  { id: 'malpractice', title: 'Malpractice and insurance' },
  { id: 'health', title: 'Health' },
  { id: 'employment', title: 'Employment and training' },
] as const;
export type DisclosureGroupId = (typeof disclosureGroups)[number]['id'];

/**
 * The disclosure questions, in the order the dialog asks them (grouped by `group`, in the order of
 * `disclosureGroups`), each answered Yes or No; a Yes needs an explanation and marks the file for
 * committee review (issue 31 item 4). Our own wording, one sentence each; the comment above each
 * names the topic it follows. An `id` is stored with every signed answer: it is never renamed or
 * reused for another meaning, and a question is never removed while attestations that answer it
 * exist (reading one back looks its text up here, `answersForRecord`). The first four of issue 14
 * (NCQA CR 3: essentialFunctions, illegalDrugUse, licenseLossOrFelony, privilegesOrDiscipline)
 * keep their meaning.
 */
export const disclosureQuestions = [
  // NCQA CR 3 (issue 14): loss of license, felony conviction.
  {
    id: 'licenseLossOrFelony',
    group: 'licensure',
    text: 'Have you ever lost a professional license, or been convicted of a felony?',
  },
  // TSCA XVI A; CAQH licensure (revoked): adverse action on a license, or one pending.
  {
    id: 'licenseAction',
    group: 'licensure',
    text: 'Has a professional license of yours, in any state or country, ever been denied, limited, restricted, suspended, revoked, not renewed or placed on probation, or is such an action pending?',
  },
  // TSCA XVI A (relinquished, fined, reprimanded); CAQH licensure (challenged).
  {
    id: 'licenseSurrenderOrBoardDiscipline',
    group: 'licensure',
    text: 'Have you ever surrendered a professional license, or been fined, reprimanded or otherwise disciplined by a licensing board, or is a licensing board investigating you now?',
  },
  // TSCA XVI A (DEA and state narcotic registrations).
  {
    id: 'controlledSubstanceRegistrationAction',
    group: 'controlledSubstances',
    text: 'Has your DEA registration or a state controlled substance registration ever been denied, limited, restricted, suspended, revoked, not renewed or surrendered, or is such an action pending?',
  },
  // TSCA XVI G: specialty board denial, or a change of status other than eligible to certified.
  {
    id: 'boardCertificationAction',
    group: 'boardCertification',
    text: 'Has a specialty board ever denied you certification or recertification, or revoked or otherwise changed your board certification or eligibility, other than from eligible to certified?',
  },
  // NCQA CR 3 (issue 14): loss or limitation of privileges, disciplinary action.
  {
    id: 'privilegesOrDiscipline',
    group: 'privileges',
    text: 'Have you ever lost or had limited any clinical privileges, or been the subject of disciplinary action?',
  },
  // TSCA XVI C; CAQH privileges (revoked, terminated): denied, reduced, on probation, or pending.
  {
    id: 'privilegesAction',
    group: 'privileges',
    text: 'Have your clinical privileges or medical staff membership at any hospital or facility ever been denied, suspended, reduced, placed on probation, revoked or not renewed, or is such an action pending?',
  },
  // TSCA XVI D; CAQH privileges (surrendered).
  {
    id: 'privilegesSurrenderedUnderInvestigation',
    group: 'privileges',
    text: 'Have you ever surrendered clinical privileges or medical staff membership, let them lapse, or withdrawn an application for them while under investigation or to avoid one?',
  },
  // TSCA XVI C (medical group, IPA, health plan, HMO, PPO participation).
  {
    id: 'organizationParticipationAction',
    group: 'privileges',
    text: 'Has your participation in a medical group, health plan or other health care organization ever been denied, restricted, terminated or not renewed for reasons of competence or conduct, or is such an action pending?',
  },
  // TSCA XVI F: professional society membership.
  {
    id: 'professionalSocietyAction',
    group: 'privileges',
    text: 'Has your membership in a professional society or association ever been denied, revoked, limited, placed on probation or not renewed, or is such an action pending?',
  },
  // TSCA XVI B (Medicare); NCQA CR 3 and CR 5 (Medicare sanctions).
  {
    id: 'medicareSanction',
    group: 'sanctions',
    text: 'Have you ever been sanctioned, suspended or excluded by Medicare, or had your Medicare enrollment or billing privileges revoked, or is such an action pending?',
  },
  // TSCA XVI B (Medicaid); NCQA CR 3 and CR 5 (Medicaid sanctions).
  {
    id: 'medicaidSanction',
    group: 'sanctions',
    text: "Have you ever been sanctioned, suspended, excluded or terminated by any state's Medicaid program, or is such an action pending?",
  },
  // TSCA XVI B ("any public program"); the OIG exclusion list (LEIE) and SAM.gov debarments.
  {
    id: 'federalProgramExclusion',
    group: 'sanctions',
    text: 'Have you ever been excluded, debarred or suspended from any other federal or state health care program or from federal contracting, for example by the HHS Office of Inspector General?',
  },
  // TSCA XVI H (any crime but a minor traffic violation); pending charges as state license applications ask.
  {
    id: 'criminalConvictionOrCharge',
    group: 'criminal',
    text: 'Have you ever been convicted of, or pleaded guilty or no contest to, any crime other than a minor traffic violation, or are criminal charges pending against you?',
  },
  // TSCA XVI J (judgments and settlements; 10 years here, the window of the claims history, issue 31 item 1).
  {
    id: 'malpracticeJudgmentOrSettlement',
    group: 'malpractice',
    text: 'In the last 10 years, has a judgment been entered against you, or a settlement paid on your behalf, in a professional liability case?',
  },
  // TSCA XVI J (pending lawsuits and arbitrations).
  {
    id: 'malpracticeCasePending',
    group: 'malpractice',
    text: 'Is a professional liability lawsuit or arbitration against you pending?',
  },
  // TSCA XVI K: insurance denied, cancelled, not renewed, restricted or surcharged.
  {
    id: 'liabilityInsuranceAction',
    group: 'malpractice',
    text: 'Has a professional liability insurer ever denied, cancelled, not renewed, restricted or surcharged your coverage, or told you in writing that it intends to?',
  },
  // NCTracks exclusion sanction question M; TSCA XVI M (current coverage); NCQA CR 3 (malpractice coverage).
  {
    id: 'practicedWithoutCoverage',
    group: 'malpractice',
    text: 'Have you ever practiced without professional liability insurance?',
  },
  // NCQA CR 3 (issue 14); TSCA XVI I.
  { id: 'illegalDrugUse', group: 'health', text: 'Do you currently use illegal drugs?' },
  // NCTracks exclusion sanction question N (medical, chemical dependency or psychiatric conditions).
  {
    id: 'impairingCondition',
    group: 'health',
    text: 'Do you have a physical, mental health or substance use condition that currently affects your ability to practice safely?',
  },
  // NCQA CR 3 (issue 14); TSCA XVI L asks the same the other way round.
  {
    id: 'essentialFunctions',
    group: 'health',
    text: 'Is there any reason you cannot perform the essential functions of the position, with or without accommodation?',
  },
  // TSCA XVI D: resigned or left while under investigation, or so that none was made.
  {
    id: 'resignedUnderInvestigation',
    group: 'employment',
    text: 'Have you ever resigned, left or been terminated from a health care position while under investigation for competence or conduct, or so that an investigation would not go ahead?',
  },
  // TSCA XVI E: internship, residency, fellowship or other clinical training program.
  {
    id: 'trainingProgramAction',
    group: 'employment',
    text: 'Have you ever been placed on probation, disciplined, suspended or dismissed in an internship, residency, fellowship or other clinical training program, or left one when asked to?',
  },
] as const satisfies readonly { id: string; group: DisclosureGroupId; text: string }[];
export type DisclosureQuestionId = (typeof disclosureQuestions)[number]['id'];
export type DisclosureQuestion = (typeof disclosureQuestions)[number];

const questionIds = disclosureQuestions.map((q) => q.id) as [DisclosureQuestionId, ...DisclosureQuestionId[]];

/**
 * The dialog's layout: each group with its questions, each question with its number in the whole
 * list (1-based, continuous across groups). Groups without questions are left out.
 */
export function disclosureSections(): {
  group: (typeof disclosureGroups)[number];
  questions: { number: number; question: DisclosureQuestion }[];
}[] {
  return disclosureGroups
    .map((group) => ({
      group,
      questions: disclosureQuestions
        .map((question, index) => ({ number: index + 1, question }))
        .filter(({ question }) => question.group === group.id),
    }))
    .filter((section) => section.questions.length > 0);
}

/** The statement the provider signs (NCQA CR 3: attestation of correctness and completeness). */
export const ATTESTATION_STATEMENT =
  'I attest that the information in this application and its documents is correct and complete to the best of my knowledge, and I understand that a misstatement or omission may be grounds for denial of credentialing.';

/** Labels of the dialog (issue 14 gives them in quotes). */
export const attestationLabels = {
  title: 'Attestation',
  signature: 'Full name (signature)',
  submit: 'Sign and Complete',
  yes: 'Yes',
  no: 'No',
  explanation: 'Explanation',
} as const;

/** Longest explanation of a "Yes", in characters. */
export const EXPLANATION_MAX = 2000;
/** Longest typed signature, in characters (two names of 100 and a space: domain/account.ts). */
export const SIGNATURE_MAX = 201;

/** The refusals, worded for the person filling the dialog. */
export const attestationMessages = {
  answerRequired: 'Answer Yes or No.',
  explanationRequired: 'Explain your "Yes" answer.',
  signatureRequired: 'Type your full name to sign.',
  signatureMismatch: (expected: string) => `Type your full name as your profile has it: ${expected}.`,
  noProfileName: 'Add your first and last name to your profile, then sign with them.',
  /**
   * The refusal of a re-attestation before it is due (issue 28 item 4); dates as YYYY-MM-DD (UTC).
   * @param signedOn the day the current attestation was signed
   * @param dueOn the first day a new one is accepted (`attestationDueFrom`)
   */
  reattestationNotDue: (signedOn: string, dueOn: string) =>
    `Your attestation of ${signedOn} is still current, so there is nothing to sign now. You can attest again from ${dueOn}, when your dashboard asks for it.`,
} as const;

const answerSchema = z
  .object({
    answer: z.enum(['yes', 'no'], { error: attestationMessages.answerRequired }),
    explanation: z
      .string({ error: 'The explanation must be text.' })
      .trim()
      .max(EXPLANATION_MAX, `An explanation may be at most ${EXPLANATION_MAX} characters.`)
      .optional(),
  })
  .superRefine((value, context) => {
    if (value.answer === 'yes' && !value.explanation) {
      context.addIssue({
        code: 'custom',
        path: ['explanation'],
        message: attestationMessages.explanationRequired,
      });
    }
  })
  // A "No" keeps no explanation: nothing is stored that the provider did not mean to disclose.
  .transform((value) => (value.answer === 'no' ? { answer: value.answer } : value));

/**
 * The attestation as the dialog sends it (body of POST /api/applications/:applicationId/completion
 * and of POST /api/applications/:applicationId/attestation): one answer per disclosure question and
 * the typed name.
 */
export const attestationInputSchema = z.object({
  answers: z.object(
    Object.fromEntries(disclosureQuestions.map((q) => [q.id, answerSchema])) as Record<
      DisclosureQuestionId,
      typeof answerSchema
    >,
    { error: 'Answer every question.' },
  ),
  signature: z
    .string({ error: attestationMessages.signatureRequired })
    .trim()
    .min(1, attestationMessages.signatureRequired)
    .max(SIGNATURE_MAX, `The signature may be at most ${SIGNATURE_MAX} characters.`),
});
export type AttestationInput = z.output<typeof attestationInputSchema>;
export type AttestationAnswers = AttestationInput['answers'];

/** A name compared as people type it: Unicode-normalised, spaces collapsed, case ignored. */
function comparableName(name: string): string {
  return name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLocaleLowerCase('en-US');
}

/** The full name a signature must match: the profile's first and last name. */
export function profileFullName(profile: { firstName: string; lastName: string }): string {
  return `${profile.firstName} ${profile.lastName}`.trim().replace(/\s+/g, ' ');
}

/** True when the typed `signature` is the profile's full name (spaces and case aside). */
export function signatureMatchesProfile(
  signature: string,
  profile: { firstName: string; lastName: string },
): boolean {
  const expected = comparableName(profileFullName(profile));
  return expected.length > 0 && comparableName(signature) === expected;
}

/**
 * Days an attestation stays valid while the application is reviewed (ATTESTATION_VALID_DAYS;
 * default 120, CAQH's re-attestation cycle).
 */
export const DEFAULT_ATTESTATION_VALID_DAYS = 120;

/**
 * Whether the attestation signed at `signedAt` has aged past `validDays` at `now` (issue 14).
 * @param now the clock, injected (tests drive it)
 */
export function attestationExpired(signedAt: Date, validDays: number, now: Date): boolean {
  return now.getTime() > attestationDueFrom(signedAt, validDays).getTime();
}

/**
 * When the attestation signed at `signedAt` ages past `validDays`: from just after this moment a
 * re-attestation is due (`attestationExpired`) and accepted (issue 28 item 4), not before.
 */
export function attestationDueFrom(signedAt: Date, validDays: number): Date {
  return new Date(signedAt.getTime() + validDays * 24 * 60 * 60 * 1000);
}

/** An attestation as administrators see it and as the completion payload carries it (ISO dates). */
export const attestationRecordSchema = z.object({
  id: z.uuid(),
  /** 'completion': signed with 'Sign and Complete'; 're_attestation': signed again while under review. */
  kind: z.enum(['completion', 're_attestation']),
  answers: z.array(
    z.object({
      questionId: z.enum(questionIds),
      question: z.string(),
      answer: z.enum(['yes', 'no']),
      explanation: z.string().nullable(),
    }),
  ),
  statement: z.string(),
  /** The typed full name. */
  signature: z.string(),
  /** ISO 8601, UTC. */
  signedAt: z.iso.datetime(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** The application snapshot version the attestation signs, and its SHA-256 (hex). */
  snapshotVersion: z.number().int().min(1),
  snapshotSha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type AttestationRecord = z.infer<typeof attestationRecordSchema>;

/**
 * One stored answer as read back, leniently: an attestation stores the answers to the questions
 * asked when it was signed (the first ones, issue 14, answered four), so the record is whatever keys
 * it holds, each a Yes or No with an optional explanation.
 */
const storedAnswerSchema = z.object({
  answer: z.enum(['yes', 'no']),
  explanation: z.string().optional(),
});
const storedAnswersSchema = z.partialRecord(z.enum(questionIds), storedAnswerSchema);

/**
 * The stored answers of an attestation (the decrypted JSON, any set of question keys) as a record
 * lists them: each answered question with the text of its key, in the dialog's current order
 * (issue 31 item 2: attestations signed with the earlier four questions stay readable).
 * @throws ZodError when `stored` is not an object of known question keys with Yes/No answers: a
 *   stored key no question has would mean a question was removed (never done, see
 *   `disclosureQuestions`), and an attestation is never shown without all of its answers
 */
export function answersForRecord(stored: unknown): AttestationRecord['answers'] {
  const answers = storedAnswersSchema.parse(stored);
  return disclosureQuestions.flatMap((q) => {
    const given = answers[q.id];
    if (!given) return [];
    return [
      {
        questionId: q.id,
        question: q.text,
        answer: given.answer,
        explanation: given.answer === 'yes' ? (given.explanation ?? null) : null,
      },
    ];
  });
}

/** Whether a file needs the credentialing committee's review, and why (issue 31 item 4). */
export interface CommitteeReview {
  needed: boolean;
  /** One line per reason, e.g. 'Yes to: <question text>', 'A malpractice claim was paid in the last 5 years'. */
  reasons: string[];
}

/** The reason a Yes disclosure gives for committee review (issue 31 item 4). */
export const committeeReviewReason = (questionText: string) => `Yes to: ${questionText}`;

/**
 * The reason a claim paid in the last five years gives for committee review (issue 31 item 4; the
 * years are domain/sections/malpractice-claims.ts `PAID_CLAIM_REVIEW_YEARS`, written out here so the
 * attestation dialog does not load the section's schema).
 */
export const PAID_CLAIM_COMMITTEE_REASON = 'A malpractice claim was paid in the last 5 years';

/**
 * Issue 31 item 4: a Yes to any disclosure question in the attestation in force (the latest; none:
 * undefined) marks the file as needing committee review, one reason per Yes in the dialog's order;
 * then a malpractice claim paid in the last five years (`paidClaim`, decided by the caller with
 * domain/sections/malpractice-claims.ts `paidClaimInLastFiveYears`) adds PAID_CLAIM_COMMITTEE_REASON.
 */
export function committeeReviewOfAttestation(
  latest: Pick<AttestationRecord, 'answers'> | undefined,
  paidClaim = false,
): CommitteeReview {
  const reasons = (latest?.answers ?? [])
    .filter((answer) => answer.answer === 'yes')
    .map((answer) => committeeReviewReason(answer.question));
  if (paidClaim) reasons.push(PAID_CLAIM_COMMITTEE_REASON);
  return { needed: reasons.length > 0, reasons };
}
