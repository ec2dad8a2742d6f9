/**
 * API contract of an application's documents (issue 4; spec §2 documents screen, §3, §5, §7):
 * list, upload (multipart), delete and download. Validated and serialised by
 * server/documents/documents.routes.ts; typed on the web by web/features/documents/documents-api.ts.
 */
import { z } from 'zod';
import { documentTypes } from '../sections/documents.ts';

/** A document as the API shows it. The storage key is never exposed: downloads go through the API. */
export const documentResponseSchema = z.object({
  id: z.uuid(),
  applicationId: z.uuid(),
  /** The sanitised original file name. */
  documentName: z.string(),
  documentType: z.enum(documentTypes),
  /** Bytes (at most 10,485,760, spec §5). */
  fileSize: z.number().int(),
  mimeType: z.string(),
  /** Hex SHA-256 of the stored bytes. */
  sha256: z.string(),
  /** ISO 8601, UTC. */
  uploadedAt: z.iso.datetime(),
  /** Authorized download path (same-origin, needs the session): `/api/documents/{id}/download`. */
  downloadUrl: z.string(),
});
export type DocumentDto = z.infer<typeof documentResponseSchema>;

/** GET /api/applications/:applicationId/documents: newest first (spec §7). */
export const documentListResponseSchema = z.object({ documents: z.array(documentResponseSchema) });
export type DocumentList = z.infer<typeof documentListResponseSchema>;

/**
 * The multipart text field of an upload. It must come before the file part `file`: the file is
 * streamed to storage as it arrives and its object key contains the type.
 */
export const uploadDocumentFieldsSchema = z.object({
  documentType: z.enum(documentTypes, { error: 'Choose one of the listed document types.' }),
});

/** Path parameters (any text: a non-UUID answers 404). */
export const applicationDocumentsParamsSchema = z.object({ applicationId: z.string() });
export const applicationDocumentParamsSchema = z.object({
  applicationId: z.string(),
  documentId: z.string(),
});
export const documentParamsSchema = z.object({ documentId: z.string() });
