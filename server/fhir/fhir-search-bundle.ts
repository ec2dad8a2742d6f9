/**
 * A search's answer as a `searchset` Bundle (FHIR R4 §3.1.1, search.html), with the result
 * parameters of issue 52 item 3:
 *
 * - `_summary=count`: `total` only, no entries (search.html#summary).
 * - `_total`: `accurate` counts every match (a walk over the pages, at most MAX_COUNTED); `none`
 *   leaves `total` out; `estimate` (the default) gives it when the whole result fits on the first
 *   page (search.html#total).
 * - `_sort=_lastUpdated` / `-_lastUpdated` (search.html#sort): the matches (at most MAX_SORTED; more is a
 *   400 asking to narrow the search) ordered by `meta.lastUpdated`, ties by type and id; the pages of
 *   a sorted search are positions in that order (the cursor's `s` with `u` = SORTED_CURSOR), so a
 *   change between pages can shift a resource by a page (paging stays the server's choice, §3.1.1.6).
 * - `_elements` (search.html#elements): each match keeps `resourceType`, `id`, `meta`, the listed
 *   top-level elements and the type's mandatory ones, and is tagged SUBSETTED
 *   (`http://terminology.hl7.org/CodeSystem/v3-ObservationValue`); included resources are whole.
 */
import type { Bundle, Resource } from '@medplum/fhirtypes';
import type { Queryable } from '../db/client.ts';
import { FhirError } from './fhir-http.ts';
import { type SearchPage, searchDirectory } from './fhir-read.service.ts';
import { type Cursor, encodeCursor, MAX_COUNT, type ParsedSearch } from './fhir-search.ts';

/** Most matches a `_total=accurate` or `_summary=count` walks. */
export const MAX_COUNTED = 100_000;
/** Most matches a `_sort` orders. */
export const MAX_SORTED = 10_000;
/** The `u` of a sorted search's cursor (never an account id or group NPI: those are longer). */
export const SORTED_CURSOR = 'sorted';
/** The SUBSETTED tag (FHIR R4 search.html#elements). */
export const SUBSETTED = {
  system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationValue',
  code: 'SUBSETTED',
};
/** Elements a resource must keep when subsetted (cardinality 1..1 in R4). */
const MANDATORY: Partial<Record<Resource['resourceType'], string[]>> = { VerificationResult: ['status'] };

/** Every match of `q` (no includes) up to `limit`, and whether that is all of them. */
async function everyMatch(
  db: Queryable,
  q: ParsedSearch,
  now: Date,
  limit: number,
): Promise<{ matches: Resource[]; complete: boolean }> {
  const matches: Resource[] = [];
  let cursor: Cursor | undefined;
  for (;;) {
    const page = await searchDirectory(
      db,
      { ...q, cursor, count: MAX_COUNT, include: [], revincludeRoles: false },
      now,
    );
    matches.push(...page.matches);
    if (!page.next) return { matches, complete: true };
    if (matches.length >= limit) return { matches, complete: false };
    cursor = page.next;
  }
}

/** The number of matches of `q`. @throws FhirError 400 when over MAX_COUNTED */
async function countOf(db: Queryable, q: ParsedSearch, now: Date): Promise<number> {
  const all = await everyMatch(db, q, now, MAX_COUNTED);
  if (!all.complete) {
    throw new FhirError(
      400,
      'too-costly',
      `More than ${MAX_COUNTED} matches: narrow the search to count them.`,
    );
  }
  return all.matches.length;
}

const lastUpdated = (r: Resource) => r.meta?.lastUpdated ?? '';

/** One page of `q` in `_sort` order, with its includes. */
async function sortedPage(
  db: Queryable,
  q: ParsedSearch,
  now: Date,
): Promise<SearchPage & { total: number }> {
  if (q.cursor && q.cursor.u !== SORTED_CURSOR) {
    throw new FhirError(
      400,
      'invalid',
      '_cursor: not a cursor of this sorted search (follow the Bundle next link as given)',
    );
  }
  const all = await everyMatch(db, { ...q, cursor: undefined }, now, MAX_SORTED);
  if (!all.complete) {
    throw new FhirError(
      400,
      'too-costly',
      `_sort: more than ${MAX_SORTED} matches; narrow the search (e.g. _lastUpdated=ge…).`,
    );
  }
  const direction = q.sort === '-lastUpdated' ? -1 : 1;
  const key = (r: Resource) => `${r.resourceType}/${r.id}`;
  all.matches.sort(
    (a, b) =>
      direction * (Date.parse(lastUpdated(a)) - Date.parse(lastUpdated(b))) || key(a).localeCompare(key(b)),
  );
  const offset = q.cursor?.s ?? 0;
  const matches = all.matches.slice(offset, offset + q.count);
  let includes: Resource[] = [];
  if (matches.length > 0 && (q.include.length > 0 || q.revincludeRoles)) {
    const ids = matches.map((r) => r.id!);
    includes = (await searchDirectory(db, { ...q, ids, cursor: undefined, count: MAX_COUNT }, now)).includes;
  }
  const next = offset + q.count < all.matches.length ? { u: SORTED_CURSOR, s: offset + q.count } : null;
  return { matches, includes, next, total: all.matches.length };
}

/** `resource` with only `elements` (and id, meta, the mandatory ones), tagged SUBSETTED. */
export function subsetted(resource: Resource, elements: readonly string[]): Resource {
  const keep = new Set([...elements, ...(MANDATORY[resource.resourceType] ?? [])]);
  const out: Record<string, unknown> = { resourceType: resource.resourceType, id: resource.id };
  out.meta = { ...resource.meta, tag: [...(resource.meta?.tag ?? []), SUBSETTED] };
  for (const [name, value] of Object.entries(resource)) if (keep.has(name)) out[name] = value;
  return out as unknown as Resource;
}

/**
 * The Bundle answering `q` at `now`: `base` is the app's URL (no trailing slash), `rawCursor` the
 * `_cursor` as received (repeated in the self link). `sent` counts the resources in it (for the audit).
 * @throws FhirError 400 when a total or a sort would need more than MAX_COUNTED / MAX_SORTED matches
 */
export async function searchBundle(
  db: Queryable,
  q: ParsedSearch,
  now: Date,
  base: string,
  rawCursor: string | undefined,
): Promise<{ bundle: Bundle; sent: number }> {
  const link = (cursor?: string) => {
    const params = new URLSearchParams(q.canonical);
    if (cursor) params.set('_cursor', cursor);
    const query = params.toString();
    return `${base}/fhir/${q.type}${query ? `?${query}` : ''}`;
  };
  const bundle: Bundle = { resourceType: 'Bundle', type: 'searchset', timestamp: now.toISOString() };
  if (q.summaryCount) {
    bundle.total = await countOf(db, { ...q, cursor: undefined }, now);
    bundle.link = [{ relation: 'self', url: link() }];
    return { bundle, sent: 0 };
  }
  const page = q.sort ? await sortedPage(db, q, now) : await searchDirectory(db, q, now);
  if (q.total !== 'none') {
    if ('total' in page && typeof page.total === 'number') bundle.total = page.total;
    else if (!q.cursor && !page.next) bundle.total = page.matches.length;
    else if (q.total === 'accurate') bundle.total = await countOf(db, { ...q, cursor: undefined }, now);
  }
  bundle.link = [
    { relation: 'self', url: link(rawCursor) },
    ...(page.next ? [{ relation: 'next', url: link(encodeCursor(page.next)) }] : []),
  ];
  const entry = (resource: Resource, mode: 'match' | 'include') => ({
    fullUrl: `${base}/fhir/${resource.resourceType}/${resource.id}`,
    resource,
    search: { mode },
  });
  const elements = q.elements;
  bundle.entry = [
    ...page.matches.map((r) => entry(elements ? subsetted(r, elements) : r, 'match')),
    ...page.includes.map((r) => entry(r, 'include')),
  ];
  return { bundle, sent: page.matches.length + page.includes.length };
}
