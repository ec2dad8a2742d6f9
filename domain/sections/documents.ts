/**
 * Section 11, Documents (spec §2 "Documents screen", §3 documents, §7 storage). The screen uploads
 * files rather than filling a form: `documentSchema` describes the metadata row the server records for
 * an upload (the server sets `filePath`, `sha256`, `userId` and `uploadedAt` itself).
 */
import { z } from 'zod';
import {
  acceptedDocumentMimeTypes,
  DOCUMENT_NAME_MAX,
  DOCUMENT_TYPE_REQUIRED_MESSAGE,
  documentTypeLabel,
  documentTypes,
  formatFileSizeMb,
  MAX_DOCUMENT_BYTES,
} from './document-files.ts';
import { defineListSection, joinSummary, requiredText } from './section.ts';
import { sectionCatalog } from './section-catalog.ts';

export * from './document-files.ts';

const UNSUPPORTED_FILE_MESSAGE = 'Upload a PDF, Word document (DOC, DOCX), JPG or PNG file';

export const documentSchema = z.object({
  documentName: requiredText('Document name', DOCUMENT_NAME_MAX),
  documentType: z.enum(documentTypes, { error: DOCUMENT_TYPE_REQUIRED_MESSAGE }),
  /** Bytes. */
  fileSize: z
    .number({ error: 'File size must be a number of bytes' })
    .int('File size must be a number of bytes')
    .min(1, 'The file is empty')
    .max(MAX_DOCUMENT_BYTES, 'Files must be 10 MB or smaller'),
  mimeType: z.enum(acceptedDocumentMimeTypes, { error: UNSUPPORTED_FILE_MESSAGE }),
});
export type DocumentMetadata = z.output<typeof documentSchema>;

export const documentsSection = defineListSection({
  key: 'documents',
  ...sectionCatalog.documents,
  kind: 'list',
  layout: 'documents',
  orderBy: 'uploadedAt',
  schema: documentSchema,
  fields: [
    { name: 'documentName', label: 'Document Name' },
    { name: 'documentType', label: 'Document Type' },
    { name: 'fileSize', label: 'File Size' },
    { name: 'mimeType', label: 'MIME Type' },
  ],
  summarize: (row) =>
    joinSummary(row.documentName, documentTypeLabel[row.documentType], formatFileSizeMb(row.fileSize)),
  messages: {
    loadError: 'Failed to load documents',
    saveError: 'Failed to upload document',
    saveSuccess: 'Document uploaded successfully',
    deleteError: 'Failed to delete document',
    deleteSuccess: 'Document deleted successfully',
  },
});
