/**
 * Documents (issue 4; spec §3 documents, §5, §7 storage): rows in `documents`, bytes in the
 * provider-documents bucket. The invariant is "a row exists if and only if its object exists":
 *
 * - upload: stream the object to storage through the intake checks; insert the row (and its audit
 *   event) only once the object is durable; any failure deletes the object.
 * - delete: delete the row first (commit), then the object. A crash in between leaves an object no
 *   row points to: invisible to everyone, and removed by `sweepOrphanObjects`.
 * - `sweepOrphanObjects` also removes the object of an upload whose process died before the insert.
 */

import type { Readable } from 'node:stream';
import { desc, eq, inArray, sql } from 'drizzle-orm';
import type { BaseLogger } from 'pino';
import { AppError } from '../../domain/app-error.ts';
import { isStaff } from '../../domain/roles.ts';
import {
  DOCUMENT_COUNT_LIMIT_MESSAGE,
  DOCUMENT_TOTAL_SIZE_LIMIT_MESSAGE,
  type DocumentExtension,
  type DocumentType,
  documentMimeTypeByExtension,
  documentObjectKey,
  MAX_DOCUMENT_BYTES,
  MAX_DOCUMENT_BYTES_PER_APPLICATION,
  MAX_DOCUMENTS_PER_APPLICATION,
} from '../../domain/sections/documents.ts';
import { isUuid } from '../../domain/uuid.ts';
import { assertSectionEditable } from '../applications/review-lock.ts';
import { confirmOnSave } from '../applications/section-confirmations.ts';
import { type AuditEvent, recordAudit } from '../audit/audit.service.ts';
import type { Actor } from '../auth/actor.ts';
import type { Database, Queryable } from '../db/client.ts';
import { appealAttachments } from '../db/schema/committee.ts';
import { documents } from '../db/schema/documents.ts';
import { verificationEvidence } from '../db/schema/review.ts';
import { nextKeyTimestamp } from '../storage/object-keys.ts';
import type { ObjectStorage } from '../storage/object-storage.ts';
import { DocumentIntake, fileTooLargeError } from './document-intake.ts';

export type DocumentRow = typeof documents.$inferSelect;

/** What the service logs with (pino, or a request's Fastify logger). */
export type ServiceLogger = Pick<BaseLogger, 'info' | 'warn' | 'error'>;

/** Node error codes of a full disk or an exhausted quota. */
const NO_SPACE_CODES = new Set(['ENOSPC', 'EDQUOT']);

/**
 * The answer to a failed storage write (issue 19 item 4): 507 when the disk or quota is full, else a
 * 500 that says the file was not stored. The cause itself is logged, never sent.
 */
export function storageWriteError(cause: unknown): AppError {
  if (NO_SPACE_CODES.has((cause as NodeJS.ErrnoException)?.code ?? '')) {
    return new AppError(
      'insufficient_storage',
      'The server has no storage space left, so your file was not saved. Try again later, and tell your credentialing team.',
    );
  }
  return new AppError(
    'internal',
    'Your file could not be saved because of a storage problem on our side. Try again in a moment, and tell your credentialing team if it keeps happening.',
  );
}

/** An application's documents, newest first (spec §9). */
export function listDocuments(db: Queryable, applicationId: string): Promise<DocumentRow[]> {
  return db
    .select()
    .from(documents)
    .where(eq(documents.applicationId, applicationId))
    .orderBy(desc(documents.uploadedAt), desc(documents.id));
}

/** One document, or undefined (also for a malformed id). */
export async function findDocument(db: Queryable, documentId: string): Promise<DocumentRow | undefined> {
  if (!isUuid(documentId)) return undefined;
  const [row] = await db.select().from(documents).where(eq(documents.id, documentId));
  return row;
}

/**
 * Refuse an upload that would pass the per-application limits (issue 10 item 5): at most
 * MAX_DOCUMENTS_PER_APPLICATION documents and MAX_DOCUMENT_BYTES_PER_APPLICATION bytes.
 * Inside a transaction, take `lockApplicationDocuments` first so concurrent uploads are counted.
 * @param addingBytes size of the file being added (0 before it has been read: then only a full
 *   application is refused)
 * @throws AppError conflict (409) at the count limit, payload_too_large (413) past the byte limit
 */
export async function assertDocumentRoom(
  db: Queryable,
  applicationId: string,
  addingBytes: number,
): Promise<void> {
  const [usage] = await db
    .select({
      count: sql<number>`count(*)::int`,
      bytes: sql<number>`coalesce(sum(${documents.fileSize}), 0)::int8`,
    })
    .from(documents)
    .where(eq(documents.applicationId, applicationId));
  if ((usage?.count ?? 0) >= MAX_DOCUMENTS_PER_APPLICATION) {
    throw new AppError('conflict', DOCUMENT_COUNT_LIMIT_MESSAGE);
  }
  const bytes = Number(usage?.bytes ?? 0);
  if (bytes + Math.max(addingBytes, 1) > MAX_DOCUMENT_BYTES_PER_APPLICATION) {
    throw new AppError('payload_too_large', DOCUMENT_TOTAL_SIZE_LIMIT_MESSAGE);
  }
}

/** Serialise document inserts of one application for the rest of the transaction. */
async function lockApplicationDocuments(tx: Queryable, applicationId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`documents:${applicationId}`}))`);
}

/** The multipart file as @fastify/multipart hands it over: busboy's stream with its `truncated` flag. */
export type UploadSource = Readable & { truncated?: boolean };

export interface StoreDocumentInput {
  actor: Actor;
  applicationId: string;
  documentType: DocumentType;
  /** Sanitised display name (never used in a path). */
  documentName: string;
  extension: DocumentExtension;
  source: UploadSource;
  /** Bytes; default the 10 MB of spec §9. */
  maxBytes?: number;
}

/** An upload stored under its key: its size, SHA-256, and how to take it back. */
export interface StreamedUpload {
  size: number;
  sha256: string;
  /** Delete the object (the row could not be written); failures are logged for the orphan sweep. */
  discard(reason: string): Promise<void>;
}

/**
 * Stream one multipart file into storage under `key` through DocumentIntake (type detection against
 * the extension, size limit, SHA-256), for documents and for the reviewers' evidence files (issue 13).
 * On any failure the object is deleted and the rest of the part is drained, so nothing is kept.
 * @throws AppError 413 (over `maxBytes`), 415 (content does not match the extension), 400 (empty or
 *   interrupted), 507/500 when storage fails to write (storageWriteError; the cause is logged)
 */
export async function streamUpload(
  deps: { storage: ObjectStorage; logger: ServiceLogger },
  input: { key: string; extension: DocumentExtension; source: UploadSource; maxBytes: number },
): Promise<StreamedUpload> {
  const { storage, logger } = deps;
  const { source, key } = input;
  const mimeType = documentMimeTypeByExtension[input.extension];
  const intake = new DocumentIntake(input.extension, input.maxBytes);

  // busboy stops at limits.fileSize and says so with 'limit'; fail at once rather than store a prefix.
  source.on('limit', () => intake.destroy(fileTooLargeError()));
  source.on('error', () =>
    intake.destroy(new AppError('bad_request', 'The upload was interrupted. Please try again.')),
  );
  source.on('close', () => {
    if (!source.readableEnded)
      intake.destroy(new AppError('bad_request', 'The upload was interrupted. Please try again.'));
  });
  // The driver may attach to `intake` only after some awaits; its verdict is read from
  // `intake.errored`, so an early error must not go unheard meanwhile.
  intake.on('error', () => {});
  source.pipe(intake);

  const discard = async (reason: string) => {
    source.unpipe(intake);
    source.resume(); // Drain the rest of the part so the request completes and the answer is read.
    await storage.delete(key).catch((error: unknown) => {
      // The sweep removes it later: the row was never written.
      logger.warn({ err: error, key, reason }, 'could not delete a discarded upload object');
    });
  };

  try {
    await storage.put(key, intake, { contentType: mimeType });
    if (source.truncated) throw fileTooLargeError();
  } catch (error) {
    // The intake's own verdict (413, 415, 400 ...) explains the failure better than the driver's echo
    // of it; anything else is the storage failing to write. Log the cause before the clean-up, whose
    // own failure (same broken disk) must not hide it.
    const verdict = intake.errored ?? (error instanceof AppError ? error : undefined);
    if (!verdict)
      logger.error({ err: error, driver: storage.driver }, 'document upload: storage write failed');
    await discard('upload failed');
    throw verdict ?? storageWriteError(error);
  }
  return { size: intake.size, sha256: intake.sha256!, discard };
}

/**
 * Stream one upload into storage and record it (spec §7: key `{userId}/{documentType}/{timestamp}.{ext}`).
 * On any failure the object is deleted and the rest of the upload is drained, so nothing is kept.
 * @throws AppError 413 (over the limit), 415 (content does not match the extension), 400 (empty or
 *   interrupted upload), 409/413 (the application's document limits, see assertDocumentRoom: checked
 *   again once the size is known), 507/500 when storage fails to write (storageWriteError; the cause
 *   is logged); database errors propagate (500).
 */
export async function storeDocument(
  deps: { db: Database; storage: ObjectStorage; logger: ServiceLogger },
  input: StoreDocumentInput,
): Promise<DocumentRow> {
  const { db, storage, logger } = deps;
  const { source, actor } = input;
  const key = documentObjectKey(actor.userId, input.documentType, nextKeyTimestamp(), input.extension);
  const mimeType = documentMimeTypeByExtension[input.extension];
  const stored = await streamUpload(
    { storage, logger },
    { key, extension: input.extension, source, maxBytes: input.maxBytes ?? MAX_DOCUMENT_BYTES },
  );

  try {
    return await db.transaction(async (tx) => {
      await lockApplicationDocuments(tx, input.applicationId);
      // A completed application is locked except the sections of an open information request (issue 13).
      await assertSectionEditable(tx, input.applicationId, 'documents');
      await assertDocumentRoom(tx, input.applicationId, stored.size);
      // Issue 29 item 6: an upload confirms the copied Documents section.
      await confirmOnSave(tx, input.applicationId, 'documents');
      const [row] = await tx
        .insert(documents)
        .values({
          applicationId: input.applicationId,
          userId: actor.userId,
          documentName: input.documentName,
          documentType: input.documentType,
          filePath: key,
          fileSize: stored.size,
          mimeType,
          sha256: stored.sha256,
        })
        .returning();
      await recordAudit(tx, {
        action: 'document.upload',
        actorUserId: actor.userId,
        subjectUserId: actor.userId,
        resourceType: 'document',
        resourceId: row!.id,
        ipAddress: actor.ipAddress,
        details: { documentType: input.documentType, fileSize: stored.size },
      });
      return row!;
    });
  } catch (error) {
    await stored.discard('insert failed');
    throw error;
  }
}

/**
 * Delete a document: the row (with its audit event) commits first, then the object goes. If the
 * object delete fails or the process dies, the orphan sweep removes it later.
 */
export async function deleteDocument(
  deps: { db: Database; storage: ObjectStorage; logger: ServiceLogger },
  actor: Actor,
  document: DocumentRow,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    // Issue 29 item 4: a credential update uploads new documents but never removes one.
    await assertSectionEditable(tx, document.applicationId, 'documents', { removal: true });
    await tx.delete(documents).where(eq(documents.id, document.id));
    // Issue 29 item 6: a change confirms the copied Documents section.
    await confirmOnSave(tx, document.applicationId, 'documents');
    await recordAudit(tx, {
      action: 'document.delete',
      actorUserId: actor.userId,
      subjectUserId: document.userId,
      resourceType: 'document',
      resourceId: document.id,
      ipAddress: actor.ipAddress,
    });
  });
  await deps.storage.delete(document.filePath).catch((error: unknown) => {
    deps.logger.warn({ err: error, documentId: document.id }, 'document object left for the orphan sweep');
  });
}

/**
 * Open a document's bytes for download and audit the access (HIPAA 164.312(b)).
 * @throws AppError not_found when the object is missing from storage
 */
export function openDocumentForDownload(
  deps: { db: Database; storage: ObjectStorage },
  actor: Actor,
  document: DocumentRow,
): Promise<Readable> {
  return openAuditedDownload(deps, {
    key: document.filePath,
    missingMessage: 'The file of this document could not be found. Upload it again.',
    audit: {
      action: 'document.download',
      actorUserId: actor.userId,
      subjectUserId: document.userId,
      resourceType: 'document',
      resourceId: document.id,
      ipAddress: actor.ipAddress,
      details: { byAdmin: isStaff(actor.roles) },
    },
  });
}

/**
 * Open the object `key` and record `audit` (the download of a document, or of an evidence file,
 * issue 13); the stream is closed again when the audit row cannot be written, so no unaudited read.
 * @throws AppError not_found with `missingMessage` when the object is missing from storage; storage
 *   and database errors propagate (500)
 */
export async function openAuditedDownload(
  deps: { db: Database; storage: ObjectStorage },
  input: { key: string; missingMessage: string; audit: AuditEvent },
): Promise<Readable> {
  let body: Readable;
  try {
    body = await deps.storage.get(input.key);
  } catch (error) {
    if ((error as Error).name === 'ObjectNotFoundError')
      throw new AppError('not_found', input.missingMessage);
    throw error;
  }
  try {
    await recordAudit(deps.db, input.audit);
  } catch (error) {
    body.destroy();
    throw error;
  }
  return body;
}

/** Objects younger than this are left alone by the sweep: an upload may be between put and insert. */
export const ORPHAN_MIN_AGE_MS = 60 * 60 * 1000;

/**
 * Delete stored objects that no document row, evidence file (issue 13) nor appeal attachment (issue 50
 * item 8) points to and that are older than `minAgeMs`
 * (default one hour). Returns the deleted keys.
 */
export async function sweepOrphanObjects(
  db: Queryable,
  storage: ObjectStorage,
  options: { minAgeMs?: number; now?: Date } = {},
): Promise<string[]> {
  const cutoff = (options.now ?? new Date()).getTime() - (options.minAgeMs ?? ORPHAN_MIN_AGE_MS);
  const deleted: string[] = [];
  let batch: string[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    // Objects of documents and of reviewers' evidence files (issue 13) share the storage.
    const [known, evidence, appeals] = await Promise.all([
      db.select({ key: documents.filePath }).from(documents).where(inArray(documents.filePath, batch)),
      db
        .select({ key: verificationEvidence.objectKey })
        .from(verificationEvidence)
        .where(inArray(verificationEvidence.objectKey, batch)),
      // Issue 50 item 8: the PDFs of appeals.
      db
        .select({ key: appealAttachments.objectKey })
        .from(appealAttachments)
        .where(inArray(appealAttachments.objectKey, batch)),
    ]);
    const referenced = new Set([...known, ...evidence, ...appeals].map((k) => k.key));
    for (const key of batch) {
      if (referenced.has(key)) continue;
      await storage.delete(key);
      deleted.push(key);
    }
    batch = [];
  };
  for await (const object of storage.list()) {
    if (object.lastModified.getTime() > cutoff) continue;
    batch.push(object.key);
    if (batch.length >= 500) await flush();
  }
  await flush();
  return deleted;
}

/**
 * Run the orphan sweep, and the storage's sweep of leftover temporary upload files (issue 19 item 4;
 * storage/temp-files.ts), now and then every `intervalMs` (default hourly) on an unref'd timer.
 * `stop()` clears the timer and waits for a running sweep, so the database can close after it.
 */
export function startOrphanSweeper(
  deps: { db: Database; storage: ObjectStorage; logger: ServiceLogger },
  intervalMs = ORPHAN_MIN_AGE_MS,
): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const run = () => {
    if (stopped) return;
    running = running.then(async () => {
      if (stopped) return;
      try {
        const temp = await deps.storage.sweepTempFiles();
        if (temp.count > 0)
          deps.logger.info(
            { count: temp.count, bytes: temp.bytes, driver: deps.storage.driver },
            'removed leftover temporary upload files',
          );
      } catch (error) {
        deps.logger.warn({ err: error }, 'temporary upload file sweep failed; it runs again later');
      }
      try {
        const deleted = await sweepOrphanObjects(deps.db, deps.storage);
        if (deleted.length > 0)
          deps.logger.info({ count: deleted.length }, 'removed orphan document objects');
      } catch (error) {
        deps.logger.warn({ err: error }, 'orphan document sweep failed; it runs again later');
      }
    });
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
