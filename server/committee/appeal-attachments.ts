/**
 * The PDFs a provider attaches to the appeal of a denial (issue 50 item 8, docs/decisions/029). They
 * are uploaded one at a time while the appeal may be requested (`appeal_id` null, removable), and
 * 'Request Appeal' takes all of them into the appeal in its own transaction, after which they are part
 * of the record. Stored like documents (documents.service.ts `streamUpload`: type detection against the
 * extension, the 10 MB limit, SHA-256, an object deleted again when its row cannot be written), under
 * `appeals/<applicationId>/<ms>.pdf`; the orphan sweep keeps the objects a row points to.
 */
import { and, count, eq } from 'drizzle-orm';
import { AppError } from '../../domain/app-error.ts';
import {
  APPEAL_ATTACHMENTS_FULL_MESSAGE,
  APPEAL_ATTACHMENTS_MAX,
} from '../../domain/committee/decision-letters.ts';
import { MAX_DOCUMENT_BYTES, sanitizeDocumentName } from '../../domain/sections/documents.ts';
import { isUuid } from '../../domain/uuid.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Actor } from '../auth/actor.ts';
import type { Database, Queryable } from '../db/client.ts';
import { appealAttachments } from '../db/schema/committee.ts';
import { providerApplications } from '../db/schema/core.ts';
import {
  openAuditedDownload,
  type ServiceLogger,
  streamUpload,
  type UploadSource,
} from '../documents/documents.service.ts';
import type { AppealAttachmentRow } from '../review/appeal-attachment-reads.ts';
import { lockApplication } from '../review/review-transaction.ts';
import { nextKeyTimestamp } from '../storage/object-keys.ts';
import type { ObjectStorage } from '../storage/object-storage.ts';
import { assertAppealOpen } from './appeals.service.ts';

/** The 404 of an attachment that is not this application's (or no longer exists). */
export const appealAttachmentNotFound = () =>
  new AppError('not_found', 'This attachment does not exist (any more). Reload the page.');

/** One attachment of `applicationId`, or undefined. */
export async function findAppealAttachment(
  db: Queryable,
  applicationId: string,
  attachmentId: string,
): Promise<AppealAttachmentRow | undefined> {
  if (!isUuid(attachmentId)) return undefined;
  const [row] = await db
    .select()
    .from(appealAttachments)
    .where(and(eq(appealAttachments.id, attachmentId), eq(appealAttachments.applicationId, applicationId)));
  return row;
}

/** One attachment of `applicationId` with the application's provider (the audit's subject), or undefined. */
export async function appealAttachmentWithProvider(
  db: Queryable,
  applicationId: string,
  attachmentId: string,
): Promise<{ row: AppealAttachmentRow; providerId: string } | undefined> {
  if (!isUuid(applicationId) || !isUuid(attachmentId)) return undefined;
  const [found] = await db
    .select({ row: appealAttachments, providerId: providerApplications.userId })
    .from(appealAttachments)
    .innerJoin(providerApplications, eq(providerApplications.id, appealAttachments.applicationId))
    .where(and(eq(appealAttachments.id, attachmentId), eq(appealAttachments.applicationId, applicationId)));
  return found;
}

/**
 * The room for one more attachment; call under the application's lock (or before reading a body).
 * @throws AppError conflict (409, APPEAL_ATTACHMENTS_FULL_MESSAGE) at APPEAL_ATTACHMENTS_MAX
 */
export async function assertAttachmentRoom(tx: Queryable, applicationId: string): Promise<void> {
  const [row] = await tx
    .select({ n: count() })
    .from(appealAttachments)
    .where(eq(appealAttachments.applicationId, applicationId));
  if ((row?.n ?? 0) >= APPEAL_ATTACHMENTS_MAX)
    throw new AppError('conflict', APPEAL_ATTACHMENTS_FULL_MESSAGE);
}

/**
 * Store one PDF for the appeal the provider is writing: streamed into storage (the documents' checks),
 * then recorded under the application's lock, where the appeal must still be open (assertAppealOpen)
 * and have room (assertAttachmentRoom). On any refusal the object is deleted again.
 * @throws AppError 413/415/400 from the upload, 409 (appeal not open, requested already, full), 507/500
 *   when storage fails to write
 */
export async function storeAppealAttachment(
  deps: { db: Database; storage: ObjectStorage; logger: ServiceLogger },
  input: { actor: Actor; applicationId: string; fileName: string; source: UploadSource; now: Date },
): Promise<AppealAttachmentRow> {
  const { db, storage, logger } = deps;
  const key = `appeals/${input.applicationId}/${nextKeyTimestamp()}.pdf`;
  const stored = await streamUpload(
    { storage, logger },
    { key, extension: 'pdf', source: input.source, maxBytes: MAX_DOCUMENT_BYTES },
  );
  try {
    return await db.transaction(async (tx) => {
      const application = await lockApplication(tx, input.applicationId);
      await assertAppealOpen(tx, application, input.now);
      await assertAttachmentRoom(tx, application.id);
      const [row] = await tx
        .insert(appealAttachments)
        .values({
          applicationId: application.id,
          fileName: sanitizeDocumentName(input.fileName),
          fileSize: stored.size,
          sha256: stored.sha256,
          objectKey: key,
          uploadedAt: input.now,
        })
        .returning();
      await recordAudit(tx, {
        action: 'review.appeal_attachment_uploaded',
        actorUserId: input.actor.userId,
        subjectUserId: application.userId,
        resourceType: 'appeal_attachment',
        resourceId: row!.id,
        ipAddress: input.actor.ipAddress,
        details: { applicationId: application.id, fileSize: stored.size },
      });
      return row!;
    });
  } catch (error) {
    await stored.discard('appeal attachment not recorded');
    throw error;
  }
}

/**
 * Remove an attachment of the appeal being written. Once 'Request Appeal' took it, it is part of the
 * record: 409. The row goes first; the object after it (or by the orphan sweep).
 * @throws AppError not_found (404), conflict (409)
 */
export async function removeAppealAttachment(
  deps: { db: Database; storage: ObjectStorage; logger: ServiceLogger },
  actor: Actor,
  applicationId: string,
  attachmentId: string,
): Promise<void> {
  const removed = await deps.db.transaction(async (tx) => {
    const application = await lockApplication(tx, applicationId);
    const row = await findAppealAttachment(tx, application.id, attachmentId);
    if (!row) throw appealAttachmentNotFound();
    if (row.appealId) {
      throw new AppError(
        'conflict',
        'This file is part of your appeal, which you have requested: it can no longer be removed.',
      );
    }
    await tx.delete(appealAttachments).where(eq(appealAttachments.id, row.id));
    await recordAudit(tx, {
      action: 'review.appeal_attachment_removed',
      actorUserId: actor.userId,
      subjectUserId: application.userId,
      resourceType: 'appeal_attachment',
      resourceId: row.id,
      ipAddress: actor.ipAddress,
      details: { applicationId: application.id },
    });
    return row;
  });
  await deps.storage.delete(removed.objectKey).catch((error: unknown) => {
    deps.logger.warn({ err: error, attachmentId }, 'appeal attachment object left for the orphan sweep');
  });
}

/**
 * Open an attachment's bytes and audit the read (HIPAA 164.312(b)).
 * @throws AppError not_found when its object is missing from storage
 */
export function openAppealAttachment(
  deps: { db: Database; storage: ObjectStorage },
  actor: Actor,
  row: AppealAttachmentRow,
  subjectUserId: string,
) {
  return openAuditedDownload(deps, {
    key: row.objectKey,
    missingMessage: 'The file of this attachment could not be found. Ask the provider to send it again.',
    audit: {
      action: 'review.appeal_attachment_downloaded',
      actorUserId: actor.userId,
      subjectUserId,
      resourceType: 'appeal_attachment',
      resourceId: row.id,
      ipAddress: actor.ipAddress,
      details: { applicationId: row.applicationId },
    },
  });
}
