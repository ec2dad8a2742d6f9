/**
 * Completion notifications end to end over real HTTP: the app on a fresh PostgreSQL database sends to
 * a real receiver on 127.0.0.1 that verifies the Standard Webhooks signature with the
 * `standardwebhooks` package, validates the body against docs/completion-payload.schema.json and
 * compares every decoded document with the stored file.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { disclosureQuestions } from '../../domain/attestation.ts';
import { Client, createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { signedAttestation } from '../../tests/http-client.ts';
import { documents } from '../db/schema/documents.ts';
import { peerReferences, training } from '../db/schema/sections.ts';
import { loadEnv } from '../env.ts';
import { createRuntime } from '../runtime.ts';
import {
  createCompletedApplication,
  FACTORY_ADDITIONAL,
  FACTORY_SSN,
} from './testing/completed-application.ts';
import { type JsonSchema, validateJsonSchema } from './testing/json-schema.ts';
import { type ReceivedRequest, WebhookReceiver, waitUntil } from './testing/webhook-receiver.ts';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const payloadSchema = JSON.parse(
  fs.readFileSync(new URL('../../docs/completion-payload.schema.json', import.meta.url), 'utf8'),
) as JsonSchema;

/** The path to the answer keys in docs/completion-payload.schema.json. */
interface AttestationAnswersSchema {
  properties: {
    attestation: {
      anyOf: { properties: { answers: { items: { properties: { questionId: { enum: string[] } } } } } }[];
    };
  };
}

/** Fast retries so fault tests finish in seconds. */
const fastRetries = {
  NOTIFY_WEBHOOK_SECRET: SECRET,
  NOTIFY_TIMEOUT_MS: '3000',
  NOTIFY_RETRY_BASE_MS: '100',
  NOTIFY_RETRY_MAX_MS: '2000',
  NOTIFY_POLL_INTERVAL_MS: '100',
  NOTIFY_MAX_ATTEMPTS: '5',
};

interface CompletionState {
  status: string;
  requestedAt: string;
  deliveredAt: string | null;
  lastError: string | null;
}

interface AttemptRow {
  http_status: number | null;
  duration_ms: number | null;
  error: string | null;
  attempted_at: Date;
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

/** Sign up a provider and give them a draft at 100% (documents: sizes in bytes). */
async function providerWithCompleteApplication(target: TestApp = app, documentSizes?: number[]) {
  const provider = await signUpAndSignIn(target);
  const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
  const filled = await createCompletedApplication({
    ...target.runtime.deps,
    userId: provider.userId,
    applicationId: created.body.id,
    documentSizes,
  });
  return { provider, ...filled };
}

async function complete(client: Client, applicationId: string) {
  return client.json<CompletionState>(
    'POST',
    `/api/applications/${applicationId}/completion`,
    await signedAttestation(client),
  );
}

async function attemptsOf(target: TestApp, applicationId: string): Promise<AttemptRow[]> {
  const result = await target.runtime.deps.database.pool.query<AttemptRow>(
    `select a.http_status, a.duration_ms, a.error, a.attempted_at from notification_attempts a
     join completion_notifications n on n.id = a.notification_id
     where n.application_id = $1 order by a.attempted_at, a.id`,
    [applicationId],
  );
  return result.rows;
}

async function notificationOf(target: TestApp, applicationId: string) {
  const result = await target.runtime.deps.database.pool.query<{
    id: string;
    status: string;
    attempts: number;
    last_error: string | null;
  }>('select id, status, attempts, last_error from completion_notifications where application_id = $1', [
    applicationId,
  ]);
  return result.rows[0];
}

function requestsFor(applicationId: string): ReceivedRequest[] {
  return receiver.requests.filter((r) => r.body?.toString().includes(applicationId));
}

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
    expect(Object.keys(payload.applicantInfo.personalInformation)).toHaveLength(17);
    expect(payload.applicantInfo.personalInformation).toMatchObject({
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
    expect(payload.certifications).toEqual([
      {
        certification_name: 'Board Certified, Internal Medicine',
        certifying_body: 'ABIM',
        certification_number: 'C-1',
        cert_issue_date: '2012-07-01',
        cert_exp_date: null,
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

  it('retries 503 twice, then delivers once: three attempts recorded', async () => {
    const { provider, applicationId } = await providerWithCompleteApplication();
    receiver.answers = [503, 503];
    const response = await complete(provider, applicationId);
    // The user is told the truth: not delivered yet, queued.
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ status: 'pending', lastError: 'The receiver answered HTTP 503' });

    await waitUntil(
      async () => (await notificationOf(app, applicationId))?.status === 'delivered',
      15_000,
      'delivery',
    );
    const requests = requestsFor(applicationId);
    expect(requests.map((r) => r.answer)).toEqual([503, 503, 200]);
    expect(requests.every((r) => r.verified)).toBe(true);
    // The same webhook-id every time, so the receiver can de-duplicate.
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const attempts = await attemptsOf(app, applicationId);
    expect(attempts.map((a) => a.http_status)).toEqual([503, 503, 200]);
    expect(attempts.map((a) => a.error)).toEqual([
      'The receiver answered HTTP 503',
      'The receiver answered HTTP 503',
      null,
    ]);
  });

  it("waits as long as the receiver's Retry-After says", async () => {
    const { provider, applicationId } = await providerWithCompleteApplication();
    receiver.answers = [{ status: 429, headers: { 'retry-after': '1' } }];
    const response = await complete(provider, applicationId);
    expect(response.body.status).toBe('pending');
    await waitUntil(
      async () => (await notificationOf(app, applicationId))?.status === 'delivered',
      15_000,
      'delivery',
    );
    const attempts = await attemptsOf(app, applicationId);
    expect(attempts.map((a) => a.http_status)).toEqual([429, 200]);
    // Full jitter alone would retry within NOTIFY_RETRY_BASE_MS (100 ms).
    expect(attempts[1]!.attempted_at.getTime() - attempts[0]!.attempted_at.getTime()).toBeGreaterThanOrEqual(
      950,
    );
  });

  it('keeps the notification while the receiver is down and delivers when it is back', async () => {
    const { provider, applicationId } = await providerWithCompleteApplication();
    await receiver.close();
    try {
      const response = await complete(provider, applicationId);
      expect(response.status).toBe(202);
      expect(response.body).toMatchObject({
        status: 'pending',
        lastError: 'Could not reach the receiver (ECONNREFUSED)',
      });
      // Retries keep failing while it is down; nothing is lost.
      await waitUntil(async () => (await attemptsOf(app, applicationId)).length >= 2, 10_000, 'a retry');
      expect((await notificationOf(app, applicationId))?.status).toBe('pending');
    } finally {
      await receiver.listen();
    }
    await waitUntil(
      async () => (await notificationOf(app, applicationId))?.status === 'delivered',
      15_000,
      'delivery',
    );
    expect(requestsFor(applicationId).filter((r) => r.verified && r.answer === 200)).toHaveLength(1);
    const attempts = await attemptsOf(app, applicationId);
    expect(attempts.at(-1)).toMatchObject({ http_status: 200, error: null });
    expect(
      attempts.slice(0, -1).every((a) => a.error === 'Could not reach the receiver (ECONNREFUSED)'),
    ).toBe(true);
  });

  it('gives up at once on 400 (no retry) and an admin can re-send it', async () => {
    const { provider, applicationId } = await providerWithCompleteApplication();
    receiver.answers = [400];
    const response = await complete(provider, applicationId);
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ status: 'failed', lastError: 'The receiver answered HTTP 400' });
    // The worker looks for due notifications, as every poll does, and finds nothing to send again.
    await app.runtime.deps.completionDelivery.kick();
    expect(await attemptsOf(app, applicationId)).toHaveLength(1);
    expect(requestsFor(applicationId)).toHaveLength(1);

    // A provider clicking again does not bypass the refusal.
    expect((await complete(provider, applicationId)).body.status).toBe('failed');
    expect(requestsFor(applicationId)).toHaveLength(1);

    // The admin sees it with its attempts.
    const admin = await signUpAndSignIn(app);
    await grantAdmin(app, admin);
    const notification = await notificationOf(app, applicationId);
    const failedList = await admin.json<{
      notifications: { id: string; status: string; attemptLog: AttemptRow[] }[];
    }>('GET', '/api/admin/notifications?status=failed');
    expect(failedList.status).toBe(200);
    const listed = failedList.body.notifications.find((n) => n.id === notification!.id);
    expect(listed).toMatchObject({
      status: 'failed',
      applicationId,
      userId: provider.userId,
      providerEmail: provider.email,
      lastError: 'The receiver answered HTTP 400',
      attemptLog: [{ httpStatus: 400, error: 'The receiver answered HTTP 400' }],
    });
    expect(failedList.body.notifications.every((n) => n.status === 'failed')).toBe(true);
    expect((await provider.json('GET', '/api/admin/notifications')).status).toBe(403);
    expect((await admin.json('GET', '/api/admin/notifications?limit=0')).status).toBe(400);

    // Re-send (issue 28 item 7): a new message, or a receiver that drops seen ids (the shipped n8n
    // workflow) drops it. A new webhook-id, the payload naming the first message; its retry (503
    // then 200) keeps the new id, as Standard Webhooks requires. Audited.
    receiver.answers = [503, 200];
    const resent = await admin.json<{
      id: string;
      webhookId: string;
      status: string;
      attempts: number;
      attemptLog: unknown[];
    }>('POST', `/api/admin/notifications/${notification!.id}/resend`, {});
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ id: notification!.id, status: 'pending', attempts: 1 });
    await waitUntil(
      async () => (await notificationOf(app, applicationId))?.status === 'delivered',
      10_000,
      'the re-send delivered',
    );
    const sent = requestsFor(applicationId);
    expect(sent.map((r) => r.answer)).toEqual([400, 503, 200]);
    expect(sent.every((r) => r.verified)).toBe(true);
    const [first, ...again] = sent.map((r) => r.headers['webhook-id']);
    expect(first).toBe(notification!.id);
    expect(again).toEqual([resent.body.webhookId, resent.body.webhookId]);
    expect(resent.body.webhookId).not.toBe(notification!.id);
    const bodies = sent.map((r) => JSON.parse(r.body!.toString('utf8')) as Record<string, unknown>);
    expect(bodies.map((b) => b.resendOf)).toEqual([null, notification!.id, notification!.id]);
    for (const body of bodies) expect(validateJsonSchema(body, payloadSchema)).toEqual([]);
    // A second re-send is another new message, still naming the first.
    receiver.answers = [200];
    const again2 = await admin.json<{ webhookId: string; status: string }>(
      'POST',
      `/api/admin/notifications/${notification!.id}/resend`,
      {},
    );
    expect(again2.body.status).toBe('delivered');
    expect(new Set([notification!.id, resent.body.webhookId, again2.body.webhookId]).size).toBe(3);
    const last = requestsFor(applicationId).at(-1)!;
    expect(last.headers['webhook-id']).toBe(again2.body.webhookId);
    expect(JSON.parse(last.body!.toString('utf8')).resendOf).toBe(notification!.id);
    const audit = await app.runtime.deps.database.pool.query(
      `select actor_user_id, details->>'webhookId' as webhook_id, details->>'resendOf' as resend_of
       from audit_log where action = 'notification.resend' and resource_id = $1 order by id`,
      [notification!.id],
    );
    expect(audit.rows).toEqual([
      { actor_user_id: admin.userId, webhook_id: resent.body.webhookId, resend_of: notification!.id },
      { actor_user_id: admin.userId, webhook_id: again2.body.webhookId, resend_of: notification!.id },
    ]);
    expect(
      (await provider.json('POST', `/api/admin/notifications/${notification!.id}/resend`, {})).status,
    ).toBe(403);
    expect((await admin.json('POST', '/api/admin/notifications/not-an-id/resend', {})).status).toBe(404);
  });
});

describe('limits and configuration', () => {
  it('fails with a clear message when the payload is larger than NOTIFY_MAX_PAYLOAD_BYTES', async () => {
    const small = await createTestApp({
      NOTIFY_WEBHOOK_URL: receiver.url,
      ...fastRetries,
      NOTIFY_MAX_PAYLOAD_BYTES: '50000',
    });
    try {
      const { provider, applicationId } = await providerWithCompleteApplication(small, [60_000]);
      const response = await complete(provider, applicationId);
      expect(response.status).toBe(202);
      expect(response.body.status).toBe('failed');
      expect(response.body.lastError).toMatch(
        /^payload too large: more than 50000 bytes \(NOTIFY_MAX_PAYLOAD_BYTES\)/,
      );
      // The worker looks for due notifications and has nothing to send: the failure is final.
      await small.runtime.deps.completionDelivery.kick();
      expect(requestsFor(applicationId)).toHaveLength(0);
      const attempts = await attemptsOf(small, applicationId);
      expect(attempts).toHaveLength(1);
      expect(attempts[0]).toMatchObject({ http_status: null, error: response.body.lastError });
    } finally {
      await small.close();
    }
  });

  it('records completions as undelivered without an endpoint, and sends them once one is configured', async () => {
    const bare = await createTestApp({});
    let restarted: Awaited<ReturnType<typeof createRuntime>> | undefined;
    try {
      const { provider, applicationId } = await providerWithCompleteApplication(bare);
      const response = await complete(provider, applicationId);
      expect(response.status).toBe(202);
      expect(response.body).toMatchObject({ status: 'undelivered', lastError: 'no endpoint configured' });
      const admin = await signUpAndSignIn(bare);
      await grantAdmin(bare, admin);
      const list = await admin.json<{ notifications: { status: string; applicationId: string }[] }>(
        'GET',
        '/api/admin/notifications',
      );
      expect(list.body.notifications).toEqual([
        expect.objectContaining({
          applicationId,
          status: 'undelivered',
          lastError: 'no endpoint configured',
        }),
      ]);

      // The server restarts with an endpoint: the recorded completion is sent.
      await bare.runtime.close();
      restarted = await createRuntime({
        env: loadEnv({
          NODE_ENV: 'test',
          DATABASE_URL: bare.databaseUrl,
          DATA_DIR: bare.dataDir,
          LOG_LEVEL: 'silent',
          NOTIFY_WEBHOOK_URL: receiver.url,
          ...fastRetries,
        }),
        serveWeb: false,
      });
      // The row turns 'delivered' once the server has read the receiver's 200, a moment after the
      // receiver answered: wait for the row, not the request (CI once read it in between).
      const statusOf = async () =>
        (
          await restarted!.deps.database.pool.query<{ status: string }>(
            'select status from completion_notifications where application_id = $1',
            [applicationId],
          )
        ).rows[0]?.status;
      await waitUntil(async () => (await statusOf()) === 'delivered', 10_000, 'delivery');
      expect(requestsFor(applicationId).filter((r) => r.verified && r.answer === 200)).toHaveLength(1);
    } finally {
      await restarted?.close();
      await bare.close();
    }
  });
});

describe('retry budget', () => {
  it('marks the notification failed after NOTIFY_MAX_ATTEMPTS retryable failures', async () => {
    const { provider, applicationId } = await providerWithCompleteApplication();
    receiver.answers = [500, 502, 503, 504, 500];
    expect((await complete(provider, applicationId)).body.status).toBe('pending');
    await waitUntil(
      async () => (await notificationOf(app, applicationId))?.status === 'failed',
      20_000,
      'failure',
    );
    const notification = await notificationOf(app, applicationId);
    expect(notification).toMatchObject({
      attempts: 5,
      last_error: 'Gave up after 5 attempts. Last error: The receiver answered HTTP 500',
    });
    expect((await attemptsOf(app, applicationId)).map((a) => a.http_status)).toEqual([
      500, 502, 503, 504, 500,
    ]);
    // The worker looks for due notifications and sends no sixth attempt.
    await app.runtime.deps.completionDelivery.kick();
    expect(await attemptsOf(app, applicationId)).toHaveLength(5);
    expect(requestsFor(applicationId)).toHaveLength(5);
  });
});
