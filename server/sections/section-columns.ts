/**
 * The bridge between a section's zod row schema (domain/sections/*.ts) and its Drizzle table
 * (server/db/schema/sections.ts). The schema's keys are the table's TS property names (a convention
 * of both files), so a parsed row maps onto an insert without renaming; this module checks that at
 * start-up, derives each section's response row schema from the column types (the Drizzle schema is
 * the source of truth for what is stored), and guards the few values zod accepts but PostgreSQL
 * cannot store.
 */
import { asc, desc, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { AppError, type FieldIssue } from '../../domain/app-error.ts';
import { INVALID_DATE_MESSAGE, type SectionOrder } from '../../domain/sections/section.ts';

/**
 * The column of every field of `schema`, keyed by field name, minus `except` (fields stored some
 * other way, e.g. the SSN, which is stored encrypted).
 * @throws Error at start-up when a field has no column of that name: a schema and its table drifted
 */
export function fieldColumns(
  schema: z.ZodObject,
  table: PgTable,
  except: readonly string[] = [],
): Record<string, PgColumn> {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const result: Record<string, PgColumn> = {};
  for (const name of Object.keys(schema.shape)) {
    if (except.includes(name)) continue;
    const column = columns[name];
    if (!column) throw new Error(`Section field "${name}" has no column of that name in its table`);
    result[name] = column;
  }
  return result;
}

/**
 * zod schema of a column's value as the API returns it: text -> string, date -> 'YYYY-MM-DD',
 * enum -> its values, integer/numeric -> number, boolean -> boolean, uuid -> uuid; nullable unless
 * the column is NOT NULL.
 * @throws Error at start-up for a column type no section uses yet (add it here)
 */
export function columnValueSchema(column: PgColumn): z.ZodType {
  const base = ((): z.ZodType => {
    switch (column.columnType) {
      case 'PgText':
        return z.string();
      case 'PgDateString':
        return z.iso.date();
      case 'PgEnumColumn':
        return z.enum(column.enumValues as [string, ...string[]]);
      case 'PgInteger':
        return z.number().int();
      case 'PgNumericNumber':
        return z.number();
      case 'PgBoolean':
        return z.boolean();
      case 'PgUUID':
        return z.uuid();
      default:
        throw new Error(`No API schema for column type ${column.columnType} (${column.name})`);
    }
  })();
  return column.notNull ? base : base.nullable();
}

/**
 * Response schema of one stored row: `id`, the schema's fields typed from their columns, plus
 * `extra` (e.g. `createdAt`). Strict, so a presenter that leaks a column (`applicationId`,
 * `ssnEncrypted`) fails loudly instead of sending it.
 */
export function rowResponseSchema(columns: Record<string, PgColumn>, extra: z.ZodRawShape = {}) {
  const shape: Record<string, z.ZodType> = { id: z.uuid() };
  for (const [name, column] of Object.entries(columns)) shape[name] = columnValueSchema(column);
  return z.strictObject({ ...shape, ...extra });
}

/** The fields of `row` that have a column, and nothing else (unknown keys never reach the database). */
export function pickFields(
  row: Record<string, unknown>,
  columns: Record<string, PgColumn>,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const name of Object.keys(columns)) values[name] = row[name] ?? null;
  return values;
}

/**
 * Problems with values zod accepts but PostgreSQL refuses: a NUL character in text (PostgreSQL text
 * cannot hold it) and the year 0000 in a date (PostgreSQL dates start at year 1).
 * @param path prefix of each issue's path, e.g. `['rows', 2]`
 */
export function unstorableValueIssues(
  row: Record<string, unknown>,
  columns: Record<string, PgColumn>,
  path: (string | number)[] = [],
): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const [name, column] of Object.entries(columns)) {
    const value = row[name];
    if (typeof value !== 'string') continue;
    if (value.includes('\u0000')) {
      issues.push({
        path: [...path, name],
        message: 'Remove the invisible control character from this field',
      });
    } else if (column.columnType === 'PgDateString' && value.startsWith('0000')) {
      issues.push({ path: [...path, name], message: INVALID_DATE_MESSAGE });
    }
  }
  return issues;
}

/**
 * Safety net for writes: a PostgreSQL data exception (class 22) or check violation (23514) is bad
 * input that slipped past the schema, so it becomes a 400 rather than a 500. Anything else rethrows.
 */
export function rethrowAsInputError(error: unknown): never {
  const code = pgErrorCode(error);
  if (code?.startsWith('22') || code === '23514') {
    throw new AppError(
      'validation_failed',
      'One of the values cannot be stored. Check the dates, numbers and special characters, then save again.',
    );
  }
  throw error;
}

function pgErrorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * ORDER BY of a section table's rows in the registry's order: the order of the screen, the admin
 * details and the completion payload alike (spec §4 lists newest first; §9 CME by completion date,
 * newest first, undated last). Ties fall back to creation, then id, so the order is total.
 */
export function sectionOrderBy(table: PgTable, order: SectionOrder): SQL[] {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const newestFirst = [desc(columns.createdAt!), desc(columns.id!)];
  switch (order) {
    case 'position':
      return [asc(columns.position!), asc(columns.createdAt!), asc(columns.id!)];
    case 'createdAt':
      return newestFirst;
    case 'completionDate':
      // PostgreSQL sorts nulls first in descending order; undated records go last.
      return [sql`${columns.completionDate!} desc nulls last`, ...newestFirst];
    case 'uploadedAt':
      return [desc(columns.uploadedAt!), desc(columns.id!)];
  }
}
