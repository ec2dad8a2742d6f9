/**
 * 'Start New Application' and 'Start Recredentialing' (spec §4, issue 14 copy-forward, decision 024):
 * a new draft pre-filled from the provider's most recent application, so a provider re-credentialed
 * every 36 months updates what changed instead of re-typing everything.
 *
 * - Every section row is copied with a new id (one INSERT ... SELECT per section table, inside the
 *   transaction that creates the draft). A copied section counts towards progress once the provider
 *   confirms it ('Review and Confirm' or a save; issue 29 item 6, section-confirmations.ts).
 * - Every document's file is copied to a new object key before that transaction, and its row is
 *   inserted in it: the new application's files stay downloadable whatever happens to the old ones.
 *   When the transaction fails the copies are deleted; if the process dies first, the orphan sweep
 *   (documents.service.ts `sweepOrphanObjects`) removes objects no row points to.
 * - Review state (checklist, notes, requests, attestations) is not copied: each cycle is reviewed
 *   and attested anew.
 * - A row that points at another section's row (a specialty's `board_certification_id`, issue 31)
 *   would still point at the source application's row after the copy: in the same transaction it is
 *   re-pointed at the draft's copy of that row, found by `row_key` (`relinkCopiedReferences`).
 */
import { desc, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { BaseLogger } from 'pino';
import type { CopiedFrom } from '../../domain/api/applications.ts';
import { documentExtension, documentObjectKey } from '../../domain/sections/document-files.ts';
import { type SectionKey, sections } from '../../domain/sections/registry.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Actor } from '../auth/actor.ts';
import type { Database, Queryable } from '../db/client.ts';
import { providerApplications } from '../db/schema/core.ts';
import { documents } from '../db/schema/documents.ts';
import { certifications, sectionTables, specialties } from '../db/schema/sections.ts';
import { nextKeyTimestamp } from '../storage/object-keys.ts';
import { ObjectNotFoundError, type ObjectStorage } from '../storage/object-storage.ts';
import {
  type ApplicationSummary,
  assertNoOpenApplication,
  type CycleOpener,
  insertDraftApplication,
} from './applications.service.ts';

type ServiceLogger = Pick<BaseLogger, 'info' | 'warn' | 'error'>;

export interface StartedApplication {
  application: ApplicationSummary;
  /** What was copied, or null when the provider had no earlier application. */
  copied: CopiedFrom | null;
}

/** Columns a copy takes over: all but the row's identity, owner application and timestamps. */
const NOT_COPIED = new Set(['id', 'application_id', 'created_at', 'updated_at']);

/** `insert into <table> (application_id, ...) select <to>, ... from <table> where application_id = <from>`. */
function copyRowsStatement(table: PgTable, from: string, to: string): SQL {
  const columns = Object.values(getTableColumns(table) as Record<string, PgColumn>)
    .map((c) => c.name)
    .filter((name) => !NOT_COPIED.has(name));
  const list = sql.join(
    columns.map((name) => sql.identifier(name)),
    sql`, `,
  );
  return sql`insert into ${table} (application_id, ${list})
    select ${to}, ${list} from ${table} where application_id = ${from}`;
}

/**
 * Re-point the draft's copied specialties at the draft's copies of their board certifications (issue
 * 31): a copied row keeps the source's `board_certification_id`, a row of the source application; its
 * copy in the draft has the same `row_key`. A link whose certification has no copy (none expected:
 * every row is copied) becomes null, never left pointing at another application's row. Run inside the
 * transaction that copied the rows.
 */
async function relinkCopiedReferences(tx: Queryable, from: string, to: string): Promise<void> {
  await tx.execute(sql`update ${specialties} set board_certification_id = (
      select draft_cert.id from ${certifications} draft_cert
      join ${certifications} source_cert on source_cert.row_key = draft_cert.row_key
      where source_cert.id = ${specialties}.board_certification_id
        and source_cert.application_id = ${from} and draft_cert.application_id = ${to}
      limit 1)
    where ${specialties}.application_id = ${to} and ${specialties}.board_certification_id is not null`);
}

interface CopiedFile {
  row: typeof documents.$inferSelect;
  newKey: string;
}

/**
 * Copy each document's object to a new key of the same owner and type.
 * @returns the copies, and the names of the documents whose object is missing (not copied: the
 *   provider is told to upload them again)
 */
async function copyDocumentFiles(
  deps: { storage: ObjectStorage; logger: ServiceLogger },
  rows: (typeof documents.$inferSelect)[],
): Promise<{ copied: CopiedFile[]; notCopied: string[] }> {
  const copied: CopiedFile[] = [];
  const notCopied: string[] = [];
  try {
    for (const row of rows) {
      const extension = documentExtension(row.filePath);
      let body: Awaited<ReturnType<ObjectStorage['get']>> | undefined;
      try {
        // A key this product did not write has no extension to copy it as.
        if (extension) body = await deps.storage.get(row.filePath);
      } catch (error) {
        if (!(error instanceof ObjectNotFoundError)) throw error;
      }
      if (!extension || !body) {
        // The old file is gone (it was already undownloadable): the provider uploads it again.
        deps.logger.warn({ documentId: row.id }, 'copy-forward: a document file was missing; not copied');
        notCopied.push(row.documentName);
        continue;
      }
      const newKey = documentObjectKey(row.userId, row.documentType, nextKeyTimestamp(), extension);
      const { size } = await deps.storage.put(newKey, body, { contentType: row.mimeType });
      copied.push({ row, newKey });
      if (size !== row.fileSize) throw new Error(`copied ${size} bytes of a ${row.fileSize}-byte document`);
    }
    return { copied, notCopied };
  } catch (error) {
    await deleteCopies(deps, copied);
    throw error;
  }
}

async function deleteCopies(
  deps: { storage: ObjectStorage; logger: ServiceLogger },
  copies: CopiedFile[],
): Promise<void> {
  for (const { newKey } of copies) {
    await deps.storage.delete(newKey).catch((error: unknown) => {
      deps.logger.warn({ err: error }, 'copy-forward: a copied object was left for the orphan sweep');
    });
  }
}

/** The provider's most recent application (newest first), if any. */
async function mostRecentApplication(db: Queryable, userId: string) {
  const [latest] = await db
    .select({ id: providerApplications.id, createdAt: providerApplications.createdAt })
    .from(providerApplications)
    .where(eq(providerApplications.userId, userId))
    .orderBy(desc(providerApplications.createdAt), desc(providerApplications.id))
    .limit(1);
  return latest;
}

/**
 * Start a new draft (spec §4), pre-filled from the provider's most recent application when they have
 * one (issue 14). The provider starts their own; an administrator opens one for `opener.providerId`
 * ('Start Recredentialing Now', issue 29 item 2: server/cycles/). The draft's cycle and the
 * provider's 180-day window are insertDraftApplication's. Audited as 'application.copied_forward'
 * when copied, with the caller as actor.
 * @returns the draft (progress from its copied sections) and what was copied
 * @throws AppError conflict (409) while a draft or an application in review is open, or before the
 *   provider's recredentialing window; storage and database errors propagate (500) after the copied
 *   files are removed
 */
export async function startApplication(
  deps: { db: Database; storage: ObjectStorage; logger: ServiceLogger },
  actor: Actor,
  opener: CycleOpener & { providerId?: string },
): Promise<StartedApplication> {
  const { db } = deps;
  const providerId = opener.providerId ?? actor.userId;
  // Checked again under the lock below; this first look spares copying files for a refused start.
  await assertNoOpenApplication(db, providerId);
  const source = await mostRecentApplication(db, providerId);
  if (!source) {
    const application = await db.transaction((tx) => insertDraftApplication(tx, providerId, null, opener));
    return { application, copied: null };
  }

  const sourceDocuments = await db.select().from(documents).where(eq(documents.applicationId, source.id));
  const { copied: files, notCopied } = await copyDocumentFiles(deps, sourceDocuments);
  try {
    return await db.transaction(async (tx) => {
      const draft = await insertDraftApplication(tx, providerId, source.id, opener);
      const copiedSections: SectionKey[] = [];
      for (const section of sections) {
        const key = section.key as SectionKey;
        if (key === 'documents') continue;
        const result = await tx.execute(
          copyRowsStatement(sectionTables[key] as PgTable, source.id, draft.id),
        );
        if ((result.rowCount ?? 0) > 0) copiedSections.push(key);
      }
      await relinkCopiedReferences(tx, source.id, draft.id);
      if (files.length > 0) {
        await tx.insert(documents).values(
          files.map(({ row, newKey }) => ({
            // The document's identity across copies (issue 29 item 5): the changes view pairs it with its source.
            rowKey: row.rowKey,
            applicationId: draft.id,
            userId: row.userId,
            documentName: row.documentName,
            documentType: row.documentType,
            filePath: newKey,
            fileSize: row.fileSize,
            mimeType: row.mimeType,
            sha256: row.sha256,
          })),
        );
        copiedSections.push('documents');
      }
      // Registry order, as everywhere else the sections are listed.
      const completeSections = sections
        .map((s) => s.key as SectionKey)
        .filter((key) => copiedSections.includes(key));
      const copied: CopiedFrom = {
        applicationId: source.id,
        createdAt: source.createdAt.toISOString(),
        sections: completeSections,
        documents: files.length,
        documentsNotCopied: notCopied,
      };
      await recordAudit(tx, {
        action: 'application.copied_forward',
        actorUserId: actor.userId,
        subjectUserId: providerId,
        resourceType: 'application',
        resourceId: draft.id,
        ipAddress: actor.ipAddress,
        details: {
          fromApplicationId: source.id,
          sections: completeSections.length,
          documents: files.length,
          documentsNotCopied: notCopied.length,
          cycle: draft.cycle,
          openedBy: opener.by,
        },
      });
      // Issue 29 item 6: a copied section counts towards progress once the provider confirms it.
      return { application: { ...draft, unconfirmedSections: completeSections }, copied };
    });
  } catch (error) {
    await deleteCopies(deps, files);
    throw error;
  }
}
