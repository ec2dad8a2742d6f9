/**
 * The pipeline reports of the 'Reports' tab (issue 34 items 2, 4, 5): what is stuck (backlog and
 * aging), what will lapse (expirables forecast) and what monitoring found (screening). Each report is
 * ONE SQL statement whose aggregates PostgreSQL computes (counts grouped by status, bucket, month or
 * kind, and at most ten listed rows); Node only fills the empty months and buckets with zeros and
 * names things. `now` is passed in (the routes pass `new Date()`; tests fix it). Every day and month
 * is a UTC calendar one; ages are whole days (domain/reports/pipeline-buckets.ts).
 *
 * Sources: the attestation (NCQA CR 3; the latest signed, as server/committee/file-facts.ts
 * `decisionClocks` reads it), the dated credentials the 'Expiring' tab lists
 * (server/credentials/expiring-credentials.ts `credentialSourceSelect`, current applications only),
 * the running credentials' recredentialing dates (provider_credentials.ends_on, NCQA CR 4), the
 * monthly 'exclusion-screening' job's runs (scheduled_job_runs) and the runs after each applied import
 * (exclusion_imports, server/screening/monitoring.ts), and screening_findings.
 */
import { type SQL, sql } from 'drizzle-orm';
import type {
  BacklogReport,
  BucketCounts,
  ExpirablesReport,
  ScreeningReport,
} from '../../domain/api/reports-pipeline.ts';
import { addDays, isoDay } from '../../domain/calendar.ts';
import { type CredentialKind, credentialKinds } from '../../domain/credentials/expiring-credentials.ts';
import {
  AGE_BUCKET_LIMITS_DAYS,
  type AgeBucket,
  ageBuckets,
  daysBetween,
  forecastMonths,
} from '../../domain/reports/pipeline-buckets.ts';
import { defaultReportRange, monthsBetween } from '../../domain/reports/report-math.ts';
import { exclusionSources } from '../../domain/screening/exclusion-formats.ts';
import { isCurrentApplication } from '../credentials/current-credentials.ts';
import { credentialSourceSelect } from '../credentials/expiring-credentials.ts';
import type { Queryable } from '../db/client.ts';
import { providerApplications } from '../db/schema/core.ts';

/** The monthly monitoring job's name in scheduled_job_runs (server/runtime.ts). */
export const SCREENING_JOB = 'exclusion-screening';

/** How many of the oldest open files the backlog lists (issue 34 item 2). */
export const OLDEST_LISTED = 10;

/**
 * The age bucket's label of the instant `at` (timestamptz) at `today`, age being whole UTC calendar
 * days from `at`'s day to `today`: compared with each bucket's earliest instant (midnight UTC of
 * `today` minus its largest age), so no row needs date arithmetic. A future instant is '0–30'.
 */
function bucketSince(at: SQL, today: string): SQL {
  const whens = AGE_BUCKET_LIMITS_DAYS.map(
    (limit, i) =>
      sql`when ${at} >= ${utcMidnight(addDays(today, -limit))} then ${sql.raw(`'${ageBuckets[i]}'`)}`,
  );
  return sql`case ${sql.join(whens, sql` `)} else ${sql.raw(`'${ageBuckets.at(-1)}'`)} end`;
}

/** Whole UTC days from the instant `at` (timestamptz) to `today` (`YYYY-MM-DD`), never negative. */
const daysSince = (at: SQL, today: string) =>
  sql`greatest(0, ${today}::date - (${at} at time zone 'UTC')::date)`;

/** The month (`YYYY-MM`, UTC) of a timestamptz. */
const utcMonth = (at: SQL) => sql`to_char(${at} at time zone 'UTC', 'YYYY-MM')`;

/** Midnight UTC of `day` as a timestamptz parameter. */
const utcMidnight = (day: string) => sql`${`${day}T00:00:00Z`}::timestamptz`;

const emptyBuckets = (): BucketCounts => Object.fromEntries(ageBuckets.map((b) => [b, 0])) as BucketCounts;

const iso = (value: string | Date) => new Date(value).toISOString();

// ---- Backlog and aging (issue 34 item 2) ------------------------------------------------------------------

interface BacklogRow {
  counts: { status: 'submitted' | 'under_review'; bucket: AgeBucket; n: number }[];
  oldest: {
    id: string;
    status: 'submitted' | 'under_review';
    attested_at: string;
    days: number;
    first_name: string | null;
    last_name: string | null;
  }[];
}

/**
 * Backlog and aging at `now` (issue 34 item 2): the open files (statuses `submitted` and
 * `under_review`: completed and not yet decided; drafts are not files yet, the rest are closed),
 * optionally of one assigned reviewer (`specialist`, a user id), counted per status and age bucket,
 * the age being whole UTC days from the latest attestation's day (NCQA CR 3; the submission when a
 * file has none, which only files completed before attestations were recorded lack) to `now`'s; and
 * the OLDEST_LISTED oldest (earliest attestation first, then id) with their review page.
 * One statement over the open files, each aged from `last_attested_at` (the latest attestation, kept
 * by migration 0033's trigger) else `submitted_at`: grouped by status and bucket (bucketSince:
 * instants compared, no per-row date arithmetic), and its ten oldest read in the order of
 * provider_applications_open_age_idx (no sort of every open file).
 */
export async function backlogReport(
  db: Queryable,
  filter: { specialist?: string | undefined },
  now: Date,
): Promise<BacklogReport> {
  const a = providerApplications;
  const today = isoDay(now);
  const bySpecialist = filter.specialist ? sql` and ${a.reviewerId} = ${filter.specialist}` : sql``;
  const result = await db.execute<BacklogRow & Record<string, unknown>>(sql`
    with open_files as not materialized (
      select ${a.id} as id, ${a.applicationStatus}::text as status, ${a.userId} as user_id,
        coalesce(${a.lastAttestedAt}, ${a.submittedAt}) as attested_at
      from ${a}
      where ${a.applicationStatus} in ('submitted', 'under_review')${bySpecialist}
    )
    select
      (select coalesce(json_agg(g), '[]'::json) from (
        select status, ${bucketSince(sql`attested_at`, today)} as bucket, count(*)::int as n
        from open_files group by 1, 2
      ) g) as counts,
      (select coalesce(json_agg(o order by o.attested_at, o.id), '[]'::json) from (
        select oldest.id, oldest.status, oldest.attested_at,
          ${daysSince(sql`oldest.attested_at`, today)} as days, p.first_name, p.last_name
        from (select * from open_files order by attested_at, id limit ${OLDEST_LISTED}) oldest
        left join profiles p on p.user_id = oldest.user_id
      ) o) as oldest`);
  const row = result.rows[0]!;
  const byStatus = (['submitted', 'under_review'] as const).map((status) => {
    const buckets = emptyBuckets();
    for (const c of row.counts) if (c.status === status) buckets[c.bucket] = c.n;
    return { status, buckets, total: Object.values(buckets).reduce((s, n) => s + n, 0) };
  });
  const total = { ...emptyBuckets(), total: 0 };
  for (const s of byStatus) {
    for (const b of ageBuckets) total[b] += s.buckets[b];
    total.total += s.total;
  }
  return {
    asOf: now.toISOString(),
    specialist: filter.specialist ?? null,
    byStatus,
    total,
    oldest: row.oldest.map((o) => ({
      applicationId: o.id,
      providerName: `${o.first_name ?? ''} ${o.last_name ?? ''}`.trim(),
      status: o.status,
      attestedAt: iso(o.attested_at),
      days: o.days,
      path: `/admin/applications/${o.id}`,
    })),
  };
}

// ---- Expirables forecast (issue 34 item 4) ----------------------------------------------------------------

interface ExpirablesRow {
  credentials: { month: string; kind: CredentialKind; n: number }[];
  recredentialing: { month: string; n: number }[];
}

/**
 * Expirables forecast at `now` (issue 34 item 4), for the twelve UTC months from `now`'s
 * (`forecastMonths`: from today, to the first day of the thirteenth month, excluded):
 * - the dated credentials expiring per month and kind: exactly the rows the 'Expiring' tab lists
 *   (the seven sources' union `credentialSourceSelect`, `listed`, of the provider's current
 *   application: `isCurrentApplication`), by each row's own date; bounded by date outside the union
 *   so each branch is a range scan of its (date, id, application_id) index (migration 0016);
 * - the recredentialing due dates per month: `provider_credentials.ends_on` (36 months after the
 *   latest approval, NCQA CR 4) of credentials still running (not ended, not past).
 */
export async function expirablesReport(db: Queryable, now: Date): Promise<ExpirablesReport> {
  const { months, fromDay, beforeDay } = forecastMonths(now);
  const union = sql.join(
    credentialKinds.map((kind) => credentialSourceSelect(kind)),
    sql` union all `,
  );
  const result = await db.execute<ExpirablesRow & Record<string, unknown>>(sql`
    select
      (select coalesce(json_agg(e), '[]'::json) from (
        select to_char(c.expires_on::timestamp, 'YYYY-MM') as month, c.kind, count(*)::int as n
        from (${union}) c
        join ${providerApplications} on ${providerApplications.id} = c.application_id
        where c.expires_on >= ${fromDay}::date and c.expires_on < ${beforeDay}::date
          and c.listed and ${isCurrentApplication()}
        group by 1, 2
      ) e) as credentials,
      (select coalesce(json_agg(r), '[]'::json) from (
        select to_char(pc.ends_on::timestamp, 'YYYY-MM') as month, count(*)::int as n
        from provider_credentials pc
        where pc.ended_on is null and pc.ends_on >= ${fromDay}::date and pc.ends_on < ${beforeDay}::date
        group by 1
      ) r) as recredentialing`);
  const row = result.rows[0]!;
  return {
    asOf: now.toISOString(),
    months: months.map((month) => {
      const byKind = Object.fromEntries(credentialKinds.map((k) => [k, 0])) as Record<CredentialKind, number>;
      for (const c of row.credentials) if (c.month === month) byKind[c.kind] = c.n;
      return {
        month,
        byKind,
        credentials: Object.values(byKind).reduce((s, n) => s + n, 0),
        recredentialingDue: row.recredentialing.find((r) => r.month === month)?.n ?? 0,
      };
    }),
  };
}

// ---- Screening (issue 34 item 5) --------------------------------------------------------------------------

interface ScreeningRow {
  scheduled: { month: string; n: number }[];
  imports: { month: string; n: number }[];
  findings: { month: string; strength: 'match' | 'possible_match'; n: number }[];
  open: { bucket: AgeBucket; n: number; oldest: number }[];
  sources: { source: string; applied_at: string; rows: number | null }[];
}

/**
 * Screening over `from`..`to` (UTC days, both included; default the twelve months to today) at `now`
 * (issue 34 item 5):
 * - per UTC month, the monitoring runs: the monthly job's runs that finished in it
 *   (scheduled_job_runs, job 'exclusion-screening'; a failed run never finishes) and the runs after an
 *   import was applied in it (each 'Apply' screens everyone: server/screening/screening.routes.ts);
 * - per UTC month, the findings recorded (screening_findings by `found_at`), as matches and possible
 *   matches;
 * - the possible matches still open at `now` (status 'open'), by age bucket of whole days since found,
 *   and the oldest one's age (through screening_findings_open_idx);
 * - every source's last applied import (as server/screening/screening.ts `appliedLists` reads it),
 *   in `exclusionSources` order, with its age in days (null: never imported).
 */
export async function screeningReport(
  db: Queryable,
  range: { from?: string | undefined; to?: string | undefined },
  now: Date,
): Promise<ScreeningReport> {
  const { from, to } = range.from && range.to ? { from: range.from, to: range.to } : defaultReportRange(now);
  const start = utcMidnight(from);
  const end = utcMidnight(addDays(to, 1));
  const today = isoDay(now);
  const result = await db.execute<ScreeningRow & Record<string, unknown>>(sql`
    select
      (select coalesce(json_agg(s), '[]'::json) from (
        select ${utcMonth(sql`r.finished_at`)} as month, count(*)::int as n
        from scheduled_job_runs r
        where r.job = ${SCREENING_JOB} and r.finished_at >= ${start} and r.finished_at < ${end}
        group by 1
      ) s) as scheduled,
      (select coalesce(json_agg(i), '[]'::json) from (
        select ${utcMonth(sql`x.applied_at`)} as month, count(*)::int as n
        from exclusion_imports x
        where x.status = 'applied' and x.applied_at >= ${start} and x.applied_at < ${end}
        group by 1
      ) i) as imports,
      (select coalesce(json_agg(f), '[]'::json) from (
        select ${utcMonth(sql`f.found_at`)} as month, f.strength, count(*)::int as n
        from screening_findings f
        where f.found_at >= ${start} and f.found_at < ${end}
        group by 1, 2
      ) f) as findings,
      (select coalesce(json_agg(o), '[]'::json) from (
        select ${bucketSince(sql`f.found_at`, today)} as bucket, count(*)::int as n,
          ${daysSince(sql`min(f.found_at)`, today)} as oldest
        from screening_findings f
        where f.status = 'open' and f.strength = 'possible_match'
        group by 1
      ) o) as open,
      (select coalesce(json_agg(l), '[]'::json) from (
        select distinct on (x.source) x.source, x.applied_at, x.rows_after as rows
        from exclusion_imports x
        where x.status = 'applied'
        order by x.source, x.applied_at desc
      ) l) as sources`);
  const row = result.rows[0]!;
  const buckets = emptyBuckets();
  for (const o of row.open) buckets[o.bucket] = o.n;
  const oldest = row.open.length ? Math.max(...row.open.map((o) => o.oldest)) : null;
  const count = (list: { month: string; n: number }[], month: string) =>
    list.find((r) => r.month === month)?.n ?? 0;
  return {
    asOf: now.toISOString(),
    from,
    to,
    months: monthsBetween(from, to).map((month) => ({
      month,
      scheduledRuns: count(row.scheduled, month),
      importRuns: count(row.imports, month),
      matches: count(
        row.findings.filter((f) => f.strength === 'match'),
        month,
      ),
      possibleMatches: count(
        row.findings.filter((f) => f.strength === 'possible_match'),
        month,
      ),
    })),
    openPossibleMatches: {
      total: Object.values(buckets).reduce((s, n) => s + n, 0),
      buckets,
      oldestDays: oldest,
    },
    sources: exclusionSources.map((s) => {
      const last = row.sources.find((r) => r.source === s.id);
      const appliedAt = last ? iso(last.applied_at) : null;
      return {
        source: s.id,
        label: s.label,
        lastAppliedAt: appliedAt,
        days: appliedAt ? Math.max(0, daysBetween(appliedAt.slice(0, 10), today)) : null,
        rows: last?.rows ?? null,
      };
    }),
  };
}
