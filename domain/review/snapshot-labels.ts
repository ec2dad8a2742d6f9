/**
 * Labels of a snapshot change's path (decision 018 "field-by-field changes ... from the section
 * registry's field labels"): `lists.licenses[0].license_number` reads "Professional Licenses, entry 1:
 * License Number". Section titles and field labels come from the registry, never retyped.
 */
import { payloadKeyOfSection } from '../sections/payload-keys.ts';
import { type Section, sectionByKey } from '../sections/registry.ts';

/** Where a changed field sits, in the words of the application's screens. */
export interface ChangeLabel {
  /** The section's title ('Personal Information', 'Professional Licenses', ...) or 'Profile'. */
  section: string;
  /** 1-based entry number within a list section, when the field belongs to one. */
  entry?: number;
  /** The field's label ('License Number'), or the column in words when the registry has no label. */
  field: string;
}

const sectionOfPayloadKey = new Map<string, Section>(
  Object.entries(payloadKeyOfSection).map(([key, payloadKey]) => [
    payloadKey,
    sectionByKey[key as keyof typeof payloadKeyOfSection],
  ]),
);

/** `license_number` -> `licenseNumber` (the registry's field names are the camelCase columns). */
function camel(column: string): string {
  return column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** `caqh_id` -> 'Caqh id': the fallback for columns without a label (profile, file name). */
function words(column: string): string {
  const text = column.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function fieldLabel(section: Section | undefined, column: string | undefined): string {
  if (!column) return 'Entry';
  const name = camel(column);
  const field = section?.fields.find((f) => f.name === name);
  return field?.label ?? words(column);
}

/**
 * The label of one change path from `diffSnapshots` (domain/review/application-snapshot.ts).
 * Unknown shapes fall back to the path in words rather than failing.
 */
export function changeLabel(path: string): ChangeLabel {
  const personal = /^personalInformation\.(\w+)$/.exec(path);
  if (personal) {
    const section = sectionByKey.personalInformation;
    return { section: section.title, field: fieldLabel(section, personal[1]) };
  }
  const profile = /^profile\.(\w+)$/.exec(path);
  if (profile) return { section: 'Profile', field: words(profile[1]!) };
  const list = /^lists\.(\w+)\[(\d+)\](?:\.(\w+))?$/.exec(path);
  if (list) {
    const section = sectionOfPayloadKey.get(list[1]!);
    return {
      section: section?.title ?? words(list[1]!),
      entry: Number(list[2]) + 1,
      field: fieldLabel(section, list[3]),
    };
  }
  const document = /^documents\[(\d+)\](?:\.(\w+))?$/.exec(path);
  if (document) {
    const section = sectionByKey.documents;
    return {
      section: section.title,
      entry: Number(document[1]) + 1,
      field: fieldLabel(section, document[2]),
    };
  }
  return { section: 'Application', field: path };
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
  return String(value);
}

function labelledRow(
  section: Section,
  row: Readonly<Record<string, unknown>>,
  extra: readonly (readonly [column: string, label: string])[] = [],
): { label: string; value: string }[] {
  const fields = section.fields.map((f) => ({ label: f.label, value: shown(row[snake(f.name)]) }));
  for (const [column, label] of extra) fields.push({ label, value: shown(row[column]) });
  return fields;
}

/**
 * The eleven sections of a snapshot in dashboard order, each field labelled from the registry
 * (documents also show their file name and SHA-256, which the reviewer compares with the file).
 */
export function describeSnapshot(snapshot: {
  personalInformation?: Record<string, unknown>;
  lists?: Record<string, readonly Record<string, unknown>[]>;
  documents?: readonly Record<string, unknown>[];
}): SnapshotSectionView[] {
  const views: SnapshotSectionView[] = [];
  const personal = sectionByKey.personalInformation;
  views.push({
    key: personal.key,
    title: personal.title,
    entries: [labelledRow(personal, snapshot.personalInformation ?? {})],
  });
  for (const [key, payloadKey] of Object.entries(payloadKeyOfSection)) {
    const section = sectionByKey[key as keyof typeof payloadKeyOfSection];
    const rows = snapshot.lists?.[payloadKey] ?? [];
    views.push({
      key: section.key,
      title: section.title,
      entries: rows.map((row) => labelledRow(section, row)),
    });
  }
  const documents = sectionByKey.documents;
  views.push({
    key: documents.key,
    title: documents.title,
    entries: (snapshot.documents ?? []).map((row) =>
      labelledRow(documents, row, [
        ['filename', 'File Name'],
        ['sha256', 'SHA-256'],
      ]),
    ),
  });
  return views;
}
