/**
 * The frozen snapshot of an application (issue 13, decision 018; shape and hashing in
 * domain/review/application-snapshot.ts), built from what the completion notification reads
 * (`loadCompletionSource`: every section, the five of issue 31 too, and the document list) so the
 * reviewer reviews what the receiver got (a specialty's certification included, by name:
 * `board_certification`). The SSN is masked as administrators see it (spec §6, from `ssn_last4`): the
 * ciphertext is never decrypted here. Documents are metadata with their SHA-256, never content.
 * Lives beside completion.service.ts, whose transaction stores version 1 (a new file of issue 13).
 * Each list row and document also carries its `row_key` (issue 29 item 5: the changes view pairs rows
 * by it across versions and copies), read here and never put in the completion payload.
 */
import { createHash } from 'node:crypto';
import { and, desc, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Logger } from 'pino';
import {
  type ApplicationSnapshot,
  canonicalJson,
  type SnapshotRow,
} from '../../domain/review/application-snapshot.ts';
import { payloadKeyOfSection } from '../../domain/sections/payload-keys.ts';
import { maskSsn } from '../../domain/sections/personal-information.ts';
import { listSections } from '../../domain/sections/registry.ts';
import { type Queryable, readAll } from '../db/client.ts';
import { legalNameChanges } from '../db/schema/credentials.ts';
import { applicationVersions } from '../db/schema/review.ts';
import { personalInformation, sectionTables } from '../db/schema/sections.ts';
import { sectionOrderBy } from '../sections/section-columns.ts';
import type { FieldCipher } from '../security/field-cipher.ts';
import { loadCompletionSource } from './completion-payload.ts';

/** A cipher that never decrypts: the snapshot's SSN comes from `ssn_last4`, masked. */
const noDecrypt = { decrypt: () => '' } as unknown as FieldCipher;
/** loadCompletionSource logs only when decryption throws, which `noDecrypt` never does. */
const silent = { warn: () => {} } as unknown as Logger;

/**
 * `row_key` of every row of each list section (documents included), by registry key, in the order
 * loadCompletionSource reads them (the section's order, ties broken by id).
 */
async function rowKeys(tx: Queryable, applicationId: string) {
  const sets = await readAll(
    tx,
    listSections.map((section) => () => {
      const table = sectionTables[section.key] as PgTable;
      const columns = getTableColumns(table) as Record<string, PgColumn>;
      return tx
        .select({ id: columns.id!, rowKey: columns.rowKey! })
        .from(table)
        .where(eq(columns.applicationId!, applicationId))
        .orderBy(...sectionOrderBy(table, section.orderBy)) as Promise<{ id: string; rowKey: string }[]>;
    }),
  );
  return new Map(listSections.map((section, i) => [section.key, sets[i]!]));
}

/**
 * `rows` with each one's row_key added. A row with an `id` takes its own row's key; the license and
 * certification rows (spec §7 names, no id) take the key at their position, the same reads in the same
 * transaction, under the application row's lock that keeps section writes out (review-lock.ts). Rows
 * that cannot be matched keep no row_key; the diff then pairs them as it pairs old snapshots.
 */
function withRowKeys(rows: SnapshotRow[], keys: { id: string; rowKey: string }[]): SnapshotRow[] {
  const byId = new Map(keys.map((k) => [k.id, k.rowKey]));
  const sameLength = keys.length === rows.length;
  return rows.map((row, i) => {
    const rowKey = typeof row.id === 'string' ? byId.get(row.id) : sameLength ? keys[i]!.rowKey : undefined;
    return rowKey ? { ...row, row_key: rowKey } : row;
  });
}

/** The snapshot of `applicationId` as it is now in the database (read inside the caller's transaction). */
export async function buildApplicationSnapshot(
  tx: Queryable,
  application: { id: string; userId: string },
): Promise<ApplicationSnapshot> {
  const source = await loadCompletionSource({
    db: tx,
    cipher: noDecrypt,
    logger: silent,
    notification: {
      id: application.id,
      applicationId: application.id,
      userId: application.userId,
      createdAt: new Date(0),
    },
  });
  const [personal] = await tx
    .select({ ssnLast4: personalInformation.ssnLast4 })
    .from(personalInformation)
    .where(eq(personalInformation.applicationId, application.id));
  // Issue 49 item 1: a credentialed provider's legal name change is part of the credential update
  // that carries it; the account's names change only once a reviewer accepts it.
  const [renamed] = await tx
    .select({ firstName: legalNameChanges.firstName, lastName: legalNameChanges.lastName })
    .from(legalNameChanges)
    .where(and(eq(legalNameChanges.applicationId, application.id), isNull(legalNameChanges.acceptedAt)));
  const profile = source.head.applicantInfo.profile;
  const keys = await rowKeys(tx, application.id);
  const lists: Record<string, SnapshotRow[]> = {};
  for (const [key, payloadKey] of Object.entries(payloadKeyOfSection)) {
    lists[payloadKey] = withRowKeys(
      source.lists[payloadKey as keyof typeof source.lists],
      keys.get(key as keyof typeof payloadKeyOfSection) ?? [],
    );
  }
  return {
    applicationId: application.id,
    userId: application.userId,
    personalInformation: {
      ...source.head.applicantInfo.personalInformation,
      ssn: maskSsn(personal?.ssnLast4),
    },
    profile:
      profile && renamed
        ? { ...profile, first_name: renamed.firstName, last_name: renamed.lastName }
        : profile,
    lists,
    // The object key is storage bookkeeping, not what the provider gave: left out.
    documents: withRowKeys(
      source.documents.map((d) => {
        const { file_path: _key, ...row } = d.row;
        return row;
      }),
      keys.get('documents') ?? [],
    ),
  };
}

/** Hex SHA-256 of the snapshot's canonical JSON (decision 018). */
export function snapshotSha256(snapshot: ApplicationSnapshot): string {
  return createHash('sha256').update(canonicalJson(snapshot)).digest('hex');
}

/**
 * Store the next version of `application`'s snapshot (1 at completion, +1 per response or credential
 * update, issue 29 item 4) and return
 * its number and hash. Call inside the transaction that holds the application row's lock.
 */
export async function storeNextVersion(
  tx: Queryable,
  application: { id: string; userId: string },
  reason: 'completion' | 'response' | 'credential_update',
): Promise<{ version: number; sha256: string }> {
  const snapshot = await buildApplicationSnapshot(tx, application);
  const sha256 = snapshotSha256(snapshot);
  const [row] = await tx
    .insert(applicationVersions)
    .values({
      applicationId: application.id,
      version: sql`(select coalesce(max(version), 0) + 1 from application_versions where application_id = ${application.id})`,
      snapshot,
      sha256,
      reason,
    })
    .returning({ version: applicationVersions.version });
  return { version: row!.version, sha256 };
}

/** The newest stored snapshot of `applicationId` (the last response's, else the completion's), or undefined. */
export async function newestSnapshot(
  db: Queryable,
  applicationId: string,
): Promise<ApplicationSnapshot | undefined> {
  const [row] = await db
    .select({ snapshot: applicationVersions.snapshot })
    .from(applicationVersions)
    .where(eq(applicationVersions.applicationId, applicationId))
    .orderBy(desc(applicationVersions.version))
    .limit(1);
  return row?.snapshot as ApplicationSnapshot | undefined;
}
