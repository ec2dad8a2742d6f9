/**
 * Importing exclusion list files (issue 30 items 1-3, decision 027): 'Import' reads a file and stages
 * its rows; 'Apply' makes them the source's list; 'Discard' drops them.
 *
 * Reading (`stageExclusionFile`): the file is read twice from disk, first to learn its encoding (valid
 * UTF-8, else Windows-1252, the encoding of the lists published from Windows tools), then through
 * csv-parse. The header says which source it is, and the rows which kind of file (a LEIE file whose
 * every row has a REINDATE is reinstatements, whatever its name: issue 52 item 1); the name only
 * tells the LEIE's full list from its monthly exclusions (domain/screening/exclusion-formats.ts); each row becomes an entry or a skipped line with its number
 * and why. Rows are written to `exclusion_entries` as staged, in batches, in one transaction: a file
 * that cannot be read at all (not CSV, unknown header) stages nothing. No row value and no SQL reaches
 * a log or an error message: a database failure is reported as the step that failed.
 *
 * Applying (`applyExclusionImport`), in one transaction under the source's lock:
 * - a full file replaces the source's list; one that is empty or would shrink the list by more than
 *   10 % needs a reason (issue 30 item 2), which is kept on the import and audited;
 * - a supplement (LEIE `YYMMEXCL.csv`) adds the rows not on the list yet;
 * - a reinstatement file (LEIE `YYMMREIN.csv`, or any LEIE file whose rows all have a REINDATE) ends each listed exclusion with the same entry key by
 *   the row's reinstatement date; an exclusion ends only with a date.
 * Screening after an apply is the caller's (server/screening/monitoring.ts).
 */
import fs from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { SHRINK_LIMIT, type StagedImport } from '../../domain/api/screening.ts';
import { AppError } from '../../domain/app-error.ts';
import {
  detectExclusionFormat,
  type ExclusionFileKind,
  type ExclusionFormat,
  exclusionFormats,
  exclusionSources,
  listFileDialect,
  readExclusionRow,
  settleExclusionFormat,
} from '../../domain/screening/exclusion-formats.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Database, Queryable } from '../db/client.ts';
import { exclusionEntries, exclusionImports } from '../db/schema/screening.ts';
import { rowHash } from './entry-identity.ts';
import { exclusionRowOf } from './exclusion-rows.ts';
import { openListFile, type UnpackPlace } from './list-file-opening.ts';

/** Rows per INSERT while staging (one JSON parameter each: see `insertStaged`). */
const BATCH = 500;
/** Skipped lines kept on the import (the count is always whole). */
const SKIPPED_KEPT = 200;
/** Sample rows shown before 'Apply'. */
const SAMPLE_ROWS = 5;
/** Longest record csv-parse accepts, characters (a row of 18 fields of FIELD_MAX is 9 KB). */
const MAX_RECORD = 64 * 1024;

export type FileEncoding = 'utf-8' | 'windows-1252';

/** The label of source `id` ('OIG LEIE', ...); the id itself for a source no longer shipped. */
export function sourceLabel(id: string): string {
  return exclusionSources.find((s) => s.id === id)?.label ?? id;
}

/**
 * 'utf-8' when every byte of `file` is valid UTF-8, else 'windows-1252'. Streams the file: memory
 * stays at one chunk whatever its size.
 */
export async function detectEncoding(file: string): Promise<FileEncoding> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of fs.createReadStream(file)) decoder.decode(chunk as Buffer, { stream: true });
    decoder.decode();
    return 'utf-8';
  } catch (error) {
    if (error instanceof TypeError) return 'windows-1252';
    throw error;
  }
}

/** A stream of `encoding` bytes to text (Node's TextDecoder knows Windows-1252 through ICU). */
function decoding(encoding: FileEncoding): Transform {
  const decoder = new TextDecoder(encoding);
  return new Transform({
    decodeStrings: true,
    readableObjectMode: false,
    transform(chunk: Buffer, _enc, done) {
      done(null, decoder.decode(chunk, { stream: true }));
    },
    flush(done) {
      done(null, decoder.decode());
    },
  });
}

const unreadable = (detail: string) =>
  new AppError(
    'bad_request',
    `This file could not be read as an exclusion list: ${detail} Nothing was imported; the lists are unchanged.`,
  );

/** One staged row, keyed by its column names (the JSON `insertStaged` sends). */
interface StagedRow {
  source: string;
  import_id: number;
  line: number;
  last_name: string;
  first_name: string;
  middle_name: string;
  business_name: string;
  npi: string | null;
  dob: string | null;
  address: string;
  city: string;
  state: string;
  zip: string;
  license_number: string;
  provider_type: string;
  exclusion_type: string;
  exclusion_date: string | null;
  reinstatement_date: string | null;
  waiver_date: string | null;
  waiver_state: string;
  fields: Record<string, string>;
  name_key: string;
  entry_key: string;
  row_hash: string;
}

/**
 * Insert `rows` as staged entries in one statement with one JSON parameter: Drizzle's builder spends
 * far longer on 26 parameters per row than PostgreSQL spends reading the same rows from JSON
 * (bench:screening measured both).
 */
async function insertStaged(tx: Queryable, rows: readonly StagedRow[]): Promise<void> {
  await tx.execute(sql`
    insert into ${exclusionEntries} (source, import_id, staged, line, last_name, first_name, middle_name,
      business_name, npi, dob, address, city, state, zip, license_number, provider_type, exclusion_type,
      exclusion_date, reinstatement_date, waiver_date, waiver_state, fields, name_key, entry_key, row_hash)
    select source, import_id, true, line, last_name, first_name, middle_name, business_name, npi, dob,
      address, city, state, zip, license_number, provider_type, exclusion_type, exclusion_date,
      reinstatement_date, waiver_date, waiver_state, fields, name_key, entry_key, row_hash
    from json_populate_recordset(null::${exclusionEntries}, ${JSON.stringify(rows)}::json)`);
}

/** The summary of staged import `id`, as GET /api/admin/exclusions and the import answer give it. */
export async function stagedImportSummary(db: Queryable, id: number): Promise<StagedImport> {
  const [row] = await db.select().from(exclusionImports).where(eq(exclusionImports.id, id));
  if (!row) throw new AppError('not_found', 'No such import. Import the file again.');
  const [sample, current] = await Promise.all([
    db
      .select()
      .from(exclusionEntries)
      .where(eq(exclusionEntries.importId, id))
      .orderBy(asc(exclusionEntries.line))
      .limit(SAMPLE_ROWS),
    listedRows(db, row.source),
  ]);
  const format = formatOf(row.source, row.kind as ExclusionFileKind);
  return {
    id: row.id,
    source: row.source,
    sourceLabel: sourceLabel(row.source),
    kind: row.kind as ExclusionFileKind,
    formatLabel: format?.label ?? `${sourceLabel(row.source)} (${row.kind})`,
    fileName: row.fileName,
    encoding: row.encoding as FileEncoding,
    stagedAt: row.stagedAt.toISOString(),
    rowCount: row.rowCount,
    skippedCount: row.skippedCount,
    skipped: row.skipped as { line: number; reason: string }[],
    sample: sample.map(exclusionRowOf),
    currentRows: current,
    needsReason: row.kind === 'full' ? shrinkReason(sourceLabel(row.source), current, row.rowCount) : null,
  };
}

/** Rows on `source`'s list now (not staged), ended exclusions included. */
export async function listedRows(db: Queryable, source: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(exclusionEntries)
    .where(and(eq(exclusionEntries.source, source), eq(exclusionEntries.staged, false)));
  return row?.n ?? 0;
}

/**
 * Why replacing a list of `before` rows by a full file of `after` rows needs a reason (issue 30 item
 * 2: empty, or more than 10 % fewer rows), or null.
 */
export function shrinkReason(label: string, before: number, after: number): string | null {
  if (after === 0) {
    return `This ${label} file has no rows: applying it would empty the list, and screening against it would find nothing.`;
  }
  if (before > 0 && after < before * (1 - SHRINK_LIMIT)) {
    const percent = (((before - after) / before) * 100).toFixed(1);
    return `This ${label} file has ${after.toLocaleString('en-US')} rows; the list has ${before.toLocaleString('en-US')} (${percent} % fewer). A full file that shrinks a list by more than ${SHRINK_LIMIT * 100} % may be a partial download.`;
  }
  return null;
}

function formatOf(source: string, kind: ExclusionFileKind): ExclusionFormat | undefined {
  return exclusionFormats.find((f) => f.source === source && f.kind === kind);
}

/**
 * Read `upload` (a path) and stage its rows as a new import of the source its header names. A staged
 * import of the same source not applied yet is discarded (the newer file is the one to apply).
 * A ZIP archive holding one CSV (SAM.gov's extract) is read through that CSV, an .xlsx workbook
 * through its first sheet (server/screening/list-file-opening.ts; issue 52 item 1).
 * @param input.fileName the name the file was given (uploads) or its base name (CLI): it tells the
 *   LEIE's monthly exclusions from the full list (the rows tell reinstatements: issue 52 item 1)
 * @param input.unpack where an archive's or workbook's text is written out (default: list-file-opening.ts
 *   `DEFAULT_UNPACK`); a folder that is swept at start-up
 * @throws AppError bad_request: another archive, an .xls or other binary file (the message says what
 *   it is and what to do: issue 52 item 1), not CSV, no header, a header of no accepted list (nothing staged)
 */
export async function stageExclusionFile(
  db: Database,
  upload: string,
  input: { fileName: string; stagedBy: string | null; now: Date; unpack?: UnpackPlace },
): Promise<StagedImport> {
  // A ZIP of one CSV or a workbook is read through its text; other binary files are refused with
  // what they are (issue 52 item 1).
  const opened = await openListFile(upload, input.fileName, input.unpack);
  try {
    return await stageListText(db, opened.file, opened.head, { ...input, fileName: opened.fileName });
  } finally {
    await opened.done();
  }
}

async function stageListText(
  db: Database,
  file: string,
  head: Buffer,
  input: { fileName: string; stagedBy: string | null; now: Date },
): Promise<StagedImport> {
  const encoding = await detectEncoding(file);
  const dialect = listFileDialect(head.toString('latin1').split(/\r?\n/, 1)[0] ?? '');
  const parser = parse({
    delimiter: dialect.delimiter,
    // Tab-separated lists write quotes as text; only comma-separated ones quote fields.
    quote: dialect.quote ?? false,
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    relax_quotes: true,
    max_record_size: MAX_RECORD,
    info: true,
  });
  const reading = pipeline(fs.createReadStream(file), decoding(encoding), parser).catch(() => {
    // The parser's error is the one reported (below, from the iteration); this only ends the pipe.
  });
  const id = await db.transaction(async (tx) => {
    let format: ExclusionFormat | undefined;
    let imported: number | undefined;
    let rowCount = 0;
    let withReinstatement = 0;
    let skippedCount = 0;
    const skipped: { line: number; reason: string }[] = [];
    let batch: StagedRow[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      await insertStaged(tx, batch);
      batch = [];
    };
    try {
      for await (const { record, info } of parser as AsyncIterable<{
        record: string[];
        info: { lines: number };
      }>) {
        if (!format) {
          const detected = detectExclusionFormat(record, input.fileName);
          if ('error' in detected) throw new AppError('bad_request', detected.error);
          format = detected.format;
          // An earlier staged file of this source gives way to this one.
          await discardStaged(tx, format.source);
          const [row] = await tx
            .insert(exclusionImports)
            .values({
              source: format.source,
              kind: format.kind,
              status: 'staged',
              fileName: input.fileName.slice(0, 255),
              encoding,
              rowCount: 0,
              stagedAt: input.now,
              stagedBy: input.stagedBy,
            })
            .returning({ id: exclusionImports.id });
          imported = row!.id;
          continue;
        }
        const read = readExclusionRow(format, record, info.lines, input.now);
        if ('skip' in read) {
          skippedCount += 1;
          if (skipped.length < SKIPPED_KEPT) skipped.push({ line: info.lines, reason: read.skip });
          continue;
        }
        const e = read.entry;
        const key = e.entryKey;
        batch.push({
          source: format.source,
          import_id: imported!,
          line: info.lines,
          last_name: e.lastName,
          first_name: e.firstName,
          middle_name: e.middleName,
          business_name: e.businessName,
          npi: e.npi,
          dob: e.dob,
          address: e.address,
          city: e.city,
          state: e.state,
          zip: e.zip,
          license_number: e.licenseNumber,
          provider_type: e.providerType,
          exclusion_type: e.exclusionType,
          exclusion_date: e.exclusionDate,
          reinstatement_date: e.reinstatementDate,
          waiver_date: e.waiverDate,
          waiver_state: e.waiverState,
          fields: e.fields,
          name_key: e.isIndividual ? e.nameKey : '',
          entry_key: key,
          row_hash: rowHash(key, e),
        });
        rowCount += 1;
        if (e.reinstatementDate !== null) withReinstatement += 1;
        if (batch.length >= BATCH) await flush();
      }
      await flush();
    } catch (error) {
      if (error instanceof AppError) throw error;
      const code = (error as { code?: string }).code ?? '';
      if (code.startsWith('CSV_')) {
        // csv-parse's messages name the line and the problem, never the field's content.
        throw unreadable(`${(error as Error).message.replace(/:.*$/s, '').slice(0, 200)}.`);
      }
      throw new AppError('internal', 'The file could not be stored. Nothing was imported; try again.');
    }
    if (!format || imported === undefined) throw unreadable('the file is empty (it has no header row).');
    // The rows, not the name, say whether a LEIE file is reinstatements (issue 52 item 1).
    const settled = settleExclusionFormat(format, { rows: rowCount, withReinstatement });
    await tx
      .update(exclusionImports)
      .set({ kind: settled.kind, rowCount, skippedCount, skipped })
      .where(eq(exclusionImports.id, imported));
    return imported;
  });
  await reading;
  return stagedImportSummary(db, id);
}

/** Mark `source`'s staged imports discarded and drop their rows. */
async function discardStaged(tx: Queryable, source: string, onlyId?: number): Promise<number> {
  const gone = await tx
    .update(exclusionImports)
    .set({ status: 'discarded' })
    .where(
      and(
        eq(exclusionImports.source, source),
        eq(exclusionImports.status, 'staged'),
        onlyId === undefined ? undefined : eq(exclusionImports.id, onlyId),
      ),
    )
    .returning({ id: exclusionImports.id });
  if (gone.length > 0) {
    await tx.delete(exclusionEntries).where(
      inArray(
        exclusionEntries.importId,
        gone.map((g) => g.id),
      ),
    );
  }
  return gone.length;
}

/**
 * Discard staged import `id` (its rows go).
 * @throws AppError not_found (no such import), conflict (applied or discarded already)
 */
export async function discardExclusionImport(
  db: Database,
  id: number,
  by: { userId: string | null; ipAddress?: string | null },
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(exclusionImports).where(eq(exclusionImports.id, id)).for('update');
    if (!row) throw new AppError('not_found', 'No such import. Reload the page.');
    if (row.status !== 'staged') {
      throw new AppError('conflict', `This import was ${row.status} already. Reload the page.`);
    }
    await discardStaged(tx, row.source, id);
    await recordAudit(tx, {
      action: 'screening.import_discarded',
      actorUserId: by.userId,
      resourceType: 'exclusion_import',
      resourceId: String(id),
      ipAddress: by.ipAddress ?? null,
      details: { source: row.source, kind: row.kind, rowCount: row.rowCount },
    });
  });
}

export interface AppliedImport {
  source: string;
  kind: ExclusionFileKind;
  rowsBefore: number;
  rowsAfter: number;
  changedRows: number;
  unmatchedRows: number;
}

/**
 * Apply staged import `id` to its source's list (see the module comment), in one transaction under a
 * lock per source: two applies of the same import, or of two files of one source, run one after the
 * other, and the second finds its import applied (409) or works on the list the first left.
 * @param input.reason required when the import is a full file that empties or shrinks the list by
 *   more than 10 % (issue 30 item 2); stored and audited
 * @throws AppError not_found, conflict (not staged any more; a needed reason missing: the message says why)
 */
export async function applyExclusionImport(
  db: Database,
  id: number,
  input: { appliedBy: string | null; reason?: string | undefined; now: Date; ipAddress?: string | null },
): Promise<AppliedImport> {
  return db.transaction(async (tx) => {
    const [peek] = await tx
      .select({ source: exclusionImports.source })
      .from(exclusionImports)
      .where(eq(exclusionImports.id, id));
    if (!peek) throw new AppError('not_found', 'No such import. Import the file again.');
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`exclusions:${peek.source}`}))`);
    const [row] = await tx.select().from(exclusionImports).where(eq(exclusionImports.id, id)).for('update');
    if (row?.status !== 'staged') {
      throw new AppError(
        'conflict',
        `This import was ${row?.status ?? 'removed'} already; the list is as that left it. Reload the page.`,
      );
    }
    const source = row.source;
    const kind = row.kind as ExclusionFileKind;
    const rowsBefore = await listedRows(tx, source);
    const reason = input.reason?.trim() || null;
    const listed = and(eq(exclusionEntries.source, source), eq(exclusionEntries.staged, false));
    const staged = eq(exclusionEntries.importId, id);
    let changedRows = 0;
    let unmatchedRows = 0;
    if (kind === 'full') {
      const why = shrinkReason(sourceLabel(source), rowsBefore, row.rowCount);
      if (why && !reason) {
        throw new AppError('conflict', `${why} Give a reason to apply it anyway, or discard it.`);
      }
      await tx.delete(exclusionEntries).where(listed);
      const moved = await tx
        .update(exclusionEntries)
        .set({ staged: false })
        .where(staged)
        .returning({ id: exclusionEntries.id });
      changedRows = moved.length;
    } else if (kind === 'additions') {
      // A row already on the list (the same exclusion) is not added twice.
      await tx.execute(sql`
        delete from ${exclusionEntries} s
        where s.import_id = ${id}
          and exists (select 1 from ${exclusionEntries} e
                      where e.source = ${source} and not e.staged and e.entry_key = s.entry_key)`);
      const moved = await tx
        .update(exclusionEntries)
        .set({ staged: false })
        .where(staged)
        .returning({ id: exclusionEntries.id });
      changedRows = moved.length;
    } else {
      const ended = await tx.execute<{ id: number }>(sql`
        update ${exclusionEntries} e set reinstatement_date = s.reinstatement_date
        from ${exclusionEntries} s
        where s.import_id = ${id} and s.reinstatement_date is not null
          and e.source = ${source} and not e.staged and e.entry_key = s.entry_key
          and e.reinstatement_date is distinct from s.reinstatement_date
        returning e.id`);
      changedRows = ended.rows.length;
      const [unmatched] = await tx
        .execute<{ n: number }>(sql`
        select count(*)::int as n from ${exclusionEntries} s
        where s.import_id = ${id}
          and not exists (select 1 from ${exclusionEntries} e
                          where e.source = ${source} and not e.staged and e.entry_key = s.entry_key)`)
        .then((r) => r.rows);
      unmatchedRows = unmatched?.n ?? 0;
      await tx.delete(exclusionEntries).where(staged);
    }
    const rowsAfter = await listedRows(tx, source);
    await tx
      .update(exclusionImports)
      .set({
        status: 'applied',
        appliedAt: input.now,
        appliedBy: input.appliedBy,
        rowsBefore,
        rowsAfter,
        changedRows,
        confirmReason: reason,
      })
      .where(eq(exclusionImports.id, id));
    await recordAudit(tx, {
      action: 'screening.import_applied',
      actorUserId: input.appliedBy,
      resourceType: 'exclusion_import',
      resourceId: String(id),
      ipAddress: input.ipAddress ?? null,
      details: {
        source,
        kind,
        fileName: row.fileName,
        rowCount: row.rowCount,
        skippedCount: row.skippedCount,
        rowsBefore,
        rowsAfter,
        changedRows,
        ...(reason ? { reason } : {}),
      },
    });
    return { source, kind, rowsBefore, rowsAfter, changedRows, unmatchedRows };
  });
}

/** The staged imports, newest first. */
export async function stagedImports(db: Queryable): Promise<StagedImport[]> {
  const rows = await db
    .select({ id: exclusionImports.id })
    .from(exclusionImports)
    .where(eq(exclusionImports.status, 'staged'))
    .orderBy(desc(exclusionImports.stagedAt));
  return Promise.all(rows.map((r) => stagedImportSummary(db, r.id)));
}
