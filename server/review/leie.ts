/**
 * OIG LEIE import and exclusion screening (issue 15). `importLeie` streams the LEIE full file
 * (`UPDATED.csv`, 18 columns) through csv-parse and replaces the whole list in one transaction, so a
 * bad file (wrong header, not CSV, a short row) leaves the previous list as it was. `screenApplication`
 * matches an application's newest snapshot against the list (domain/review/leie-screening.ts) and
 * fills its 'Exclusion screening' checklist item: No match -> verified against "OIG LEIE" with the
 * list's import date; Match -> discrepancy; Possible match -> left pending with the rows in the note,
 * for a person to judge. An item a reviewer has recorded by hand is never overwritten.
 */
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { and, desc, eq, or, sql } from 'drizzle-orm';
import { AppError } from '../../domain/app-error.ts';
import type { ApplicationSnapshot } from '../../domain/review/application-snapshot.ts';
import {
  LEIE_COLUMNS,
  leieDate,
  leieNpi,
  nameKey,
  type ScreeningOutcome,
  screeningOutcome,
  screeningOutcomeLabel,
} from '../../domain/review/leie-screening.ts';
import { isoDay } from '../../domain/review/verification-checklist.ts';
import type { Database, Queryable } from '../db/client.ts';
import { providerApplications } from '../db/schema/core.ts';
import { leieExclusions, leieImports, verificationItems } from '../db/schema/review.ts';
import { newestSnapshot } from '../notifications/application-snapshot.ts';

/** Rows inserted per statement during an import. */
const BATCH = 1000;
/** Longest field accepted (the LEIE's longest, addresses, are far shorter). */
const FIELD_MAX = 500;
/** The source of a screening result on the checklist item (also how screening recognises its own). */
export const LEIE_SOURCE = 'OIG LEIE';

export interface LeieImport {
  id: number;
  importedAt: Date;
  fileName: string;
  rowCount: number;
}

const badFile = (detail: string) =>
  new AppError(
    'bad_request',
    `This is not the LEIE full file (UPDATED.csv from oig.hhs.gov): ${detail} The previous list is still in use.`,
  );

/**
 * Replace the list with the rows of `source` (the CSV bytes), in one transaction.
 * @throws AppError bad_request (wrong header, not CSV, a row without 18 fields); the list is unchanged
 */
export async function importLeie(
  db: Database,
  source: Readable,
  input: { fileName: string; importedBy: string | null; now: Date },
): Promise<LeieImport> {
  // Field counts are checked here (with the line in the message), not by the parser.
  const parser = parse({
    bom: true,
    skip_empty_lines: true,
    trim: true,
    relax_column_count: true,
    max_record_size: 64 * 1024,
  });
  source.on('error', (error) => parser.destroy(error));
  parser.on('error', () => source.resume()); // drain the upload so the request still gets its answer
  source.pipe(parser);
  return db.transaction(async (tx) => {
    await tx.execute(sql`lock table ${leieExclusions} in exclusive mode`);
    await tx.delete(leieExclusions);
    let header = true;
    let rowCount = 0;
    let batch: (typeof leieExclusions.$inferInsert)[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      await tx.insert(leieExclusions).values(batch);
      batch = [];
    };
    try {
      for await (const record of parser as AsyncIterable<string[]>) {
        if (header) {
          const names = record.map((c) => c.trim().toUpperCase());
          if (names.length !== LEIE_COLUMNS.length || names.some((n, i) => n !== LEIE_COLUMNS[i])) {
            throw badFile(`the first line must be ${LEIE_COLUMNS.join(',')}.`);
          }
          header = false;
          continue;
        }
        if (record.length !== LEIE_COLUMNS.length) {
          throw badFile(
            `line ${rowCount + 2} has ${record.length} fields instead of ${LEIE_COLUMNS.length}.`,
          );
        }
        const f = record.map((v) => v.slice(0, FIELD_MAX));
        batch.push({
          lastName: f[0]!,
          firstName: f[1]!,
          midName: f[2]!,
          busName: f[3]!,
          general: f[4]!,
          specialty: f[5]!,
          upin: f[6]!,
          npi: leieNpi(f[7]),
          dob: leieDate(f[8]),
          address: f[9]!,
          city: f[10]!,
          state: f[11]!,
          zip: f[12]!,
          exclType: f[13]!,
          exclDate: leieDate(f[14]),
          reinDate: leieDate(f[15]),
          waiverDate: leieDate(f[16]),
          waiverState: f[17]!,
          nameKey: nameKey(f[0], f[1]),
        });
        rowCount += 1;
        if (batch.length >= BATCH) await flush();
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
        throw new AppError(
          'payload_too_large',
          'The file is larger than 200 MB: it cannot be the LEIE full file.',
        );
      }
      throw badFile(`it could not be read as CSV (${(error as Error).message.slice(0, 200)}).`);
    }
    if (header) throw badFile('the file is empty.');
    await flush();
    const [row] = await tx
      .insert(leieImports)
      .values({
        importedAt: input.now,
        importedBy: input.importedBy,
        fileName: input.fileName.slice(0, 255),
        rowCount,
      })
      .returning();
    return row!;
  });
}

/** The newest import, or undefined before the first. */
export async function latestLeieImport(db: Queryable): Promise<LeieImport | undefined> {
  const [row] = await db.select().from(leieImports).orderBy(desc(leieImports.importedAt)).limit(1);
  return row;
}

/** One application's screening: the outcome, the rows behind it, and the list it was screened against. */
export interface Screening {
  outcome: ScreeningOutcome;
  rows: (typeof leieExclusions.$inferSelect)[];
  list: LeieImport;
}

/** Screen `snapshot` against the current list; undefined while no list has been imported. */
export async function screenSnapshot(
  db: Queryable,
  snapshot: ApplicationSnapshot,
): Promise<Screening | undefined> {
  const list = await latestLeieImport(db);
  if (!list) return undefined;
  const personal = snapshot.personalInformation ?? {};
  const npi = leieNpi(String(personal.npi_number ?? ''));
  const key = nameKey(String(snapshot.profile?.last_name ?? ''), String(snapshot.profile?.first_name ?? ''));
  const dob = /^\d{4}-\d{2}-\d{2}$/.test(String(personal.date_of_birth ?? ''))
    ? String(personal.date_of_birth)
    : null;
  const conditions = [
    npi ? eq(leieExclusions.npi, npi) : undefined,
    key ? eq(leieExclusions.nameKey, key) : undefined,
  ].filter((c) => c !== undefined);
  const rows = conditions.length
    ? await db
        .select()
        .from(leieExclusions)
        .where(or(...conditions))
        .limit(50)
    : [];
  const result = screeningOutcome({ npi, key, dob }, rows);
  return { outcome: result.outcome, rows: result.rows, list };
}

function describeRow(r: typeof leieExclusions.$inferSelect): string {
  const name = [r.firstName, r.midName, r.lastName].filter(Boolean).join(' ') || r.busName;
  return [
    name,
    r.npi ? `NPI ${r.npi}` : '',
    r.dob ? `born ${r.dob}` : '',
    r.exclType,
    r.exclDate ? `excluded ${r.exclDate}` : '',
    [r.city, r.state].filter(Boolean).join(', '),
  ]
    .filter(Boolean)
    .join('; ');
}

/**
 * Screen `applicationId` (its newest snapshot) and fill its 'Exclusion screening' item, unless a
 * reviewer recorded that item by hand. Returns the screening, or undefined (no list, no snapshot, no
 * item). Call inside the caller's transaction when it is part of one (Start Review).
 */
export async function screenApplication(
  db: Queryable,
  applicationId: string,
): Promise<Screening | undefined> {
  const newest = await newestSnapshot(db, applicationId);
  if (!newest) return undefined;
  const screening = await screenSnapshot(db, newest);
  if (!screening) return undefined;
  const label = screeningOutcomeLabel[screening.outcome];
  const note =
    screening.rows.length > 0
      ? `${label}: ${screening.rows.map(describeRow).join(' | ')}`.slice(0, 4000)
      : `${label} on the list of ${screening.list.rowCount} exclusions`;
  const day = isoDay(screening.list.importedAt);
  await db
    .update(verificationItems)
    .set(
      screening.outcome === 'no_match'
        ? {
            status: 'verified',
            source: LEIE_SOURCE,
            verifiedAt: day,
            note,
            validatorId: null,
            updatedAt: new Date(),
          }
        : screening.outcome === 'match'
          ? {
              status: 'discrepancy',
              source: LEIE_SOURCE,
              verifiedAt: null,
              note,
              validatorId: null,
              updatedAt: new Date(),
            }
          : {
              status: 'pending',
              source: LEIE_SOURCE,
              verifiedAt: null,
              note,
              validatorId: null,
              updatedAt: new Date(),
            },
    )
    .where(
      and(
        eq(verificationItems.applicationId, applicationId),
        eq(verificationItems.kind, 'exclusions'),
        // Never over a reviewer's own record: only pending items or earlier screening results.
        sql`(${verificationItems.status} = 'pending' or ${verificationItems.source} = ${LEIE_SOURCE})`,
      ),
    );
  return screening;
}

/**
 * Ongoing monitoring (issue 15, NCQA): screen every approved application against the current list
 * and record its standing (`exclusion_match`). Returns the applications that are a match now and were
 * not before (the admins' alert), and how many were screened.
 */
export async function rescreenApproved(
  db: Database,
  now: Date,
): Promise<{ screened: number; newMatches: { applicationId: string; userId: string }[] }> {
  const approved = await db
    .select({
      id: providerApplications.id,
      userId: providerApplications.userId,
      previous: providerApplications.exclusionMatch,
    })
    .from(providerApplications)
    .where(eq(providerApplications.applicationStatus, 'approved'));
  const newMatches: { applicationId: string; userId: string }[] = [];
  for (const application of approved) {
    const newest = await newestSnapshot(db, application.id);
    if (!newest) continue;
    const screening = await screenSnapshot(db, newest);
    if (!screening) return { screened: 0, newMatches };
    const standing = screening.outcome === 'no_match' ? null : screening.outcome;
    await db
      .update(providerApplications)
      .set({ exclusionMatch: standing, exclusionCheckedAt: now })
      .where(eq(providerApplications.id, application.id));
    if (standing === 'match' && application.previous !== 'match') {
      newMatches.push({ applicationId: application.id, userId: application.userId });
    }
  }
  return { screened: approved.length, newMatches };
}
