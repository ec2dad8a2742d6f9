/**
 * GET /api/admin/applications/:id/versions/:version answers the rows that changed, paired by row
 * identity (issue 29 item 5): a response that changes one date and uploads one document is two row
 * changes; a recredentialing copy's version 1 is compared with the previous cycle's newest version.
 * Real PostgreSQL, real HTTP; the snapshot carries row keys, the completion payload never does.
 */
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApplicationVersion } from '../../domain/api/review.ts';
import { minimalPdf } from '../../tests/fixtures/files.ts';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { storeNextVersion } from '../notifications/application-snapshot.ts';
import { loadCompletionSource } from '../notifications/completion-payload.ts';
import { completedApplication } from './testing/completed-review-application.ts';

let app: TestApp;
let admin: Awaited<ReturnType<typeof signUpAndSignIn>>;

beforeAll(async () => {
  app = await createTestApp();
  admin = await signUpAndSignIn(app, { firstName: 'Grace' });
  await grantAdmin(app, admin);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

const adminPath = (applicationId: string, rest: string) => `/api/admin/applications/${applicationId}/${rest}`;
const licensesPath = (applicationId: string) =>
  `/api/applications/${applicationId}/sections/professional-licenses`;

async function version(applicationId: string, n: number) {
  const response = await admin.json<ApplicationVersion>('GET', adminPath(applicationId, `versions/${n}`));
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

describe('the changes of a version, by row identity', () => {
  it('gives one date change plus one upload in a response as exactly two row changes', async () => {
    // First, a provider completes; version 1 has nothing to compare with.
    const { provider, applicationId } = await completedApplication(app);
    const v1 = await version(applicationId, 1);
    expect(v1).toMatchObject({ comparedWith: null, changes: [] });

    // Second, the reviewer asks about the licenses and the documents.
    expect((await admin.json('POST', adminPath(applicationId, 'start-review'), {})).status).toBe(200);
    const requested = await admin.json<{ requestId: string }>(
      'POST',
      adminPath(applicationId, 'request-information'),
      {
        message: 'Your license expiry and your CV, please.',
        sections: ['professionalLicenses', 'documents'],
      },
    );
    expect(requested.status).toBe(200);

    // Third, the provider changes the license's expiry and uploads a CV (listed first: newest upload).
    const licenses = await provider.json<{ rows: { id: string; licenseNumber: string | null }[] }>(
      'GET',
      licensesPath(applicationId),
    );
    const md1 = licenses.body.rows.find((r) => r.licenseNumber === 'MD-1')!;
    const saved = await provider.json('PUT', licensesPath(applicationId), {
      rows: [{ ...md1, expirationDate: '2032-06-01' }],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const form = new FormData();
    form.append('documentType', 'cv_resume');
    form.append('file', new Blob([new Uint8Array(minimalPdf())], { type: 'application/pdf' }), 'cv.pdf');
    expect(
      (await provider.request('POST', `/api/applications/${applicationId}/documents`, form)).status,
    ).toBe(201);
    const responded = await provider.json(
      'POST',
      `/api/applications/${applicationId}/information-requests/${requested.body.requestId}/response`,
      { reply: 'Renewed, and my CV.' },
    );
    expect(responded).toMatchObject({ status: 200, body: { version: 2 } });

    // The reviewer reads two row changes: the license's one field, and the new document.
    const v2 = await version(applicationId, 2);
    expect(v2.comparedWith).toEqual({ kind: 'previous_version', version: 1 });
    expect(v2.changes).toEqual([
      {
        section: 'licenses',
        sectionLabel: 'Professional Licenses',
        rowKey: expect.any(String),
        rowLabel: 'Medical License · MD-1 · IL · Active',
        change: 'changed',
        fields: [
          { field: 'license_exp', label: 'Expiration Date', before: '2030-06-01', after: '2032-06-01' },
        ],
      },
      {
        section: 'documents',
        sectionLabel: 'Documents',
        rowKey: expect.any(String),
        rowLabel: 'cv.pdf',
        change: 'added',
        fields: expect.arrayContaining([
          { field: 'document_name', label: 'Document Name', before: null, after: 'cv.pdf' },
          { field: 'document_type', label: 'Document Type', before: null, after: 'CV / Resume' },
        ]),
      },
    ]);

    // The snapshot rows carry their row keys; the completion payload does not (spec §7 data only).
    const snapshot = v2.snapshot as {
      lists: { licenses: { row_key?: string }[] };
      documents: { row_key?: string }[];
    };
    const [keyRow] = await app.runtime.deps.database.pool
      .query<{ row_key: string }>(`select row_key from professional_licenses where id = $1`, [md1.id])
      .then((r) => r.rows);
    expect(snapshot.lists.licenses.map((r) => r.row_key)).toContain(keyRow!.row_key);
    expect(v2.changes[0]!.rowKey).toBe(keyRow!.row_key);
    expect(snapshot.documents.every((d) => typeof d.row_key === 'string')).toBe(true);
    const source = await loadCompletionSource({
      db: app.runtime.deps.db,
      cipher: app.runtime.deps.cipher,
      logger: pino({ level: 'silent' }),
      notification: { id: randomUUID(), applicationId, userId: provider.userId, createdAt: new Date() },
    });
    expect(JSON.stringify(source)).not.toContain('row_key');
  }, 60_000);

  it("compares a copied application's version 1 with the previous cycle's newest version", async () => {
    // First, a provider's application is approved and she starts the next cycle from it.
    const { provider, applicationId: oldId } = await completedApplication(app);
    await app.runtime.deps.database.pool.query(
      `update provider_applications set application_status = 'approved', decided_at = '2024-01-15T10:00:00Z' where id = $1`,
      [oldId],
    );
    const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const newId = created.body.id;

    // Second, she renews the license in the copy; the copy's version 1 is stored.
    const licenses = await provider.json<{ rows: { id: string; licenseNumber: string | null }[] }>(
      'GET',
      licensesPath(newId),
    );
    const md1 = licenses.body.rows.find((r) => r.licenseNumber === 'MD-1')!;
    const saved = await provider.json('PUT', licensesPath(newId), {
      rows: [{ ...md1, expirationDate: '2033-06-01' }],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    await app.runtime.deps.db.transaction((tx) =>
      storeNextVersion(tx, { id: newId, userId: provider.userId }, 'completion'),
    );

    // The reviewer sees the changes since the previous cycle: the one license row, nothing else
    // (every other row and document was copied under its row key, with new ids).
    const v1 = await version(newId, 1);
    expect(v1.comparedWith).toEqual({ kind: 'previous_cycle', applicationId: oldId, version: 1 });
    expect(v1.changes).toEqual([
      expect.objectContaining({
        section: 'licenses',
        change: 'changed',
        fields: [
          { field: 'license_exp', label: 'Expiration Date', before: '2030-06-01', after: '2033-06-01' },
        ],
      }),
    ]);

    expect((await admin.json('GET', adminPath(newId, 'versions/2'))).status).toBe(404);
  }, 60_000);
});
