/**
 * Documents API (issue 4; spec §2 documents screen, §3, §5, §7, §9). Handlers are checklists:
 * authenticate -> validate -> load -> authorize -> service -> present.
 *
 * - GET    /api/applications/:applicationId/documents               owner or admin; newest first
 * - POST   /api/applications/:applicationId/documents               owner; multipart, see below
 * - DELETE /api/applications/:applicationId/documents/:documentId   owner; 204
 * - GET    /api/documents/:documentId/download                      owner or admin; the bytes
 *
 * Request and response schemas: domain/api/documents.ts.
 *
 * Upload body (multipart/form-data), in this order: a field `documentType` (one of the ten types of
 * §3), then one file part `file`. The type must come first because the file is streamed to storage as
 * it arrives (never buffered whole) and its object key contains the type. A file without a prior
 * type gets 400 'Please select a document type first' (spec §5).
 */
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  applicationDocumentParamsSchema,
  applicationDocumentsParamsSchema,
  type DocumentDto,
  documentListResponseSchema,
  documentParamsSchema,
  documentResponseSchema,
  uploadDocumentFieldsSchema,
} from '../../domain/api/documents.ts';
import { AppError, errorResponseSchema } from '../../domain/app-error.ts';
import { hasPermission } from '../../domain/permissions.ts';
import { isStaff } from '../../domain/roles.ts';
import {
  DOCUMENT_TYPE_REQUIRED_MESSAGE,
  documentExtension,
  MAX_DOCUMENT_BYTES,
  sanitizeDocumentName,
} from '../../domain/sections/documents.ts';
import type { AppInstance } from '../app-types.ts';
import { loadApplicationFor } from '../applications/applications.service.ts';
import { type Actor, requireActor, requirePermission } from '../auth/actor.ts';
import { requireFileReader } from '../auth/file-readers.ts';
import { assertStorableFileName } from '../http/unstorable-text.ts';
import { authorizeSectionAccess } from '../sections/section-access.ts';
import { attachmentDisposition } from './content-disposition.ts';
import { UNSUPPORTED_EXTENSION_MESSAGE } from './document-intake.ts';
import {
  assertDocumentRoom,
  type DocumentRow,
  deleteDocument,
  findDocument,
  listDocuments,
  openDocumentForDownload,
  startOrphanSweeper,
  storeDocument,
} from './documents.service.ts';
import { assertDeclaredUploadSize, assertUploadAllowed } from './upload-preflight.ts';

const documentNotFound = () =>
  new AppError('not_found', 'Document not found. Reload the page to see your documents.');

/** The document DTO (domain/api/documents.ts) of a documents row. */
export function presentDocument(row: DocumentRow): DocumentDto {
  return {
    id: row.id,
    applicationId: row.applicationId,
    documentName: row.documentName,
    documentType: row.documentType,
    fileSize: row.fileSize,
    mimeType: row.mimeType,
    sha256: row.sha256,
    uploadedAt: row.uploadedAt.toISOString(),
    downloadUrl: `/api/documents/${row.id}/download`,
  };
}

/** Providers read their own documents, staff who read files any (spec §6, issue 32). */
function requireDocumentReader(request: FastifyRequest, actor: Actor) {
  return requirePermission(request, isStaff(actor.roles) ? 'read:document:any' : 'read:document:own');
}

export async function documentRoutes(app: AppInstance) {
  await app.register(multipart, {
    // busboy stops the file at 10 MB and flags it `truncated`; the service answers 413 and keeps nothing.
    limits: { fileSize: MAX_DOCUMENT_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 1024, headerPairs: 20 },
    throwFileSizeLimit: false,
  });

  const sweeper: { current?: { stop(): Promise<void> } } = {};
  app.addHook('onReady', async () => {
    sweeper.current = startOrphanSweeper({ db: app.deps.db, storage: app.deps.storage, logger: app.log });
  });
  app.addHook('onClose', async () => {
    await sweeper.current?.stop();
  });

  app.get(
    '/api/applications/:applicationId/documents',
    {
      config: { access: 'signed-in' },
      schema: {
        summary: "An application's documents, newest first (owner or admin; spec §2, §7)",
        tags: ['documents'],
        params: applicationDocumentsParamsSchema,
        response: {
          200: documentListResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          404: errorResponseSchema,
        },
      },
    },
    async (request) => {
      const actor = await requireActor(request);
      await requireDocumentReader(request, actor);
      // Same rule as every section read: owner, or an admin whose view is audited.
      const { application } = await authorizeSectionAccess(
        request,
        request.params.applicationId,
        'read',
        'documents',
      );
      const rows = await listDocuments(app.deps.db, application.id);
      return { documents: rows.map(presentDocument) };
    },
  );

  app.post(
    '/api/applications/:applicationId/documents',
    {
      config: { access: 'provider' },
      schema: {
        summary:
          'Upload one document (owner; multipart: field documentType first, then the file part `file`)',
        description:
          'Accepted: pdf, doc, docx, jpg, jpeg, png, at most 10 MB (10,485,760 bytes), content matching the extension. Per application at most 100 documents (409) and 500 MB (413); per user at most 30 uploads a minute (429); 507 while the server is low on storage or its disk is full; 500 when storage fails to write the file.',
        tags: ['documents'],
        consumes: ['multipart/form-data'],
        params: applicationDocumentsParamsSchema,
        response: {
          201: documentResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
          413: errorResponseSchema,
          415: errorResponseSchema,
          429: errorResponseSchema,
          500: errorResponseSchema,
          507: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const actor = await requirePermission(request, 'write:document:own');
      if (!request.isMultipart()) {
        throw new AppError(
          'bad_request',
          'Send the upload as multipart/form-data with the field documentType, then the file.',
        );
      }
      assertDeclaredUploadSize(request, reply);
      const application = await loadApplicationFor(app.deps.db, actor, request.params.applicationId, 'write');
      // Limits (issue 10 item 5), checked before a byte is read; the body is then not read at all.
      await assertUploadAllowed(app.deps, request, reply, actor.userId, () =>
        assertDocumentRoom(app.deps.db, application.id, 0),
      );
      let fields: z.infer<typeof uploadDocumentFieldsSchema> | undefined;
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          if (part.fieldname !== 'documentType') continue;
          const parsed = uploadDocumentFieldsSchema.safeParse({ documentType: part.value });
          if (!parsed.success) throw new AppError('bad_request', parsed.error.issues[0]!.message);
          fields = parsed.data;
          continue;
        }
        if (part.fieldname !== 'file' || !fields) {
          part.file.resume();
          throw new AppError(
            'bad_request',
            fields ? 'Send the file in the part named "file".' : DOCUMENT_TYPE_REQUIRED_MESSAGE,
          );
        }
        assertStorableFileName(part);
        const extension = documentExtension(part.filename);
        if (!extension) {
          part.file.resume();
          throw new AppError('unsupported_media_type', UNSUPPORTED_EXTENSION_MESSAGE);
        }
        const row = await storeDocument(
          { db: app.deps.db, storage: app.deps.storage, logger: request.log },
          {
            actor,
            applicationId: application.id,
            documentType: fields.documentType,
            documentName: sanitizeDocumentName(part.filename),
            extension,
            source: part.file,
          },
        );
        request.log.info({ documentId: row.id, fileSize: row.fileSize }, 'document uploaded');
        return reply.status(201).send(presentDocument(row));
      }
      throw new AppError('bad_request', fields ? 'Choose a file to upload.' : DOCUMENT_TYPE_REQUIRED_MESSAGE);
    },
  );

  app.delete(
    '/api/applications/:applicationId/documents/:documentId',
    {
      config: { access: 'provider' },
      schema: {
        summary: 'Delete one document and its file (owner)',
        tags: ['documents'],
        params: applicationDocumentParamsSchema,
        response: {
          204: z.null(),
          401: errorResponseSchema,
          403: errorResponseSchema,
          404: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const actor = await requirePermission(request, 'write:document:own');
      const application = await loadApplicationFor(app.deps.db, actor, request.params.applicationId, 'write');
      const document = await findDocument(app.deps.db, request.params.documentId);
      if (!document || document.applicationId !== application.id) throw documentNotFound();
      await deleteDocument(
        { db: app.deps.db, storage: app.deps.storage, logger: request.log },
        actor,
        document,
      );
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/documents/:documentId/download',
    {
      config: { access: 'signed-in' },
      // A HEAD would open the object and write a download to the audit log.
      exposeHeadRoute: false,
      schema: {
        summary: "A document's bytes as an attachment (owner or admin; audited)",
        tags: ['documents'],
        params: documentParamsSchema,
        response: {
          200: z.unknown().describe('The document bytes, with its stored MIME type'),
          401: errorResponseSchema,
          403: errorResponseSchema,
          404: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const actor = await requireActor(request);
      // Issue 50 item 6: a committee member reads the documents of a file on their meeting's agenda.
      const member = isStaff(actor.roles) && !hasPermission(actor.roles, 'read:document:any');
      if (!member) await requireDocumentReader(request, actor);
      const document = await findDocument(app.deps.db, request.params.documentId);
      // Someone else's document answers exactly like a missing one.
      if (!document || (document.userId !== actor.userId && !isStaff(actor.roles))) throw documentNotFound();
      if (member) await requireFileReader(request, document.applicationId, 'document');
      const body = await openDocumentForDownload(
        { db: app.deps.db, storage: app.deps.storage },
        actor,
        document,
      );
      return reply
        .header('content-type', document.mimeType)
        .header('content-length', document.fileSize)
        .header('content-disposition', attachmentDisposition(document.documentName))
        .header('x-content-type-options', 'nosniff')
        .send(body);
    },
  );
}
