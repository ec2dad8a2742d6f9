/**
 * Documents over real HTTP (issue 4), once per storage driver: local disk, and S3 against an s3rver
 * started here. Checks what the provider and the admin see and what the server refuses; that a row
 * exists if and only if its object exists, through failures and interrupted uploads, is
 * documents-storage.test.ts.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DOCUMENT_BYTES } from '../../domain/sections/documents.ts';
import { minimalPdf, pdfOfSize, tinyPng } from '../../tests/fixtures/files.ts';
import { Client, createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import {
  type DocumentDto,
  documentsSuite,
  type StorageFixture,
  storageDrivers,
} from './testing/documents-suite.ts';

/** The start of a Windows PE executable: 'MZ', e_lfanew at 0x3c, 'PE\0\0' there. */
function peExecutable(): Buffer {
  const bytes = Buffer.alloc(1024);
  bytes.write('MZ', 0, 'latin1');
  bytes.writeUInt32LE(0x80, 0x3c);
  bytes.write('PE\0\0', 0x80, 'latin1');
  return bytes;
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

describe.each(storageDrivers)('documents API with the $name storage driver', ({ name, start }) => {
  let app: TestApp;
  let storage: StorageFixture | undefined;

  beforeAll(async () => {
    storage = await start();
    app = await createTestApp(storage.env);
    expect(app.runtime.deps.storage.driver).toBe(name);
  });
  afterAll(async () => {
    await app?.close();
    await storage?.close();
  });

  const { storedKeys, documentRowCount, download, providerWithApplication, upload } = documentsSuite(() => ({
    app,
    storage,
  }));

  it('uploads a real PDF and PNG, lists them newest first with their sizes, and completes the dashboard card', async () => {
    const alice = await providerWithApplication();
    const pdf = minimalPdf();
    const pdfUpload = await upload(alice, alice.applicationId, {
      documentType: 'cv_resume',
      file: { name: 'Curriculum Vitae.PDF', bytes: pdf },
    });
    expect(pdfUpload.status).toBe(201);
    expect(pdfUpload.body).toMatchObject({
      applicationId: alice.applicationId,
      documentName: 'Curriculum Vitae.PDF',
      documentType: 'cv_resume',
      fileSize: pdf.length,
      mimeType: 'application/pdf',
      sha256: sha256(pdf),
      downloadUrl: `/api/documents/${pdfUpload.body.id}/download`,
    });
    const pngUpload = await upload(alice, alice.applicationId, {
      documentType: 'vaccination_record',
      file: { name: 'flu shot.png', bytes: tinyPng },
    });
    expect(pngUpload.status).toBe(201);
    expect(pngUpload.body).toMatchObject({ fileSize: tinyPng.length, mimeType: 'image/png' });

    const list = await alice.json<{ documents: DocumentDto[] }>(
      'GET',
      `/api/applications/${alice.applicationId}/documents`,
    );
    expect(list.status).toBe(200);
    expect(list.body.documents.map((d) => [d.documentName, d.fileSize])).toEqual([
      ['flu shot.png', tinyPng.length],
      ['Curriculum Vitae.PDF', pdf.length],
    ]);

    // Spec §7 keys: {userId}/{documentType}/{timestamp}.{extension}; the display name never appears.
    const keys = await storedKeys(`${alice.userId}/`);
    expect(keys).toHaveLength(2);
    expect(keys).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^${alice.userId}/cv_resume/\\d{13}\\.pdf$`)),
        expect.stringMatching(new RegExp(`^${alice.userId}/vaccination_record/\\d{13}\\.png$`)),
      ]),
    );
    const { rows: audit } = await app.runtime.deps.database.pool.query(
      `select actor_user_id, resource_id from audit_log where action = 'document.upload' and actor_user_id = $1`,
      [alice.userId],
    );
    expect(audit.map((r) => r.resource_id).sort()).toEqual([pdfUpload.body.id, pngUpload.body.id].sort());

    const applications = await alice.json<{
      applications: { completeSections: string[]; progress: number }[];
    }>('GET', '/api/applications');
    expect(applications.body.applications[0]!.completeSections).toEqual(['documents']);
    // One section of 16 (issue 31: every section counts): 6%.
    expect(applications.body.applications[0]!.progress).toBe(6);
  });

  it('downloads the identical bytes as an attachment with the stored type and safe headers', async () => {
    const alice = await providerWithApplication();
    const pdf = minimalPdf('download');
    const uploaded = await upload(alice, alice.applicationId, {
      documentType: 'diploma',
      file: { name: 'C:\\fakepath\\Diplôme final;v2.pdf', bytes: pdf },
    });
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.documentName).toBe('Diplôme final;v2.pdf');

    const { response, bytes } = await download(alice, uploaded.body.downloadUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Dipl_me final_v2.pdf"; filename*=UTF-8''Dipl%C3%B4me%20final%3Bv2.pdf`,
    );
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(sha256(bytes)).toBe(sha256(pdf));
    // HEAD is not a way around the audit log.
    expect((await alice.request('HEAD', uploaded.body.downloadUrl)).status).toBe(404);
  });

  it('accepts exactly 10 MB and answers 413 to 10 MB + 1 byte, keeping no row and no object', async () => {
    const alice = await providerWithApplication();
    const atLimit = await upload(alice, alice.applicationId, {
      documentType: 'transcript',
      file: { name: 'exactly-10mb.pdf', bytes: pdfOfSize(MAX_DOCUMENT_BYTES) },
    });
    expect(atLimit.status).toBe(201);
    expect(atLimit.body.fileSize).toBe(MAX_DOCUMENT_BYTES);

    const over = await upload(alice, alice.applicationId, {
      documentType: 'transcript',
      file: { name: 'too-big.pdf', bytes: pdfOfSize(MAX_DOCUMENT_BYTES + 1) },
    });
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({
      code: 'payload_too_large',
      message: 'The file is larger than 10 MB. Choose a file of 10 MB or less.',
    });
    expect(await documentRowCount(alice.applicationId)).toBe(1);
    expect(await storedKeys(`${alice.userId}/`)).toEqual([expect.stringMatching(/\/transcript\/\d+\.pdf$/)]);
  });

  it('refuses content that does not match its extension (415) and keeps nothing', async () => {
    const alice = await providerWithApplication();
    const cases = [
      { name: 'resume.pdf', bytes: peExecutable(), why: 'a renamed executable' },
      {
        name: 'license.pdf',
        bytes: Buffer.from('just some text, not a PDF at all\n'.repeat(20)),
        why: 'text',
      },
      { name: 'photo.png', bytes: minimalPdf(), why: 'a PDF named .png' },
      { name: 'letter.docx', bytes: tinyPng, why: 'a PNG named .docx' },
    ];
    for (const file of cases) {
      const response = await upload(alice, alice.applicationId, { documentType: 'other', file });
      expect(response.status, file.why).toBe(415);
      expect(response.body.message).toMatch(/^The file content does not match its extension/);
    }
    const exe = await upload(alice, alice.applicationId, {
      documentType: 'other',
      file: { name: 'setup.exe', bytes: peExecutable() },
    });
    expect(exe.status).toBe(415);
    expect(exe.body.message).toBe('Only PDF, DOC, DOCX, JPG, JPEG and PNG files can be uploaded.');
    expect(await documentRowCount(alice.applicationId)).toBe(0);
    expect(await storedKeys(`${alice.userId}/`)).toEqual([]);
  });

  it('needs the document type before the file (spec §5) and a non-empty file', async () => {
    const alice = await providerWithApplication();
    const pdf = { name: 'a.pdf', bytes: minimalPdf() };
    const fileFirst = await upload(alice, alice.applicationId, {
      documentType: 'other',
      file: pdf,
      fileFirst: true,
    });
    expect(fileFirst.status).toBe(400);
    expect(fileFirst.body.message).toBe('Please select a document type first');
    const noType = await upload(alice, alice.applicationId, { file: pdf });
    expect(noType.body.message).toBe('Please select a document type first');
    const badType = await upload(alice, alice.applicationId, { documentType: 'passport', file: pdf });
    expect(badType.status).toBe(400);
    expect(badType.body.message).toBe('Choose one of the listed document types.');
    const noFile = await upload(alice, alice.applicationId, { documentType: 'other' });
    expect(noFile.status).toBe(400);
    expect(noFile.body.message).toBe('Choose a file to upload.');
    const empty = await upload(alice, alice.applicationId, {
      documentType: 'other',
      file: { name: 'empty.pdf', bytes: Buffer.alloc(0) },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/The file is empty/);
    const json = await alice.json('POST', `/api/applications/${alice.applicationId}/documents`, {});
    expect(json.status).toBe(400);
    expect(await documentRowCount(alice.applicationId)).toBe(0);
    expect(await storedKeys(`${alice.userId}/`)).toEqual([]);
  });

  it('answers 400 with a message to a file name holding a NUL character, and keeps nothing', async () => {
    const alice = await providerWithApplication();
    for (const name of ['cv\u0000.pdf', 'cv.pdf\u0000']) {
      const response = await upload(alice, alice.applicationId, {
        documentType: 'cv_resume',
        file: { name, bytes: minimalPdf() },
      });
      expect(response.status, JSON.stringify(name)).toBe(400);
      expect(response.body.message).toBe(
        'The file name contains a control character (NUL) or an invalid character: rename the file and upload it again.',
      );
    }
    expect(await documentRowCount(alice.applicationId)).toBe(0);
    expect(await storedKeys(`${alice.userId}/`)).toEqual([]);
  });

  it('answers 401 to an upload without a session', async () => {
    const alice = await providerWithApplication();
    const anonymous = new Client(app);
    const response = await upload(anonymous, alice.applicationId, {
      documentType: 'other',
      file: { name: 'a.pdf', bytes: minimalPdf() },
    });
    expect(response.status).toBe(401);
    expect((await anonymous.json('GET', `/api/applications/${alice.applicationId}/documents`)).status).toBe(
      401,
    );
    expect(await documentRowCount(alice.applicationId)).toBe(0);
  });

  it("keeps provider A's documents from provider B: no list, upload, download or delete", async () => {
    // First, Alice uploads a document.
    const alice = await providerWithApplication();
    const uploaded = await upload(alice, alice.applicationId, {
      documentType: 'medical_license',
      file: { name: 'license.pdf', bytes: minimalPdf() },
    });
    expect(uploaded.status).toBe(201);
    // Second, Bob tries everything on Alice's application and document.
    const bob = await providerWithApplication();
    const base = `/api/applications/${alice.applicationId}/documents`;
    expect((await bob.json('GET', base)).status).toBe(404);
    const bobUpload = await upload(bob, alice.applicationId, {
      documentType: 'other',
      file: { name: 'b.pdf', bytes: minimalPdf() },
    });
    expect(bobUpload.status).toBe(404);
    expect((await download(bob, uploaded.body.downloadUrl)).response.status).toBe(404);
    expect((await bob.json('DELETE', `${base}/${uploaded.body.id}`)).status).toBe(404);
    // Through his own application id he cannot reach it either.
    expect(
      (await bob.json('DELETE', `/api/applications/${bob.applicationId}/documents/${uploaded.body.id}`))
        .status,
    ).toBe(404);
    // Alice's document is untouched.
    expect(await documentRowCount(alice.applicationId)).toBe(1);
    expect(await storedKeys(`${alice.userId}/`)).toHaveLength(1);
    expect(await storedKeys(`${bob.userId}/`)).toEqual([]);
  });

  it('lets an admin list and download (audited) but not upload or delete', async () => {
    const alice = await providerWithApplication();
    const png = tinyPng;
    const uploaded = await upload(alice, alice.applicationId, {
      documentType: 'background_check',
      file: { name: 'check.png', bytes: png },
    });
    const admin = await signUpAndSignIn(app);
    await grantAdmin(app, admin);
    const base = `/api/applications/${alice.applicationId}/documents`;

    const list = await admin.json<{ documents: DocumentDto[] }>('GET', base);
    expect(list.status).toBe(200);
    expect(list.body.documents.map((d) => d.id)).toEqual([uploaded.body.id]);
    // Reading the list is a view of the provider's application, audited like every section read.
    const views = await app.runtime.deps.database.pool.query(
      `select subject_user_id, resource_id, details from audit_log
        where action = 'admin.view_provider' and actor_user_id = $1`,
      [admin.userId],
    );
    expect(views.rows).toEqual([
      { subject_user_id: alice.userId, resource_id: alice.applicationId, details: { section: 'documents' } },
    ]);

    const adminDownload = await download(admin, uploaded.body.downloadUrl);
    expect(adminDownload.response.status).toBe(200);
    expect(adminDownload.response.headers.get('content-type')).toBe('image/png');
    expect(sha256(adminDownload.bytes)).toBe(sha256(png));
    const { rows } = await app.runtime.deps.database.pool.query(
      `select actor_user_id, subject_user_id, resource_type, resource_id, ip_address, details
         from audit_log where action = 'document.download' and actor_user_id = $1`,
      [admin.userId],
    );
    expect(rows).toEqual([
      {
        actor_user_id: admin.userId,
        subject_user_id: alice.userId,
        resource_type: 'document',
        resource_id: uploaded.body.id,
        ip_address: '127.0.0.1',
        details: { byAdmin: true },
      },
    ]);

    const adminUpload = await upload(admin, alice.applicationId, {
      documentType: 'other',
      file: { name: 'x.pdf', bytes: minimalPdf() },
    });
    expect(adminUpload.status).toBe(403);
    expect((await admin.json('DELETE', `${base}/${uploaded.body.id}`)).status).toBe(403);
    expect(await documentRowCount(alice.applicationId)).toBe(1);
  });

  it('deletes the row and then the object, and audits it', async () => {
    const alice = await providerWithApplication();
    const uploaded = await upload(alice, alice.applicationId, {
      documentType: 'references',
      file: { name: 'refs.pdf', bytes: minimalPdf() },
    });
    expect(await storedKeys(`${alice.userId}/`)).toHaveLength(1);
    const path = `/api/applications/${alice.applicationId}/documents/${uploaded.body.id}`;
    const deleted = await alice.request('DELETE', path);
    expect(deleted.status).toBe(204);
    expect(await documentRowCount(alice.applicationId)).toBe(0);
    expect(await storedKeys(`${alice.userId}/`)).toEqual([]);
    expect((await alice.request('DELETE', path)).status).toBe(404);
    expect((await download(alice, uploaded.body.downloadUrl)).response.status).toBe(404);
    const { rows } = await app.runtime.deps.database.pool.query(
      `select resource_id from audit_log where action = 'document.delete' and actor_user_id = $1`,
      [alice.userId],
    );
    expect(rows.map((r) => r.resource_id)).toEqual([uploaded.body.id]);
    // The dashboard card is no longer complete.
    const applications = await alice.json<{ applications: { completeSections: string[] }[] }>(
      'GET',
      '/api/applications',
    );
    expect(applications.body.applications[0]!.completeSections).toEqual([]);
  });
});
