/**
 * The PDFs of an appeal (issue 50 item 8), by API against real PostgreSQL and real HTTP: attached by
 * the provider while the appeal may be requested (PDF only, the documents' checks, at most five, also
 * when two arrive at once), removable until 'Request Appeal' takes them, then part of the record the
 * members of the meeting hearing the appeal read (audited); the orphan sweep keeps them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileSummary, Meeting } from '../../domain/api/committee.ts';
import type { AppealAttachmentDto, ProviderReview } from '../../domain/api/review.ts';
import {
  APPEAL_ATTACHMENT_PDF_MESSAGE,
  APPEAL_ATTACHMENTS_FULL_MESSAGE,
} from '../../domain/committee/decision-letters.ts';
import { minimalPdf, tinyPng } from '../../tests/fixtures/files.ts';
import {
  createTestApp,
  grantAdmin,
  signUpAndSignIn,
  signUpStaff,
  type TestApp,
} from '../../tests/harness.ts';
import { sweepOrphanObjects } from '../documents/documents.service.ts';
import { decideAtCommittee, medicalDirector, reviewedFile } from './testing/decide.ts';

let app: TestApp;
let specialist: Awaited<ReturnType<typeof signUpStaff>>;

beforeAll(async () => {
  app = await createTestApp();
  specialist = await signUpStaff(app, 'specialist', { firstName: 'Sam' });
}, 60_000);

afterAll(async () => {
  await app?.close();
});

function fileForm(bytes: Uint8Array, name: string, type = 'application/pdf'): FormData {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  return form;
}

async function deniedFile() {
  const { provider, applicationId } = await reviewedFile(app, specialist);
  await decideAtCommittee(app, specialist, applicationId, { decision: 'deny', text: 'On probation.' });
  return { provider, applicationId, path: `/api/applications/${applicationId}/appeal/attachments` };
}

async function appealOf(provider: { json: typeof specialist.json }, applicationId: string) {
  const review = await provider.json<ProviderReview>('GET', `/api/applications/${applicationId}/review`);
  expect(review.status).toBe(200);
  return review.body.appeal!;
}

const auditCount = async (action: string, resourceId: string) =>
  Number(
    (
      await app.runtime.deps.database.pool.query<{ n: string }>(
        'select count(*) as n from audit_log where action = $1 and resource_id = $2',
        [action, resourceId],
      )
    ).rows[0]!.n,
  );

describe('appeal attachments', () => {
  it('take PDFs only, from the provider alone, until the appeal is requested; then members of the meeting read them', async () => {
    const { provider, applicationId, path } = await deniedFile();
    const board = minimalPdf('Board letter: probation ended');

    // Only PDFs, and only ones whose content is a PDF.
    const png = await provider.json<{ message: string }>(
      'POST',
      path,
      fileForm(tinyPng, 'scan.png', 'image/png'),
    );
    expect(png.status).toBe(415);
    expect(png.body.message).toBe(APPEAL_ATTACHMENT_PDF_MESSAGE);
    const disguised = await provider.json<{ message: string }>('POST', path, fileForm(tinyPng, 'letter.pdf'));
    expect(disguised.status).toBe(415);
    // Nobody else attaches: another provider (404), staff (403).
    expect((await (await signUpAndSignIn(app)).json('POST', path, fileForm(board, 'a.pdf'))).status).toBe(
      404,
    );
    const admin = await signUpAndSignIn(app);
    await grantAdmin(app, admin);
    expect((await admin.json('POST', path, fileForm(board, 'a.pdf'))).status).toBe(403);
    expect(await appealOf(provider, applicationId)).toMatchObject({ status: 'available', attachments: [] });

    const uploaded = await provider.json<AppealAttachmentDto>(
      'POST',
      path,
      fileForm(board, 'Board letter.pdf'),
    );
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    expect(uploaded.body).toMatchObject({ fileName: 'Board letter.pdf', fileSize: board.length });
    const extra = await provider.json<AppealAttachmentDto>(
      'POST',
      path,
      fileForm(minimalPdf('x'), 'extra.pdf'),
    );
    expect(extra.status).toBe(201);
    // Removed again before the appeal is requested: the row and its object go.
    expect((await provider.request('DELETE', `${path}/${extra.body.id}`)).status).toBe(204);
    expect((await provider.request('GET', extra.body.downloadUrl)).status).toBe(404);
    expect((await appealOf(provider, applicationId)).attachments.map((a) => a.fileName)).toEqual([
      'Board letter.pdf',
    ]);

    // 'Request Appeal' takes it; from then on it stays and no file is added.
    const requested = await provider.request('POST', `/api/applications/${applicationId}/appeal`, {
      statement: 'The board letter shows the probation ended.',
    });
    expect(requested.status).toBe(204);
    const appeal = await appealOf(provider, applicationId);
    expect(appeal).toMatchObject({ status: 'requested', attachments: [uploaded.body] });
    const removal = await provider.json<{ message: string }>('DELETE', `${path}/${uploaded.body.id}`);
    expect(removal.status).toBe(409);
    expect(removal.body.message).toMatch(/part of your appeal/);
    const late = await provider.json<{ message: string }>('POST', path, fileForm(board, 'late.pdf'));
    expect(late.status).toBe(409);
    expect(late.body.message).toMatch(/requested an appeal of this decision already/);

    // The sweep keeps the object a row points to.
    await sweepOrphanObjects(app.runtime.deps.db, app.runtime.deps.storage, { minAgeMs: 0 });
    const own = await provider.request('GET', uploaded.body.downloadUrl);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await own.arrayBuffer()).equals(board)).toBe(true);
    expect((await admin.request('GET', uploaded.body.downloadUrl)).status).toBe(200);

    // A member reads it while the appeal is on the agenda of an open meeting they sit on, not before.
    const director = await medicalDirector(app);
    // A member who sat on no meeting of this file (the denying meeting is still open to its members).
    const member = await signUpStaff(app, 'committee', { firstName: 'Fay' });
    expect((await member.request('GET', uploaded.body.downloadUrl)).status).toBe(403);
    const pool = app.runtime.deps.database.pool;
    await pool.query(
      `update provider_applications set decided_at = decided_at - interval '2 days' where id = $1`,
      [applicationId],
    );
    await pool.query(
      `update decision_letters set created_at = created_at - interval '2 days' where application_id = $1`,
      [applicationId],
    );
    const meeting = await director.json<Meeting>('POST', '/api/committee/meetings', {
      scheduledAt: new Date(Date.now() + 86_400_000).toISOString(),
      memberIds: [member.userId, director.userId],
    });
    expect(meeting.status, JSON.stringify(meeting.body)).toBe(200);
    const added = await director.json('POST', `/api/committee/meetings/${meeting.body.meetingId}/agenda`, {
      applicationId,
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const summary = await member.json<FileSummary>(
      'GET',
      `/api/committee/meetings/${meeting.body.meetingId}/files/${applicationId}`,
    );
    expect(summary.body.appeal?.attachments).toEqual([uploaded.body]);
    const read = await member.request('GET', uploaded.body.downloadUrl);
    expect(read.status).toBe(200);
    expect(Buffer.from(await read.arrayBuffer()).equals(board)).toBe(true);
    // Each read is audited: the provider's, the admin's and the member's.
    expect(await auditCount('review.appeal_attachment_downloaded', uploaded.body.id)).toBe(3);
  }, 120_000);

  it('are at most five, also when two arrive at once', async () => {
    const { provider, path } = await deniedFile();
    for (let i = 0; i < 4; i += 1) {
      expect((await provider.request('POST', path, fileForm(minimalPdf(`p${i}`), `p${i}.pdf`))).status).toBe(
        201,
      );
    }
    const [a, b] = await Promise.all([
      provider.json<{ message?: string }>('POST', path, fileForm(minimalPdf('a'), 'a.pdf')),
      provider.json<{ message?: string }>('POST', path, fileForm(minimalPdf('b'), 'b.pdf')),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect([a, b].find((r) => r.status === 409)?.body.message).toBe(APPEAL_ATTACHMENTS_FULL_MESSAGE);
    const count = await app.runtime.deps.database.pool.query<{ n: string }>(
      'select count(*) as n from appeal_attachments a join provider_applications p on p.id = a.application_id where p.user_id = $1',
      [provider.userId],
    );
    expect(Number(count.rows[0]!.n)).toBe(5);
    // The refused upload left no object behind: five stored, five rows.
    const keys: string[] = [];
    for await (const object of app.runtime.deps.storage.list())
      if (object.key.startsWith('appeals/')) keys.push(object.key);
    const rows = await app.runtime.deps.database.pool.query<{ object_key: string }>(
      'select object_key from appeal_attachments',
    );
    expect(keys.sort()).toEqual(rows.rows.map((r) => r.object_key).sort());
  }, 120_000);
});
