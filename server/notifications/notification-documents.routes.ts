/**
 * GET /api/notification-documents/:documentId/:token (public: the signed token is the capability;
 * issue 20 item 1, docs/decisions/017-notification-documents-links.md). The `downloadUrl` of a
 * document in a `links` mode completion notification (NOTIFY_DOCUMENTS=links).
 *
 * - 200: the document's bytes as an attachment (stored MIME type, nosniff, no-store), streamed from
 *   object storage; every fetch is audited as 'notification.document_fetched' (no session: no actor),
 *   and once all its bytes were sent, marked fetched for the sends that offered it (issue 53 item 3,
 *   document-fetches.ts).
 * - 403: the token is malformed, altered, for another document, or expired (never 404 or 500: a
 *   caller without a valid token learns nothing about the document).
 * - 404: a valid link whose document was deleted since (or whose stored file is gone).
 *
 * The token travels in the path; the request log's `safeLogPath` (server/logger.ts) redacts it.
 */
import { z } from 'zod';
import { notificationDocumentParamsSchema } from '../../domain/api/notifications.ts';
import { AppError, errorResponseSchema } from '../../domain/app-error.ts';
import type { AppInstance } from '../app-types.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { attachmentDisposition } from '../documents/content-disposition.ts';
import { findDocument } from '../documents/documents.service.ts';
import { markDocumentFetched } from './document-fetches.ts';
import { NOTIFICATION_DOCUMENT_ROUTE } from './document-links.ts';

/** The message of every refused link (spec-free text; the receiver's operator reads it). */
export const LINK_REFUSED_MESSAGE =
  'This download link is not valid or has expired. An administrator can send the notification again for new links.';

export async function notificationDocumentRoutes(app: AppInstance) {
  app.get(
    NOTIFICATION_DOCUMENT_ROUTE,
    {
      config: { access: 'public' },
      // A HEAD would open the object and write a fetch to the audit log.
      exposeHeadRoute: false,
      schema: {
        summary:
          'A document of a completion notification, through its signed downloadUrl (links mode; audited)',
        description:
          'No session: the token signed by this server is the capability, for this document only, until it ' +
          'expires (NOTIFY_LINK_TTL_MINUTES after the attempt that sent it). 403 for an expired, altered or ' +
          "other document's token.",
        tags: ['notifications'],
        params: notificationDocumentParamsSchema,
        response: {
          200: z.unknown().describe('The document bytes, with its stored MIME type'),
          403: errorResponseSchema,
          404: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const { documentId, token } = request.params;
      const check = app.deps.completionDelivery.documentLinks.verify(documentId, token, Date.now());
      if (!check.ok) {
        request.log.info({ reason: check.reason }, 'notification document link refused');
        throw new AppError('forbidden', LINK_REFUSED_MESSAGE);
      }
      const document = await findDocument(app.deps.db, documentId);
      if (!document) throw new AppError('not_found', 'This document no longer exists.');
      let body: Awaited<ReturnType<typeof app.deps.storage.get>>;
      try {
        body = await app.deps.storage.get(document.filePath);
      } catch (error) {
        if ((error as Error).name === 'ObjectNotFoundError') {
          throw new AppError('not_found', 'The file of this document could not be found.');
        }
        throw error;
      }
      try {
        await recordAudit(app.deps.db, {
          action: 'notification.document_fetched',
          subjectUserId: document.userId,
          resourceType: 'document',
          resourceId: document.id,
          ipAddress: request.ip,
          details: { linkExpiresAt: check.expiresAt.toISOString() },
        });
      } catch (error) {
        body.destroy();
        throw error;
      }
      // Issue 53 item 3: fetched when every byte went out (not on an aborted or failed stream).
      reply.raw.once('finish', () => {
        markDocumentFetched(app.deps.db, document.id, check.expiresAt).catch((error: unknown) => {
          request.log.warn({ err: error, documentId: document.id }, 'could not record a document fetch');
        });
      });
      return reply
        .header('content-type', document.mimeType)
        .header('content-length', document.fileSize)
        .header('content-disposition', attachmentDisposition(document.documentName))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-store')
        .send(body);
    },
  );
}
