/**
 * Evidence files of checklist items (issue 13), real PostgreSQL, storage and HTTP: an administrator
 * attaches a PDF to an item while the application is under review; it is in the admin review and
 * downloads byte for byte (audited); the provider reaches none of it (routes 403, not in their
 * document list); wrong type, empty and oversized files are refused with the documents' messages;
 * nothing can be attached or removed once decided (409; items exist from Start Review on); removing deletes the object;
 * the orphan sweep leaves evidence objects alone; the snapshot of a later response and the completion
 * payload never carry evidence.
 */
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { AdminReview, applicationVersionSchema } from '../../domain/api/review.ts';
import { minimalPdf, pdfOfSize } from '../../tests/fixtures/files.ts';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import {
  CONTENT_MISMATCH_MESSAGE,
  EMPTY_FILE_MESSAGE,
  FILE_TOO_LARGE_MESSAGE,
  UNSUPPORTED_EXTENSION_MESSAGE,
} from '../documents/document-intake.ts';
import { sweepOrphanObjects } from '../documents/documents.service.ts';
import { loadCompletionSource } from '../notifications/completion-payload.ts';
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

/** The stored row of an evidence file (object key, SHA-256), or undefined. */
async function evidenceRow(evidenceId: string) {
  const { rows } = await app.runtime.deps.database.pool.query<{ object_key: string; sha256: string }>(
    'select object_key, sha256 from verification_evidence where id = $1',
    [evidenceId],
  );
  return rows[0];
}

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
      `select action, actor_user_id, subject_user_id from audit_log where resource_id = $1 order by id`,
      [evidence.id],
    );
    expect(audited.rows).toEqual(
      ['review.evidence_uploaded', 'review.evidence_downloaded'].map((action) => ({
        action,
        actor_user_id: admin.userId,
        subject_user_id: provider.userId,
      })),
    );
    const stored = await evidenceRow(evidence.id);
    expect(stored?.object_key).toMatch(new RegExp(`^evidence/${applicationId}/\\d+\\.pdf$`));

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
    expect(await evidenceRow(evidence.id)).toBeUndefined();
    // The object is gone from storage too, not left for the sweep.
    await expect(app.runtime.deps.storage.get(stored!.object_key)).rejects.toMatchObject({
      name: 'ObjectNotFoundError',
    });
    const deleted = await app.runtime.deps.database.pool.query(
      `select subject_user_id from audit_log where resource_id = $1 and action = 'review.evidence_deleted'`,
      [evidence.id],
    );
    expect(deleted.rows).toEqual([{ subject_user_id: provider.userId }]);
  });

  it("answers 404 for another application's item or evidence", async () => {
    const first = await applicationUnderReview();
    const second = await applicationUnderReview();
    const crossed = await admin.json<{ message: string }>(
      'POST',
      evidencePath(first.applicationId, second.item.id),
      fileForm(minimalPdf(), 'a.pdf'),
    );
    expect(crossed.status).toBe(404);
    expect(crossed.body.message).toBe('Checklist item not found. Reload the review page.');
    const uploaded = await admin.request(
      'POST',
      evidencePath(second.applicationId, second.item.id),
      fileForm(minimalPdf(), 'b.pdf'),
    );
    const evidence = (await uploaded.json()) as { id: string };
    const elsewhere = `/api/admin/applications/${first.applicationId}/evidence/${evidence.id}`;
    expect((await admin.request('GET', `${elsewhere}/download`)).status).toBe(404);
    expect((await admin.request('DELETE', elsewhere)).status).toBe(404);
    expect(await evidenceRow(evidence.id)).toBeDefined();
  });

  it("refuses files the documents refuse, with the documents' messages, and keeps nothing", async () => {
    const { applicationId, item } = await applicationUnderReview();
    const text = await admin.json<{ message: string }>(
      'POST',
      evidencePath(applicationId, item.id),
      fileForm(Buffer.from('plain text'), 'notes.txt', 'text/plain'),
    );
    expect(text).toMatchObject({ status: 415, body: { message: UNSUPPORTED_EXTENSION_MESSAGE } });
    const disguised = await admin.json<{ message: string }>(
      'POST',
      evidencePath(applicationId, item.id),
      fileForm(Buffer.from('not really a pdf at all'), 'fake.pdf'),
    );
    expect(disguised).toMatchObject({ status: 415, body: { message: CONTENT_MISMATCH_MESSAGE } });
    const empty = await admin.json(
      'POST',
      evidencePath(applicationId, item.id),
      fileForm(Buffer.alloc(0), 'empty.pdf'),
    );
    expect(empty).toMatchObject({ status: 400, body: { message: EMPTY_FILE_MESSAGE } });
    const large = await admin.json<{ message: string }>(
      'POST',
      evidencePath(applicationId, item.id),
      fileForm(pdfOfSize(10 * 1024 * 1024 + 1), 'large.pdf'),
    );
    expect(large).toMatchObject({ status: 413, body: { message: FILE_TOO_LARGE_MESSAGE } });
    const rows = await app.runtime.deps.database.pool.query(
      'select count(*)::int as n from verification_evidence where application_id = $1',
      [applicationId],
    );
    expect(rows.rows[0].n).toBe(0);
    // Nor any object: every refused upload was deleted from storage.
    for await (const object of app.runtime.deps.storage.list()) {
      expect(object.key.startsWith(`evidence/${applicationId}/`)).toBe(false);
    }
  });

  it("counts evidence against the documents' per-user upload rate (429), before reading the body", async () => {
    const { applicationId, item } = await applicationUnderReview();
    const busy = await signUpAndSignIn(app, { firstName: 'Busy' });
    await grantAdmin(app, busy);
    const statuses: number[] = [];
    for (let i = 0; i < 31; i += 1) {
      const response = await busy.request(
        'POST',
        evidencePath(applicationId, item.id),
        fileForm(minimalPdf(), `page-${i}.pdf`),
      );
      statuses.push(response.status);
      if (response.status === 429) {
        expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(((await response.json()) as { message: string }).message).toMatch(/at most 30/);
      } else await response.body?.cancel();
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(30);
    expect(statuses.at(-1)).toBe(429);
  });

  it('attaches and removes nothing once the application is decided (409)', async () => {
    const { applicationId, item } = await applicationUnderReview();
    const uploaded = await admin.request(
      'POST',
      evidencePath(applicationId, item.id),
      fileForm(minimalPdf(), 'a.pdf'),
    );
    const evidence = (await uploaded.json()) as { id: string };
    // Decided (how is the committee's tests' subject, issue 32): rejected.
    await app.runtime.deps.database.pool.query(
      `update provider_applications set application_status = 'rejected', decided_at = now() where id = $1`,
      [applicationId],
    );
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

  it("never puts evidence in a later snapshot, the completion payload or anyone's document list", async () => {
    const { provider, applicationId, item } = await applicationUnderReview();
    const uploaded = await admin.request(
      'POST',
      evidencePath(applicationId, item.id),
      fileForm(minimalPdf('Primary source printout'), 'primary-source.pdf'),
    );
    expect(uploaded.status).toBe(201);
    const evidence = (await uploaded.json()) as { id: string };
    const { sha256, object_key: key } = (await evidenceRow(evidence.id))!;
    const traces = [evidence.id, sha256, key, 'primary-source.pdf'];
    const expectNoTrace = (value: unknown) => {
      const text = JSON.stringify(value);
      for (const trace of traces) expect(text).not.toContain(trace);
    };

    // A response stores version 2, read from the database after the evidence exists.
    const requested = await admin.json<{ requestId: string }>(
      'POST',
      `/api/admin/applications/${applicationId}/request-information`,
      { message: 'Please confirm your license.', sections: ['professionalLicenses'] },
    );
    expect(requested.status).toBe(200);
    const responded = await provider.json(
      'POST',
      `/api/applications/${applicationId}/information-requests/${requested.body.requestId}/response`,
      { reply: 'Confirmed.' },
    );
    expect(responded).toMatchObject({ status: 200, body: { version: 2 } });
    const version = await admin.json<z.infer<typeof applicationVersionSchema>>(
      'GET',
      `/api/admin/applications/${applicationId}/versions/2`,
    );
    expect(version.status).toBe(200);
    expectNoTrace(version.body);

    // The completion payload as the notification worker reads it now.
    const { db, cipher } = app.runtime.deps;
    const source = await loadCompletionSource({
      db,
      cipher,
      logger: pino({ level: 'silent' }),
      notification: { id: randomUUID(), applicationId, userId: provider.userId, createdAt: new Date() },
    });
    expectNoTrace(source);

    // The documents list, for the provider and for an administrator.
    for (const reader of [provider, admin]) {
      const list = await reader.json('GET', `/api/applications/${applicationId}/documents`);
      expect(list.status).toBe(200);
      expectNoTrace(list.body);
    }
    expectNoTrace((await provider.json('GET', `/api/applications/${applicationId}/review`)).body);
  });
});
