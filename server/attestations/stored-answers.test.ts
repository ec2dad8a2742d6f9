/**
 * The longer disclosure list (issue 31 item 2) against real PostgreSQL and real HTTP: an attestation
 * signed with the four questions of issue 14 stays readable everywhere it is shown (the review page,
 * the completion payload's attestation, valid against the published schema); a new signature or a
 * re-attestation needs every current question; and a Yes in the latest attestation marks the file as
 * needing committee review on the review page (issue 31 item 4).
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminReview } from '../../domain/api/review.ts';
import { disclosureQuestions } from '../../domain/attestation.ts';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { signedAttestation } from '../../tests/http-client.ts';
import { type JsonSchema, validateJsonSchema } from '../notifications/testing/json-schema.ts';
import { completedApplication } from '../review/testing/completed-review-application.ts';
import { listAttestations } from './attestation.service.ts';
import { ageAttestations } from './testing/age-attestations.ts';
import { replaceStoredAnswers } from './testing/replace-stored-answers.ts';

const payloadSchema = JSON.parse(
  fs.readFileSync(new URL('../../docs/completion-payload.schema.json', import.meta.url), 'utf8'),
) as { properties: { attestation: JsonSchema }; $defs: JsonSchema };
/** The payload's `attestation` key as its own schema (its $refs point at the payload's $defs). */
const attestationSchema: JsonSchema = { ...payloadSchema.properties.attestation, $defs: payloadSchema.$defs };

const textOf = (id: string) => disclosureQuestions.find((q) => q.id === id)!.text;
const FELONY_EXPLANATION = 'Massachusetts license suspended for 30 days in 2015 over late CME; reinstated.';

let app: TestApp;
let admin: Awaited<ReturnType<typeof signUpAndSignIn>>;
beforeAll(async () => {
  app = await createTestApp({ ATTESTATION_VALID_DAYS: '120' });
  admin = await signUpAndSignIn(app, { firstName: 'Ada' });
  await grantAdmin(app, admin);
}, 60_000);
afterAll(async () => {
  await app?.close();
});

async function review(applicationId: string): Promise<AdminReview> {
  const response = await admin.json<AdminReview>('GET', `/api/admin/applications/${applicationId}/review`);
  expect(response.status).toBe(200);
  return response.body;
}

describe('an attestation signed with the four questions of issue 14', () => {
  it('is shown with its four answers and their texts, sent valid against the schema, and flags its Yes for the committee', async () => {
    // First, Nadia completes an application; her stored answers are then those of an attestation
    // signed before issue 31: four keys, a Yes to the license or felony question.
    const { applicationId } = await completedApplication(app);
    const deps = app.runtime.deps;
    await replaceStoredAnswers(deps.database.pool, deps.cipher, applicationId, {
      essentialFunctions: { answer: 'no' },
      illegalDrugUse: { answer: 'no' },
      licenseLossOrFelony: { answer: 'yes', explanation: FELONY_EXPLANATION },
      privilegesOrDiscipline: { answer: 'no' },
    });

    // Second, the review page lists the four, each with the text of its key, in the dialog's order.
    const view = await review(applicationId);
    expect(view.attestations).toHaveLength(1);
    const answers = view.attestations[0]!.answers;
    const order = disclosureQuestions
      .map((q) => q.id as string)
      .filter((id) =>
        ['essentialFunctions', 'illegalDrugUse', 'licenseLossOrFelony', 'privilegesOrDiscipline'].includes(
          id,
        ),
      );
    expect(answers.map((a) => a.questionId)).toEqual(order);
    expect(answers.find((a) => a.questionId === 'licenseLossOrFelony')).toEqual({
      questionId: 'licenseLossOrFelony',
      question: textOf('licenseLossOrFelony'),
      answer: 'yes',
      explanation: FELONY_EXPLANATION,
    });
    // The Yes marks the file for the committee, one reason naming the question.
    expect(view.committeeReview).toEqual({
      needed: true,
      reasons: [`Yes to: ${textOf('licenseLossOrFelony')}`],
    });

    // Third, the payload's attestation (what the completion payload carries) is valid against the schema.
    const [completion] = await listAttestations(deps.db, deps.cipher, applicationId);
    expect(completion!.answers).toHaveLength(4);
    expect(validateJsonSchema(completion, attestationSchema)).toEqual([]);
  });
});

describe('an attestation signed now', () => {
  it('answers every current question, is valid against the schema, and with every answer No needs no committee', async () => {
    const { applicationId } = await completedApplication(app);
    const view = await review(applicationId);
    expect(view.attestations[0]!.answers.map((a) => a.questionId)).toEqual(
      disclosureQuestions.map((q) => q.id),
    );
    expect(view.committeeReview).toEqual({ needed: false, reasons: [] });
    const [completion] = await listAttestations(app.runtime.deps.db, app.runtime.deps.cipher, applicationId);
    expect(validateJsonSchema(completion, attestationSchema)).toEqual([]);
  });

  it('refuses a completion that answers only the four questions of issue 14, naming the unanswered ones', async () => {
    const provider = await signUpAndSignIn(app);
    const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
    const signed = await signedAttestation(provider);
    const four = Object.fromEntries(
      ['essentialFunctions', 'illegalDrugUse', 'licenseLossOrFelony', 'privilegesOrDiscipline'].map((id) => [
        id,
        { answer: 'no' },
      ]),
    );
    const refused = await provider.json<{ code: string; issues: { path: string[] }[] }>(
      'POST',
      `/api/applications/${created.body.id}/completion`,
      { answers: four, signature: signed.signature },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('validation_failed');
    const paths = refused.body.issues.map((issue) => issue.path.join('.'));
    expect(paths).toContain('answers.medicareSanction');
    expect(paths).toHaveLength(disclosureQuestions.length - 4);
  });

  it('takes a re-attestation only with every current question, and its Yes answers replace the earlier flag', async () => {
    // First, an application signed with the four questions, a Yes among them, and due for re-attestation.
    const { provider, applicationId } = await completedApplication(app);
    const deps = app.runtime.deps;
    await replaceStoredAnswers(deps.database.pool, deps.cipher, applicationId, {
      essentialFunctions: { answer: 'no' },
      illegalDrugUse: { answer: 'no' },
      licenseLossOrFelony: { answer: 'yes', explanation: FELONY_EXPLANATION },
      privilegesOrDiscipline: { answer: 'no' },
    });
    await ageAttestations(deps.database.pool, applicationId, 121);
    const url = `/api/applications/${applicationId}/attestation`;
    const signed = await signedAttestation(provider);

    // Second, a signature missing one current answer is refused.
    const { medicareSanction: _, ...withoutOne } = signed.answers;
    expect((await provider.json('POST', url, { ...signed, answers: withoutOne })).status).toBe(400);

    // Third, every question answered, Yes to two new ones: the flag follows the latest attestation.
    const reattested = await provider.json('POST', url, {
      ...signed,
      answers: {
        ...signed.answers,
        medicareSanction: { answer: 'yes', explanation: 'Opted out of Medicare from 2019 to 2021.' },
        trainingProgramAction: { answer: 'yes', explanation: 'Remediation plan in PGY-1, completed.' },
      },
    });
    expect(reattested.status).toBe(201);
    const view = await review(applicationId);
    expect(view.attestations.map((a) => a.answers.length)).toEqual([4, disclosureQuestions.length]);
    expect(view.committeeReview).toEqual({
      needed: true,
      reasons: [`Yes to: ${textOf('medicareSanction')}`, `Yes to: ${textOf('trainingProgramAction')}`],
    });
  });
});
