/**
 * The provider's attestation at completion (issue 14; NCQA CR 3, credentialing application content):
 * the disclosure questions an NCQA application asks, each answered Yes or No (a "Yes" needs an
 * explanation), and the statement that the application is correct and complete, signed by typing
 * the full name as the profile holds it. The same schema bounds the dialog and the completion
 * route; the server also checks the typed name against the profile, and stores the attestation
 * immutably with the SHA-256 of the application snapshot it signs (decision 022).
 */
import { z } from 'zod';

/** The disclosure questions, in the order the dialog asks them (NCQA CR 3 application content). */
export const disclosureQuestions = [
  {
    id: 'essentialFunctions',
    text: 'Is there any reason you cannot perform the essential functions of the position, with or without accommodation?',
  },
  { id: 'illegalDrugUse', text: 'Do you currently use illegal drugs?' },
  {
    id: 'licenseLossOrFelony',
    text: 'Have you ever lost a professional license, or been convicted of a felony?',
  },
  {
    id: 'privilegesOrDiscipline',
    text: 'Have you ever lost or had limited any clinical privileges, or been the subject of disciplinary action?',
  },
] as const;
export type DisclosureQuestionId = (typeof disclosureQuestions)[number]['id'];

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
      questionId: z.enum(
        disclosureQuestions.map((q) => q.id) as [DisclosureQuestionId, ...DisclosureQuestionId[]],
      ),
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

/** The answers as a record lists them: every question with its text, in the dialog's order. */
export function answersForRecord(answers: AttestationAnswers): AttestationRecord['answers'] {
  return disclosureQuestions.map((q) => {
    const given = answers[q.id] as { answer: 'yes' | 'no'; explanation?: string };
    return {
      questionId: q.id,
      question: q.text,
      answer: given.answer,
      explanation: given.answer === 'yes' ? (given.explanation ?? null) : null,
    };
  });
}
