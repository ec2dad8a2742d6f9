/**
 * The completion notification body (spec §7 "Completion notification"; JSON Schema in
 * docs/completion-payload.schema.json). Built in two steps so that no body is ever held whole in
 * memory:
 *
 * 1. `loadCompletionSource` reads everything but the document bytes from the database (small: the
 *    section rows and the documents' metadata).
 * 2. `completionBody` yields the JSON as Buffer chunks, streaming each document from object storage
 *    and base64-encoding it on the fly (`inline` mode), or giving each document a signed `downloadUrl`
 *    and `base64Content: null` (`links` mode, issue 20, decision 017). Called twice per attempt
 *    (once into the HMAC, once into the request), it yields the same bytes both times as long as it
 *    is given the same `unreadable` set.
 *
 * Key names are the spec's: camelCase envelope, snake_case rows (spec §3 column names), `licenses` with
 * `license_issue`/`license_exp` and `certifications` with `cert_issue_date`/`cert_exp_date` (spec §7),
 * then the additive `certification_kind` ('board' | 'other', issue 51 item 4).
 * After spec §7's list keys come the five sections of issue 31 (`specialties`, `practiceLocations`,
 * `hospitalAffiliations`, `training`, `malpracticeClaims`; additive, decision 028), then `attestation`
 * (issue 14) and `resendOf` (issue 28: null, or on an administrator's re-send the first message's id).
 * A specialty's link to a certification is a row id of this system, meaningless to a receiver: it is
 * sent as `board_certification`, the linked certification's `certification_name`, `certifying_body`
 * and `certification_number` (the certification's own row is in `certifications`), or null.
 */

import type { Readable } from 'node:stream';
import { eq, getTableColumns } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Logger } from 'pino';
import type { AttestationRecord } from '../../domain/attestation.ts';
import { payloadKeyOfSection } from '../../domain/sections/payload-keys.ts';
import { type ListSectionKey, listSections, type SectionKey } from '../../domain/sections/registry.ts';
import { listAttestations } from '../attestations/attestation.service.ts';
import { type Queryable, readAll } from '../db/client.ts';
import { user } from '../db/schema/auth.ts';
import { profiles } from '../db/schema/core.ts';
import { documents } from '../db/schema/documents.ts';
import {
  type certifications,
  personalInformation,
  type professionalLicenses,
  sectionTables,
  type specialties,
} from '../db/schema/sections.ts';
import { sectionOrderBy } from '../sections/section-columns.ts';
import type { FieldCipher } from '../security/field-cipher.ts';
import type { ObjectStorage } from '../storage/object-storage.ts';

/** A JSON scalar of a payload row. */
export type PayloadScalar = string | number | boolean | null;
/**
 * A JSON value of a payload row: a scalar, or one flat object of scalars (a specialty's
 * `board_certification`, issue 31).
 */
export type PayloadValue = PayloadScalar | { readonly [key: string]: PayloadScalar };
export type PayloadRow = Record<string, PayloadValue>;

/**
 * A specialty's linked board certification as sent (issue 31): what identifies it to a person and to
 * the certifying board, the same three columns as in `certifications` (spec §7 names).
 */
export interface PayloadBoardCertification {
  [key: string]: PayloadScalar;
  certification_name: string;
  certifying_body: string;
  certification_number: string | null;
}

/**
 * The 17 personal fields of spec §7 (spec §3 names), '' when empty, and `address_line2`, which spec
 * §7 leaves out but the provider saves on Personal Information: issue 51 item 2, every saved field
 * reaches the signed record (an additive key; the spec's 17 keep their names and order).
 * Order is the payload's key order.
 */
export const personalInformationFields = [
  'ssn',
  'date_of_birth',
  'address_line1',
  'address_line2',
  'city',
  'state',
  'zip_code',
  'driver_license_number',
  'driver_license_state',
  'driver_license_expiration',
  'caqh_id',
  'dea_number',
  'npi_number',
  'mobile_phone',
  'gender',
  'medicaid_number',
  'medicare_number',
  'provider_type',
] as const;
export type PersonalInformationField = (typeof personalInformationFields)[number];

export { payloadKeyOfSection };

/** One document's metadata row (snake_case) plus `filename`; `base64Content` is streamed after it. */
export interface PayloadDocument {
  /** documents.id: the key of the `unreadable` set. */
  id: string;
  /** documents.file_path: the object key. */
  filePath: string;
  /** The row as sent, without base64Content. */
  row: PayloadRow;
}

/** Everything in the body except document bytes. */
export interface CompletionSource {
  /** applicationId, userId, userEmail, timestamp, applicantInfo (spec §7 order). */
  head: {
    applicationId: string;
    userId: string;
    userEmail: string;
    timestamp: string;
    applicantInfo: {
      profile: PayloadRow | null;
      personalInformation: Record<PersonalInformationField, string>;
    };
  };
  documents: PayloadDocument[];
  /** The list sections after `documents`, keyed by payload key. */
  lists: Record<(typeof payloadKeyOfSection)[keyof typeof payloadKeyOfSection], PayloadRow[]>;
  /**
   * The attestation signed with the completion (issue 14), the payload's last key; null for an
   * application completed before attestations existed. Loaded only with `withAttestation`.
   */
  attestation?: AttestationRecord | null;
}

/** Columns that are bookkeeping of this system, not spec §3 data. */
const bookkeepingColumns = new Set(['updated_at', 'position', 'row_key']);

function toPayloadValue(value: unknown): PayloadScalar {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return String(value);
}

/** A Drizzle row (camelCase properties) as a snake_case payload row, bookkeeping columns dropped. */
function snakeRow(table: PgTable, row: Record<string, unknown>): PayloadRow {
  const out: PayloadRow = {};
  for (const [property, column] of Object.entries(getTableColumns(table) as Record<string, PgColumn>)) {
    if (bookkeepingColumns.has(column.name)) continue;
    out[column.name] = toPayloadValue(row[property]);
  }
  return out;
}

/** The rows of one list section of an application, in the registry's order (spec §7, §9). */
async function listRows(
  db: Queryable,
  key: ListSectionKey,
  applicationId: string,
): Promise<Record<string, unknown>[]> {
  const section = listSections.find((s) => s.key === key)!;
  const table = sectionTables[key as SectionKey] as PgTable;
  const applicationIdColumn = (getTableColumns(table) as Record<string, PgColumn>).applicationId!;
  return (await db
    .select()
    .from(table)
    .where(eq(applicationIdColumn, applicationId))
    .orderBy(...sectionOrderBy(table, section.orderBy))) as Record<string, unknown>[];
}

export interface LoadSourceOptions {
  db: Queryable;
  cipher: FieldCipher;
  logger: Logger;
  notification: { id: string; applicationId: string; userId: string; createdAt: Date };
  /** Also read the completion's attestation (the payload needs it; the snapshot it signs does not). */
  withAttestation?: boolean;
}

/**
 * Read the payload's data for one notification from the database. The SSN is decrypted (the
 * credentialing team needs it); one that cannot be decrypted is sent as '' and logged (no value).
 * @throws on database errors, and (withAttestation) when the attestation's answers cannot be
 *   decrypted: the attempt is then retried rather than sending a partial payload
 */
export async function loadCompletionSource(options: LoadSourceOptions): Promise<CompletionSource> {
  const { db, cipher, logger, notification } = options;
  const { applicationId, userId } = notification;

  // Concurrent on the pool; in order inside a transaction (the snapshot of issue 13 reads in one).
  const [[account], [profile], [personal], ...listRowSets] = await readAll(db, [
    () => db.select({ email: user.email }).from(user).where(eq(user.id, userId)),
    () => db.select().from(profiles).where(eq(profiles.userId, userId)),
    () => db.select().from(personalInformation).where(eq(personalInformation.applicationId, applicationId)),
    ...listSections.map((section) => () => listRows(db, section.key, applicationId)),
  ]);

  const personalRow = personal ? snakeRow(personalInformation, personal) : {};
  let ssn = '';
  if (personal?.ssnEncrypted) {
    try {
      ssn = cipher.decrypt(personal.ssnEncrypted);
    } catch (error) {
      logger.warn(
        { notificationId: notification.id, reason: (error as Error).message },
        'completion payload: the SSN could not be decrypted; sent empty',
      );
    }
  }
  const personalFields = {} as Record<PersonalInformationField, string>;
  for (const field of personalInformationFields) {
    const value = field === 'ssn' ? ssn : personalRow[field];
    personalFields[field] = value === null || value === undefined ? '' : String(value);
  }

  const rowsByKey = Object.fromEntries(
    listSections.map((section, i) => [section.key, listRowSets[i]!]),
  ) as Record<ListSectionKey, Record<string, unknown>[]>;

  const lists = {} as CompletionSource['lists'];
  for (const [key, payloadKey] of Object.entries(payloadKeyOfSection) as [
    keyof typeof payloadKeyOfSection,
    (typeof payloadKeyOfSection)[keyof typeof payloadKeyOfSection],
  ][]) {
    const rows = rowsByKey[key];
    if (key === 'professionalLicenses') {
      lists[payloadKey] = rows.map((r) => {
        const row = r as typeof professionalLicenses.$inferSelect;
        return {
          license_type: row.licenseType,
          license_number: row.licenseNumber,
          issuing_state: row.issuingState,
          license_issue: row.issueDate,
          license_exp: row.expirationDate,
          status: row.status,
        };
      });
    } else if (key === 'certifications') {
      lists[payloadKey] = rows.map((r) => {
        const row = r as typeof certifications.$inferSelect;
        return {
          certification_name: row.certificationName,
          certifying_body: row.certifyingBody,
          certification_number: row.certificationNumber,
          cert_issue_date: row.issueDate,
          cert_exp_date: row.expirationDate,
          // Issue 51 item 4, additive: 'board' or 'other' (only 'board' is a checklist item).
          certification_kind: row.certificationKind,
        };
      });
    } else if (key === 'specialties') {
      const certificationById = new Map(
        (rowsByKey.certifications as (typeof certifications.$inferSelect)[]).map((c) => [c.id, c]),
      );
      lists[payloadKey] = rows.map((r) => {
        const row = r as typeof specialties.$inferSelect;
        // The link is to a row of the same application (section-rules.ts), so it is in that list.
        const linked = row.boardCertificationId ? certificationById.get(row.boardCertificationId) : undefined;
        const boardCertification: PayloadBoardCertification | null = linked
          ? {
              certification_name: linked.certificationName,
              certifying_body: linked.certifyingBody,
              certification_number: linked.certificationNumber,
            }
          : null;
        return {
          id: row.id,
          application_id: row.applicationId,
          specialty_rank: row.specialtyRank,
          taxonomy_code: row.taxonomyCode,
          classification: row.classification,
          specialization: row.specialization,
          board_certification: boardCertification,
          created_at: row.createdAt.toISOString(),
        };
      });
    } else {
      lists[payloadKey] = rows.map((r) => snakeRow(sectionTables[key] as PgTable, r));
    }
  }

  const attestation = options.withAttestation
    ? ((await listAttestations(db, cipher, applicationId)).find((a) => a.kind === 'completion') ?? null)
    : undefined;

  return {
    attestation,
    head: {
      applicationId,
      userId,
      userEmail: account?.email ?? profile?.email ?? '',
      // When the provider completed the application: the same in every retry of this notification.
      timestamp: notification.createdAt.toISOString(),
      applicantInfo: {
        profile: profile ? snakeRow(profiles, profile) : null,
        personalInformation: personalFields,
      },
    },
    documents: rowsByKey.documents.map((r) => {
      const row = r as typeof documents.$inferSelect;
      return {
        id: row.id,
        filePath: row.filePath,
        row: { ...snakeRow(documents, row), filename: row.documentName },
      };
    }),
    lists,
  };
}

/** A document that could not be read while streaming (not at open): the caller restarts the pass. */
export class DocumentReadError extends Error {
  readonly documentId: string;
  constructor(documentId: string, cause: unknown) {
    super(`document ${documentId} could not be read: ${(cause as Error)?.message ?? cause}`);
    this.name = 'DocumentReadError';
    this.documentId = documentId;
  }
}

export interface BodyOptions {
  storage: ObjectStorage;
  logger: Logger;
  notificationId: string;
  /**
   * Documents sent with `base64Content: null`. In `discover` mode a document whose object cannot be
   * opened is added here (and logged); otherwise such a document is an error (the body would differ
   * from the signed one).
   */
  unreadable: Set<string>;
  discover: boolean;
  /** Checked between chunks: an aborted attempt stops reading. */
  signal?: AbortSignal;
  /**
   * `links` mode (NOTIFY_DOCUMENTS=links, issue 20): the `downloadUrl` of a document, added before a
   * `base64Content` of null; no object is read. Unset: `inline` mode, spec §7's documents.
   * Must return the same URL in both passes of an attempt.
   */
  downloadUrl?: (documentId: string) => string;
  /**
   * The payload's last key (issue 28 item 7): on an administrator's re-send, the id of the first
   * message (the notification's id); null on the first message and its retries. Default null.
   */
  resendOf?: string | null;
}

/** Streaming base64 of `source`: 3-byte groups are encoded as they arrive, the tail at the end. */
async function* base64Chunks(source: AsyncIterable<Buffer>, signal?: AbortSignal): AsyncGenerator<Buffer> {
  let carry: Buffer = Buffer.alloc(0);
  for await (const chunk of source) {
    signal?.throwIfAborted();
    const bytes = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    const usable = bytes.length - (bytes.length % 3);
    if (usable > 0) yield Buffer.from(bytes.subarray(0, usable).toString('base64'), 'latin1');
    carry = Buffer.from(bytes.subarray(usable));
  }
  if (carry.length > 0) yield Buffer.from(carry.toString('base64'), 'latin1');
}

/**
 * The JSON body, chunk by chunk (UTF-8). Memory: one storage chunk (64 KiB locally) at a time.
 * @throws DocumentReadError when a document fails mid-stream; Error when (not in discover mode) a
 *   document that was readable in the signing pass cannot be opened; AbortError when `signal` aborts.
 */
export async function* completionBody(
  source: CompletionSource,
  options: BodyOptions,
): AsyncGenerator<Buffer> {
  const { storage, logger, notificationId, unreadable, discover, signal, downloadUrl } = options;
  const resendOf = JSON.stringify(options.resendOf ?? null);
  const head = JSON.stringify(source.head);
  yield Buffer.from(`${head.slice(0, -1)},"documents":[`);
  let first = true;
  for (const document of source.documents) {
    const meta = JSON.stringify(document.row);
    if (downloadUrl) {
      const url = JSON.stringify(downloadUrl(document.id));
      yield Buffer.from(`${first ? '' : ','}${meta.slice(0, -1)},"downloadUrl":${url},"base64Content":null}`);
      first = false;
      continue;
    }
    yield Buffer.from(`${first ? '' : ','}${meta.slice(0, -1)},"base64Content":`);
    first = false;
    let stream: Readable | undefined;
    if (!unreadable.has(document.id)) {
      try {
        stream = await storage.get(document.filePath);
      } catch (error) {
        if (!discover) throw new Error(`document ${document.id} became unreadable between the two passes`);
        // Spec §8: a failed download is only logged; the document goes with base64Content null.
        logger.warn(
          { notificationId, documentId: document.id, reason: (error as Error).name },
          'completion payload: document could not be read; sent with base64Content null',
        );
        unreadable.add(document.id);
      }
    }
    if (!stream) {
      yield Buffer.from('null}');
      continue;
    }
    try {
      yield Buffer.from('"');
      yield* base64Chunks(stream, signal);
      yield Buffer.from('"}');
    } catch (error) {
      if (signal?.aborted || error instanceof DocumentReadError) throw error;
      throw new DocumentReadError(document.id, error);
    } finally {
      // Also when the consumer stops early (payload too large, aborted request): close the file.
      stream.destroy();
    }
  }
  yield Buffer.from(
    `],${JSON.stringify(source.lists).slice(1, -1)},"attestation":${JSON.stringify(source.attestation ?? null)},"resendOf":${resendOf}}`,
  );
}
