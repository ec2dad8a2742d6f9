/**
 * The frozen snapshot of an application the credentialing team reviews (issue 13, decision 018):
 * what the completion notification carries (spec §7: profile, personal information, the list sections,
 * the document list) with the SSN masked as administrators see it (spec §6) and documents as metadata
 * with their SHA-256, never file content. Stored in application_versions (version 1 at completion, one
 * more per response to an information request), with the SHA-256 of `canonicalJson(snapshot)`.
 */

/** A JSON value of a snapshot row. */
export type SnapshotValue = string | number | boolean | null;
export type SnapshotRow = Record<string, SnapshotValue>;

export interface ApplicationSnapshot {
  applicationId: string;
  userId: string;
  /** The 17 personal fields of spec §7 (snake_case), '' when empty; `ssn` masked (`***-**-1234`). */
  personalInformation: Record<string, string>;
  /** spec §3 profiles row (snake_case), or null. */
  profile: SnapshotRow | null;
  /** Keyed by the completion payload's keys (`licenses`, `education`, `workHistory`, ...). */
  lists: Record<string, SnapshotRow[]>;
  /** Document metadata rows (snake_case, with `sha256` and `filename`), no content. */
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

/** One field that differs between two versions (issue 13: "what changed between versions"). */
export interface SnapshotChange {
  /** e.g. `personalInformation.npi_number`, `lists.licenses[0].license_number`, `documents[2]`. */
  path: string;
  before: SnapshotValue | undefined;
  after: SnapshotValue | undefined;
}

const bookkeeping = new Set(['id', 'application_id', 'user_id', 'created_at']);

function flatten(prefix: string, value: unknown, out: Map<string, SnapshotValue>): void {
  if (value === null || typeof value !== 'object') {
    out.set(prefix, (value ?? null) as SnapshotValue);
    return;
  }
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) flatten(`${prefix}[${i}]`, item, out);
    return;
  }
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (bookkeeping.has(key) && prefix !== '') continue;
    flatten(prefix ? `${prefix}.${key}` : key, v, out);
  }
}

/**
 * The fields that differ between two snapshots, field by field (rows compared by position; row ids and
 * timestamps ignored), in the order of `after` then removed fields.
 */
export function diffSnapshots(before: ApplicationSnapshot, after: ApplicationSnapshot): SnapshotChange[] {
  const a = new Map<string, SnapshotValue>();
  const b = new Map<string, SnapshotValue>();
  flatten(
    '',
    {
      personalInformation: before.personalInformation,
      profile: before.profile,
      lists: before.lists,
      documents: before.documents,
    },
    a,
  );
  flatten(
    '',
    {
      personalInformation: after.personalInformation,
      profile: after.profile,
      lists: after.lists,
      documents: after.documents,
    },
    b,
  );
  const changes: SnapshotChange[] = [];
  for (const [path, value] of b) {
    if (!a.has(path)) changes.push({ path, before: undefined, after: value });
    else if (a.get(path) !== value) changes.push({ path, before: a.get(path), after: value });
  }
  for (const [path, value] of a) if (!b.has(path)) changes.push({ path, before: value, after: undefined });
  return changes;
}
