/**
 * The dated credentials of every provider's current application, in SQL (issue 14, decisions 023
 * and 024): what has expired or expires within a window at `now`, by date then row id, optionally of
 * one kind. Read by the admin 'Expiring' tab (a page), its CSV export and the daily
 * `credential-expiry` job (keyset batches).
 *
 * One query per read: a UNION ALL over the sources (./expiring-credentials.ts) bounded by date
 * outside the union, so each branch is an index scan on (date, id, application_id) (migration 0016)
 * and the branches are merged in date order; joined to the application, kept when it is the
 * provider's current one; the profile joined to the rows read only. "Current": the latest
 * application that is not rejected, preferring one that is not a draft.
 *
 * Issue 29 item 4: a credential whose verification needs re-verification (a credential update not
 * verified yet) is noticed by the expiry that was verified (`awaitingReverification`), not its new one.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { ExpiringListItem } from '../../domain/api/admin.ts';
import {
  type CredentialKind,
  credentialKindSection,
  credentialKinds,
  daysUntil,
  EXPIRING_WINDOW_DAYS,
  type ExpiringWindow,
  expiryUrgency,
} from '../../domain/credentials/expiring-credentials.ts';
import type { Queryable } from '../db/client.ts';
import { profiles, providerApplications } from '../db/schema/core.ts';
import {
  certifications,
  hospitalAffiliations,
  malpracticeInsurance,
  personalInformation,
  professionalLicenses,
} from '../db/schema/sections.ts';
import { credentialSourceSelect, credentialSources } from './expiring-credentials.ts';

/** What the tab and the export filter on: the window and, optionally, one kind. */
export interface ExpiringFilter {
  window: ExpiringWindow;
  /** Absent: every kind. */
  kind?: CredentialKind | undefined;
}

/** Rows read per query while exporting (keyset batches: memory stays flat whatever the total). */
export const EXPORT_BATCH_ROWS = 2_000;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC calendar day `offsetDays` after `now`'s, as `YYYY-MM-DD`. */
export function isoDayFrom(now: Date, offsetDays: number): string {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today + offsetDays * DAY_MS).toISOString().slice(0, 10);
}

/** Where a keyset read resumes: after this row in (expires_on, row_id) order. */
export interface Cursor {
  expiresOn: string;
  rowId: string;
}

/**
 * The last day of `filter`'s window at `now` (UTC calendar days, `YYYY-MM-DD`) and whether it is
 * exclusive: 'expired' is everything before today, a window of N days everything up to today + N.
 */
export function windowBound(filter: ExpiringFilter, now: Date): { day: string; exclusive: boolean } {
  return filter.window === 'expired'
    ? { day: isoDayFrom(now, 0), exclusive: true }
    : { day: isoDayFrom(now, Number(filter.window)), exclusive: false };
}

/**
 * FROM ... WHERE of the credentials `filter` selects at `now`, after `cursor` when given. The bounds
 * on `c.expires_on` and `c.row_id` reach each branch of the union as index conditions, so the branches
 * are merged in (date, id) order and a LIMIT stops early (see credentialSourceSelect).
 */
export function expiringFrom(filter: ExpiringFilter, now: Date, cursor?: Cursor): SQL {
  const { day, exclusive } = windowBound(filter, now);
  return expiringFromBound(filter.kind, exclusive, sql`${day}`, cursor);
}

/**
 * `expiringFrom` with the window's last day given as SQL (a value, or a placeholder of a prepared
 * statement: admin-expiring.service.ts): credentials of `kind` (absent: every kind) expiring before
 * `day` when `exclusive`, else on or before it.
 */
export function expiringFromBound(
  kind: CredentialKind | undefined,
  exclusive: boolean,
  day: SQL,
  cursor?: Cursor,
): SQL {
  const window = exclusive ? sql`c.expires_on < ${day}::date` : sql`c.expires_on <= ${day}::date`;
  const after = cursor
    ? sql` and (c.expires_on, c.row_id) > (${cursor.expiresOn}::date, ${cursor.rowId}::uuid)`
    : sql``;
  const kinds = kind ? [kind] : credentialKinds;
  const union = sql.join(
    kinds.map((k) => credentialSourceSelect(k)),
    sql` union all `,
  );
  return sql`from (${union}) c
    join ${providerApplications} on ${providerApplications.id} = c.application_id
    where ${window}${after} and c.listed and ${isCurrentApplication()}`;
}

/**
 * The joined application (`provider_applications`) is the provider's current one: not rejected nor
 * withdrawn, and no other application of theirs that is neither comes first in the job's order (non-drafts
 * before drafts, newest first, the larger id first between two created at the same instant, so
 * exactly one is current). The database keeps this as `is_current` (migration 0032's triggers, the
 * rule's one definition), so the condition reads a flag: comparing every provider's applications took
 * two passes over the table per read (about 150 ms of the expirables forecast's 200 ms at 100,000
 * providers, issue 34). Also read by the expirables forecast (server/reports/pipeline-reports.ts).
 */
export function isCurrentApplication(): SQL {
  return sql`${providerApplications.isCurrent}`;
}

/**
 * Credentials whose verification needs re-verification (issue 29 item 4: "expiry notices for a
 * credential stop once a newer expiry is verified"), in the shape of `credentialSourceSelect`, with
 * `expires_on` the expiry that was VERIFIED (the item's `verified_values`), not the row's new one:
 * until a reviewer verifies the change, the credential is noticed by the date the credentialing team
 * confirmed. The item finds its row by `row_key` (licenses, certifications, the malpractice policy;
 * the row's id in items older than row keys; the hospital privileges of issue 31 too) or, for the DEA
 * item, as the DEA license row. A row whose verified values hold no date is noticed by its own date.
 */
function reverificationSelect(): SQL {
  const l = professionalLicenses;
  const c = certifications;
  const m = malpracticeInsurance;
  const h = hospitalAffiliations;
  const verified = (label: string, column: SQL) =>
    sql`coalesce(nullif(v.verified_values->>${label}, '')::date, ${column})`;
  const byRow = (rowKey: SQL, id: SQL) => sql`(${rowKey} = v.row_key or ${id} = v.row_key)`;
  return sql`
    select 'professional_license'::text as kind, ${l.id} as row_id, ${l.applicationId} as application_id,
      ${verified('Expiration date', sql`${l.expirationDate}`)} as expires_on,
      ${l.licenseType}::text as n1, ${l.licenseNumber}::text as n2, ${l.issuingState}::text as n3
    from verification_items v join ${l} on ${l.applicationId} = v.application_id
      and ${byRow(sql`${l.rowKey}`, sql`${l.id}`)}
    where v.status = 'needs_reverification' and v.kind = 'license'
    union all
    select 'professional_license'::text, ${l.id}, ${l.applicationId},
      ${verified('DEA license expiration date', sql`${l.expirationDate}`)},
      ${l.licenseType}::text, ${l.licenseNumber}::text, ${l.issuingState}::text
    from verification_items v join ${l} on ${l.applicationId} = v.application_id
      and ${l.licenseType} = 'dea_license'
    where v.status = 'needs_reverification' and v.kind = 'dea'
    union all
    select 'certification'::text, ${c.id}, ${c.applicationId},
      ${verified('Expiration date', sql`${c.expirationDate}`)},
      ${c.certificationName}::text, null::text, null::text
    from verification_items v join ${c} on ${c.applicationId} = v.application_id
      and ${byRow(sql`${c.rowKey}`, sql`${c.id}`)}
    where v.status = 'needs_reverification' and v.kind = 'board_certification'
    union all
    select 'malpractice_insurance'::text, ${m.id}, ${m.applicationId},
      ${verified('Expiration date', sql`${m.expirationDate}`)},
      ${m.insuranceCompany}::text, ${m.policyNumber}::text, null::text
    from verification_items v join ${m} on ${m.applicationId} = v.application_id
      and ${byRow(sql`${m.rowKey}`, sql`${m.id}`)}
    where v.status = 'needs_reverification' and v.kind = 'malpractice'
    union all
    select 'hospital_privileges'::text, ${h.id}, ${h.applicationId},
      ${verified('End date', sql`${h.endDate}`)},
      ${h.facilityName}::text, ${h.city}::text, ${h.state}::text
    from verification_items v join ${h} on ${h.applicationId} = v.application_id
      and ${byRow(sql`${h.rowKey}`, sql`${h.id}`)} and ${h.privilegeStatus} <> 'none'
    where v.status = 'needs_reverification' and v.kind = 'hospital_privileges'`;
}

/** `kind:rowId`, the identity of one dated credential across both reads. */
export const credentialIdentity = (c: { kind: string; rowId: string }) => `${c.kind}:${c.rowId}`;

/**
 * The credentials of current applications awaiting re-verification (issue 29 item 4), for the daily
 * `credential-expiry` job: `held` names every such credential (the job ignores its row's new date),
 * `expiring` those whose VERIFIED expiry falls within the widest threshold at `now` or has passed
 * (the job notices them by that date). A handful of rows: only open changes need re-verification.
 */
export async function awaitingReverification(
  db: Queryable,
  now: Date,
): Promise<{ held: Set<string>; expiring: ExpiringListItem[] }> {
  const a = providerApplications;
  const result = await db.execute<ExpiringRow>(sql`
    select c.kind, c.row_id, c.application_id, c.expires_on::text as expires_on, c.n1, c.n2, c.n3,
      ${a.userId} as user_id, ${profiles.firstName} as first_name, ${profiles.lastName} as last_name,
      ${profiles.email} as email
    from (${reverificationSelect()}) c
    join ${a} on ${a.id} = c.application_id
    left join ${profiles} on ${profiles.userId} = ${a.userId}
    where ${isCurrentApplication()}
    order by c.expires_on, c.row_id`);
  const held = new Set<string>();
  const expiring: ExpiringListItem[] = [];
  const last = isoDayFrom(now, EXPIRING_WINDOW_DAYS);
  for (const row of result.rows) {
    held.add(credentialIdentity({ kind: row.kind, rowId: row.row_id }));
    if (row.expires_on && row.expires_on <= last) expiring.push(presentCredential(row, now));
  }
  return { held, expiring };
}

export type ExpiringRow = {
  kind: CredentialKind;
  row_id: string;
  application_id: string;
  expires_on: string;
  n1: string | null;
  n2: string | null;
  n3: string | null;
  user_id: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  /** The application's NPI (Personal Information), for the 'Expiring' CSV (issue 33 item 2). */
  npi?: string | null;
};

/**
 * `limit` rows of `from` in (date, id) order after skipping `offset`; the profile is joined to those
 * rows only, not to the skipped ones.
 */
export async function readRows(
  db: Queryable,
  from: SQL,
  limit: number,
  offset: number,
): Promise<ExpiringRow[]> {
  const result = await db.execute<ExpiringRow>(readRowsSql(from, sql`${limit}`, sql`${offset}`));
  return result.rows;
}

/** The statement of `readRows` with its limit and offset as SQL (values or placeholders). */
export function readRowsSql(from: SQL, limit: SQL, offset: SQL): SQL {
  return sql`
    select page.*, ${profiles.firstName} as first_name, ${profiles.lastName} as last_name,
           ${profiles.email} as email, ${personalInformation.npiNumber} as npi
    from (
      select c.kind, c.row_id, c.application_id, c.expires_on, c.n1, c.n2, c.n3,
             ${providerApplications.userId} as user_id
      ${from}
      order by c.expires_on, c.row_id
      limit ${limit} offset ${offset}
    ) page
    left join ${profiles} on ${profiles.userId} = page.user_id
    left join ${personalInformation} on ${personalInformation.applicationId} = page.application_id
    order by page.expires_on, page.row_id
  `;
}

/**
 * Run `read` without parallel workers: the tab's queries read at most ~1,000 rows through indexes,
 * and starting workers for a single-kind count cost more than the count (50+ ms on a busy host).
 */
export function serial<T>(db: Queryable, read: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local max_parallel_workers_per_gather = 0`);
    return read(tx);
  });
}

export function presentCredential(row: ExpiringRow, now: Date): ExpiringListItem {
  const daysLeft = daysUntil(row.expires_on, now);
  return {
    kind: row.kind,
    sectionKey: credentialKindSection[row.kind],
    rowId: row.row_id,
    applicationId: row.application_id,
    name: credentialSources[row.kind].name([row.n1, row.n2, row.n3]),
    state: credentialSources[row.kind].state?.([row.n1, row.n2, row.n3]) ?? null,
    number: credentialSources[row.kind].number?.([row.n1, row.n2, row.n3]) ?? null,
    expiresOn: row.expires_on,
    daysLeft,
    // Every window ends within EXPIRING_WINDOW_DAYS of today, so every row has an urgency.
    urgency: expiryUrgency(daysLeft) ?? 'within_90',
    provider: {
      userId: row.user_id,
      firstName: row.first_name ?? '',
      lastName: row.last_name ?? '',
      email: row.email ?? '',
      npi: row.npi ?? null,
    },
  };
}

/**
 * Every credential of `filter` at `now`, in the tab's order, as batches of at most `batchRows`
 * (keyset reads: one short query per batch, never the whole result in memory). For the CSV export
 * and the daily job. Rows changed between two batches may be missed or seen in their new place (no
 * snapshot is held open while the client downloads).
 * Each batch is read without parallel workers (`serial`).
 */
export async function* expiringCredentialBatches(
  db: Queryable,
  filter: ExpiringFilter,
  now: Date,
  batchRows = EXPORT_BATCH_ROWS,
): AsyncGenerator<ExpiringListItem[]> {
  let cursor: Cursor | undefined;
  for (;;) {
    const read = (q: Queryable) => readRows(q, expiringFrom(filter, now, cursor), batchRows, 0);
    const rows = await serial(db, read);
    if (rows.length > 0) yield rows.map((row) => presentCredential(row, now));
    if (rows.length < batchRows) return;
    const last = rows.at(-1)!;
    cursor = { expiresOn: last.expires_on, rowId: last.row_id };
  }
}
