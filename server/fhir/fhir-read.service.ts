/**
 * Reads of the directory API (issue 33 item 3): one search of a resource type (FHIR R4 §3.1.1) as a
 * page of resources plus its includes, from the directory query (server/directory) and the
 * checklist, set-based: a page reads a few queries whatever its size.
 *
 * Paging is by keyset (FHIR R4 §3.1.1.6 paging is the server's choice): resources are ordered by
 * provider (user id) and then by their place within the provider (a practice location's order, a
 * checklist item's position); Organizations by group NPI. The cursor names the last resource sent.
 * A page holds at most `_count` matches; a next link is given when more may follow.
 */
import type { Location, Organization, PractitionerRole, Resource } from '@medplum/fhirtypes';
import { sql } from 'drizzle-orm';
import { isoDay } from '../../domain/calendar.ts';
import { isUuid } from '../../domain/uuid.ts';
import type { Queryable } from '../db/client.ts';
import {
  afterMs,
  credentialedProviderPage,
  type DirectoryPracticeLocation,
  type DirectoryProvider,
  inDirectory,
  MAX_DIRECTORY_PAGE,
} from '../directory/credentialed-providers.ts';
import {
  type ChecklistItemFacts,
  type DirectoryGroup,
  toLocation,
  toOrganization,
  toPractitioner,
  toPractitionerRole,
  toVerificationResult,
} from './fhir-resources.ts';
import type { Cursor, ParsedSearch } from './fhir-search.ts';

/** One page of a search: the matches, what they include, and where the next page starts. */
export interface SearchPage {
  matches: Resource[];
  includes: Resource[];
  /** The cursor of the next page, or null on the last page. */
  next: Cursor | null;
}

/** A directory provider's checklist items (VerificationResult), by application id. */
export async function checklistItems(
  db: Queryable,
  applicationIds: readonly string[],
  filter: { ids?: readonly string[]; updatedSince?: Date; updatedUntil?: Date } = {},
): Promise<Map<string, ChecklistItemFacts[]>> {
  const grouped = new Map<string, ChecklistItemFacts[]>();
  if (applicationIds.length === 0) return grouped;
  const conditions = [sql`application_id = any(${sql.param([...applicationIds])}::uuid[])`];
  if (filter.ids) conditions.push(sql`id::text = any(${sql.param([...filter.ids])}::text[])`);
  if (filter.updatedSince) conditions.push(sql`updated_at >= ${afterMs(filter.updatedSince)}::timestamptz`);
  if (filter.updatedUntil) conditions.push(sql`updated_at < ${afterMs(filter.updatedUntil)}::timestamptz`);
  const result = await db.execute<{
    id: string;
    application_id: string;
    kind: string;
    status: string;
    verified_at: string | null;
    updated_at: Date | string;
  }>(sql`select id, application_id, kind, status, verified_at::text as verified_at,
    updated_at from verification_items where ${sql.join(conditions, sql` and `)} order by application_id, position, id`);
  for (const row of result.rows) {
    const item: ChecklistItemFacts = {
      id: row.id,
      kind: row.kind,
      status: row.status,
      verifiedAt: row.verified_at,
      updatedAt: new Date(row.updated_at),
    };
    const list = grouped.get(row.application_id);
    if (list) list.push(item);
    else grouped.set(row.application_id, [item]);
  }
  return grouped;
}

/**
 * The providers whose published record holds a practice location with one of `rowKeys` (a
 * PractitionerRole or Location `_id` is a practice location's row key; issue 49: the published
 * locations, never the live section table).
 */
async function providersOfLocations(db: Queryable, rowKeys: readonly string[]): Promise<string[]> {
  const keys = rowKeys.filter(isUuid);
  if (keys.length === 0) return [];
  const result = await db.execute<{ user_id: string }>(sql`select distinct user_id from credential_locations
    where row_key = any(${sql.param(keys)}::text[])`);
  return result.rows.map((r) => r.user_id);
}

/** The credentialed providers owning the checklist items `ids` (a VerificationResult `_id`). */
async function providersOfItems(db: Queryable, ids: readonly string[]): Promise<string[]> {
  const uuids = ids.filter(isUuid);
  if (uuids.length === 0) return [];
  const result = await db.execute<{
    user_id: string;
  }>(sql`select distinct pc.user_id from verification_items r
    join provider_credentials pc on pc.application_id = r.application_id
    where r.id = any(${sql.param(uuids)}::uuid[])`);
  return result.rows.map((r) => r.user_id);
}

function intersect(a: string[] | undefined, b: string[] | undefined): string[] | undefined {
  if (!a) return b;
  if (!b) return a;
  const keep = new Set(b);
  return a.filter((x) => keep.has(x));
}

/** The resources of `type` one provider contributes, in order (index = cursor `s`). */
type Expand = (providers: DirectoryProvider[]) => Promise<Map<string, Resource[]>>;

function locationsOf(p: DirectoryProvider, ids?: string[]): DirectoryPracticeLocation[] {
  return ids ? p.practiceLocations.filter((l) => ids.includes(l.rowKey)) : p.practiceLocations;
}

/**
 * One page of a search of a provider-derived type (Practitioner, PractitionerRole, Location,
 * VerificationResult), at `now`.
 */
async function providerSearch(db: Queryable, q: ParsedSearch, now: Date): Promise<SearchPage> {
  let userIds = q.practitioners;
  if (q.type === 'Practitioner') userIds = intersect(userIds, q.ids);
  if ((q.type === 'PractitionerRole' || q.type === 'Location') && q.ids) {
    userIds = intersect(userIds, await providersOfLocations(db, q.ids));
  }
  if (q.type === 'VerificationResult' && q.ids)
    userIds = intersect(userIds, await providersOfItems(db, q.ids));
  if (userIds && userIds.length === 0) return { matches: [], includes: [], next: null };
  // VerificationResult's _lastUpdated is its item's; the others' is their provider's.
  const providerUpdated =
    q.type === 'VerificationResult' ? {} : { updatedSince: q.updatedSince, updatedUntil: q.updatedUntil };
  const expand: Expand =
    q.type === 'Practitioner'
      ? async (providers) => new Map(providers.map((p) => [p.userId, [toPractitioner(p)]]))
      : q.type === 'PractitionerRole'
        ? async (providers) =>
            new Map(
              providers.map((p) => [p.userId, locationsOf(p, q.ids).map((l) => toPractitionerRole(p, l))]),
            )
        : q.type === 'Location'
          ? async (providers) =>
              new Map(providers.map((p) => [p.userId, locationsOf(p, q.ids).map((l) => toLocation(p, l))]))
          : async (providers) => {
              const items = await checklistItems(
                db,
                providers.map((p) => p.applicationId),
                { ids: q.ids, updatedSince: q.updatedSince, updatedUntil: q.updatedUntil },
              );
              return new Map(
                providers.map((p) => [
                  p.userId,
                  (items.get(p.applicationId) ?? []).map((i) => toVerificationResult(p, i)),
                ]),
              );
            };

  const matches: { resource: Resource; provider: DirectoryProvider; cursor: Cursor }[] = [];
  const want = q.count + 1;
  let after: string | undefined;
  // The provider of the cursor first: its resources after the cursor's place.
  if (q.cursor) {
    const [current] = await credentialedProviderPage(db, {
      now,
      limit: 1,
      userIds: [q.cursor.u],
      npi: q.npi,
      name: q.name,
      ...providerUpdated,
    });
    if (current && (!userIds || userIds.includes(current.userId))) {
      const resources = (await expand([current])).get(current.userId) ?? [];
      resources.forEach((resource, s) => {
        if (s > q.cursor!.s) matches.push({ resource, provider: current, cursor: { u: current.userId, s } });
      });
    }
    after = q.cursor.u;
  }
  while (matches.length < want) {
    const limit = Math.min(
      MAX_DIRECTORY_PAGE,
      q.type === 'Practitioner' ? want - matches.length : Math.max(20, want - matches.length),
    );
    const providers = await credentialedProviderPage(db, {
      now,
      after,
      limit,
      userIds,
      npi: q.npi,
      name: q.name,
      ...providerUpdated,
    });
    const expanded = await expand(providers);
    for (const provider of providers) {
      (expanded.get(provider.userId) ?? []).forEach((resource, s) => {
        matches.push({ resource, provider, cursor: { u: provider.userId, s } });
      });
    }
    if (providers.length < limit) break;
    after = providers[providers.length - 1]!.userId;
  }
  const page = matches.slice(0, q.count);
  const next = matches.length > q.count ? page[page.length - 1]!.cursor : null;
  return { matches: page.map((m) => m.resource), includes: includesOf(q, page), next };
}

/** `_include` (PractitionerRole's practitioner, location) and `_revinclude` (Practitioner's roles). */
function includesOf(
  q: ParsedSearch,
  page: { resource: Resource; provider: DirectoryProvider }[],
): Resource[] {
  const out = new Map<string, Resource>();
  const add = (r: Resource) => out.set(`${r.resourceType}/${r.id}`, r);
  for (const { resource, provider } of page) {
    if (q.type === 'PractitionerRole') {
      const role = resource as PractitionerRole;
      if (q.include.includes('PractitionerRole:practitioner')) add(toPractitioner(provider));
      if (q.include.includes('PractitionerRole:location')) {
        const location = provider.practiceLocations.find((l) => l.rowKey === role.id);
        if (location) add(toLocation(provider, location) satisfies Location);
      }
    }
    if (q.type === 'Practitioner' && q.revincludeRoles) {
      for (const l of provider.practiceLocations) add(toPractitionerRole(provider, l));
    }
  }
  return [...out.values()];
}

/** One page of Organizations: the distinct group NPIs of credentialed providers' practice locations. */
async function organizationSearch(db: Queryable, q: ParsedSearch, now: Date): Promise<SearchPage> {
  const groups = await groupPage(db, {
    now,
    after: q.cursor?.u,
    limit: q.count + 1,
    npis: q.ids
      ? q.ids
          .flatMap((id) => (/^group-\d{10}$/.test(id) ? [id.slice(6)] : []))
          .filter((n) => !q.npi || n === q.npi)
      : q.npi
        ? [q.npi]
        : undefined,
    updatedSince: q.updatedSince,
    updatedUntil: q.updatedUntil,
  });
  const page = groups.slice(0, q.count);
  return {
    matches: page.map((g) => toOrganization(g) satisfies Organization),
    includes: [],
    next: groups.length > q.count ? { u: page[page.length - 1]!.groupNpi, s: 0 } : null,
  };
}

/**
 * Group practices (distinct group NPIs of the credentialed providers' published practice locations at
 * `now`), by group NPI; each named by a primary location (else the first) of the provider whose
 * record changed last; `lastUpdated` the latest change of any record holding it.
 */
export async function groupPage(
  db: Queryable,
  q: { now: Date; after?: string; limit: number; npis?: string[]; updatedSince?: Date; updatedUntil?: Date },
): Promise<DirectoryGroup[]> {
  if (q.npis && q.npis.length === 0) return [];
  const conditions = [sql`cl.group_npi is not null`, sql`cl.group_npi <> ''`, inDirectory(isoDay(q.now))];
  if (q.after) conditions.push(sql`cl.group_npi > ${q.after}`);
  if (q.npis) conditions.push(sql`cl.group_npi = any(${sql.param(q.npis)}::text[])`);
  const outer = [sql`true`];
  if (q.updatedSince) outer.push(sql`g.last_updated >= ${afterMs(q.updatedSince)}::timestamptz`);
  if (q.updatedUntil) outer.push(sql`g.last_updated < ${afterMs(q.updatedUntil)}::timestamptz`);
  const result = await db.execute<{
    group_npi: string;
    location: DirectoryPracticeLocation;
    last_updated: Date | string;
  }>(sql`select * from (
      select distinct on (cl.group_npi) cl.group_npi,
        (select l from jsonb_array_elements(pc.facts->'practiceLocations') l where l->>'rowKey' = cl.row_key) as location,
        max(pc.published_at) over (partition by cl.group_npi) as last_updated
      from credential_locations cl
      join provider_credentials pc on pc.user_id = cl.user_id
      where ${sql.join(conditions, sql` and `)}
      order by cl.group_npi, cl.is_primary desc, pc.published_at desc, cl.user_id, cl.position
    ) g where g.location is not null and ${sql.join(outer, sql` and `)} order by g.group_npi limit ${q.limit}`);
  return result.rows.map((r) => ({
    groupNpi: r.group_npi.trim(),
    lastUpdated: new Date(r.last_updated),
    // The group's naming location; its patients and languages are not the group's.
    location: { ...r.location, acceptingNewPatients: null, languagesSpoken: null },
  }));
}

/**
 * One page of the search `q` at `now` (the credential state's instant).
 * Practitioner ids are user ids; see fhir-resources.ts for every type's id.
 */
export async function searchDirectory(db: Queryable, q: ParsedSearch, now: Date): Promise<SearchPage> {
  return q.type === 'Organization' ? organizationSearch(db, q, now) : providerSearch(db, q, now);
}
