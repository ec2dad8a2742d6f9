/**
 * How the PDFs of an appeal (issue 50 item 8) are read: the provider's appeal state, the review page
 * and the committee's File Summary list them with where each downloads from. Written by
 * server/committee/appeal-attachments.ts.
 */
import { asc, eq } from 'drizzle-orm';
import type { AppealAttachmentDto } from '../../domain/api/review.ts';
import type { Queryable } from '../db/client.ts';
import { appealAttachments } from '../db/schema/committee.ts';

export type AppealAttachmentRow = typeof appealAttachments.$inferSelect;

/** Where an attachment downloads from. */
export function appealAttachmentUrl(applicationId: string, attachmentId: string): string {
  return `/api/applications/${applicationId}/appeal/attachments/${attachmentId}`;
}

/** The DTO (domain/api/review.ts) of a row. */
export function presentAppealAttachment(row: AppealAttachmentRow): AppealAttachmentDto {
  return {
    id: row.id,
    fileName: row.fileName,
    fileSize: row.fileSize,
    sha256: row.sha256,
    uploadedAt: row.uploadedAt.toISOString(),
    downloadUrl: appealAttachmentUrl(row.applicationId, row.id),
  };
}

/** An application's attachments, oldest first: those of its appeal, or those waiting for one. */
export async function appealAttachmentsOf(
  db: Queryable,
  applicationId: string,
): Promise<AppealAttachmentDto[]> {
  const rows = await db
    .select()
    .from(appealAttachments)
    .where(eq(appealAttachments.applicationId, applicationId))
    .orderBy(asc(appealAttachments.uploadedAt), asc(appealAttachments.id));
  return rows.map(presentAppealAttachment);
}
