/**
 * The decision-centred reports (issue 34 items 1, 3, 6): Turnaround, Timeliness and Workload. Each is
 * ONE SQL aggregate over the decided files of a range (no row-by-row work in Node: Node only lays the
 * aggregate rows into one entry per UTC month, `monthsBetween`). Turnaround and Timeliness group
 * `decision_facts` (server/db/schema/reports.ts: each decision's figures, written by a trigger when the
 * decision is recorded, migration 0031) by its decided_at index; Workload reads provider_applications
 * and verification_items on the indexes of migration 0029.
 *
 * Shared definitions:
 * - A decided file: provider_applications with status approved or rejected and decided_at in the
 *   range; its month is the UTC month of decided_at. The range is UTC days `from`..`to`, inclusive.
 * - Percentiles: `percentile_cont` (linear interpolation), the definition of domain/reports/report-math.ts
 *   `percentile`; days rounded to one decimal.
 * - Completion: the completion attestation's signed_at (application_attestations kind 'completion',
 *   decision 022), or submitted_at for a file completed before attestations existed (migration 0013);
 *   both are written by the same 'Sign and Complete'.
 * - Every figure of a decided file is as it stood when the decision was recorded (decision_facts): a
 *   checklist item re-opened or a request answered after the decision changes nothing.
 */
import { type SQL, sql } from 'drizzle-orm';
import type {
  DurationStats,
  ReportQuery,
  TimelinessReport,
  TurnaroundReport,
  WorkloadReport,
} from '../../domain/api/reports.ts';
import type { DecisionClockLimits } from '../../domain/committee/timeliness.ts';
import { defaultReportRange, monthsBetween, sharePercent } from '../../domain/reports/report-math.ts';
import type { Queryable } from '../db/client.ts';

/** A report's range, YYYY-MM-DD, both inclusive. */
export interface ReportRange {
  from: string;
  to: string;
}

/** The range a query asks for, or the last 12 months before `now` (`defaultReportRange`). */
export function reportRangeOf(query: Pick<ReportQuery, 'from' | 'to'>, now: Date): ReportRange {
  return query.from && query.to ? { from: query.from, to: query.to } : defaultReportRange(now);
}

/** The range's bounds as timestamps: [UTC midnight of `from`, UTC midnight after `to`). */
function decidedWithin(column: SQL, range: ReportRange): SQL {
  return sql`${column} >= (${range.from}::date)::timestamp at time zone 'UTC'
    and ${column} < (${range.to}::date + 1)::timestamp at time zone 'UTC'`;
}

const DECIDED = sql`a.application_status in ('approved', 'rejected')`;
/** The UTC month of the decision, as a timestamp (grouped on; written 'YYYY-MM' after grouping). */
const MONTH_START = sql`date_trunc('month', a.decided_at at time zone 'UTC')`;

/** `files`, median and p90 (one decimal) of a column of days, as three SQL select items. */
function statsColumns(column: string) {
  const c = sql.raw(column);
  return sql`count(${c})::int as ${sql.raw(`${column}_files`)},
    round((percentile_cont(0.5) within group (order by ${c}))::numeric, 1)::float8 as ${sql.raw(`${column}_median`)},
    round((percentile_cont(0.9) within group (order by ${c}))::numeric, 1)::float8 as ${sql.raw(`${column}_p90`)}`;
}

/** The three select items of `statsColumns(column)`, by name. */
type StatsRow = Record<string, unknown>;

function statsOf(row: StatsRow | undefined, column: string): DurationStats {
  if (!row) return { files: 0, medianDays: null, p90Days: null };
  return {
    files: (row[`${column}_files`] as number | null) ?? 0,
    medianDays: (row[`${column}_median`] as number | null) ?? null,
    p90Days: (row[`${column}_p90`] as number | null) ?? null,
  };
}

const stageColumns = ['waiting_review', 'in_review', 'waiting_provider', 'waiting_decision'] as const;

type TurnaroundRow = { month: string; cycle: string | null; all_cycles: number } & StatsRow;

/**
 * Turnaround (issue 34 item 1): per UTC month of decision, the days from completion to decision
 * (median, p90) of all decided files and of each cycle (initial / recredentialing), and the days of
 * each stage. The stages partition the time from completion to decision:
 * - Waiting for review: submitted_at -> review_started_at ('Start Review').
 * - Waiting for the provider: the sum over the file's information requests of requested_at ->
 *   responded_at (an unanswered one until the decision), within the review.
 * - Waiting for decision: the sum over the file's 'Send for Decision' referrals (decision_referrals,
 *   kind 'decision') of sent_at -> closed_at (an open one until the decision); a deferral that sent
 *   the file back to review ends its referral, so the time back in review is 'In review' again.
 * - In review: the rest of review_started_at -> decided_at (never below 0).
 * A file decided without 'Start Review' (none since issue 13) counts in the total only; a file never
 * sent for decision (decided before issue 32) counts 0 days waiting for decision.
 * Elapsed days (hours / 24), one decimal. Months without decisions have `files: 0` and null figures.
 */
export async function turnaroundReport(db: Queryable, range: ReportRange): Promise<TurnaroundReport> {
  // The figures were computed when each decision was recorded (decision_facts); here only grouped.
  const { rows } = await db.execute<TurnaroundRow>(sql`
    with facts as (
      select date_trunc('month', f.decided_at at time zone 'UTC') as month_start, f.cycle,
        f.total_days as total, f.waiting_review_days as waiting_review, f.in_review_days as in_review,
        f.waiting_provider_days as waiting_provider, f.waiting_decision_days as waiting_decision
      from decision_facts f
      where ${decidedWithin(sql`f.decided_at`, range)}
    )
    select to_char(month_start, 'YYYY-MM') as month, cycle, grouping(cycle) as all_cycles,
      ${statsColumns('total')},
      ${sql.join(
        stageColumns.map((c) => statsColumns(c)),
        sql`, `,
      )}
    from facts
    group by grouping sets ((month_start, cycle), (month_start))
    order by month_start, cycle nulls first`);

  const byKey = new Map(rows.map((r) => [`${r.month}/${r.all_cycles === 1 ? '*' : r.cycle}`, r]));
  return {
    ...range,
    months: monthsBetween(range.from, range.to).map((month) => {
      const all = byKey.get(`${month}/*`);
      return {
        month,
        all: statsOf(all, 'total'),
        initial: statsOf(byKey.get(`${month}/initial`), 'total'),
        recredentialing: statsOf(byKey.get(`${month}/recredentialing`), 'total'),
        stages: {
          waitingForReview: statsOf(all, 'waiting_review'),
          inReview: statsOf(all, 'in_review'),
          waitingForProvider: statsOf(all, 'waiting_provider'),
          waitingForDecision: statsOf(all, 'waiting_decision'),
        },
      };
    }),
  };
}

type TimelinessRow = {
  month: string;
  decided: number;
  within_attestation: number;
  within_verification: number;
  timely: number;
  missed: TimelinessReport['missed'];
};

/**
 * Timeliness (issue 34 item 3; NCQA CR 3, domain/committee/timeliness.ts): per UTC month of decision,
 * the decisions made within `limits.attestationValidDays` of the attestation in force (the latest
 * signed before the decision) and within `limits.verificationMaxAgeDays` of the oldest verification
 * (the earliest verified_at of the checklist's verified items, on or before the decision day), in UTC
 * calendar days as the decision clock counts them (due on the day `limit` days after; decided on
 * that day is in time). A clock that never started (no attestation, nothing verified) is not missed,
 * as `decisionDue` treats it. Both dates are the ones recorded with the decision (decision_facts): an
 * item re-opened since does not change them. `missed` lists every late file of the range, oldest
 * decision first.
 */
export async function timelinessReport(
  db: Queryable,
  range: ReportRange,
  limits: DecisionClockLimits,
): Promise<TimelinessReport> {
  // The attestation in force and the oldest verification were recorded with the decision (decision_facts).
  const { rows } = await db.execute<TimelinessRow>(sql`
    with judged as not materialized (
      select f.application_id as id, f.cycle, date_trunc('month', f.decided_at at time zone 'UTC') as month_start,
        d.decided_on,
        d.decided_on - (f.attested_at at time zone 'UTC')::date as days_attestation,
        d.decided_on - f.oldest_verified_on as days_verification
      from decision_facts f
      cross join lateral (select (f.decided_at at time zone 'UTC')::date as decided_on) d
      where ${decidedWithin(sql`f.decided_at`, range)}
    ),
    flagged as not materialized (
      select j.*,
        (j.days_attestation is null or j.days_attestation <= ${limits.attestationValidDays}) as in_attestation,
        (j.days_verification is null or j.days_verification <= ${limits.verificationMaxAgeDays}) as in_verification
      from judged j
    ),
    months as (
      select f.month_start,
        count(*)::int as decided,
        count(*) filter (where f.in_attestation)::int as within_attestation,
        count(*) filter (where f.in_verification)::int as within_verification,
        count(*) filter (where f.in_attestation and f.in_verification)::int as timely
      from flagged f
      group by f.month_start
    ),
    late as (
      select f.month_start,
        json_agg(
          json_build_object(
            'applicationId', f.id,
            -- By primary key, per late file (a few), never a join over every application and profile.
            'providerName', coalesce(
              (select nullif(trim(p.first_name || ' ' || p.last_name), '')
               from provider_applications a join profiles p on p.user_id = a.user_id where a.id = f.id),
              'Unknown provider'),
            'cycle', f.cycle,
            'decidedOn', to_char(f.decided_on, 'YYYY-MM-DD'),
            'daysFromAttestation', f.days_attestation,
            'daysFromOldestVerification', f.days_verification,
            'missedClocks', array_remove(array[
              case when not f.in_attestation then 'attestation' end,
              case when not f.in_verification then 'verification' end
            ], null)
          ) order by f.decided_on, f.id
        ) as missed
      from flagged f
      where not (f.in_attestation and f.in_verification)
      group by f.month_start
    )
    select to_char(m.month_start, 'YYYY-MM') as month, m.decided, m.within_attestation, m.within_verification,
      m.timely, coalesce(l.missed, '[]'::json) as missed
    from months m left join late l on l.month_start = m.month_start
    order by m.month_start`);

  const byMonth = new Map(rows.map((r) => [r.month, r]));
  return {
    ...range,
    limits: { ...limits },
    months: monthsBetween(range.from, range.to).map((month) => {
      const r = byMonth.get(month);
      const decided = r?.decided ?? 0;
      const timely = r?.timely ?? 0;
      return {
        month,
        decided,
        withinAttestation: r?.within_attestation ?? 0,
        withinVerification: r?.within_verification ?? 0,
        timely,
        timelyPercent: sharePercent(timely, decided),
      };
    }),
    missed: rows.flatMap((r) => r.missed),
  };
}

type WorkloadRow = {
  month: string;
  user_id: string;
  name: string;
  files_decided: number;
  files_recorded: number;
  items_verified: number;
};

/**
 * Workload (issue 34 item 6; issue 50 item 9): per staff member and UTC month, the files they decided
 * (the medical director's clean-file approvals, provider_applications.decided_by with the role
 * 'medical_director', by decided_at; and every decision the committee recorded, once for each member
 * who cast their own vote on it, by the agenda item's decided_at), the committee decisions they
 * recorded as the meeting's secretary, and the checklist items they verified (verification_items
 * status 'verified', validator_id, by the verified_at day; items waived or re-opened since do not
 * count). `specialist` (a user id) keeps that person's rows only. Rows with work only, by month, then
 * name, then user id.
 */
export async function workloadReport(
  db: Queryable,
  range: ReportRange,
  specialist: string | undefined,
): Promise<WorkloadReport> {
  const decider = specialist ? sql`and a.decided_by = ${specialist}` : sql``;
  const voter = specialist ? sql`and v.member_id = ${specialist}` : sql``;
  const recorder = specialist ? sql`and i.decided_by = ${specialist}` : sql``;
  const validator = specialist ? sql`and v.validator_id = ${specialist}` : sql``;
  const itemMonth = sql`date_trunc('month', i.decided_at at time zone 'UTC')`;
  const { rows } = await db.execute<WorkloadRow>(sql`
    with decided as (
      select user_id, month_start, sum(files)::int as files from (
        select a.decided_by as user_id, ${MONTH_START} as month_start, count(*) as files
        from provider_applications a
        where ${DECIDED} and ${decidedWithin(sql`a.decided_at`, range)} and a.decided_by is not null
          and a.decided_by_role = 'medical_director' ${decider}
        group by 1, 2
        union all
        select v.member_id, ${itemMonth}, count(*)
        from committee_agenda_items i join committee_votes v on v.agenda_item_id = i.id
        where i.decision is not null and ${decidedWithin(sql`i.decided_at`, range)} ${voter}
        group by 1, 2
      ) both_kinds
      group by 1, 2
    ),
    recorded as (
      select i.decided_by as user_id, ${itemMonth} as month_start, count(*)::int as files
      from committee_agenda_items i
      where i.decision is not null and i.decided_by is not null and ${decidedWithin(sql`i.decided_at`, range)} ${recorder}
      group by 1, 2
    ),
    verified as (
      -- Counted per person and day first (plain columns of the index), then per month: the month is
      -- computed once per day rather than once per item.
      select per_day.user_id, date_trunc('month', per_day.day) as month_start, sum(per_day.n)::int as items
      from (
        select v.validator_id as user_id, v.verified_at as day, count(*) as n
        from verification_items v
        where v.status = 'verified' and v.verified_at >= ${range.from}::date and v.verified_at <= ${range.to}::date
          and v.validator_id is not null ${validator}
        group by 1, 2
      ) per_day
      group by 1, 2
    ),
    people as (
      select user_id, month_start from decided union select user_id, month_start from recorded
      union select user_id, month_start from verified
    ),
    work as (
      select p.month_start, p.user_id, coalesce(d.files, 0) as files_decided,
        coalesce(r.files, 0) as files_recorded, coalesce(v.items, 0) as items_verified
      from people p
      left join decided d on d.user_id = p.user_id and d.month_start = p.month_start
      left join recorded r on r.user_id = p.user_id and r.month_start = p.month_start
      left join verified v on v.user_id = p.user_id and v.month_start = p.month_start
    ),
    named as (
      -- The name by primary key, per row of work (a handful per month), never a join over every profile.
      select w.*, coalesce(
          (select nullif(trim(p.first_name || ' ' || p.last_name), '') from profiles p where p.user_id = w.user_id),
          'Unknown user'
        ) as name
      from work w
    )
    select to_char(month_start, 'YYYY-MM') as month, user_id, files_decided, files_recorded, items_verified, name
    from named
    order by month_start, name, user_id`);
  return {
    ...range,
    rows: rows.map((r) => ({
      month: r.month,
      userId: r.user_id,
      name: r.name,
      filesDecided: r.files_decided,
      filesRecorded: r.files_recorded,
      itemsVerified: r.items_verified,
    })),
  };
}
