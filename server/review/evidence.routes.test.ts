/**
 * Evidence files of checklist items (issue 13), real PostgreSQL, storage and HTTP: an administrator
 * attaches a PDF to an item while the application is under review; it is in the admin review and
 * downloads byte for byte (audited); the provider reaches none of it (routes 403, not in their
 * document list); wrong type, empty and oversized files are refused with the documents' messages;
 * nothing can be attached or removed once decided; removing deletes the object; the orphan sweep
 * leaves evidence objects alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminReview } from '../../domain/api/review.ts';
import { minimalPdf, pdfOfSize } from '../../tests/fixtures/files.ts';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { sweepOrphanObjects } from '../documents/documents.service.ts';
import { completedApplication } from './testing/completed-review-application.ts';

let app: TestApp;
let admin: Awaited<ReturnType<typeof signUpAndSignIn>>;

beforeAll(async () => {
  app = await createTestApp();
  admin = await signUpAndSignIn(app, { firstName: 'Eva' });
  await grantAdmin(app, admin);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

async function applicationUnderReview() {
  const { provider, applicationId } = await completedApplication(app);
  expect((await admin.json('POST', `/api/admin/applications/${applicationId}/start-review`, {})).status).toBe(
    200,
  );
  const review = await admin.json<AdminReview>('GET', `/api/admin/applications/${applicationId}/review`);
  return { provider, applicationId, item: review.body.checklist[0]! };
}

function fileForm(bytes: Buffer, name: string, type = 'application/pdf'): FormData {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  return form;
}

const evidencePath = (applicationId: string, itemId: string) =>
  `/api/admin/applications/${applicationId}/verification-items/${itemId}/evidence`;

describe('evidence files', () => {
  it('attaches, lists, downloads (audited) and removes a file, for administrators only', async () => {
    const { provider, applicationId, item } = await applicationUnderReview();
    const pdf = minimalPdf('State board printout');
    const uploaded = await admin.request(
      'POST',
      evidencePath(applicationId, item.id),
      fileForm(pdf, 'board.pdf'),
    );
    expect(uploaded.status).toBe(201);
    const evidence = (await uploaded.json()) as {
      id: string;
      fileName: string;
      fileSize: number;
      downloadUrl: string;
    };
    expect(evidence).toMatchObject({ fileName: 'board.pdf', fileSize: pdf.length });

    const review = await admin.json<AdminReview>('GET', `/api/admin/applications/${applicationId}/review`);
    const listed = review.body.checklist.find((i) => i.id === item.id)!.evidence;
    expect(listed).toEqual([expect.objectContaining({ id: evidence.id, uploadedBy: admin.userId })]);

    const download = await admin.request('GET', evidence.downloadUrl);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain('board.pdf');
    expect(Buffer.from(await download.arrayBuffer()).equals(pdf)).toBe(true);
    const audited = await app.runtime.deps.database.pool.query(
      `select action from audit_log where resource_id = $1 order by id`,
      [evidence.id],
    );
    expect(audited.rows.map((r) => r.action)).toEqual([
      'review.evidence_uploaded',
      'review.evidence_downloaded',
    ]);

    // The provider: no route, and never in their own documents or review.
    expect((await provider.request('GET', evidence.downloadUrl)).status).toBe(403);
    expect(
      (await provider.request('POST', evidencePath(applicationId, item.id), fileForm(pdf, 'mine.pdf')))
        .status,
    ).toBe(403);
    expect(
      (await provider.request('DELETE', `/api/admin/applications/${applicationId}/evidence/${evidence.id}`))
        .status,
    ).toBe(403);
    const theirs = await provider.json<{ documents: { documentName: string }[] }>(
      'GET',
      `/api/applications/${applicationId}/documents`,
    );
    expect(theirs.body.documents.map((d) => d.documentName)).not.toContain('board.pdf');
    expect(
      JSON.stringify((await provider.json('GET', `/api/applications/${applicationId}/review`)).body),
    ).not.toContain(evidence.id);

    // The orphan sweep keeps a referenced evidence object, however old.
    const swept = await sweepOrphanObjects(app.runtime.deps.db, app.runtime.deps.storage, { minAgeMs: 0 });
    expect(swept.some((key) => key.startsWith(`evidence/${applicationId}/`))).toBe(false);

    const removed = await admin.request(
      'DELETE',
      `/api/admin/applications/${applicationId}/evidence/${evidence.id}`,
    );
    expect(removed.status).toBe(204);
    expect((await admin.request('GET', evidence.downloadUrl)).status).toBe(404);
    const stored = await app.runtime.deps.database.pool.query(
      'select count(*)::int as n from verification_evidence where id = $1',
      [evidence.id],
    );
    expect(stored.rows[0].n).toBe(0);
  });

  it("refuses files the documents refuse, with the documents' messages, and keeps nothing", async () => {
    const { applicationId, item } = await applicationUnderReview();
    const text = await admin.json<{ message: string }>(
      'POST',
      evidencePath(applicationId, item.id),
      fileForm(Buffer.from('plain text'), 'notes.txt', 'text/plain'),
    );
    expect(text.status).toBe(415);
    const disguised = await admin.json<{ message: string }>(
      'POST',
      evidencePath(applicationId, item.id),
      fileForm(Buffer.from('not really a pdf at all'), 'fake.pdf'),
    );
    expect(disguised.status).toBe(415);
    const empty = await admin.json(
      'POST',
      evidencePath(applicationId, item.id),
      fileForm(Buffer.alloc(0), 'empty.pdf'),
    );
    expect(empty.status).toBe(400);
    const large = await admin.json<{ message: string }>(
      'POST',
      evidencePath(applicationId, item.id),
      fileForm(pdfOfSize(10 * 1024 * 1024 + 1), 'large.pdf'),
    );
    expect(large.status).toBe(413);
    expect(large.body.message).toMatch(/10 MB/);
    const rows = await app.runtime.deps.database.pool.query(
      'select count(*)::int as n from verification_evidence where application_id = $1',
      [applicationId],
    );
    expect(rows.rows[0].n).toBe(0);
  });

  it('attaches and removes nothing once the application is decided (409)', async () => {
    const { applicationId, item } = await applicationUnderReview();
    const uploaded = await admin.request(
      'POST',
      evidencePath(applicationId, item.id),
      fileForm(minimalPdf(), 'a.pdf'),
    );
    const evidence = (await uploaded.json()) as { id: string };
    expect(
      (
        await admin.json('POST', `/api/admin/applications/${applicationId}/reject`, {
          reason: 'Expired license',
        })
      ).status,
    ).toBe(200);
    const late = await admin.json<{ message: string }>(
      'POST',
      evidencePath(applicationId, item.id),
      fileForm(minimalPdf(), 'b.pdf'),
    );
    expect(late.status).toBe(409);
    expect(late.body.message).toMatch(/Under Review/);
    expect(
      (await admin.request('DELETE', `/api/admin/applications/${applicationId}/evidence/${evidence.id}`))
        .status,
    ).toBe(409);
  });
});
