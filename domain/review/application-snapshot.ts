/**
 * The frozen snapshot of an application the credentialing team reviews (issue 13, decision 018):
 * what the completion notification carries (spec §7: profile, personal information, the list sections,
 * the document list) with the SSN masked as administrators see it (spec §6) and documents as metadata
 * with their SHA-256, never file content. Stored in application_versions (version 1 at completion, one
 * more per response to an information request), with the SHA-256 of `canonicalJson(snapshot)`.
 */
import { payloadKeyOfSection } from '../sections/payload-keys.ts';
import {
  snapshotColumns,
  snapshotFieldLabel,
  snapshotRowLabel,
  snapshotScalar,
  snapshotSectionLabel,
  snapshotValueText,
} from './snapshot-labels.ts';

/** A JSON scalar of a snapshot row. */
export type SnapshotScalar = string | number | boolean | null;
/**
 * A JSON value of a snapshot row: a scalar, or one flat object of scalars (a specialty's
 * `board_certification`, issue 31: the linked certification's name, body and number).
 */
export type SnapshotValue = SnapshotScalar | { readonly [key: string]: SnapshotScalar };
export type SnapshotRow = Record<string, SnapshotValue>;

export interface ApplicationSnapshot {
  applicationId: string;
  userId: string;
  /** The personal fields as sent (spec §7's 17 and `address_line2`, snake_case), '' when empty; `ssn` masked. */
  personalInformation: Record<string, string>;
  /** spec §3 profiles row (snake_case), or null. */
  profile: SnapshotRow | null;
  /** Keyed by the completion payload's keys (`licenses`, `education`, `workHistory`, ...). */
  lists: Record<string, SnapshotRow[]>;
  /**
   * Document metadata rows (snake_case, with `sha256` and `filename`), no content. List and document
   * rows carry `row_key` (issue 29 item 5; absent from snapshots stored before it, and never in the
   * completion payload).
   */
  documents: SnapshotRow[];
}

/**
 * JSON with object keys sorted at every level (arrays keep their order): the text a snapshot's
 * SHA-256 is computed over, so the same snapshot always hashes the same (decision 018).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** How a row differs between two snapshots (issue 29 item 5). */
export const rowChangeKinds = ['added', 'removed', 'changed'] as const;
export type RowChangeKind = (typeof rowChangeKinds)[number];

/** One field of a changed, added or removed row, labelled from the section registry. */
export interface RowFieldChange {
  /** The snapshot column (`license_exp`, `document_name`; `sha256` for a replaced file). */
  field: string;
  /** The registry's label ('Expiration Date'), 'File' for a replaced file, else the column in words. */
  label: string;
  /** null for an added row (and an empty value); an object value as `snapshotScalar` shows it. */
  before: SnapshotScalar;
  /** null for a removed row (and an empty value); an object value as `snapshotScalar` shows it. */
  after: SnapshotScalar;
}

/** One row that differs between two snapshots, paired by its identity (issue 29 item 5). */
export interface RowChange {
  /** `personalInformation`, `profile`, a list's payload key (`licenses`, `workHistory`, ...) or `documents`. */
  section: string;
  /** The section's title ('Professional Licenses'), or 'Profile'. */
  sectionLabel: string;
  /** The row's identity in its section (row_key, else id, else a position): stable, for list keys. */
  rowKey: string;
  /** How a person names the row ('Medical License · 12345 · IL · Active', 'cv.pdf'); null for single records. */
  rowLabel: string | null;
  change: RowChangeKind;
  /** changed: the fields that differ; added/removed: every non-empty field, as after/before. */
  fields: RowFieldChange[];
}

/**
 * Columns that are this system's bookkeeping, never a change: identities, owners, timestamps, card
 * order, the object key, and `filename` (the same value as `document_name`).
 */
const bookkeepingColumns = new Set([
  'id',
  'row_key',
  'application_id',
  'user_id',
  'created_at',
  'updated_at',
  'uploaded_at',
  'position',
  'file_path',
  'filename',
]);
/** A document's columns that follow from its bytes: shown as one 'File ... (file replaced)' line. */
const fileColumns = new Set(['sha256', 'file_size', 'mime_type']);

const isEmpty = (value: SnapshotScalar | undefined) => value === null || value === undefined || value === '';
/** A cell as one scalar (an object value joined, `snapshotScalar`): what is compared and shown. */
const cell = (row: SnapshotRow | undefined, column: string): SnapshotScalar => snapshotScalar(row?.[column]);

/** The row's identities, strongest first: row_key (issue 29), then id (older snapshots). */
function identityOf(row: SnapshotRow, kind: 'row_key' | 'id'): string | undefined {
  const value = row[kind];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The row's content without bookkeeping: equal content pairs rows that have no shared identity. */
function contentOf(row: SnapshotRow): string {
  return canonicalJson(Object.fromEntries(Object.entries(row).filter(([k]) => !bookkeepingColumns.has(k))));
}

interface Pair {
  before?: { row: SnapshotRow; index: number };
  after?: { row: SnapshotRow; index: number };
}

/**
 * Pair the rows of one section: by row_key where both rows have one; then by id (versions stored
 * before row keys); then rows of identical content (a copy of an old snapshot's row); then, among
 * rows of which one has no row_key at all (old snapshots), by position. Rows left are added or
 * removed. Pairs come in `after` order, then removed rows in `before` order.
 */
function pairRows(before: readonly SnapshotRow[], after: readonly SnapshotRow[]): Pair[] {
  const left = new Set(before.map((_, i) => i));
  const pairOf = new Map<number, number>(); // after index -> before index
  const match = (key: (row: SnapshotRow) => string | undefined) => {
    const byKey = new Map<string, number>();
    for (const i of left) {
      const k = key(before[i]!);
      if (k !== undefined && !byKey.has(k)) byKey.set(k, i);
    }
    for (const [j, row] of after.entries()) {
      if (pairOf.has(j)) continue;
      const k = key(row);
      const i = k === undefined ? undefined : byKey.get(k);
      if (i === undefined || !left.has(i)) continue;
      pairOf.set(j, i);
      left.delete(i);
    }
  };
  match((row) => identityOf(row, 'row_key'));
  match((row) => identityOf(row, 'id'));
  match(contentOf);
  // Old snapshots without row keys: what is left pairs in order, as before issue 29.
  const legacyBefore = [...left].filter((i) => !identityOf(before[i]!, 'row_key'));
  for (const j of after.keys()) {
    if (pairOf.has(j)) continue;
    const anyLegacy = !identityOf(after[j]!, 'row_key');
    const i = anyLegacy ? [...left].at(0) : legacyBefore.find((b) => left.has(b));
    if (i === undefined) continue;
    pairOf.set(j, i);
    left.delete(i);
  }
  const pairs: Pair[] = after.map((row, j) => {
    const i = pairOf.get(j);
    return {
      after: { row, index: j },
      ...(i === undefined ? {} : { before: { row: before[i]!, index: i } }),
    };
  });
  for (const i of [...left].sort((a, b) => a - b)) pairs.push({ before: { row: before[i]!, index: i } });
  return pairs;
}

/** The columns to compare, in the registry's order, then any other column of either row. */
function columnsOf(section: string, rows: (SnapshotRow | undefined)[]): string[] {
  const columns = new Set(snapshotColumns(section));
  for (const row of rows) for (const column of Object.keys(row ?? {})) columns.add(column);
  return [...columns].filter((c) => !bookkeepingColumns.has(c));
}

function rowChange(section: string, pair: Pair): RowChange | undefined {
  const before = pair.before?.row;
  const after = pair.after?.row;
  const change: RowChangeKind = !before ? 'added' : !after ? 'removed' : 'changed';
  const fields: RowFieldChange[] = [];
  const fileReplaced =
    section === 'documents' && before && after && cell(before, 'sha256') !== cell(after, 'sha256');
  for (const column of columnsOf(section, [after, before])) {
    const a = cell(before, column);
    const b = cell(after, column);
    if (change === 'changed' && section === 'documents' && fileColumns.has(column)) continue;
    if (change === 'changed' ? a === b || (isEmpty(a) && isEmpty(b)) : isEmpty(a) && isEmpty(b)) continue;
    if (section === 'documents' && column === 'sha256') continue; // a hash is not something a person reads
    fields.push({
      field: column,
      label: snapshotFieldLabel(section, column),
      before: snapshotValueText(section, column, a),
      after: snapshotValueText(section, column, b),
    });
  }
  if (fileReplaced) {
    const name = (row: SnapshotRow) => String(row.document_name ?? row.filename ?? '');
    fields.push({
      field: 'sha256',
      label: snapshotFieldLabel(section, 'sha256'),
      before: name(before),
      after: `${name(after)} (file replaced)`,
    });
  }
  if (fields.length === 0) return undefined;
  const shownRow = (after ?? before)!;
  const index = (pair.after ?? pair.before)!.index;
  return {
    section,
    sectionLabel: snapshotSectionLabel(section),
    rowKey:
      section === 'personalInformation' || section === 'profile'
        ? section
        : (identityOf(shownRow, 'row_key') ?? identityOf(shownRow, 'id') ?? `${change}-${index}`),
    rowLabel: snapshotRowLabel(section, shownRow, index),
    change,
    fields,
  };
}

/**
 * The rows that differ between two snapshots (issue 29 item 5: "changes by row identity"), in the
 * dashboard's section order (personal information, profile, the list sections, documents). Rows are
 * paired by `row_key` (carried across versions and by 'Start Recredentialing' / 'Start New
 * Application' to the copy), else by `id` for snapshots stored before row keys existed: a reordered
 * or re-sorted row is no change, and a new upload is one added row, not every later row shifted.
 * Bookkeeping (ids, owners, timestamps, position, object key) is never a change; a document whose
 * bytes differ shows as 'File: cv.pdf -> cv.pdf (file replaced)'. Works across versions of one
 * application and across a copy and its source (a recredentialing's version 1 against the previous
 * cycle's last version).
 */
export function diffByRow(before: ApplicationSnapshot, after: ApplicationSnapshot): RowChange[] {
  const sections: [string, SnapshotRow[], SnapshotRow[]][] = [
    ['personalInformation', [before.personalInformation], [after.personalInformation]],
    ['profile', before.profile ? [before.profile] : [], after.profile ? [after.profile] : []],
  ];
  const listKeys = [...new Set([...Object.values(payloadKeyOfSection), ...Object.keys(before.lists ?? {})])];
  for (const key of [...listKeys, ...Object.keys(after.lists ?? {}).filter((k) => !listKeys.includes(k))]) {
    sections.push([key, before.lists?.[key] ?? [], after.lists?.[key] ?? []]);
  }
  sections.push(['documents', before.documents ?? [], after.documents ?? []]);

  const changes: RowChange[] = [];
  for (const [section, beforeRows, afterRows] of sections) {
    // A single record is one row whatever its ids: pair it directly.
    const pairs: Pair[] =
      section === 'personalInformation' || section === 'profile'
        ? beforeRows[0] || afterRows[0]
          ? [
              {
                ...(beforeRows[0] ? { before: { row: beforeRows[0], index: 0 } } : {}),
                ...(afterRows[0] ? { after: { row: afterRows[0], index: 0 } } : {}),
              },
            ]
          : []
        : pairRows(beforeRows, afterRows);
    for (const pair of pairs) {
      const change = rowChange(section, pair);
      if (change) changes.push(change);
    }
  }
  return changes;
}
