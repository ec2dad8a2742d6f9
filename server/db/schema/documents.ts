/**
 * Uploaded documents (spec §3 documents, §7 storage). The file itself lives in the provider-documents
 * bucket under `file_path`; this row is its metadata. Rows are written once and deleted, never updated.
 */
import { bigint, index, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { documentTypes } from '../../../domain/sections/documents.ts';
import { user } from './auth.ts';
import { providerApplications } from './core.ts';

export const documentTypeEnum = pgEnum('document_type', documentTypes);

export const documents = pgTable(
  'documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The document's identity across copies (issue 29; as section rows' `row_key`). */
    rowKey: uuid('row_key').notNull().defaultRandom(),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => providerApplications.id, { onDelete: 'cascade' }),
    /** Owner of the file; the first segment of `file_path`. */
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** Sanitised display name (domain `sanitizeDocumentName`). */
    documentName: text('document_name').notNull(),
    documentType: documentTypeEnum('document_type').notNull(),
    /** Object key `{userId}/{documentType}/{timestamp}.{extension}` (domain `documentObjectKey`). */
    filePath: text('file_path').notNull().unique(),
    /** Bytes. */
    fileSize: bigint('file_size', { mode: 'number' }).notNull(),
    mimeType: text('mime_type').notNull(),
    /** Hex SHA-256 of the stored bytes. */
    sha256: text('sha256').notNull(),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('documents_application_uploaded_idx').on(t.applicationId, t.uploadedAt.desc()),
    index('documents_uploaded_at_idx').on(t.uploadedAt.desc()),
  ],
);
