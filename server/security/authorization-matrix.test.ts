/**
 * Calls every registered API route as anonymous, provider A (owner), provider B, an admin, an admin
 * without a second factor and one caller per staff role of issue 32 (specialist, medical director,
 * committee member, auditor) against
 * provider A's resources and compares each status with the explicit table in authorization-matrix.ts
 * (kept by area in authorization-matrix-*.ts).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalPdf } from '../../tests/fixtures/files.ts';
import {
  Client,
  createTestApp,
  grantAdmin,
  signUpAndSignIn,
  signUpStaff,
  type TestApp,
} from '../../tests/harness.ts';
import { signedAttestation } from '../../tests/http-client.ts';
import { authorizationMatrix } from './authorization-matrix.ts';
import { type Caller, callers, type MatrixContext } from './authorization-matrix-callers.ts';

let app: TestApp;
let clients: Record<Caller, Client>;
let ctx: MatrixContext;

function uploadBody(): FormData {
  const form = new FormData();
  form.append('documentType', 'cv_resume');
  form.append('file', new Blob([new Uint8Array(minimalPdf())], { type: 'application/pdf' }), 'cv.pdf');
  return form;
}

async function expectStatus(response: { status: number; body: unknown }, status: number) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
}

beforeAll(async () => {
  // With the inbound webhook configured, so its row checks the signature rather than the set-up.
  app = await createTestApp({ INBOUND_WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 7).toString('base64')}` });
  // First, provider A completes an application: every section and one document.
  const providerA = await signUpAndSignIn(app, { firstName: 'Alice' });
  const application = await providerA.json<{ id: string }>('POST', '/api/applications', {});
  const applicationId = application.body.id;
  const base = `/api/applications/${applicationId}/sections`;
  await expectStatus(
    await providerA.json('PUT', `${base}/personal-information`, { providerType: 'MD', ssn: '123-45-6789' }),
    200,
  );
  await expectStatus(
    await providerA.json('PUT', `${base}/professional-licenses`, { rows: [{ licenseNumber: 'L-1' }] }),
    200,
  );
  await expectStatus(
    await providerA.json('PUT', `${base}/education`, { rows: [{ institutionName: 'Uni' }] }),
    200,
  );
  await expectStatus(
    await providerA.json('PUT', `${base}/work-history`, { rows: [{ employerName: 'Clinic' }] }),
    200,
  );
  await expectStatus(
    await providerA.json('PUT', `${base}/malpractice-insurance`, { rows: [{ insuranceCompany: 'Ins' }] }),
    200,
  );
  await expectStatus(
    await providerA.json('PUT', `${base}/vaccinations`, { rows: [{ vaccineName: 'influenza' }] }),
    200,
  );
  await expectStatus(await providerA.json('POST', `${base}/payors`, { payorName: 'Payor' }), 201);
  await expectStatus(
    await providerA.json('POST', `${base}/certifications`, {
      certificationKind: 'board',
      certificationName: 'C',
      certifyingBody: 'B',
    }),
    201,
  );
  await expectStatus(
    await providerA.json('POST', `${base}/cme`, { activityTitle: 'A', providerName: 'P' }),
    201,
  );
  await expectStatus(await providerA.json('POST', `${base}/peer-references`, { referenceName: 'R' }), 201);
  // Issue 31: the five 'Additional Information' sections count towards completion too.
  for (const [slug, row] of [
    ['specialties', { taxonomyCode: '207R00000X' }],
    ['practice-locations', { practiceName: 'Clinic' }],
    ['hospital-affiliations', { facilityName: 'General Hospital' }],
    ['training', { noTraining: true }],
    ['malpractice-claims', { noClaims: true }],
  ] as const) {
    await expectStatus(await providerA.json('PUT', `${base}/${slug}`, { rows: [row] }), 200);
  }
  const upload = await providerA.request(
    'POST',
    `/api/applications/${applicationId}/documents`,
    uploadBody(),
  );
  expect(upload.status).toBe(201);
  const document = (await upload.json()) as { id: string };
  // Then A notifies the team (no endpoint configured here: recorded as undelivered).
  expect(
    (
      await providerA.request(
        'POST',
        `/api/applications/${applicationId}/completion`,
        await signedAttestation(providerA),
      )
    ).status,
  ).toBe(202);
  const notification = await app.runtime.deps.database.pool.query<{ id: string }>(
    'select id from completion_notifications where application_id = $1',
    [applicationId],
  );

  // A status event of A's application, as a review's transition writes one (issue 28: re-sent).
  const statusEvent = await app.runtime.deps.database.pool.query<{ id: string }>(
    `insert into status_events (application_id, payload, status, next_attempt_at)
     values ($1, $2, 'failed', null) returning id`,
    [
      applicationId,
      {
        type: 'application.status_changed',
        timestamp: new Date().toISOString(),
        data: {
          applicationId,
          from: 'submitted',
          to: 'under_review',
          actor: { type: 'reviewer', id: null },
          occurredAt: new Date().toISOString(),
        },
        resendOf: null,
      },
    ],
  );

  // Second, provider B with a draft of their own, and an admin.
  const providerB = await signUpAndSignIn(app, { firstName: 'Bob' });
  await providerB.json('POST', '/api/applications', {});
  const admin = await signUpAndSignIn(app, { firstName: 'Ada' });
  await grantAdmin(app, admin);

  // An admin who has not set up a second factor yet (the role alone, issue 16).
  const adminWithout2fa = await signUpAndSignIn(app, { firstName: 'Ned' });
  await app.runtime.deps.database.pool.query(`update user_roles set role = 'admin' where user_id = $1`, [
    adminWithout2fa.userId,
  ]);

  // Issue 32: one caller per staff role besides admin, each with a second factor.
  clients = {
    anonymous: new Client(app),
    providerA,
    providerB,
    admin,
    adminWithout2fa,
    specialist: await signUpStaff(app, 'specialist', { firstName: 'Sam' }),
    medicalDirector: await signUpStaff(app, 'medical_director', { firstName: 'Meg' }),
    committee: await signUpStaff(app, 'committee', { firstName: 'Cole' }),
    auditor: await signUpStaff(app, 'auditor', { firstName: 'Audrey' }),
  };
  ctx = {
    applicationId,
    userId: providerA.userId,
    documentId: document.id,
    notificationId: notification.rows[0]!.id,
    statusEventId: statusEvent.rows[0]!.id,
    uploadBody,
    async freshPayorId() {
      const row = await providerA.json<{ id: string }>('POST', `${base}/payors`, { payorName: 'To delete' });
      return row.body.id;
    },
    async freshDocumentId() {
      const response = await providerA.request(
        'POST',
        `/api/applications/${applicationId}/documents`,
        uploadBody(),
      );
      return ((await response.json()) as { id: string }).id;
    },
  };
}, 120_000);

afterAll(async () => {
  await app?.close();
});

describe('authorization matrix', () => {
  it('has an entry for every registered route and a route for every entry', () => {
    const registered = app.runtime.app.routeTable.map((r) => `${r.method} ${r.url}`);
    expect(registered.length).toBeGreaterThan(20);
    expect(registered.filter((key) => !(key in authorizationMatrix))).toEqual([]);
    expect(Object.keys(authorizationMatrix).filter((key) => !registered.includes(key))).toEqual([]);
  });

  it('refuses the auditor every write but their own account and public ones (issue 32)', () => {
    const writesAllowed = Object.entries(authorizationMatrix)
      .filter(([key, entry]) => !key.startsWith('GET ') && entry.expected.auditor !== 403)
      .map(([key, entry]) => `${key}: ${entry.expected.auditor}`);
    // Public, the same for every caller: sign-in, the 404 beacon, the signed inbound webhook and the
    // signed notification receipts (issue 53; 503 here: this app has no NOTIFY_WEBHOOK_SECRET).
    // Their own: the roster's column choice (issue 33 item 2), a preference of their account.
    expect(writesAllowed.sort()).toEqual(
      [
        'POST /api/client-events/not-found: 204',
        'POST /api/auth/*: 401',
        'POST /api/integrations/webhooks: 401',
        'POST /api/notifications/receipts: 503',
        'PUT /api/admin/roster/columns: 200',
      ].sort(),
    );
  });

  it('answers every caller on every route as the table says', async () => {
    const mismatches: string[] = [];
    for (const route of app.runtime.app.routeTable) {
      const key = `${route.method} ${route.url}`;
      const entry = authorizationMatrix[key];
      if (!entry) continue;
      for (const caller of callers) {
        const { path, body } = await entry.request(ctx);
        const response = await clients[caller].request(route.method, path, body);
        await response.arrayBuffer();
        if (response.status !== entry.expected[caller]) {
          mismatches.push(`${key} as ${caller}: expected ${entry.expected[caller]}, got ${response.status}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  }, 120_000);
});
