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
  credentialedProviderPage,
  type DirectoryPracticeLocation,
  type DirectoryProvider,
  MAX_DIRECTORY_PAGE,
  type PracticeLocationRow,
  practiceLocationOf,
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
  if (filter.updatedSince)
    conditions.push(sql`updated_at > ${filter.updatedSince.toISOString()}::timestamptz`);
  if (filter.updatedUntil)
    conditions.push(sql`updated_at <= ${filter.updatedUntil.toISOString()}::timestamptz`);
  const result = await db.execute<{
    id: string;
    application_id: string;
    kind: string;
    target: string;
    primary_source: string;
    status: string;
    source: string | null;
    verified_at: string | null;
    updated_at: Date | string;
  }>(sql`select id, application_id, kind, target, primary_source, status, source, verified_at::text as verified_at,
    updated_at from verification_items where ${sql.join(conditions, sql` and `)} order by application_id, position, id`);
  for (const row of result.rows) {
    const item: ChecklistItemFacts = {
      id: row.id,
      kind: row.kind,
      target: row.target,
      primarySource: row.primary_source,
      status: row.status,
      source: row.source,
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
 * The credentialed providers owning rows of `table` whose `column` is one of `ids` (uuids; others
 * are no row): a PractitionerRole or Location `_id` is a practice location's row key, a
 * VerificationResult `_id` a checklist item's id.
 */
async function providersOfRows(
  db: Queryable,
  table: 'practice_locations' | 'verification_items',
  column: 'row_key' | 'id',
  ids: readonly string[],
): Promise<string[]> {
  const uuids = ids.filter(isUuid);
  if (uuids.length === 0) return [];
  const result = await db.execute<{
    user_id: string;
  }>(sql`select distinct pc.user_id from ${sql.identifier(table)} r
    join provider_credentials pc on pc.application_id = r.application_id
    where r.${sql.identifier(column)} = any(${sql.param(uuids)}::uuid[])`);
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
    userIds = intersect(userIds, await providersOfRows(db, 'practice_locations', 'row_key', q.ids));
  }
  if (q.type === 'VerificationResult' && q.ids)
    userIds = intersect(userIds, await providersOfRows(db, 'verification_items', 'id', q.ids));
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
 * Group practices (distinct group NPIs of the credentialed providers' practice locations at `now`),
 * by group NPI; each named by its primary (else most recently changed) location; `lastUpdated` the
 * latest change of any of its location rows.
 */
export async function groupPage(
  db: Queryable,
  q: { now: Date; after?: string; limit: number; npis?: string[]; updatedSince?: Date; updatedUntil?: Date },
): Promise<DirectoryGroup[]> {
  if (q.npis && q.npis.length === 0) return [];
  const conditions = [sql`pl.group_npi is not null`, sql`pl.group_npi <> ''`];
  if (q.after) conditions.push(sql`pl.group_npi > ${q.after}`);
  if (q.npis) conditions.push(sql`pl.group_npi = any(${sql.param(q.npis)}::text[])`);
  const outer = [sql`true`];
  if (q.updatedSince) outer.push(sql`g.last_updated > ${q.updatedSince.toISOString()}::timestamptz`);
  if (q.updatedUntil) outer.push(sql`g.last_updated <= ${q.updatedUntil.toISOString()}::timestamptz`);
  const result = await db.execute<
    PracticeLocationRow & { group_npi: string; last_updated: Date | string }
  >(sql`select * from (
      select distinct on (pl.group_npi) pl.id, pl.row_key, pl.group_npi, pl.practice_name, pl.address_line1,
        pl.address_line2, pl.city, pl.state, pl.zip_code, pl.phone, pl.fax, pl.email, pl.is_primary_location,
        pl.updated_at, max(pl.updated_at) over (partition by pl.group_npi) as last_updated
      from provider_credentials pc
      join practice_locations pl on pl.application_id = pc.application_id
      where pc.ended_on is null and pc.ends_on >= ${isoDay(q.now)}::date and ${sql.join(conditions, sql` and `)}
      order by pl.group_npi, pl.is_primary_location desc, pl.updated_at desc, pl.id
    ) g where ${sql.join(outer, sql` and `)} order by g.group_npi limit ${q.limit}`);
  return result.rows.map((r) => ({
    groupNpi: r.group_npi.trim(),
    lastUpdated: new Date(r.last_updated),
    // The group's naming location; its patients and languages are not the group's.
    location: { ...practiceLocationOf(r), acceptingNewPatients: null, languagesSpoken: null },
  }));
}

/**
 * One page of the search `q` at `now` (the credential state's instant).
 * Practitioner ids are user ids; see fhir-resources.ts for every type's id.
 */
export async function searchDirectory(db: Queryable, q: ParsedSearch, now: Date): Promise<SearchPage> {
  return q.type === 'Organization' ? organizationSearch(db, q, now) : providerSearch(db, q, now);
}
