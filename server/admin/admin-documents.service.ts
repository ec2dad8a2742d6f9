/**
 * The 'All Documents' tab of the admin dashboard (spec §2 /admin, §7: all documents, uploaded_at
 * descending), paged and searched on the server. Paging, counts and the search expression:
 * ./admin-list-query.ts. Downloads go through GET /api/documents/:documentId/download.
 */
import { sql } from 'drizzle-orm';
import type { CardDocument } from '../../domain/api/admin.ts';
import type { DocumentType } from '../../domain/sections/documents.ts';
import type { Queryable } from '../db/client.ts';
import { profiles, providerApplications } from '../db/schema/core.ts';
import { documents } from '../db/schema/documents.ts';
import {
  countRows,
  normalizeSearch,
  offsetOf,
  type Page,
  type PageRequest,
  providerMatches,
} from './admin-list-query.ts';

/** A row of the 'All Documents' tab as loaded; the route presents it as `documentListItemSchema` (domain/api/admin.ts). */
export interface DocumentListItem extends CardDocument {
  applicationId: string;
  uploadedAt: Date;
  owner: { userId: string; firstName: string; lastName: string; email: string } | null;
}

/**
 * Every document newest first (spec §7: all documents, uploaded_at descending), paged; with a search,
 * only the documents of users the admin search finds (`providerMatches`: name or email substring, exact
 * NPI or license number; served by the trigram and identifier indexes, then by
 * the applications and documents indexes).
 */
export async function listAllDocuments(
  db: Queryable,
  { search, ...paging }: PageRequest & { search?: string },
): Promise<Page<DocumentListItem>> {
  const term = normalizeSearch(search);
  const a = providerApplications;
  const where = term
    ? sql`where ${documents.applicationId} in (
        select ${a.id} from ${a} where ${a.userId} in (select ${profiles.userId} from ${profiles} where ${providerMatches(term)}))`
    : sql``;
  const pageQuery = db.execute<{
    id: string;
    document_name: string;
    document_type: DocumentType;
    file_size: number;
    mime_type: string;
    application_id: string;
    uploaded_at: Date;
    user_id: string;
    first_name: string | null;
    last_name: string | null;
    email: string | null;
  }>(sql`
    select ${documents.id} as id, ${documents.documentName} as document_name,
           ${documents.documentType} as document_type, ${documents.fileSize} as file_size,
           ${documents.mimeType} as mime_type, ${documents.applicationId} as application_id,
           ${documents.uploadedAt} as uploaded_at, ${documents.userId} as user_id,
           ${profiles.firstName} as first_name, ${profiles.lastName} as last_name, ${profiles.email} as email
    from ${documents} left join ${profiles} on ${profiles.userId} = ${documents.userId}
    ${where}
    order by ${documents.uploadedAt} desc nulls last
    limit ${paging.pageSize} offset ${offsetOf(paging)}
  `);
  // Capped even without a search: the exact total is on the counters, and 200,000 rows take ~20 ms
  // to count, more than the page itself.
  const [result, count] = await Promise.all([
    pageQuery,
    countRows(db, sql`from ${documents} ${where}`, true),
  ]);
  return {
    items: result.rows.map((row) => ({
      id: row.id,
      documentName: row.document_name,
      documentType: row.document_type,
      fileSize: Number(row.file_size),
      mimeType: row.mime_type,
      applicationId: row.application_id,
      uploadedAt: new Date(row.uploaded_at),
      owner:
        row.email !== null
          ? {
              userId: row.user_id,
              firstName: row.first_name ?? '',
              lastName: row.last_name ?? '',
              email: row.email,
            }
          : null,
    })),
    ...count,
    ...paging,
  };
}
