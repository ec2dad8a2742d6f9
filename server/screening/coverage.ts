/**
 * The exclusion screening coverage of one application now (issue 51 item 1, decision 039; rules in
 * domain/screening/coverage.ts): its provider's states read from the newest snapshot (the licenses'
 * issuing states and the practice locations' states), and each list's last apply (`appliedLists`,
 * which screening and the File Summary read too).
 */

import { sql } from 'drizzle-orm';
import type { StateCoverage } from '../../domain/api/screening.ts';
import type { ApplicationSnapshot } from '../../domain/review/application-snapshot.ts';
import {
  type ScreeningCoverage,
  screeningCoverage,
  statesOf,
  statesWithList,
} from '../../domain/screening/coverage.ts';
import { type ExclusionFileKind, exclusionSources } from '../../domain/screening/exclusion-formats.ts';
import { payloadKeyOfSection } from '../../domain/sections/payload-keys.ts';
import type { Queryable } from '../db/client.ts';
import { exclusionImports } from '../db/schema/screening.ts';
import { newestSnapshot } from '../notifications/application-snapshot.ts';
import { sourceLabel } from './exclusion-imports.ts';

/** The states where the provider of `snapshot` is licensed or practises (two-letter, sorted). */
export function providerStates(snapshot: ApplicationSnapshot | undefined): string[] {
  const lists = snapshot?.lists ?? {};
  return statesOf([
    ...(lists[payloadKeyOfSection.professionalLicenses] ?? []).map((row) => row.issuing_state),
    ...(lists[payloadKeyOfSection.practiceLocations] ?? []).map((row) => row.state),
  ]);
}

/**
 * The coverage of `applicationId`'s newest snapshot at `now` by `lists` (`appliedLists`, or read
 * here when not given). Sequential reads: `db` may be a transaction (one connection).
 */
export async function coverageOf(
  db: Queryable,
  applicationId: string,
  now: Date,
  lists?: readonly AppliedList[],
): Promise<ScreeningCoverage> {
  const snapshot = await newestSnapshot(db, applicationId);
  return screeningCoverage(providerStates(snapshot), lists ?? (await appliedLists(db)), now);
}

/**
 * The states of providers in credentialing (newest snapshot of each application completed, under
 * review or approved: licenses' issuing states and practice locations' states) that the product has
 * no state list for, each with its count of providers, most providers first.
 */
export async function statesWithoutListInUse(db: Queryable): Promise<StateCoverage['statesWithoutList']> {
  const rows = await db.execute<{ state: string; providers: number }>(sql`
    with newest as (
      select distinct on (v.application_id) a.user_id, v.snapshot
      from application_versions v join provider_applications a on a.id = v.application_id
      where a.application_status in ('submitted', 'under_review', 'approved')
      -- The snapshot's keys: domain/sections/payload-keys.ts (licenses, practiceLocations).
      order by v.application_id, v.version desc),
    states as (
      select user_id, upper(trim(l->>'issuing_state')) as state
      from newest, jsonb_array_elements(coalesce(snapshot->'lists'->'licenses', '[]')) l
      union
      select user_id, upper(trim(p->>'state'))
      from newest, jsonb_array_elements(coalesce(snapshot->'lists'->'practiceLocations', '[]')) p)
    select state, count(distinct user_id)::int as providers from states
    where state ~ '^[A-Z]{2}$' and state not in (select jsonb_array_elements_text(${JSON.stringify(statesWithList)}::jsonb))
    group by state order by providers desc, state`);
  return rows.rows.map((r) => ({ state: r.state, providers: Number(r.providers) }));
}

/** The lists screening reads: each source's last apply (sources never applied are not screened). */
export interface AppliedList {
  source: string;
  label: string;
  appliedAt: Date;
  /** Rows on the list after the apply. */
  rows: number;
  /** The file applied, its kind, and the rows it had. */
  fileName: string;
  kind: ExclusionFileKind;
  fileRows: number;
}

/** Every source's last applied import, in `exclusionSources` order. */
export async function appliedLists(db: Queryable): Promise<AppliedList[]> {
  const rows = await db.execute<{
    source: string;
    applied_at: Date;
    rows: number;
    file_name: string;
    kind: ExclusionFileKind;
    row_count: number;
  }>(sql`
    select distinct on (i.source) i.source, i.applied_at, i.rows_after as rows, i.file_name, i.kind, i.row_count
    from ${exclusionImports} i
    where i.status = 'applied'
    order by i.source, i.applied_at desc`);
  const order = exclusionSources.map((s) => s.id as string);
  return rows.rows
    .map((r) => ({
      source: r.source,
      label: sourceLabel(r.source),
      appliedAt: new Date(r.applied_at),
      rows: Number(r.rows ?? 0),
      fileName: r.file_name,
      kind: r.kind,
      fileRows: r.row_count,
    }))
    .sort((a, b) => order.indexOf(a.source) - order.indexOf(b.source));
}
