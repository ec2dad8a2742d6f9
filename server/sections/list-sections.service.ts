/**
 * The one generic service of the nine list sections stored as rows (spec §3, §7; every list section
 * but documents, which have their own service). Driven by the registry (`listSections`) and the
 * Drizzle tables (`sectionTables`): nothing here names a section.
 *
 * - Repeatable-card sections (licenses, education, work history, insurance, vaccinations) are saved a
 *   whole screen at a time, atomically (`saveRows`); each card's array index is its `position`.
 * - Add-form-plus-table sections (payors, certifications, CME, peer references) add one row at a time
 *   (`addRow`).
 * - Any row is deleted by id (`deleteRow`), only within its application.
 * - Order (spec §7, §9): repeatable cards by position; payors, certifications and peer references
 *   newest first; CME by completion date, newest first, undated last, then newest first.
 */

import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { sectionRowBaseShape } from '../../domain/api/sections.ts';
import { AppError } from '../../domain/app-error.ts';
import { type ListSection, listSections, type SectionKey } from '../../domain/sections/registry.ts';
import {
  type ListSectionDefinition,
  MAX_ROWS_PER_LIST_SECTION,
  repeatableSaveSchema,
  rowLimitMessage,
} from '../../domain/sections/section.ts';
import { assertSectionEditable } from '../applications/review-lock.ts';
import { confirmOnSave } from '../applications/section-confirmations.ts';
import type { Database, Queryable, Transaction } from '../db/client.ts';
import { preparedPerHandle } from '../db/prepared-reads.ts';
import { sectionTables } from '../db/schema/sections.ts';
import type { SectionSaveAudit } from './section-access.ts';
import {
  fieldColumns,
  pickFields,
  rethrowAsInputError,
  rowResponseSchema,
  sectionOrderBy,
} from './section-columns.ts';
import { assertStorable, parseInput } from './section-input.ts';
import { assertRowsRule, serverRowRules } from './section-rules.ts';

/** A list section whose rows this service stores: every list section but documents. */
export type StoredListSection = Exclude<ListSection, { layout: 'documents' }>;

/** The nine stored list sections, in registry order. */
export const storedListSections = listSections.filter(
  (s): s is StoredListSection => s.layout !== 'documents',
);

/** A stored row as the API returns it: `id`, `createdAt` (ISO 8601) and the section's fields. */
export type ListRow = { id: string; createdAt: string } & Record<string, string | number | boolean | null>;

/** Everything the generic code needs to know about one section, computed once at start-up. */
export interface ListSectionStore {
  section: ListSectionDefinition;
  key: SectionKey;
  table: PgTable;
  /** Field name -> column, for exactly the fields of the section schema. */
  columns: Record<string, PgColumn>;
  /** Field name -> screen label (for error messages). */
  labels: ReadonlyMap<string, string>;
  /** Response schema of one row (strict; derived from the columns on domain/api/sections.ts `sectionRowBaseShape`). */
  rowSchema: z.ZodObject;
  /** Request body of "save the whole screen" (repeatable-card sections only). */
  saveSchema?: z.ZodType<{ rows: (Record<string, unknown> & { id?: string })[] }>;
  id: PgColumn;
  applicationId: PgColumn;
  createdAt: PgColumn;
  position?: PgColumn;
  orderBy: SQL[];
}

function buildStore(section: StoredListSection): ListSectionStore {
  const definition = section as ListSectionDefinition;
  const table = sectionTables[section.key] as PgTable;
  const all = table as unknown as Record<string, PgColumn>;
  const columns = fieldColumns(definition.schema, table);
  const store: ListSectionStore = {
    section: definition,
    key: section.key,
    table,
    columns,
    labels: new Map(definition.fields.map((f) => [f.name, f.label])),
    rowSchema: rowResponseSchema(columns, { createdAt: sectionRowBaseShape.createdAt }),
    id: all.id!,
    applicationId: all.applicationId!,
    createdAt: all.createdAt!,
    position: all.position,
    orderBy: [],
  };
  if (definition.layout === 'repeatable-cards') {
    if (!store.position) throw new Error(`Repeatable-card section ${section.key} needs a position column`);
    store.saveSchema = z.object({
      rows: repeatableSaveSchema(
        definition as ListSectionDefinition<string, z.ZodObject, 'repeatable-cards'>,
      ),
    }) as unknown as ListSectionStore['saveSchema'];
  }
  store.orderBy = sectionOrderBy(store.table, store.section.orderBy);
  return store;
}

const storesBySlug = new Map(storedListSections.map((s) => [s.slug, buildStore(s)]));

/** The store of the list section at route slug `slug`, or undefined (unknown slug, or documents). */
export function listSectionStore(slug: string): ListSectionStore | undefined {
  return storesBySlug.get(slug);
}

function selection(store: ListSectionStore) {
  return { id: store.id, createdAt: store.createdAt, ...store.columns };
}

function present(row: Record<string, unknown>): ListRow {
  return { ...row, createdAt: (row.createdAt as Date).toISOString() } as ListRow;
}

/** The rows of one section of an application, in the section's order. */
export async function listRows(
  db: Queryable,
  store: ListSectionStore,
  applicationId: string,
): Promise<ListRow[]> {
  const rows = await rowsOfSection(db).get(store)(applicationId);
  return rows.map(present);
}

/** Per database handle, the prepared "rows of one application" read of each section (decision 015). */
const rowsOfSection = preparedPerHandle((db) => {
  const bySection = new Map<SectionKey, (applicationId: string) => Promise<Record<string, unknown>[]>>();
  return {
    get(store: ListSectionStore) {
      let read = bySection.get(store.key);
      if (!read) {
        const prepared = db
          .select(selection(store))
          .from(store.table)
          .where(eq(store.applicationId, sql.placeholder('applicationId')))
          .orderBy(...store.orderBy)
          .prepare(`section_rows_${store.key}`);
        read = (applicationId) => prepared.execute({ applicationId });
        bySection.set(store.key, read);
      }
      return read;
    },
  };
});

/**
 * Serialise writes to one section of one application (transaction-scoped advisory lock), so the row
 * limit holds under concurrent requests, then refuse when `adding` more rows would pass it.
 * @throws AppError conflict (409) naming the limit (issue 10 item 5)
 */
async function lockSectionAndCheckRoom(
  tx: Transaction,
  store: ListSectionStore,
  applicationId: string,
  adding: number,
): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sections:${store.key}:${applicationId}`}))`);
  // A completed application is locked except the sections of an open information request (issue 13).
  await assertSectionEditable(tx, applicationId, store.key as SectionKey);
  if (adding === 0) return;
  const [counted] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(store.table)
    .where(eq(store.applicationId, applicationId));
  if ((counted?.n ?? 0) + adding > MAX_ROWS_PER_LIST_SECTION) {
    throw new AppError('conflict', rowLimitMessage(store.section.title));
  }
}

/**
 * Validate and add one row to an add-form-plus-table section (spec §7 "insert one row").
 * @param body the request body: the section's row schema (empty optional fields become null)
 * @throws AppError validation_failed (400) with `issues[].path` like `['payorName']`; conflict (409)
 *   when the section already holds MAX_ROWS_PER_LIST_SECTION rows
 */
export async function addRow(
  db: Database,
  store: ListSectionStore,
  applicationId: string,
  body: unknown,
  audit?: SectionSaveAudit,
): Promise<ListRow> {
  const row = parseInput(store.section.schema, body, store.labels) as Record<string, unknown>;
  assertStorable([row], store.columns, store.labels);
  const created = await db
    .transaction(async (tx) => {
      await lockSectionAndCheckRoom(tx, store, applicationId, 1);
      // Issue 29 item 6: a save confirms a copied section.
      await confirmOnSave(tx, applicationId, store.key);
      const [inserted] = await tx
        .insert(store.table)
        .values({ ...pickFields(row, store.columns), applicationId } as never)
        .returning(selection(store));
      await audit?.(tx, 1);
      return inserted;
    })
    .catch(rethrowAsInputError);
  return present(created as Record<string, unknown>);
}

/**
 * Save a repeatable-card screen (spec §7) as ONE transaction: every card or none. Cards with `id`
 * update that row of this application and section; cards without `id` are inserted; each card's
 * array index becomes its `position`. Saved rows not in the body are left alone (deleting is
 * `deleteRow`). Concurrent saves of the same screen are serialised.
 * @param body `{ rows: [{ id?, ...fields }] }`, at most MAX_REPEATABLE_ROWS cards
 * @returns every row of the section after the save, in card order
 * @throws AppError validation_failed (400, nothing saved) with `issues[].path` like
 *   `['rows', 1, 'issueDate']`; not_found (404, nothing saved) when an `id` is not a row of this
 *   application's section; conflict (409, nothing saved) when the new cards would take the section
 *   past MAX_ROWS_PER_LIST_SECTION rows; validation_failed (400, nothing saved) when a rule of
 *   section-rules.ts refuses the cards or the rows they leave (issue 31)
 */
export async function saveRows(
  db: Database,
  store: ListSectionStore,
  applicationId: string,
  body: unknown,
  audit?: SectionSaveAudit,
): Promise<ListRow[]> {
  if (!store.saveSchema) throw new Error(`Section ${store.key} is not saved as a whole screen`);
  const { rows } = parseInput(store.saveSchema, body, store.labels);
  assertStorable(rows, store.columns, store.labels, (index) => ['rows', index]);
  const ids = rows.flatMap((row) => (row.id ? [row.id] : []));
  const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
  if (duplicate) {
    throw new AppError(
      'validation_failed',
      'The same saved entry appears twice. Reload the page and try again.',
      {
        issues: [{ path: ['rows', ids.lastIndexOf(duplicate), 'id'], message: 'Duplicate entry' }],
      },
    );
  }
  return db
    .transaction(async (tx) => {
      await lockSectionAndCheckRoom(tx, store, applicationId, rows.length - ids.length);
      // Issue 29 item 6: a save confirms a copied section.
      await confirmOnSave(tx, applicationId, store.key);
      if (ids.length > 0) {
        const owned = await tx
          .select({ id: store.id })
          .from(store.table)
          .where(and(eq(store.applicationId, applicationId), inArray(store.id, ids)));
        if (owned.length !== ids.length) {
          throw new AppError(
            'not_found',
            'One of these entries is no longer saved (it may have been deleted). Reload the page and try again.',
          );
        }
      }
      // Issue 31: what only the server can check (the taxonomy code set, the linked certification).
      await serverRowRules[store.key]?.(tx, applicationId, rows);
      const inserts: Record<string, unknown>[] = [];
      for (const [position, row] of rows.entries()) {
        const values = { ...pickFields(row, store.columns), position };
        if (row.id) {
          await tx
            .update(store.table)
            .set(values as never)
            .where(and(eq(store.id, row.id), eq(store.applicationId, applicationId)));
        } else {
          inserts.push({ ...values, applicationId });
        }
      }
      if (inserts.length > 0) await tx.insert(store.table).values(inserts as never);
      const saved = await listRows(tx, store, applicationId);
      // Issue 31: the rule over every row now saved (one primary, a none answer alone); throwing
      // rolls the whole save back.
      assertRowsRule(store.section, saved);
      await audit?.(tx, rows.length);
      return saved;
    })
    .catch(rethrowAsInputError);
}

/**
 * Delete one row of a section, only if it belongs to `applicationId`.
 * @throws AppError not_found (404) for an unknown id, another application's row, or a malformed id
 */
export async function deleteRow(
  db: Queryable,
  store: ListSectionStore,
  applicationId: string,
  rowId: string,
  audit?: SectionSaveAudit,
): Promise<void> {
  const notFound = new AppError(
    'not_found',
    'This entry was not found. It may have been deleted already; reload the page.',
  );
  if (!z.uuid().safeParse(rowId).success) throw notFound;
  const deleted = await db.transaction(async (tx) => {
    await assertSectionEditable(tx, applicationId, store.key as SectionKey);
    const removed = await tx
      .delete(store.table)
      .where(and(eq(store.id, rowId), eq(store.applicationId, applicationId)))
      .returning({ id: store.id });
    // Issue 29 item 6: a change confirms a copied section.
    if (removed.length > 0) {
      await confirmOnSave(tx, applicationId, store.key);
      await audit?.(tx, removed.length);
    }
    return removed;
  });
  if (deleted.length === 0) throw notFound;
}
