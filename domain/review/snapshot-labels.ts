/**
 * Labels of a snapshot's sections, rows and fields (decision 018 "field-by-field changes ... from the
 * section registry's field labels"; issue 29 item 5, changes by row identity): section titles, field
 * labels and row summaries come from the registry, never retyped. Also the sections of a snapshot
 * as the review page lists them (`describeSnapshot`: every section of the registry, 16 since issue 31).
 */
import { payloadKeyOfSection } from '../sections/payload-keys.ts';
import { type Section, sectionByKey, sections } from '../sections/registry.ts';
import { optionLabel, optionValueText } from '../sections/value-labels.ts';

const sectionOfPayloadKey = new Map<string, Section>(
  Object.entries(payloadKeyOfSection).map(([key, payloadKey]) => [
    payloadKey,
    sectionByKey[key as keyof typeof payloadKeyOfSection],
  ]),
);

/**
 * Payload columns named otherwise than the registry's fields (spec §7 renames the license and
 * certification dates; issue 31 sends a specialty's linked certification by name, not row id):
 * payload key -> column -> registry field name.
 */
export const payloadColumnAliases: Record<string, Record<string, string>> = {
  licenses: { license_issue: 'issueDate', license_exp: 'expirationDate' },
  certifications: { cert_issue_date: 'issueDate', cert_exp_date: 'expirationDate' },
  specialties: { board_certification: 'boardCertificationId' },
};

/**
 * Keys of a snapshot's object values shown first, in this order (a specialty's `board_certification`,
 * issue 31: name, certifying body, number); other keys follow in alphabetical order.
 */
const objectKeyOrder = ['certification_name', 'certifying_body', 'certification_number'];

function objectKeyRank(key: string): number {
  const rank = objectKeyOrder.indexOf(key);
  return rank === -1 ? objectKeyOrder.length : rank;
}

/**
 * A snapshot value as one scalar, for comparing and showing (application-snapshot.ts `SnapshotValue`):
 * a flat object's non-empty values joined with ' · ' ('Board Certified, Internal Medicine · ABIM ·
 * C-1'; a specialty's `board_certification`, issue 31), null when it has none; a scalar as is. The
 * object's own key order does not matter: a snapshot read back from PostgreSQL (jsonb) has its keys
 * in jsonb's order, not the payload's, and must compare equal to one built now.
 */
export function snapshotScalar(value: unknown): string | number | boolean | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object') return value as string | number | boolean;
  const parts = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .sort(([a], [b]) => objectKeyRank(a) - objectKeyRank(b) || (a < b ? -1 : a > b ? 1 : 0))
    .map(([, v]) => String(v));
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** `license_number` -> `licenseNumber` (the registry's field names are the camelCase columns). */
function camel(column: string): string {
  return column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** `caqh_id` -> 'Caqh id': the fallback for columns without a label (profile, file name). */
function words(column: string): string {
  const text = column.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A snapshot section: `personalInformation`, `profile`, a list's payload key, or `documents`. */
export type SnapshotSectionKey = string;

/** The registry section of a snapshot section key (undefined for `profile` and unknown keys). */
function sectionOf(key: SnapshotSectionKey): Section | undefined {
  if (key === 'personalInformation') return sectionByKey.personalInformation;
  if (key === 'documents') return sectionByKey.documents;
  return sectionOfPayloadKey.get(key);
}

/** The section's title ('Professional Licenses'), 'Profile', or the key in words. */
export function snapshotSectionLabel(key: SnapshotSectionKey): string {
  if (key === 'profile') return 'Profile';
  return sectionOf(key)?.title ?? words(key);
}

/** The snapshot columns of `key`'s registry fields, in the registry's (screen) order. */
export function snapshotColumns(key: SnapshotSectionKey): string[] {
  const section = sectionOf(key);
  if (!section) return [];
  const aliasOf = new Map(Object.entries(payloadColumnAliases[key] ?? {}).map(([c, f]) => [f, c]));
  return section.fields.map((f) => aliasOf.get(f.name) ?? snake(f.name));
}

/**
 * The label of one snapshot column: the registry field's ('License Number', 'Expiration Date' for
 * `license_exp`), 'File Name' and 'File' for a document's name and bytes, else the column in words.
 */
export function snapshotFieldLabel(key: SnapshotSectionKey, column: string): string {
  if (key === 'documents' && column === 'filename') return 'File Name';
  if (key === 'documents' && column === 'sha256') return 'File';
  const name = payloadColumnAliases[key]?.[column] ?? camel(column);
  const field = sectionOf(key)?.fields.find((f) => f.name === name);
  return field?.label ?? words(column);
}

/**
 * A snapshot cell as a person reads it: an option's label ('Medical License' for `license_type`
 * 'medical_license', domain/sections/value-labels.ts), any other value as it is.
 */
export function snapshotValueText<Value>(
  key: SnapshotSectionKey,
  column: string,
  value: Value,
): Value | string {
  const section = sectionOf(key);
  if (!section || (typeof value !== 'string' && typeof value !== 'number') || value === '') return value;
  return optionLabel(section.key, payloadColumnAliases[key]?.[column] ?? camel(column), value) ?? value;
}

/**
 * How a person names one row: a document by its name ('cv.pdf'), a list row by the registry's
 * summary ('MD License · 12345 · CA · Active'), else 'Entry {n}' (1-based position in its snapshot);
 * null for the single records (personal information, profile), named by their section alone.
 */
export function snapshotRowLabel(
  key: SnapshotSectionKey,
  row: Readonly<Record<string, unknown>>,
  index: number,
): string | null {
  if (key === 'personalInformation' || key === 'profile') return null;
  const fallback = `Entry ${index + 1}`;
  if (key === 'documents') return shown(row.document_name ?? row.filename) || fallback;
  const section = sectionOf(key);
  if (!section) return fallback;
  const aliases = payloadColumnAliases[key] ?? {};
  const camelRow: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) camelRow[aliases[column] ?? camel(column)] = value;
  try {
    return (section.summarize as (r: Record<string, unknown>) => string)(camelRow) || fallback;
  } catch {
    // A summary written for a complete row may not cope with an old snapshot's partial one.
    return fallback;
  }
}

/** One section of a snapshot as the review page lists it: its title and entries of labelled values. */
export interface SnapshotSectionView {
  /** The section's registry key (stable, no spaces: usable in element ids). */
  key: string;
  title: string;
  /** One entry for Personal Information; one per row for a list section (possibly none). */
  entries: { label: string; value: string }[][];
}

function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  // A flat object (a specialty's board certification): its values joined, as the changes show it.
  if (typeof value === 'object') return String(snapshotScalar(value) ?? '');
  return String(value);
}

function labelledRow(
  section: Section,
  key: SnapshotSectionKey,
  row: Readonly<Record<string, unknown>>,
  extra: readonly (readonly [column: string, label: string])[] = [],
): { label: string; value: string }[] {
  const columns = snapshotColumns(key);
  const fields = section.fields.map((f, i) => {
    const value = row[columns[i]!];
    const text =
      typeof value === 'string' || typeof value === 'number'
        ? shown(optionValueText(section.key, f.name, value))
        : shown(value);
    return { label: f.label, value: text };
  });
  for (const [column, label] of extra) fields.push({ label, value: shown(row[column]) });
  return fields;
}

/**
 * Every section of a snapshot in dashboard (registry) order: the spec's eleven, then the five of
 * issue 31, each field labelled from the registry (documents also show their file name and SHA-256,
 * which the reviewer compares with the file). A snapshot stored before issue 31 lists the five
 * with no entries.
 */
export function describeSnapshot(snapshot: {
  personalInformation?: Record<string, unknown>;
  lists?: Record<string, readonly Record<string, unknown>[]>;
  documents?: readonly Record<string, unknown>[];
}): SnapshotSectionView[] {
  return sections.map((section): SnapshotSectionView => {
    if (section.key === 'personalInformation') {
      return {
        key: section.key,
        title: section.title,
        entries: [labelledRow(section, 'personalInformation', snapshot.personalInformation ?? {})],
      };
    }
    if (section.key === 'documents') {
      return {
        key: section.key,
        title: section.title,
        entries: (snapshot.documents ?? []).map((row) =>
          labelledRow(section, 'documents', row, [
            ['filename', 'File Name'],
            ['sha256', 'SHA-256'],
          ]),
        ),
      };
    }
    const payloadKey = payloadKeyOfSection[section.key];
    return {
      key: section.key,
      title: section.title,
      entries: (snapshot.lists?.[payloadKey] ?? []).map((row) => labelledRow(section, payloadKey, row)),
    };
  });
}
