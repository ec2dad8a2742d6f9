/**
 * What a credentialing section is (style.md "Eleven similar sections without eleven copies"), and the
 * field builders every section schema is made of. Data and zod only: no Node, DOM, drizzle or server code.
 *
 * Conventions every section follows (the server and the web client rely on them):
 * - Field names are the camelCase form of the spec §3 columns (`license_number` -> `licenseNumber`).
 * - A row schema describes one row as the client sends it: no `id`, `applicationId`, `createdAt`,
 *   `updatedAt` or `position`. The same schema validates on the client and on the server.
 * - Empty means null. An optional field may be sent as null, be left out, or be sent as an empty or
 *   whitespace-only string; the parsed value is always `null` (spec §5: "sent as null when empty").
 *   The web client may send `''` from an untouched input; the server stores null, never `''`.
 * - Free text is trimmed and has a maximum length. Formats of SSN, phone and NPI are hints only (spec §5).
 * - Dates are ISO calendar dates `YYYY-MM-DD` that exist (2024-02-30 is refused), stored in PostgreSQL
 *   `date` columns and exchanged as strings, never as `Date` objects (no time-zone shifts).
 * - Defaults (license status `active`, payor credentialing status `pending`, current position `false`,
 *   years known `0`) are applied by the schema when the field is empty, and again by the database.
 */
import { z } from 'zod';
import { controlCharacterMessage, hasControlCharacter } from '../person-name.ts';

export type SectionLayout = 'single-form' | 'repeatable-cards' | 'add-form-table' | 'documents';
export type ListSectionLayout = Exclude<SectionLayout, 'single-form'>;

/**
 * How list rows are ordered (spec §7, §9): newest first by `created_at` (payors, certifications, peer
 * references), by `completion_date` descending (CME), by `uploaded_at` descending (documents), or by the
 * card `position` ascending (repeatable-card screens keep the order the provider gave the cards).
 */
export type SectionOrder = 'createdAt' | 'completionDate' | 'uploadedAt' | 'position';

/**
 * Toast texts of spec §8 (toast title is always 'Error' for errors, 'Success' for successes).
 * A missing `loadError` means a load failure is only logged (spec §8 "Silent handling": payors, CME,
 * peer references). A missing `deleteError` on a repeatable-card screen means a failed card delete is
 * only logged.
 */
export interface SectionMessages {
  loadError?: string;
  saveError: string;
  saveSuccess: string;
  deleteError?: string;
  deleteSuccess?: string;
}

/** One field shown in the admin detail and sent in the completion payload, in display order. */
export interface SectionField<Schema extends z.ZodObject> {
  name: keyof z.output<Schema> & string;
  label: string;
}

interface SectionBase<Key extends string, Schema extends z.ZodObject> {
  key: Key;
  /** Card and page title (spec §2). */
  title: string;
  /** Card description (spec §2). */
  description: string;
  /** Route slug: the screen lives at `/{slug}/{applicationId}` (spec §2). */
  slug: string;
  /** zod schema of one row as the client sends it; see the conventions at the top of this file. */
  schema: Schema;
  /** Field order and labels for the admin detail and the completion payload. */
  fields: readonly SectionField<Schema>[];
  /** One-line summary of a row for dashboard and admin lists. Never includes the SSN. */
  summarize(row: z.output<Schema>): string;
  messages: SectionMessages;
}

/** The one single-record section (personal information): one row per application, upserted. */
export interface SingleSectionDefinition<
  Key extends string = string,
  Schema extends z.ZodObject = z.ZodObject,
> extends SectionBase<Key, Schema> {
  kind: 'single';
  layout: 'single-form';
}

/** A list section: complete when at least one row exists (spec §4). */
export interface ListSectionDefinition<
  Key extends string = string,
  Schema extends z.ZodObject = z.ZodObject,
  Layout extends ListSectionLayout = ListSectionLayout,
> extends SectionBase<Key, Schema> {
  kind: 'list';
  layout: Layout;
  orderBy: SectionOrder;
  /** Add button label of a repeatable-card screen (spec §2), e.g. 'Add License'. */
  addLabel?: string;
  /**
   * An explicit "nothing to list" answer (issue 31): e.g. 'No claims in the last 10 years'. It is a
   * row whose boolean `field` is true and whose other fields are empty, so completeness ("at least one
   * row", spec §4), snapshots, copy-forward and the payload treat it like any row. `rowsRule` keeps it
   * the section's only row.
   */
  noneAnswer?: NoneAnswer;
  /**
   * A rule over all the rows of the section together (issue 31: one primary specialty, a none answer
   * alone). The screen applies it to its cards; the server applies it to the rows saved after a save,
   * in the save's transaction, and refuses the save when it fails. `defineListSection` makes a
   * section's none answer part of it: that rule runs first.
   */
  rowsRule?: (rows: readonly Record<string, unknown>[]) => RowsIssue | null;
}

/** The explicit "nothing to list" answer of a list section (issue 31). */
export interface NoneAnswer {
  /** The boolean field that holds the answer, e.g. `noClaims`. */
  field: string;
  /** The checkbox label, e.g. 'No claims in the last 10 years'. */
  label: string;
  /** What the section lists, plural, for the message when both are given, e.g. 'claims'. */
  noun: string;
}

/** Why the rows of a section fail its `rowsRule`: a message a person can act on, and the row at fault. */
export interface RowsIssue {
  message: string;
  /** Index (screen order) of the row the message is about. */
  index: number;
  /** The field of that row, when one is at fault. */
  field?: string;
}

/** Declares the single-record section; keeps the literal key and the schema type. */
export function defineSingleSection<const Key extends string, Schema extends z.ZodObject>(
  definition: SingleSectionDefinition<Key, Schema>,
): SingleSectionDefinition<Key, Schema> {
  return definition;
}

/**
 * Declares a list section; keeps the literal key, layout and schema type. A section with a none
 * answer gets its rows rule (the answer is the only row, `noneAnswerRowsIssue`) ahead of its own.
 */
export function defineListSection<
  const Key extends string,
  Schema extends z.ZodObject,
  const Layout extends ListSectionLayout,
>(definition: ListSectionDefinition<Key, Schema, Layout>): ListSectionDefinition<Key, Schema, Layout> {
  const { noneAnswer, rowsRule } = definition;
  if (!noneAnswer) return definition;
  return {
    ...definition,
    rowsRule: (rows) => noneAnswerRowsIssue(noneAnswer, rows) ?? rowsRule?.(rows) ?? null,
  };
}

// ---------------------------------------------------------------------------------------------
// Field builders. Every section schema is made of these, so "empty means null" holds everywhere.
// ---------------------------------------------------------------------------------------------

/** Common maximum lengths (characters). */
export const TEXT_MAX = {
  /** Codes and identifiers: license, policy, lot, DEA, NPI, ZIP, phone numbers. */
  code: 100,
  /** Names, titles, institutions, organisations. */
  name: 200,
  /** Long free text: responsibilities, notes. */
  long: 2000,
  /** RFC 5321 path limit. */
  email: 254,
} as const;

const tooLong = (max: number) => `Use at most ${max} characters`;

/** Empty or whitespace-only string, null or missing -> null. */
const emptyToNull = (value: string | null | undefined): string | null => (value ? value : null);

/**
 * Required free text, trimmed. Missing, null or blank -> `'{label} is required'`.
 * @example requiredText('Payor name') // 'Payor name is required'
 */
export function requiredText(label: string, max: number = TEXT_MAX.name) {
  const required = `${label} is required`;
  return z.string({ error: required }).trim().min(1, required).max(max, tooLong(max));
}

/**
 * A person's name (a reference, a supervisor): required text on one line, no control characters
 * (issue 49 item 4, domain/person-name.ts).
 */
export function personNameText(label: string, max: number = TEXT_MAX.name) {
  return z
    .string({ error: `${label} is required` })
    .refine((value) => !hasControlCharacter(value), controlCharacterMessage(label))
    .pipe(requiredText(label, max));
}

/** An optional person's name: as `personNameText`, empty allowed; output `string | null`. */
export function optionalPersonNameText(label: string, max: number = TEXT_MAX.name) {
  return z
    .string({ error: 'Enter text' })
    .refine((value) => !hasControlCharacter(value), controlCharacterMessage(label))
    .nullish()
    .pipe(optionalText(max));
}

/** Optional free text, trimmed; output `string | null`. */
export function optionalText(max: number = TEXT_MAX.name) {
  return z.string({ error: 'Enter text' }).trim().max(max, tooLong(max)).nullish().transform(emptyToNull);
}

export const INVALID_DATE_MESSAGE = 'Enter a valid date (YYYY-MM-DD)';

/**
 * Whether `value` is an existing calendar date `YYYY-MM-DD` (what `optionalDate` accepts). Rules that
 * compare two dates check it first: an object refinement also runs when a date field failed, and an
 * impossible date must not also be reported as out of order.
 */
export function isValidIsoDate(value: unknown): value is string {
  return typeof value === 'string' && z.iso.date().safeParse(value).success;
}

/**
 * Adds to `ctx` an issue at `path` when two dates of a row are valid and `later` is before `earlier`
 * (an impossible date has its own message and is not also out of order), e.g. an end date before
 * the start date. ISO days compare as strings.
 */
export function refineDateOrder(
  ctx: z.RefinementCtx,
  earlier: unknown,
  later: unknown,
  path: string,
  message: string,
): void {
  if (isValidIsoDate(earlier) && isValidIsoDate(later) && later < earlier) {
    ctx.addIssue({ code: 'custom', path: [path], message });
  }
}

/** Optional ISO calendar date `YYYY-MM-DD` that exists; output `string | null`. */
export function optionalDate() {
  return z
    .string({ error: INVALID_DATE_MESSAGE })
    .trim()
    .nullish()
    .transform(emptyToNull)
    .pipe(z.iso.date({ error: INVALID_DATE_MESSAGE }).nullable());
}

/** Optional choice from `values` (`''` counts as empty); output `value | null`. */
export function optionalEnum<const Values extends readonly [string, ...string[]]>(
  values: Values,
  message: string,
) {
  return z
    .union([z.enum(values), z.literal('')], { error: message })
    .nullish()
    .transform((v) => (v ? v : null));
}

/** Choice from `values` that falls back to `fallback` when empty; output `value`. */
export function enumWithDefault<const Values extends readonly [string, ...string[]]>(
  values: Values,
  fallback: Values[number],
  message: string,
) {
  return z
    .union([z.enum(values), z.literal('')], { error: message })
    .nullish()
    .transform((v): Values[number] => (v ? v : fallback));
}

/** Optional email address; output `string | null`. */
export function optionalEmail() {
  const message = 'Enter a valid email address';
  return z
    .string({ error: message })
    .trim()
    .max(TEXT_MAX.email, tooLong(TEXT_MAX.email))
    .nullish()
    .transform(emptyToNull)
    .pipe(z.email({ error: message }).nullable());
}

/** Optional boolean, false when missing or null. */
export function flag() {
  return z
    .boolean({ error: 'Choose yes or no' })
    .nullish()
    .transform((v) => v ?? false);
}

/**
 * A number typed in a form: a JSON number, or a numeric string (a number input may hand over a string).
 * Blank (`''`, whitespace, null, missing) -> `whenBlank`. Non-numeric text -> `message`.
 */
export function numberInput<const Blank extends number | null>(whenBlank: Blank, message: string) {
  return z
    .union([z.number({ error: message }), z.string({ error: message }).trim()], { error: message })
    .nullish()
    .transform((v, ctx): number | Blank => {
      if (v === null || v === undefined || v === '') return whenBlank;
      const n = typeof v === 'number' ? v : Number(v);
      if (!Number.isFinite(n)) {
        ctx.addIssue({ code: 'custom', message, input: v });
        return z.NEVER;
      }
      return n;
    });
}

/** Joins the non-empty parts of a summary line with ' · '. */
export function joinSummary(...parts: (string | number | null | undefined | false)[]): string {
  return parts.filter((p) => p !== null && p !== undefined && p !== false && p !== '').join(' · ');
}

// ---------------------------------------------------------------------------------------------
// Saving a repeatable-card screen as a whole.
// ---------------------------------------------------------------------------------------------

/** Most rows one list section of one application may hold (issue 10 item 5). */
export const MAX_ROWS_PER_LIST_SECTION = 500;

/** The refusal when a list section would go past MAX_ROWS_PER_LIST_SECTION rows. */
export function rowLimitMessage(sectionTitle: string): string {
  return `${sectionTitle} can hold at most ${MAX_ROWS_PER_LIST_SECTION} entries. Delete entries you no longer need before adding more.`;
}

/** Most cards one repeatable-card screen may save at once. */
export const MAX_REPEATABLE_ROWS = 50;

/**
 * Body of "save the whole screen" for a repeatable-card section (spec §7): the cards in screen order.
 * A card with `id` updates that saved row of the same application; a card without `id` is inserted.
 * The server stores each card's array index as its `position`.
 * Output: `Array<z.output<schema> & { id?: string }>`.
 */
export function repeatableSaveSchema<Schema extends z.ZodObject>(
  section: ListSectionDefinition<string, Schema, 'repeatable-cards'>,
) {
  return z
    .array(section.schema.extend({ id: z.uuid({ error: 'Unknown saved row' }).optional() }))
    .max(MAX_REPEATABLE_ROWS, `Save at most ${MAX_REPEATABLE_ROWS} entries at once`);
}

// ---------------------------------------------------------------------------------------------
// Rules over every row of a section (issue 31).
// ---------------------------------------------------------------------------------------------

/** True when a field value counts as filled in (not null, undefined, '', whitespace or false). */
function filled(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return false;
  if (typeof value === 'string') return value.trim() !== '';
  return true;
}

/**
 * The rows rule of a none answer (issue 31): a row with `answer.field` true is the section's only row
 * ('{label}' and claims cannot both be given). `refineNoneAnswerRow` keeps the row itself empty.
 * @returns the issue on the answer row, or null
 */
export function noneAnswerRowsIssue(
  answer: NoneAnswer,
  rows: readonly Record<string, unknown>[],
): RowsIssue | null {
  const index = rows.findIndex((row) => row[answer.field] === true);
  if (index === -1 || rows.length === 1) return null;
  const { label, noun } = answer;
  return {
    message: `'${label}' cannot be saved together with ${noun}. Remove the ${noun}, or clear '${label}'.`,
    index,
    field: answer.field,
  };
}

/**
 * Adds to `ctx` an issue on every filled field other than `answer.field` of a row that gives the none
 * answer (issue 31), so a row is either the answer or an entry, never both.
 * @param ignore fields that may hold a value on the answer row (defaults set by the schema)
 */
export function refineNoneAnswerRow(
  answer: NoneAnswer,
  row: Record<string, unknown>,
  ctx: z.RefinementCtx,
  ignore: readonly string[] = [],
): void {
  if (row[answer.field] !== true) return;
  for (const [field, value] of Object.entries(row)) {
    // `id` is a saved card's identity (repeatableSaveSchema adds it), not an answer.
    if (field === answer.field || field === 'id' || ignore.includes(field) || !filled(value)) continue;
    ctx.addIssue({
      code: 'custom',
      path: [field],
      message: `Clear this field, or clear '${answer.label}'`,
    });
  }
}
