/**
 * Exclusion screening of applications against every applied list (issue 30 items 2-5, decision 027).
 *
 * `screenApplications` screens many applications set-based: one query reads each application's newest
 * snapshot keys (NPI, last + first name, birth date), one query finds every list row in force that
 * shares the NPI or the name key, however many rows share a name (issue 30 item 3: 61 `SMITH,JOHN` rows
 * still find the one with the birth date). Per application:
 * - a row with the NPI, or the name key and the birth date, is a **match** (recorded 'confirmed');
 * - otherwise a row with the name key is a **possible match** (recorded 'open', for a reviewer in the
 *   'Screening Matches' queue), unless a reviewer cleared that same row (same `row_hash`) for the same
 *   provider before ('Not the Same Person' is remembered);
 * - a finding whose row is no longer in force (ended, left the list) is never cleared by screening:
 *   it gets `pending_change` for a reviewer to accept (issue 30 item 2: a result changes toward more
 *   risk by itself, toward less only by a person).
 *
 * The 'Exclusion screening' checklist item of an application under review then shows the findings:
 * any confirmed -> 'discrepancy' (Match); any open -> pending (Possible match); none -> 'verified'
 * against the lists, dated by the oldest list's apply. An item a reviewer recorded (`validator_id` set)
 * is left as they recorded it, unless this run found a new match: new risk always reaches the item.
 * Every application screened gets its standing (`provider_applications.exclusion_match`), which flags
 * the admin's provider card; every new finding is audited.
 */
import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { isoDay } from '../../domain/review/verification-checklist.ts';
import { gapsText, screenedListsText, statesWithoutListText } from '../../domain/screening/coverage.ts';
import { listNpi, matchOf, nameKey, screeningOutcomeLabel } from '../../domain/screening/matching.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { syncExclusionFindings } from '../credential/standing.ts';
import type { Queryable } from '../db/client.ts';
import { providerApplications } from '../db/schema/core.ts';
import { verificationItems } from '../db/schema/review.ts';
import { screeningFindings } from '../db/schema/screening.ts';
import { type AppliedList, appliedLists, coverageOf } from './coverage.ts';
import { sourceLabel } from './exclusion-imports.ts';
import { type FindingEntry, findingEntryOf, listRowName } from './exclusion-rows.ts';

export type Standing = 'match' | 'possible_match' | null;

interface Subject {
  i: number;
  applicationId: string;
  userId: string;
  status: string;
  npi: string | null;
  key: string;
  dob: string | null;
}

type Candidate = FindingEntry & {
  i: number;
  source: string;
  row_hash: string;
  entry_key: string;
  name_key: string;
  cleared: boolean;
};

export interface ScreeningRun {
  /** Applications screened. */
  screened: number;
  /** Matches recorded by this run (NPI, or name + birth date). */
  newMatches: { applicationId: string; userId: string; status: string; source: string }[];
  /** Possible matches recorded by this run (name only): in the queue. */
  newPossibleMatches: number;
  /** Findings whose row left the list in this run: a reviewer accepts the change. */
  newPendingChanges: number;
}

/**
 * Screen the newest snapshot of each application under review or approved (or only `applicationIds`,
 * whatever their status) against every applied list, as of `now`. Returns undefined when no list has
 * been applied yet (the items stay for a person to check by hand). Safe to run concurrently with
 * itself: a finding is recorded once per application and list row.
 */
export async function screenApplications(
  db: Queryable,
  now: Date,
  options: { applicationIds?: readonly string[] } = {},
): Promise<ScreeningRun | undefined> {
  const lists = await appliedLists(db);
  if (lists.length === 0) return undefined;
  const subjects = await readSubjects(db, options.applicationIds);
  const run: ScreeningRun = {
    screened: subjects.length,
    newMatches: [],
    newPossibleMatches: 0,
    newPendingChanges: 0,
  };
  if (subjects.length === 0) return run;
  const today = isoDay(now);
  const candidates = await readCandidates(db, subjects, today);
  const bySubject = new Map<number, Candidate[]>();
  for (const c of candidates) {
    const list = bySubject.get(c.i) ?? [];
    if (!list.some((x) => x.row_hash === c.row_hash)) list.push(c);
    bySubject.set(c.i, list);
  }

  // What to record: per application, its matches; only when there are none, its possible matches.
  const inserts: (typeof screeningFindings.$inferInsert)[] = [];
  for (const subject of subjects) {
    const rows = bySubject.get(subject.i) ?? [];
    const classified = rows.flatMap((r) => {
      const m = matchOf(subject, { npi: r.npi, nameKey: r.name_key, dob: r.dob });
      return m ? [{ r, ...m }] : [];
    });
    const matches = classified.filter((c) => c.strength === 'match');
    const recorded = matches.length
      ? matches
      : classified.filter((c) => c.strength === 'possible_match' && !c.r.cleared);
    for (const { r, on, strength } of recorded) {
      inserts.push({
        applicationId: subject.applicationId,
        userId: subject.userId,
        source: r.source,
        rowHash: r.row_hash,
        entryKey: r.entry_key,
        entry: findingEntryOf(r),
        strength,
        matchedOn: on,
        status: strength === 'match' ? 'confirmed' : 'open',
        foundAt: now,
      });
    }
  }
  const added: { applicationId: string; userId: string; source: string; strength: string }[] = [];
  for (let at = 0; at < inserts.length; at += 250) {
    const rows = await db
      .insert(screeningFindings)
      .values(inserts.slice(at, at + 250))
      .onConflictDoNothing()
      .returning({
        applicationId: screeningFindings.applicationId,
        userId: screeningFindings.userId,
        source: screeningFindings.source,
        strength: screeningFindings.strength,
      });
    added.push(...rows);
  }
  const statusOf = new Map(subjects.map((s) => [s.applicationId, s.status]));
  for (const f of added) {
    if (f.strength === 'match') {
      run.newMatches.push({
        applicationId: f.applicationId,
        userId: f.userId,
        status: statusOf.get(f.applicationId) ?? '',
        source: f.source,
      });
    } else run.newPossibleMatches += 1;
    await recordAudit(db, {
      action: 'screening.finding_recorded',
      subjectUserId: f.userId,
      resourceType: 'application',
      resourceId: f.applicationId,
      details: { source: f.source, strength: f.strength },
    });
  }

  // Findings whose row is no longer in force: a pending change, never cleared here; back in force: none.
  const inForce = JSON.stringify(candidates.map((c) => ({ a: subjects[c.i]!.applicationId, h: c.row_hash })));
  const scope = applicationScope(subjects);
  const left = await db.execute(sql`
    update ${screeningFindings} f set pending_change = 'no_longer_listed'
    where f.status <> 'cleared' and f.pending_change is null and ${scope}
      and not exists (select 1 from jsonb_to_recordset(${inForce}::jsonb) as x(a uuid, h text)
                      where x.a = f.application_id and x.h = f.row_hash)
    returning f.id`);
  run.newPendingChanges = left.rows.length;
  await db.execute(sql`
    update ${screeningFindings} f set pending_change = null
    where f.status <> 'cleared' and f.pending_change is not null and ${scope}
      and exists (select 1 from jsonb_to_recordset(${inForce}::jsonb) as x(a uuid, h text)
                  where x.a = f.application_id and x.h = f.row_hash)`);

  await recordStandings(db, subjects, now);
  const newMatchApps = new Set(run.newMatches.map((m) => m.applicationId));
  for (const subject of subjects) {
    // An approved application's item changes only with new risk (decision 027: a new match reaches
    // the item whoever recorded it; issue 49 item 2: the approved file too).
    if (subject.status === 'under_review' || newMatchApps.has(subject.applicationId)) {
      await fillScreeningItem(db, subject.applicationId, lists, now, {
        force: newMatchApps.has(subject.applicationId),
      });
    }
  }
  // Issue 49 item 2: a match on a running credential suspends it (ongoing monitoring, NCQA CR5).
  await syncExclusionFindings(
    db,
    subjects.filter((s) => s.status === 'approved').map((s) => s.userId),
    now,
  );
  return run;
}

/** `f.application_id` among the subjects' applications. */
function applicationScope(subjects: readonly Subject[]) {
  return sql`f.application_id in (select (jsonb_array_elements_text(${JSON.stringify(
    subjects.map((s) => s.applicationId),
  )}::jsonb))::uuid)`;
}

async function readSubjects(db: Queryable, ids: readonly string[] | undefined): Promise<Subject[]> {
  const filter =
    ids === undefined
      ? sql`a.application_status in ('under_review', 'approved')`
      : sql`a.id in (select (jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))::uuid)`;
  const rows = await db.execute<{
    application_id: string;
    user_id: string;
    status: string;
    npi: string | null;
    last: string | null;
    first: string | null;
    dob: string | null;
  }>(sql`
    select distinct on (v.application_id) v.application_id, a.user_id, a.application_status as status,
      v.snapshot->'personalInformation'->>'npi_number' as npi,
      v.snapshot->'profile'->>'last_name' as last, v.snapshot->'profile'->>'first_name' as first,
      v.snapshot->'personalInformation'->>'date_of_birth' as dob
    from application_versions v
    join ${providerApplications} a on a.id = v.application_id
    where ${filter}
    order by v.application_id, v.version desc`);
  return rows.rows.map((r, i) => ({
    i,
    applicationId: r.application_id,
    userId: r.user_id,
    status: r.status,
    npi: listNpi(r.npi ?? ''),
    key: nameKey(r.last ?? '', r.first ?? ''),
    dob: /^\d{4}-\d{2}-\d{2}$/.test(r.dob ?? '') ? r.dob : null,
  }));
}

/** The list rows in force on `today` sharing each subject's NPI or name key; `cleared` per provider. */
async function readCandidates(db: Queryable, subjects: readonly Subject[], today: string) {
  const keys = JSON.stringify(subjects.map((s) => ({ i: s.i, u: s.userId, npi: s.npi, k: s.key || null })));
  const columns = sql`s.i, e.source, e.row_hash, e.entry_key, e.name_key, e.line, e.last_name as "lastName",
    e.first_name as "firstName", e.middle_name as "middleName", e.business_name as "businessName", e.npi,
    e.dob::text as dob, e.address, e.city, e.state, e.zip, e.license_number as "licenseNumber",
    e.provider_type as "providerType", e.exclusion_type as "exclusionType",
    e.exclusion_date::text as "exclusionDate", e.reinstatement_date::text as "reinstatementDate",
    exists (select 1 from ${screeningFindings} f
            where f.user_id = s.u and f.row_hash = e.row_hash and f.status = 'cleared') as cleared`;
  const inForce = sql`not e.staged and (e.reinstatement_date is null or e.reinstatement_date > ${today}::date)`;
  const rows = await db.execute<Candidate & Record<string, unknown>>(sql`
    with s as (select * from jsonb_to_recordset(${keys}::jsonb) as s(i int, u text, npi text, k text))
    select ${columns} from s join exclusion_entries e on e.npi = s.npi and ${inForce}
    union all
    select ${columns} from s join exclusion_entries e on e.name_key = s.k and ${inForce}`);
  return rows.rows;
}

/**
 * The standing of the application whose id is `applicationId` (an SQL expression) from its findings:
 * 'match' with any confirmed finding, 'possible_match' with any open one, else null. The one rule,
 * for one application (`standingOf`) and for a whole run (`recordStandings`).
 */
const standingSql = (applicationId: SQL) => sql`(
  select case when bool_or(f.status = 'confirmed') then 'match' when bool_or(f.status = 'open') then 'possible_match' end
  from ${screeningFindings} f where f.application_id = ${applicationId} and f.status <> 'cleared')`;

/** Each screened application's standing from its findings (the admin's provider card flag). */
async function recordStandings(db: Queryable, subjects: readonly Subject[], now: Date) {
  const subjectIds = JSON.stringify(subjects.map((s) => s.applicationId));
  await db.execute(sql`
    update ${providerApplications} a set
      exclusion_match = ${standingSql(sql`a.id`)}, exclusion_checked_at = ${now.toISOString()}::timestamptz
    where a.id in (select (jsonb_array_elements_text(${subjectIds}::jsonb))::uuid)`);
}

/** The standing of `applicationId` from its findings. */
export async function standingOf(db: Queryable, applicationId: string): Promise<Standing> {
  const { rows } = await db.execute<{ standing: Standing }>(
    sql`select ${standingSql(sql`${applicationId}::uuid`)} as standing`,
  );
  return rows[0]?.standing ?? null;
}

/** One finding in the item's note: "SMITH, JOHN; NPI …; born …; 1128a1; excluded …" (public list data). */
function describe(e: FindingEntry): string {
  return [
    listRowName(e),
    e.npi ? `NPI ${e.npi}` : '',
    e.dob ? `born ${e.dob}` : '',
    e.exclusionType,
    e.exclusionDate ? `excluded ${e.exclusionDate}` : '',
    e.reinstatementDate ? `ended ${e.reinstatementDate}` : '',
    [e.city, e.state].filter(Boolean).join(', '),
  ]
    .filter(Boolean)
    .join('; ');
}

/**
 * Set the 'Exclusion screening' item of `applicationId` from its findings (see the module comment) as
 * of `now`. 'No match' (verified) only when every list the provider needs is current (issue 51 item 1,
 * domain/screening/coverage.ts); otherwise the item waits (pending) with a note naming the missing
 * lists. The source names each list screened with its day and rows. `force`: overwrite an item a
 * reviewer recorded (a new match was found).
 */
export async function fillScreeningItem(
  db: Queryable,
  applicationId: string,
  lists: readonly AppliedList[],
  now: Date,
  options: { force?: boolean } = {},
): Promise<void> {
  const findings = await db
    .select()
    .from(screeningFindings)
    .where(
      and(eq(screeningFindings.applicationId, applicationId), sql`${screeningFindings.status} <> 'cleared'`),
    );
  const coverage = await coverageOf(db, applicationId, now, lists);
  const confirmed = findings.filter((f) => f.status === 'confirmed');
  const open = findings.filter((f) => f.status === 'open');
  const outcome = confirmed.length ? 'match' : open.length ? 'possible_match' : 'no_match';
  const label = screeningOutcomeLabel[outcome];
  const shown = confirmed.length ? confirmed : open;
  const screened = screenedListsText(lists, coverage.required);
  const states = statesWithoutListText(coverage.statesWithoutList);
  const gaps = coverage.gaps.length ? `Not current: ${gapsText(coverage.gaps)}` : '';
  const note = (
    shown.length
      ? `${label}: ${shown.map((f) => `${sourceLabel(f.source)}: ${describe(f.entry as FindingEntry)}`).join(' | ')}${
          outcome === 'possible_match' ? ". Decide in 'Screening Matches'." : ''
        }`
      : [`${label} on ${screened}`, gaps, states].filter(Boolean).join('. ')
  ).slice(0, 4000);
  const oldest = lists.reduce((a, l) => (l.appliedAt < a ? l.appliedAt : a), lists[0]!.appliedAt);
  const base = { source: screened, note, validatorId: null, updatedAt: new Date() };
  const verified = outcome === 'no_match' && coverage.gaps.length === 0;
  await db
    .update(verificationItems)
    .set(
      verified
        ? { ...base, status: 'verified', verifiedAt: isoDay(oldest) }
        : { ...base, status: outcome === 'match' ? 'discrepancy' : 'pending', verifiedAt: null },
    )
    .where(
      and(
        eq(verificationItems.applicationId, applicationId),
        eq(verificationItems.kind, 'exclusions'),
        options.force ? undefined : isNull(verificationItems.validatorId),
      ),
    );
}
