/**
 * The PDFs of an appeal (issue 50 item 8; contract domain/api/review.ts `appealAttachmentSchema`):
 * - POST   /api/applications/:applicationId/appeal/attachments                  the owner; multipart `file`
 * - DELETE /api/applications/:applicationId/appeal/attachments/:attachmentId    the owner, before 'Request Appeal'
 * - GET    /api/applications/:applicationId/appeal/attachments/:attachmentId    the bytes: the owner, staff
 *   who read files, or a member of an open meeting whose agenda holds the file (auth/file-readers.ts); audited
 * Uploads pass the documents' checks before a byte is read (upload-preflight.ts: declared size, the
 * per-user upload rate, the appeal still open with room, free storage). Another provider's application
 * answers 404 (existence not revealed).
 */
import multipart from '@fastify/multipart';
import { z } from 'zod';
import { appealAttachmentSchema } from '../../domain/api/review.ts';
import { AppError, errorResponses } from '../../domain/app-error.ts';
import { APPEAL_ATTACHMENT_PDF_MESSAGE } from '../../domain/committee/decision-letters.ts';
import { hasPermission } from '../../domain/permissions.ts';
import { isStaff } from '../../domain/roles.ts';
import { documentExtension, MAX_DOCUMENT_BYTES } from '../../domain/sections/documents.ts';
import type { AppInstance } from '../app-types.ts';
import { loadApplicationFor } from '../applications/applications.service.ts';
import { requireActor, requirePermission } from '../auth/actor.ts';
import { requireFileReader } from '../auth/file-readers.ts';
import { attachmentDisposition } from '../documents/content-disposition.ts';
import { assertDeclaredUploadSize, assertUploadAllowed } from '../documents/upload-preflight.ts';
import { assertStorableFileName } from '../http/unstorable-text.ts';
import { presentAppealAttachment } from '../review/appeal-attachment-reads.ts';
import {
  appealAttachmentNotFound,
  appealAttachmentWithProvider,
  assertAttachmentRoom,
  openAppealAttachment,
  removeAppealAttachment,
  storeAppealAttachment,
} from './appeal-attachments.ts';
import { assertAppealOpen } from './appeals.service.ts';

const applicationParams = z.object({ applicationId: z.string() });
const attachmentParams = z.object({ applicationId: z.string(), attachmentId: z.string() });

export async function appealAttachmentRoutes(app: AppInstance) {
  await app.register(multipart, {
    // As the documents': other fields are read and ignored, one file of at most 10 MB.
    limits: { fileSize: MAX_DOCUMENT_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 1024, headerPairs: 20 },
    throwFileSizeLimit: false,
  });

  app.post(
    '/api/applications/:applicationId/appeal/attachments',
    {
      config: { access: 'provider' },
      schema: {
        summary: 'Attach a PDF to the appeal being written (the owner; issue 50 item 8)',
        description:
          "multipart/form-data with one part `file`: a PDF of at most 10 MB whose content is a PDF (the documents' checks and messages). 409 unless the application was denied no more than 30 days ago and has no appeal yet, or when the appeal has 5 files already; 415 for another type; 429 past the per-user upload rate; 507 while the server is low on storage. 'Request Appeal' takes every file attached so far.",
        tags: ['decisions'],
        consumes: ['multipart/form-data'],
        params: applicationParams,
        response: { 201: appealAttachmentSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const actor = await requirePermission(request, 'appeal:application:own');
      const application = await loadApplicationFor(app.deps.db, actor, request.params.applicationId, 'write');
      if (!request.isMultipart()) {
        throw new AppError('bad_request', 'Send the file as multipart/form-data in the part named "file".');
      }
      assertDeclaredUploadSize(request, reply);
      const now = new Date();
      await assertUploadAllowed(app.deps, request, reply, actor.userId, async () => {
        // Read without a lock here; storeAppealAttachment checks both again under the lock.
        await assertAppealOpen(app.deps.db, application, now);
        await assertAttachmentRoom(app.deps.db, application.id);
      });
      const part = await request.file();
      if (part?.fieldname !== 'file') {
        part?.file.resume();
        throw new AppError('bad_request', 'Choose a PDF to attach (the part named "file").');
      }
      assertStorableFileName(part);
      if (documentExtension(part.filename) !== 'pdf') {
        part.file.resume();
        throw new AppError('unsupported_media_type', APPEAL_ATTACHMENT_PDF_MESSAGE);
      }
      const row = await storeAppealAttachment(
        { db: app.deps.db, storage: app.deps.storage, logger: request.log },
        { actor, applicationId: application.id, fileName: part.filename, source: part.file, now },
      );
      request.log.info({ attachmentId: row.id, fileSize: row.fileSize }, 'appeal attachment uploaded');
      return reply.status(201).send(presentAppealAttachment(row));
    },
  );

  app.delete(
    '/api/applications/:applicationId/appeal/attachments/:attachmentId',
    {
      config: { access: 'provider' },
      schema: {
        summary: 'Remove a PDF from the appeal before it is requested (the owner; issue 50 item 8)',
        description: "409 once 'Request Appeal' took it: it is part of the record.",
        tags: ['decisions'],
        params: attachmentParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const actor = await requirePermission(request, 'appeal:application:own');
      const application = await loadApplicationFor(app.deps.db, actor, request.params.applicationId, 'write');
      await removeAppealAttachment(
        { db: app.deps.db, storage: app.deps.storage, logger: request.log },
        actor,
        application.id,
        request.params.attachmentId,
      );
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/applications/:applicationId/appeal/attachments/:attachmentId',
    {
      config: { access: 'signed-in' },
      // A HEAD would open the object and write a download to the audit log.
      exposeHeadRoute: false,
      schema: {
        summary:
          "An appeal's PDF (the provider, staff who read files, members of the meeting hearing it; audited)",
        tags: ['decisions'],
        params: attachmentParams,
        response: { 200: z.unknown().describe('The PDF'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const actor = await requireActor(request);
      const { applicationId, attachmentId } = request.params;
      // Issue 50 item 6: a committee member reads the file of their meeting's agenda, appeal included.
      if (isStaff(actor.roles) && !hasPermission(actor.roles, 'read:application:any'))
        await requireFileReader(request, applicationId, 'appeal attachment');
      else await loadApplicationFor(app.deps.db, actor, applicationId, 'read');
      const found = await appealAttachmentWithProvider(app.deps.db, applicationId, attachmentId);
      if (!found) throw appealAttachmentNotFound();
      const { row, providerId } = found;
      const body = await openAppealAttachment(
        { db: app.deps.db, storage: app.deps.storage },
        actor,
        row,
        providerId,
      );
      return reply
        .header('content-type', 'application/pdf')
        .header('content-length', row.fileSize)
        .header('content-disposition', attachmentDisposition(row.fileName))
        .header('x-content-type-options', 'nosniff')
        .send(body);
    },
  );
}
