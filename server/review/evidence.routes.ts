/**
 * Evidence files of checklist items (issue 13, decision 018 "Evidence files"), administrators only:
 * - POST   /api/admin/applications/:applicationId/verification-items/:itemId/evidence   multipart `file`
 * - GET    /api/admin/applications/:applicationId/evidence/:evidenceId/download          the bytes (audited)
 * - DELETE /api/admin/applications/:applicationId/evidence/:evidenceId                   while under review
 * Stored like documents (upload-preflight.ts: the per-user upload rate and free storage before the
 * body is read; documents.service.ts `streamUpload`: the same type detection, 10 MB limit, SHA-256
 * and messages; the same object storage, key `evidence/<applicationId>/<ms>.<ext>`; downloads opened
 * and audited by `openAuditedDownload`) in `verification_evidence`, a table the provider's routes, the completion payload and
 * the snapshot never read. Uploads and deletes only while the application is Under Review (409). The
 * last file of a verified item that needs evidence (issue 31: the claims history's NPDB query result)
 * is not removed (409).
 */
import multipart from '@fastify/multipart';
import { and, eq, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import { evidenceSchema } from '../../domain/api/review.ts';
import { AppError, errorResponseSchema } from '../../domain/app-error.ts';
import {
  evidenceRequiredMessage,
  type VerificationKind,
  verificationKindLabel,
} from '../../domain/review/verification-checklist.ts';
import {
  documentExtension,
  documentMimeTypeByExtension,
  MAX_DOCUMENT_BYTES,
  sanitizeDocumentName,
} from '../../domain/sections/documents.ts';
import { isUuid } from '../../domain/uuid.ts';
import type { AppInstance } from '../app-types.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { requirePermission, staffRoutePermission } from '../auth/actor.ts';
import { requireFileReader, requireFileReaderRole } from '../auth/file-readers.ts';
import type { Queryable } from '../db/client.ts';
import { providerApplications } from '../db/schema/core.ts';
import { verificationEvidence, verificationItems } from '../db/schema/review.ts';
import { attachmentDisposition } from '../documents/content-disposition.ts';
import { UNSUPPORTED_EXTENSION_MESSAGE } from '../documents/document-intake.ts';
import { openAuditedDownload, streamUpload } from '../documents/documents.service.ts';
import { assertDeclaredUploadSize, assertUploadAllowed } from '../documents/upload-preflight.ts';
import { assertStorableFileName } from '../http/unstorable-text.ts';
import { nextKeyTimestamp } from '../storage/object-keys.ts';
import { presentEvidence } from './verification-items.service.ts';

const itemParams = z.object({ applicationId: z.string(), itemId: z.string() });
const evidenceParams = z.object({ applicationId: z.string(), evidenceId: z.string() });

const evidenceNotFound = () =>
  new AppError('not_found', 'This evidence file does not exist (any more). Reload the review page.');
const notUnderReview = () =>
  new AppError(
    'conflict',
    'Evidence can be attached or removed only while the application is Under Review. Reload to see its current status.',
  );

/**
 * Issue 31 item 4: an item verified with required evidence (the claims history and its NPDB query
 * result, domain `evidenceRequiredMessage`) keeps at least one file while it stays verified; removing
 * the last one is refused (409) until the item is set back to pending or another file is attached.
 * Call under the application row's lock (the outcome and the evidence both change under it).
 */
async function assertNotLastRequiredEvidence(
  tx: Queryable,
  evidence: { id: string; itemId: string },
): Promise<void> {
  const [item] = await tx
    .select({ kind: verificationItems.kind, status: verificationItems.status })
    .from(verificationItems)
    .where(eq(verificationItems.id, evidence.itemId));
  if (item?.status !== 'verified') return;
  if (!evidenceRequiredMessage[item.kind as VerificationKind]) return;
  const [other] = await tx
    .select({ id: verificationEvidence.id })
    .from(verificationEvidence)
    .where(and(eq(verificationEvidence.itemId, evidence.itemId), ne(verificationEvidence.id, evidence.id)))
    .limit(1);
  if (!other) {
    throw new AppError(
      'conflict',
      `This file is the evidence the ${verificationKindLabel[item.kind as VerificationKind].toLowerCase()} was verified with. Attach its replacement first, or set the item back to pending.`,
    );
  }
}

export async function evidenceRoutes(app: AppInstance) {
  await app.register(multipart, {
    // As the documents': other fields are read and ignored (a form may carry some), one file.
    limits: { fileSize: MAX_DOCUMENT_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 1024, headerPairs: 20 },
    throwFileSizeLimit: false,
  });
  app.addHook('onRequest', async (request) => {
    // Issue 50 item 6: a committee member reads the evidence of a file on their meeting's agenda.
    if (request.method === 'GET' && request.routeOptions.config?.committeeReads)
      await requireFileReaderRole(request);
    else await requirePermission(request, staffRoutePermission(request, 'review:application:any'));
  });

  app.post(
    '/api/admin/applications/:applicationId/verification-items/:itemId/evidence',
    {
      config: { access: 'admin', fileDuty: { duty: 'verify', file: 'application' } },
      schema: {
        summary: 'Attach an evidence file to a checklist item (administrators, while under review; issue 13)',
        description:
          "multipart/form-data with one part `file`: pdf, doc, docx, jpg, jpeg or png, at most 10 MB, content matching the extension (the documents' checks and messages). 404 for an item not of this application, 409 unless the application is Under Review, 429 past the per-user upload rate, 507 while the server is low on storage. Visible to administrators only.",
        tags: ['review'],
        consumes: ['multipart/form-data'],
        params: itemParams,
        response: {
          201: evidenceSchema,
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
      const actor = await requirePermission(request, staffRoutePermission(request, 'review:application:any'));
      const { applicationId, itemId } = request.params;
      if (!isUuid(applicationId) || !isUuid(itemId)) throw evidenceNotFound();
      if (!request.isMultipart()) {
        throw new AppError('bad_request', 'Send the file as multipart/form-data in the part named "file".');
      }
      assertDeclaredUploadSize(request, reply);
      // The documents' limits (rate, free storage), and this item under review; the body unread.
      await assertUploadAllowed(app.deps, request, reply, actor.userId, async () => {
        const [item] = await app.deps.db
          .select({ id: verificationItems.id, status: providerApplications.applicationStatus })
          .from(verificationItems)
          .innerJoin(providerApplications, eq(providerApplications.id, verificationItems.applicationId))
          .where(and(eq(verificationItems.id, itemId), eq(verificationItems.applicationId, applicationId)));
        if (!item) throw new AppError('not_found', 'Checklist item not found. Reload the review page.');
        if (item.status !== 'under_review') throw notUnderReview();
      });

      // The first file part (fields before it are skipped).
      const part = await request.file();
      if (part?.fieldname !== 'file') {
        part?.file.resume();
        throw new AppError('bad_request', 'Choose a file to attach (the part named "file").');
      }
      assertStorableFileName(part);
      const extension = documentExtension(part.filename);
      if (!extension) {
        part.file.resume();
        throw new AppError('unsupported_media_type', UNSUPPORTED_EXTENSION_MESSAGE);
      }
      const key = `evidence/${applicationId}/${nextKeyTimestamp()}.${extension}`;
      const stored = await streamUpload(
        { storage: app.deps.storage, logger: request.log },
        { key, extension, source: part.file, maxBytes: MAX_DOCUMENT_BYTES },
      );
      try {
        const row = await app.deps.db.transaction(async (tx) => {
          // The application row, locked: a decision cannot slip in between the check and the insert.
          const [application] = await tx
            .execute<{ status: string; user_id: string }>(
              sql`select application_status as status, user_id from provider_applications where id = ${applicationId} for update`,
            )
            .then((r) => r.rows);
          if (application?.status !== 'under_review') throw notUnderReview();
          const [inserted] = await tx
            .insert(verificationEvidence)
            .values({
              applicationId,
              itemId,
              fileName: sanitizeDocumentName(part.filename),
              mimeType: documentMimeTypeByExtension[extension],
              fileSize: stored.size,
              sha256: stored.sha256,
              objectKey: key,
              uploadedBy: actor.userId,
            })
            .returning();
          await recordAudit(tx, {
            action: 'review.evidence_uploaded',
            actorUserId: actor.userId,
            subjectUserId: application.user_id,
            resourceType: 'verification_evidence',
            resourceId: inserted!.id,
            ipAddress: actor.ipAddress,
            details: { applicationId, itemId, fileSize: stored.size },
          });
          return inserted!;
        });
        return reply.status(201).send(presentEvidence(row));
      } catch (error) {
        await stored.discard('insert failed');
        throw error;
      }
    },
  );

  /** The evidence row `evidenceId` of `applicationId`, with the provider's user id. @throws 404 */
  const findEvidence = async (applicationId: string, evidenceId: string) => {
    if (!isUuid(applicationId) || !isUuid(evidenceId)) throw evidenceNotFound();
    const [found] = await app.deps.db
      .select({ row: verificationEvidence, providerUserId: providerApplications.userId })
      .from(verificationEvidence)
      .innerJoin(providerApplications, eq(providerApplications.id, verificationEvidence.applicationId))
      .where(
        and(eq(verificationEvidence.id, evidenceId), eq(verificationEvidence.applicationId, applicationId)),
      );
    if (!found) throw evidenceNotFound();
    return found;
  };

  app.get(
    '/api/admin/applications/:applicationId/evidence/:evidenceId/download',
    {
      config: { access: 'admin', committeeReads: true },
      exposeHeadRoute: false,
      schema: {
        summary: "An evidence file's bytes as an attachment (administrators; audited)",
        tags: ['review'],
        params: evidenceParams,
        response: {
          200: z.unknown().describe('The file bytes, with its stored MIME type'),
          401: errorResponseSchema,
          403: errorResponseSchema,
          404: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const actor = await requireFileReader(request, request.params.applicationId, 'evidence');
      const { row, providerUserId } = await findEvidence(
        request.params.applicationId,
        request.params.evidenceId,
      );
      // Audited like a document download (HIPAA 164.312(b)); the subject is the provider.
      const body = await openAuditedDownload(app.deps, {
        key: row.objectKey,
        missingMessage: 'The file of this evidence could not be found. Attach it again.',
        audit: {
          action: 'review.evidence_downloaded',
          actorUserId: actor.userId,
          subjectUserId: providerUserId,
          resourceType: 'verification_evidence',
          resourceId: row.id,
          ipAddress: actor.ipAddress,
          details: { applicationId: row.applicationId, itemId: row.itemId },
        },
      });
      return reply
        .header('content-type', row.mimeType)
        .header('content-length', row.fileSize)
        .header('content-disposition', attachmentDisposition(row.fileName))
        .header('x-content-type-options', 'nosniff')
        .send(body);
    },
  );

  app.delete(
    '/api/admin/applications/:applicationId/evidence/:evidenceId',
    {
      config: { access: 'admin', fileDuty: { duty: 'verify', file: 'application' } },
      schema: {
        summary: 'Remove an evidence file (administrators, while under review)',
        tags: ['review'],
        params: evidenceParams,
        response: {
          204: z.null(),
          401: errorResponseSchema,
          403: errorResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const actor = await requirePermission(request, staffRoutePermission(request, 'review:application:any'));
      const { row } = await findEvidence(request.params.applicationId, request.params.evidenceId);
      await app.deps.db.transaction(async (tx) => {
        const [application] = await tx
          .execute<{ status: string; user_id: string }>(
            sql`select application_status as status, user_id from provider_applications where id = ${row.applicationId} for update`,
          )
          .then((r) => r.rows);
        if (application?.status !== 'under_review') throw notUnderReview();
        await assertNotLastRequiredEvidence(tx, row);
        await tx.delete(verificationEvidence).where(eq(verificationEvidence.id, row.id));
        await recordAudit(tx, {
          action: 'review.evidence_deleted',
          actorUserId: actor.userId,
          subjectUserId: application.user_id,
          resourceType: 'verification_evidence',
          resourceId: row.id,
          ipAddress: actor.ipAddress,
          details: { applicationId: row.applicationId, itemId: row.itemId },
        });
      });
      // The row is gone; a failed object delete is left to the orphan sweep.
      await app.deps.storage.delete(row.objectKey).catch((error: unknown) => {
        request.log.warn({ err: error, evidenceId: row.id }, 'evidence object left for the orphan sweep');
      });
      return reply.status(204).send(null);
    },
  );
}
