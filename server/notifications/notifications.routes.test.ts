/**
 * Completion notifications end to end over real HTTP: the app on a fresh PostgreSQL database sends to
 * a real receiver on 127.0.0.1 that verifies the Standard Webhooks signature with the
 * `standardwebhooks` package, validates the body against docs/completion-payload.schema.json and
 * compares every decoded document with the stored file. Retries, a receiver that is down, a final
 * refusal and the re-send, limits and the retry budget: completion-delivery.test.ts.
 */
import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { disclosureQuestions } from '../../domain/attestation.ts';
import { Client, createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { signedAttestation } from '../../tests/http-client.ts';
import { documents } from '../db/schema/documents.ts';
import { peerReferences, training } from '../db/schema/sections.ts';
import { FACTORY_ADDITIONAL, FACTORY_SSN } from './testing/completed-application.ts';
import {
  type CompletionState,
  completionSuite,
  fastRetries,
  payloadSchema,
  SECRET,
} from './testing/completion-suite.ts';
import { validateJsonSchema } from './testing/json-schema.ts';
import { WebhookReceiver } from './testing/webhook-receiver.ts';

/** The path to the answer keys in docs/completion-payload.schema.json. */
interface AttestationAnswersSchema {
  properties: {
    attestation: {
      anyOf: { properties: { answers: { items: { properties: { questionId: { enum: string[] } } } } } }[];
    };
  };
}

let receiver: WebhookReceiver;
let app: TestApp;

beforeAll(async () => {
  receiver = new WebhookReceiver({ secret: SECRET });
  await receiver.listen();
  app = await createTestApp({ NOTIFY_WEBHOOK_URL: receiver.url, ...fastRetries });
});
afterAll(async () => {
  await app?.close();
  await receiver?.close();
});
beforeEach(() => {
  receiver.answers = [];
});

const { providerWithCompleteApplication, complete, attemptsOf, notificationOf, requestsFor } =
  completionSuite(() => ({ app, receiver }));

describe('POST /api/applications/:applicationId/completion', () => {
  it('delivers a signed payload that matches the schema, with every document byte-exact', async () => {
    // First, Alice completes every section; one document is large enough to span many read chunks.
    const {
      provider: alice,
      applicationId,
      documents: stored,
    } = await providerWithCompleteApplication(app, [200_001, 40_000]);
    // A document row whose object is gone is sent with base64Content null (spec §8), not dropped.
    const [lost] = await app.runtime.deps.db
      .insert(documents)
      .values({
        applicationId,
        userId: alice.userId,
        documentName: 'Gone.pdf',
        documentType: 'other',
        filePath: `${alice.userId}/other/1.pdf`,
        fileSize: 10,
        mimeType: 'application/pdf',
        sha256: '0'.repeat(64),
      })
      .returning();

    // Second, she clicks 'Application Completed': the first attempt is made inline and succeeds.
    const response = await complete(alice, applicationId);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'delivered', lastError: null });
    expect(response.body.deliveredAt).not.toBeNull();

    // The receiver verified the signature and got a body valid against the published schema.
    const [request] = requestsFor(applicationId);
    expect(request?.verified).toBe(true);
    const notification = await notificationOf(app, applicationId);
    expect(request!.headers['webhook-id']).toBe(notification!.id);
    expect(request!.headers['content-type']).toBe('application/json');
    const payload = JSON.parse(request!.body!.toString('utf8'));
    expect(validateJsonSchema(payload, payloadSchema)).toEqual([]);
    // The first message names no earlier one (issue 28: only a re-send has resendOf).
    expect(payload.resendOf).toBeNull();
    // The schema is closed and typed: a key it does not name, or a wrong format, is refused.
    expect(validateJsonSchema({ ...payload, unexpected: true }, payloadSchema)).toEqual([
      '$: must NOT have additional properties',
    ]);
    expect(
      validateJsonSchema({ ...payload, applicationId: 'not-a-uuid' }, payloadSchema).some((problem) =>
        problem.startsWith('$/applicationId: must match format "uuid"'),
      ),
    ).toBe(true);

    // Spec §7 envelope and applicant info.
    expect(payload).toMatchObject({ applicationId, userId: alice.userId, userEmail: alice.email });
    expect(payload.timestamp).toBe(response.body.requestedAt);
    expect(payload.applicantInfo.profile).toMatchObject({ user_id: alice.userId, email: alice.email });
    // Spec §7's 17 personal fields and address_line2 (issue 51 item 2: every saved field is sent).
    expect(Object.keys(payload.applicantInfo.personalInformation)).toHaveLength(18);
    expect(payload.applicantInfo.personalInformation).toMatchObject({
      address_line2: 'Suite 2',
      ssn: FACTORY_SSN,
      date_of_birth: '1980-02-29',
      provider_type: 'MD',
      medicaid_number: '',
      medicare_number: '',
    });
    expect(payload.licenses).toEqual([
      {
        license_type: 'medical_license',
        license_number: 'MD-1',
        issuing_state: 'IL',
        license_issue: '2010-06-01',
        license_exp: '2030-06-01',
        status: 'active',
      },
      {
        license_type: 'dea_license',
        license_number: null,
        issuing_state: null,
        license_issue: null,
        license_exp: null,
        status: 'pending',
      },
    ]);
    // Newest first; issue 51 item 4 adds `certification_kind` after the spec's five columns.
    expect(payload.certifications).toEqual([
      {
        certification_name: 'Board Certified, Internal Medicine',
        certifying_body: 'ABIM',
        certification_number: 'C-1',
        cert_issue_date: '2012-07-01',
        cert_exp_date: null,
        certification_kind: 'board',
      },
      {
        certification_name: 'Advanced Cardiovascular Life Support',
        certifying_body: 'American Heart Association',
        certification_number: null,
        cert_issue_date: '2024-05-01',
        cert_exp_date: null,
        certification_kind: 'other',
      },
    ]);
    expect(payload.workHistory[0]).toMatchObject({
      is_current_position: true,
      end_date: null,
      responsibilities: 'Internal medicine "ward" duty\nand teaching',
    });
    expect(payload.cme[0]).toMatchObject({ credit_hours: 1.5, category: 'Category 1' });
    expect(payload.peerReferences[0]).toMatchObject({ reference_name: 'Dr. Ada Lovelace', years_known: 7 });

    // Every document: decoded bytes hash to the stored row's sha256 and to the stored object.
    expect(payload.documents).toHaveLength(3);
    for (const document of stored) {
      const sent = payload.documents.find((d: { id: string }) => d.id === document.id);
      const bytes = Buffer.from(sent.base64Content, 'base64');
      expect(bytes.length).toBe(document.size);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(sent.sha256);
      expect(sent.sha256).toBe(document.sha256);
      const object = await app.runtime.deps.storage.get(document.filePath);
      const fileHash = createHash('sha256');
      for await (const chunk of object) fileHash.update(chunk as Buffer);
      expect(fileHash.digest('hex')).toBe(document.sha256);
      expect(sent.filename).toBe(sent.document_name);
    }
    expect(payload.documents.find((d: { id: string }) => d.id === lost!.id).base64Content).toBeNull();

    // Completion moves the application to submitted (issue 13); the dashboard knows it completed.
    const list = await alice.json<{
      applications: { id: string; applicationStatus: string; completion: CompletionState | null }[];
    }>('GET', '/api/applications');
    const listed = list.body.applications.find((a) => a.id === applicationId)!;
    expect(listed.applicationStatus).toBe('submitted');
    expect(listed.completion).toMatchObject({ status: 'delivered', requestedAt: response.body.requestedAt });

    // One attempt recorded; no PHI (the SSN) in the logs.
    const attempts = await attemptsOf(app, applicationId);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ http_status: 200, error: null });
    expect(attempts[0]!.duration_ms).toBeGreaterThanOrEqual(0);
    expect(app.logs.join('\n')).not.toContain(FACTORY_SSN);
  });

  it("sends the five sections of issue 31 after the spec's keys, valid against the schema", async () => {
    const { provider, applicationId } = await providerWithCompleteApplication();
    expect((await complete(provider, applicationId)).status).toBe(200);
    const payload = JSON.parse(requestsFor(applicationId)[0]!.body!.toString('utf8'));
    expect(validateJsonSchema(payload, payloadSchema)).toEqual([]);

    // Additive (decision 028): the spec's keys in their order, the five new ones after them, then
    // the later additions (attestation, issue 14; resendOf, issue 28).
    expect(Object.keys(payload)).toEqual([
      'applicationId',
      'userId',
      'userEmail',
      'timestamp',
      'applicantInfo',
      'documents',
      'licenses',
      'education',
      'workHistory',
      'malpracticeInsurance',
      'vaccinations',
      'payors',
      'certifications',
      'cme',
      'peerReferences',
      'specialties',
      'practiceLocations',
      'hospitalAffiliations',
      'training',
      'malpracticeClaims',
      'attestation',
      'resendOf',
    ]);

    // The specialty names its board certification as the certifications list does, not by row id.
    const { certification } = FACTORY_ADDITIONAL;
    expect(payload.specialties).toEqual([
      {
        id: expect.any(String),
        application_id: applicationId,
        specialty_rank: 'primary',
        taxonomy_code: '207R00000X',
        classification: 'Internal Medicine',
        specialization: null,
        board_certification: {
          certification_name: certification.certificationName,
          certifying_body: certification.certifyingBody,
          certification_number: certification.certificationNumber,
        },
        created_at: expect.any(String),
      },
    ]);
    expect(payload.practiceLocations).toEqual([
      expect.objectContaining({
        practice_name: 'Springfield Internal Medicine',
        group_npi: '1987654328',
        is_primary_location: true,
        accepting_new_patients: 'yes',
        languages_spoken: 'English, Spanish',
        fax: null,
      }),
    ]);
    expect(payload.hospitalAffiliations).toEqual([
      expect.objectContaining({
        privilege_status: 'active',
        facility_name: 'Springfield General Hospital',
        start_date: '2012-02-01',
        end_date: null,
        admitting_arrangement: null,
      }),
    ]);
    expect(payload.training).toEqual([
      expect.objectContaining({
        no_training: false,
        training_type: 'residency',
        institution_name: 'University of Illinois Hospital',
        end_date: '2012-06-30',
        completed: 'yes',
        not_completed_reason: null,
      }),
    ]);
    // The amount is a JSON number (numeric(12,2) in the database), not a string.
    expect(payload.malpracticeClaims).toEqual([
      expect.objectContaining({
        no_claims: false,
        claim_date: '2018-03-01',
        status: 'settled',
        amount_paid: 125000.5,
        insurer: 'MedPro',
      }),
    ]);
    expect(requestsFor(applicationId)[0]!.body!.toString('utf8')).toContain('"amount_paid":125000.5,');

    // The schema is as strict for the new keys: a string amount or a bare certification id is refused.
    const claimAsText = {
      ...payload,
      malpracticeClaims: [{ ...payload.malpracticeClaims[0], amount_paid: '125000.50' }],
    };
    expect(validateJsonSchema(claimAsText, payloadSchema)).toEqual([
      '$/malpracticeClaims/0/amount_paid: must be number,null',
    ]);
    const linkById = {
      ...payload,
      specialties: [{ ...payload.specialties[0], board_certification_id: randomUUID() }],
    };
    expect(validateJsonSchema(linkById, payloadSchema)).toEqual([
      '$/specialties/0: must NOT have additional properties',
    ]);
  });

  it('stores the signed attestation with the SHA-256 of the snapshot it signs, encrypted and immutable, and sends it', async () => {
    // Alice answers one question Yes, with an explanation, and types her name in her own spacing and case.
    const { provider: alice, applicationId } = await providerWithCompleteApplication();
    const signed = await signedAttestation(alice);
    const explanation = 'License suspended for 30 days in 2015 over a records audit; reinstated in full.';
    const response = await alice.json<CompletionState>(
      'POST',
      `/api/applications/${applicationId}/completion`,
      {
        answers: { ...signed.answers, licenseLossOrFelony: { answer: 'yes', explanation } },
        signature: `  ${signed.signature.toUpperCase().replace(' ', '   ')} `,
      },
    );
    expect(response.status).toBe(200);

    // The payload carries it after spec §7's keys, before resendOf (issue 28), valid against the
    // published schema.
    const payload = JSON.parse(requestsFor(applicationId)[0]!.body!.toString('utf8'));
    expect(validateJsonSchema(payload, payloadSchema)).toEqual([]);
    expect(Object.keys(payload).slice(-2)).toEqual(['attestation', 'resendOf']);
    const { rows: versions } = await app.runtime.deps.database.pool.query<{ sha256: string }>(
      'select sha256 from application_versions where application_id = $1 and version = 1',
      [applicationId],
    );
    expect(payload.attestation).toMatchObject({
      kind: 'completion',
      signature: signed.signature.toUpperCase().replace(' ', '   '),
      snapshotVersion: 1,
      snapshotSha256: versions[0]!.sha256,
    });
    expect(payload.attestation.ipAddress).toBeTruthy();
    expect(payload.attestation.answers.map((a: { questionId: string }) => a.questionId)).toEqual(
      disclosureQuestions.map((q) => q.id),
    );
    const answerTo = (id: string) =>
      payload.attestation.answers.find((a: { questionId: string }) => a.questionId === id);
    expect(answerTo('licenseLossOrFelony')).toEqual({
      questionId: 'licenseLossOrFelony',
      question: disclosureQuestions.find((q) => q.id === 'licenseLossOrFelony')!.text,
      answer: 'yes',
      explanation,
    });
    expect(answerTo('illegalDrugUse')).toMatchObject({ answer: 'no', explanation: null });
    // The published schema lists exactly the domain's keys (issue 31 item 2: additive, new keys).
    const schemaIds = (payloadSchema as unknown as AttestationAnswersSchema).properties.attestation.anyOf[1]!
      .properties.answers.items.properties.questionId.enum;
    expect(schemaIds).toEqual(disclosureQuestions.map((q) => q.id));

    // At rest the answers are ciphertext, and the row cannot be changed.
    const { rows } = await app.runtime.deps.database.pool.query<{
      id: string;
      answers_encrypted: string;
      user_agent: string | null;
    }>('select id, answers_encrypted, user_agent from application_attestations where application_id = $1', [
      applicationId,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBe(payload.attestation.id);
    expect(rows[0]!.answers_encrypted).not.toContain('suspended');
    expect(payload.attestation.userAgent).toBe(rows[0]!.user_agent);
    await expect(
      app.runtime.deps.database.pool.query(
        `update application_attestations set signature = 'x' where id = $1`,
        [rows[0]!.id],
      ),
    ).rejects.toThrow(/immutable/);
    await expect(
      app.runtime.deps.database.pool.query('delete from application_attestations where id = $1', [
        rows[0]!.id,
      ]),
    ).rejects.toThrow(/immutable/);
  });

  it('refuses a missing, unexplained or mismatched attestation, and records nothing', async () => {
    const { provider: bob, applicationId } = await providerWithCompleteApplication();
    const signed = await signedAttestation(bob);
    const url = `/api/applications/${applicationId}/completion`;

    const empty = await bob.json<{ issues: unknown[] }>('POST', url, {});
    expect(empty.status).toBe(400);
    const missing = await bob.request('POST', url);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({
      message: 'Sign the attestation first: answer each question and type your full name.',
    });

    const unexplained = await bob.json<{ issues: unknown[] }>('POST', url, {
      ...signed,
      answers: { ...signed.answers, illegalDrugUse: { answer: 'yes', explanation: '   ' } },
    });
    expect(unexplained.status).toBe(400);
    expect(unexplained.body.issues).toContainEqual({
      path: ['answers', 'illegalDrugUse', 'explanation'],
      message: 'Explain your "Yes" answer.',
    });

    const unsigned = await bob.json<{ issues: unknown[] }>('POST', url, { ...signed, signature: '' });
    expect(unsigned.status).toBe(400);
    expect(unsigned.body.issues).toContainEqual({
      path: ['signature'],
      message: 'Type your full name to sign.',
    });

    const mismatched = await bob.json<{ issues: unknown[] }>('POST', url, {
      ...signed,
      signature: 'Someone Else',
    });
    expect(mismatched.status).toBe(400);
    expect(mismatched.body.issues).toContainEqual({
      path: ['signature'],
      message: `Type your full name as your profile has it: ${signed.signature}.`,
    });

    // Nothing was recorded or sent: still a draft, no snapshot, no attestation, no notification.
    const { rows } = await app.runtime.deps.database.pool.query<{
      status: string;
      versions: number;
      attestations: number;
      notifications: number;
    }>(
      `select application_status as status,
         (select count(*)::int from application_versions where application_id = a.id) as versions,
         (select count(*)::int from application_attestations where application_id = a.id) as attestations,
         (select count(*)::int from completion_notifications where application_id = a.id) as notifications
       from provider_applications a where id = $1`,
      [applicationId],
    );
    expect(rows[0]).toEqual({ status: 'draft', versions: 0, attestations: 0, notifications: 0 });
    expect(requestsFor(applicationId)).toHaveLength(0);
  });

  it('is idempotent: a second click returns the same completion and sends nothing', async () => {
    const { provider, applicationId } = await providerWithCompleteApplication();
    // A double click: one record, one delivery (the later request may answer while it is in flight).
    const [first, second] = await Promise.all([
      complete(provider, applicationId),
      complete(provider, applicationId),
    ]);
    expect(first.body.requestedAt).toBe(second.body.requestedAt);
    expect([first.body.status, second.body.status]).toContain('delivered');
    // Clicking again later, with no attestation (the dashboard sends none once completed): the same
    // delivered completion, and still one attestation.
    const third = await provider.json<CompletionState>(
      'POST',
      `/api/applications/${applicationId}/completion`,
    );
    expect(third.status).toBe(200);
    expect(third.body).toEqual({ ...third.body, status: 'delivered', requestedAt: first.body.requestedAt });
    expect(requestsFor(applicationId)).toHaveLength(1);
    const count = await app.runtime.deps.database.pool.query(
      `select (select count(*)::int from completion_notifications where application_id = $1) as n,
         (select count(*)::int from application_attestations where application_id = $1) as attestations`,
      [applicationId],
    );
    expect(count.rows[0]).toEqual({ n: 1, attestations: 1 });
  });

  it('is offered only to the owner of a draft at 100%', async () => {
    // Not every section complete: 15 of 16 (issue 31: every section counts, the five new ones too).
    const { provider: alice, applicationId } = await providerWithCompleteApplication();
    await app.runtime.deps.db.delete(peerReferences).where(sql`application_id = ${applicationId}`);
    const incomplete = await complete(alice, applicationId);
    expect(incomplete.status).toBe(409);
    expect(incomplete.body).toMatchObject({
      message: 'Complete every section first: 15 of 16 are complete.',
    });
    // One of the five new sections empty is as incomplete.
    const { provider: dan, applicationId: withoutTraining } = await providerWithCompleteApplication();
    await app.runtime.deps.db.delete(training).where(sql`application_id = ${withoutTraining}`);
    expect((await complete(dan, withoutTraining)).body).toMatchObject({
      message: 'Complete every section first: 15 of 16 are complete.',
    });

    // Not a draft.
    const { provider: bob, applicationId: submitted } = await providerWithCompleteApplication();
    await app.runtime.deps.database.pool.query(
      `update provider_applications set application_status = 'submitted' where id = $1`,
      [submitted],
    );
    const notDraft = await complete(bob, submitted);
    expect(notDraft.status).toBe(409);
    expect(notDraft.body).toMatchObject({ message: 'Only a draft application can be completed.' });

    // Someone else's application: not found. An admin: forbidden. Nobody signed in: 401.
    const { applicationId: carols } = await providerWithCompleteApplication();
    expect((await complete(bob, carols)).status).toBe(404);
    const admin = await signUpAndSignIn(app);
    await grantAdmin(app, admin);
    expect((await complete(admin, carols)).status).toBe(403);
    const anonymous = await new Client(app).json('POST', `/api/applications/${carols}/completion`, {
      answers: Object.fromEntries(disclosureQuestions.map((q) => [q.id, { answer: 'no' }])),
      signature: 'Nobody',
    });
    expect(anonymous.status).toBe(401);
    expect(requestsFor(applicationId)).toHaveLength(0);
    expect(requestsFor(carols)).toHaveLength(0);
  });
});
