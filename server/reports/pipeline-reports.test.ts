/**
 * The pipeline reports (issue 34 items 2, 4, 5) on the real server and PostgreSQL: a small fixture
 * inserted directly, with times chosen around a fixed NOW, compared with numbers counted by hand
 * (bucket edges 30/31, 60/61, 90/91, 120/121; the oldest ten in order; the forecast's 12-month edges;
 * screening per month and open ages), the specialist filter, the range checks, the CSVs and who may
 * read them.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BacklogReport, ScreeningReport } from '../../domain/api/reports-pipeline.ts';
import {
  createTestApp,
  grantAdmin,
  signUpAndSignIn,
  signUpStaff,
  type TestApp,
} from '../../tests/harness.ts';
import { backlogCsv, expirablesCsv, screeningCsv } from './pipeline-reports.routes.ts';
import { backlogReport, expirablesReport, screeningReport } from './pipeline-reports.ts';

/** The fixed clock: Thursday 26 November 2026, noon UTC. Today is '2026-11-26'. */
const NOW = new Date('2026-11-26T12:00:00Z');
const DAY_MS = 86_400_000;
const daysBefore = (days: number) => new Date(NOW.getTime() - days * DAY_MS);

let app: TestApp;
const q = (text: string, params: unknown[] = []) => app.runtime.deps.database.pool.query(text, params);
const db = () => app.runtime.deps.db;

/** A user with a profile named `first last`; returns the id. */
async function person(first: string, last: string): Promise<string> {
  const id = `u-${randomUUID()}`;
  const email = `${id}@example.test`;
  await q(`insert into "user" (id, name, email) values ($1, $2, $3)`, [id, `${first} ${last}`, email]);
  await q('insert into profiles (user_id, first_name, last_name, email) values ($1, $2, $3, $4)', [
    id,
    first,
    last,
    email,
  ]);
  return id;
}

/** An application of `userId`; returns its id. */
async function application(
  userId: string,
  status: string,
  fields: { submittedAt?: Date; reviewerId?: string | null; createdAt?: Date } = {},
): Promise<string> {
  const { rows } = await q(
    `insert into provider_applications (user_id, application_status, submitted_at, reviewer_id, created_at)
     values ($1, $2, $3, $4, $5) returning id`,
    [userId, status, fields.submittedAt ?? null, fields.reviewerId ?? null, fields.createdAt ?? NOW],
  );
  return rows[0].id as string;
}

async function attest(applicationId: string, userId: string, signedAt: Date, kind = 'completion') {
  await q(
    `insert into application_attestations
       (application_id, user_id, kind, answers_encrypted, statement, signature, signed_at, snapshot_version, snapshot_sha256)
     values ($1, $2, $3, 'x', 'statement', 'Signature', $4, 1, 'sha')`,
    [applicationId, userId, kind, signedAt],
  );
}

/** Ids the tests look for, by the fixture's names. */
const ids: Record<string, string> = {};
let specX = '';
let specY = '';

beforeAll(async () => {
  app = await createTestApp();
  specX = await person('Sam', 'Specialist');
  specY = await person('Yara', 'Specialist');

  // First, the open files: attested `days` before NOW (UTC days), with a status and a reviewer.
  const open: [name: string, attestedAt: Date, status: string, reviewer: string | null][] = [
    ['A0', daysBefore(0), 'submitted', null],
    // 30 days by calendar day though 30.5 days by the clock; 31 by day though 30.5 by the clock.
    ['A30', new Date('2026-10-27T23:59:00Z'), 'submitted', specX],
    ['A31', new Date('2026-10-26T00:01:00Z'), 'under_review', specX],
    ['A60', daysBefore(60), 'under_review', specY],
    ['A61', daysBefore(61), 'submitted', null],
    ['A90', daysBefore(90), 'under_review', specX],
    ['A91', daysBefore(91), 'under_review', null],
    ['A120', daysBefore(120), 'submitted', specY],
    ['A121', daysBefore(121), 'under_review', specX],
    ['A200', daysBefore(200), 'submitted', null],
  ];
  for (const [name, attestedAt, status, reviewer] of open) {
    const userId = await person('Provider', name);
    ids[name] = await application(userId, status, { submittedAt: attestedAt, reviewerId: reviewer });
    await attest(ids[name], userId, attestedAt);
  }
  // Re-attested 10 days ago (completion 150 days ago): its age is 10 days, the latest attestation.
  const reUser = await person('Provider', 'ARe');
  ids.ARe = await application(reUser, 'under_review', { submittedAt: daysBefore(150), reviewerId: specY });
  await attest(ids.ARe, reUser, daysBefore(150));
  await attest(ids.ARe, reUser, daysBefore(10), 're_attestation');
  // Completed before attestations were recorded: aged from its submission, 45 days.
  const noneUser = await person('Provider', 'ANone');
  ids.ANone = await application(noneUser, 'submitted', { submittedAt: daysBefore(45) });
  // Closed or not yet completed: never in the backlog, however old.
  for (const status of ['approved', 'rejected', 'withdrawn', 'draft']) {
    const userId = await person('Closed', status);
    const id = await application(userId, status, { submittedAt: daysBefore(300), reviewerId: specX });
    await attest(id, userId, daysBefore(300));
  }

  // Second, the dated credentials. P1's current application is the newer approved one.
  const p1 = await person('Pat', 'One');
  const p1Old = await application(p1, 'approved', { createdAt: daysBefore(1200) });
  const p1App = await application(p1, 'approved', { createdAt: daysBefore(100) });
  const license = (applicationId: string, expires: string) =>
    q(
      `insert into professional_licenses (application_id, license_type, license_number, expiration_date)
       values ($1, 'medical_license', 'L-1', $2)`,
      [applicationId, expires],
    );
  await license(p1App, '2026-11-25'); // expired yesterday: the tab's 'Expired', not a forecast
  await license(p1App, '2026-11-26'); // today: the running month
  await license(p1App, '2027-10-31'); // the twelfth month's last day
  await license(p1App, '2027-11-01'); // the thirteenth month: outside
  await license(p1Old, '2027-02-01'); // not the current application
  await q(
    `insert into certifications (application_id, certification_name, certifying_body, expiration_date)
     values ($1, 'BLS', 'AHA', '2027-01-15')`,
    [p1App],
  );
  await q(
    `insert into hospital_affiliations (application_id, facility_name, privilege_status, end_date)
     values ($1, 'General', 'active', '2027-01-20'), ($1, 'Admitting only', 'none', '2027-01-20')`,
    [p1App],
  );
  await q(
    `insert into payors (application_id, payor_name, contract_end_date) values ($1, 'Aetna', '2027-03-01')`,
    [p1App],
  );
  // P2's only application is a draft: current, listed by the tab, counted.
  const p2 = await person('Pat', 'Two');
  await license(await application(p2, 'draft'), '2027-02-10');
  // P3's only application was rejected: not current, not counted.
  const p3 = await person('Pat', 'Three');
  await license(await application(p3, 'rejected'), '2027-02-11');

  // The credentials' recredentialing dates (ends_on): running ones inside the twelve months count.
  const credential = async (endsOn: string, endedOn: string | null = null) => {
    const userId = await person('Cred', endsOn);
    const applicationId = await application(userId, 'approved');
    await q(
      `insert into provider_credentials (user_id, application_id, credentialed_at, approved_at, ends_on, ended_on)
       values ($1, $2, $3, $3, $4, $5)`,
      [userId, applicationId, daysBefore(1000), endsOn, endedOn],
    );
  };
  await credential('2026-11-26'); // due today
  await credential('2026-11-20'); // already past: not running
  await credential('2027-03-05');
  await credential('2027-03-06', '2026-10-01'); // ended by a denial
  await credential('2027-10-31');
  await credential('2027-11-01'); // the thirteenth month

  // Third, screening: the monthly job's runs, the applied imports, the findings. The app's own
  // scheduler claims the real month's run at start: let it finish, then hold every such claim
  // unfinished (leased far ahead, never run again) so only the fixture's runs count.
  for (let i = 0; i < 50; i++) {
    const { rows } = await q(
      `select count(*)::int as n from scheduled_job_runs where job = 'exclusion-screening' and finished_at is not null`,
    );
    if (rows[0].n > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await q(
    `update scheduled_job_runs set finished_at = null, lease_until = '2100-01-01' where job = 'exclusion-screening'`,
  );
  const run = (job: string, period: string, finishedAt: string | null) =>
    q(
      `insert into scheduled_job_runs (job, period, instance_id, started_at, lease_until, finished_at)
       values ($1, $2, $3, $4, '2100-01-01', $5)
       on conflict (job, period) do update set finished_at = excluded.finished_at, lease_until = excluded.lease_until`,
      [job, period, randomUUID(), finishedAt ?? '2026-11-01T02:00:00Z', finishedAt],
    );
  await run('exclusion-screening', '2026-08', '2026-08-31T23:59:59Z'); // before the range
  await run('exclusion-screening', '2026-09', '2026-09-01T02:00:00Z');
  await run('exclusion-screening', '2026-10', '2026-10-01T02:00:00Z');
  await run('exclusion-screening', '2026-11', null); // failed: never finished
  await run('credential-expiry', '2026-11-20', '2026-11-20T02:00:00Z'); // another job
  const imported = (source: string, status: string, appliedAt: string | null, rowsAfter: number | null) =>
    q(
      `insert into exclusion_imports (source, kind, status, file_name, encoding, row_count, applied_at, rows_after)
       values ($1, 'full', $2, 'list.csv', 'utf-8', 10, $3, $4)`,
      [source, status, appliedAt, rowsAfter],
    );
  await imported('oig_leie', 'applied', '2026-10-15T09:00:00Z', 100);
  await imported('oig_leie', 'applied', '2026-11-20T09:00:00Z', 120);
  await imported('sam', 'applied', '2026-08-10T09:00:00Z', 50);
  await imported('ny_omig', 'staged', null, null);
  const screened = await person('Screened', 'Provider');
  const screenedApp = await application(screened, 'approved');
  const finding = (strength: string, status: string, foundAt: string) =>
    q(
      `insert into screening_findings (application_id, user_id, source, row_hash, entry_key, entry, strength, matched_on, status, found_at)
       values ($1, $2, 'oig_leie', $3, 'k', '{}'::jsonb, $4, $5, $6, $7)`,
      [screenedApp, screened, randomUUID(), strength, strength === 'match' ? 'npi' : 'name', status, foundAt],
    );
  await finding('match', 'confirmed', '2026-09-10T10:00:00Z');
  await finding('possible_match', 'open', '2026-10-27T23:00:00Z'); // 30 days old
  await finding('possible_match', 'open', '2026-10-26T01:00:00Z'); // 31 days old
  await finding('possible_match', 'cleared', '2026-11-01T10:00:00Z'); // decided: not open
  await finding('possible_match', 'open', '2026-05-01T10:00:00Z'); // 209 days, before the range
  await finding('match', 'confirmed', '2026-11-26T11:00:00Z');
}, 60_000);

afterAll(async () => {
  await app?.close();
});

describe('backlog and aging (issue 34 item 2)', () => {
  it('counts open files by status and age bucket since the latest attestation, edges included', async () => {
    const report = await backlogReport(db(), {}, NOW);
    const byStatus = Object.fromEntries(report.byStatus.map((s) => [s.status, s]));
    expect(byStatus.submitted).toEqual({
      status: 'submitted',
      // A0, A30 | ANone (45, from its submission) | A61 | A120 | A200
      buckets: { '0–30': 2, '31–60': 1, '61–90': 1, '91–120': 1, 'over 120': 1 },
      total: 6,
    });
    expect(byStatus.under_review).toEqual({
      status: 'under_review',
      // ARe (10, re-attested) | A31, A60 | A90 | A91 | A121
      buckets: { '0–30': 1, '31–60': 2, '61–90': 1, '91–120': 1, 'over 120': 1 },
      total: 6,
    });
    expect(report.total).toEqual({
      '0–30': 3,
      '31–60': 3,
      '61–90': 2,
      '91–120': 2,
      'over 120': 2,
      total: 12,
    });
  });

  it('lists the ten oldest, oldest first, with days, names and review pages', async () => {
    const report = await backlogReport(db(), {}, NOW);
    const names = ['A200', 'A121', 'A120', 'A91', 'A90', 'A61', 'A60', 'ANone', 'A31', 'A30'];
    expect(report.oldest.map((o) => o.applicationId)).toEqual(names.map((n) => ids[n]));
    expect(report.oldest.map((o) => o.days)).toEqual([200, 121, 120, 91, 90, 61, 60, 45, 31, 30]);
    expect(report.oldest[0]).toMatchObject({
      providerName: 'Provider A200',
      status: 'submitted',
      path: `/admin/applications/${ids.A200}`,
      attestedAt: daysBefore(200).toISOString(),
    });
  });

  it("narrows to one specialist's assigned files", async () => {
    const report = await backlogReport(db(), { specialist: specX }, NOW);
    expect(report.specialist).toBe(specX);
    expect(report.total).toEqual({ '0–30': 1, '31–60': 1, '61–90': 1, '91–120': 0, 'over 120': 1, total: 4 });
    expect(report.oldest.map((o) => o.applicationId)).toEqual(
      ['A121', 'A90', 'A31', 'A30'].map((n) => ids[n]),
    );
    const nobody = await backlogReport(db(), { specialist: 'u-nobody' }, NOW);
    expect(nobody.total.total).toBe(0);
    expect(nobody.oldest).toEqual([]);
  });

  it('ages with the clock: a day later the 30-day file is 31 days old', async () => {
    const report = await backlogReport(db(), {}, new Date(NOW.getTime() + DAY_MS));
    expect(report.total['0–30']).toBe(2); // A0 (1 day), ARe (11); A30 moved up
    expect(report.total['31–60']).toBe(3); // A30 (31), ANone (46), A31 (32); A60 moved up
    expect(report.total['over 120']).toBe(3); // A120 turned 121
  });
});

describe('expirables forecast (issue 34 item 4)', () => {
  it('counts the credentials the Expiring tab lists, per month and kind, and recredentialing due dates', async () => {
    const report = await expirablesReport(db(), NOW);
    expect(report.months.map((m) => m.month)).toEqual([
      '2026-11',
      '2026-12',
      '2027-01',
      '2027-02',
      '2027-03',
      '2027-04',
      '2027-05',
      '2027-06',
      '2027-07',
      '2027-08',
      '2027-09',
      '2027-10',
    ]);
    const nonZero = report.months.map((m) => ({
      month: m.month,
      kinds: Object.fromEntries(Object.entries(m.byKind).filter(([, n]) => n > 0)),
      credentials: m.credentials,
      recredentialingDue: m.recredentialingDue,
    }));
    const month = (name: string) => nonZero.find((m) => m.month === name);
    // Today's license counts, yesterday's does not; one credential due today.
    expect(month('2026-11')).toEqual({
      month: '2026-11',
      kinds: { professional_license: 1 },
      credentials: 1,
      recredentialingDue: 1,
    });
    // Privileges held count; an admitting arrangement ('none') never does.
    expect(month('2027-01')).toEqual({
      month: '2027-01',
      kinds: { certification: 1, hospital_privileges: 1 },
      credentials: 2,
      recredentialingDue: 0,
    });
    // P2's lone draft is current; P1's older application and P3's rejected one are not.
    expect(month('2027-02')?.kinds).toEqual({ professional_license: 1 });
    // The ended credential (2027-03-06) is not running.
    expect(month('2027-03')).toEqual({
      month: '2027-03',
      kinds: { payor_contract: 1 },
      credentials: 1,
      recredentialingDue: 1,
    });
    // The twelfth month's last day is in; the thirteenth month's first is not (nowhere in the list).
    expect(month('2027-10')).toEqual({
      month: '2027-10',
      kinds: { professional_license: 1 },
      credentials: 1,
      recredentialingDue: 1,
    });
    expect(report.months.reduce((s, m) => s + m.credentials, 0)).toBe(6);
    expect(report.months.reduce((s, m) => s + m.recredentialingDue, 0)).toBe(3);
  });

  it('moves with the clock: on 1 December, November is gone and November 2027 is in', async () => {
    const report = await expirablesReport(db(), new Date('2026-12-01T00:00:00Z'));
    expect(report.months[0]!.month).toBe('2026-12');
    expect(report.months[11]!.month).toBe('2027-11');
    expect(report.months[11]!.byKind.professional_license).toBe(1);
    expect(report.months[11]!.recredentialingDue).toBe(1);
    expect(report.months.reduce((s, m) => s + m.credentials, 0)).toBe(6);
  });
});

describe('screening (issue 34 item 5)', () => {
  it('counts runs and findings per month of the range, open possible matches by age, last imports', async () => {
    const report = await screeningReport(db(), { from: '2026-09-01', to: '2026-11-26' }, NOW);
    expect(report.months).toEqual([
      { month: '2026-09', scheduledRuns: 1, importRuns: 0, matches: 1, possibleMatches: 0 },
      { month: '2026-10', scheduledRuns: 1, importRuns: 1, matches: 0, possibleMatches: 2 },
      { month: '2026-11', scheduledRuns: 0, importRuns: 1, matches: 1, possibleMatches: 1 },
    ]);
    expect(report.openPossibleMatches).toEqual({
      total: 3,
      buckets: { '0–30': 1, '31–60': 1, '61–90': 0, '91–120': 0, 'over 120': 1 },
      oldestDays: 209,
    });
    expect(report.sources).toEqual([
      {
        source: 'oig_leie',
        label: 'OIG LEIE',
        lastAppliedAt: '2026-11-20T09:00:00.000Z',
        days: 6,
        rows: 120,
      },
      expect.objectContaining({
        source: 'sam',
        lastAppliedAt: '2026-08-10T09:00:00.000Z',
        days: 108,
        rows: 50,
      }),
      expect.objectContaining({ source: 'ny_omig', lastAppliedAt: null, days: null, rows: null }),
      expect.objectContaining({ source: 'pa_medicheck', lastAppliedAt: null, days: null, rows: null }),
    ]);
  });

  it('defaults to the twelve months ending today, the range edges by UTC instant', async () => {
    const report = await screeningReport(db(), {}, NOW);
    expect([report.from, report.to]).toEqual(['2025-12-01', '2026-11-26']);
    expect(report.months).toHaveLength(12);
    const august = report.months.find((m) => m.month === '2026-08');
    expect(august).toEqual({
      month: '2026-08',
      scheduledRuns: 1,
      importRuns: 1,
      matches: 0,
      possibleMatches: 0,
    });
    expect(report.months.find((m) => m.month === '2026-05')?.possibleMatches).toBe(1);
    // A range ending on 31 August keeps the run finished at 23:59:59 that day; one from 1 September drops it.
    const lastDay = await screeningReport(db(), { from: '2026-08-31', to: '2026-08-31' }, NOW);
    expect(lastDay.months).toEqual([
      { month: '2026-08', scheduledRuns: 1, importRuns: 0, matches: 0, possibleMatches: 0 },
    ]);
  });
});

describe('routes: JSON, CSV and who may read them', () => {
  let admin: Awaited<ReturnType<typeof signUpAndSignIn>>;
  beforeAll(async () => {
    admin = await signUpAndSignIn(app, { firstName: 'Ada', lastName: 'Admin' });
    await grantAdmin(app, admin);
  }, 60_000);

  it('answers the reports as JSON to an administrator', async () => {
    const backlog = await admin.json<BacklogReport>('GET', `/api/admin/reports/backlog?specialist=${specX}`);
    expect(backlog.status).toBe(200);
    expect(backlog.body.total.total).toBe(4);
    expect(backlog.body.oldest.map((o) => o.applicationId)).toEqual(
      ['A121', 'A90', 'A31', 'A30'].map((n) => ids[n]),
    );
    const screening = await admin.json<ScreeningReport>(
      'GET',
      '/api/admin/reports/screening?from=2026-09-01&to=2026-10-31',
    );
    expect(screening.status).toBe(200);
    expect(screening.body.months.map((m) => m.possibleMatches)).toEqual([0, 2]);
    const expirables = await admin.json<{ months: unknown[] }>('GET', '/api/admin/reports/expirables');
    expect(expirables.status).toBe(200);
    expect(expirables.body.months).toHaveLength(12);
  });

  it('refuses a reversed, too long or malformed range (400)', async () => {
    for (const query of [
      'from=2026-11-02&to=2026-11-01',
      'from=2023-01-01&to=2026-01-02', // 37 months: the reports' limit is 36
      'from=2026-01-01', // both or neither
      'from=2026-13-01',
    ]) {
      const response = await admin.request('GET', `/api/admin/reports/screening?${query}`);
      expect(response.status, query).toBe(400);
      await response.body?.cancel();
    }
  });

  it('downloads each report as RFC 4180 CSV with a BOM, the same numbers as the JSON', async () => {
    const response = await admin.request('GET', '/api/admin/reports/backlog.csv');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(
      /attachment; filename="?backlog-\d{4}-\d{2}-\d{2}\.csv/,
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe('Status,0–30 days,31–60 days,61–90 days,91–120 days,Over 120 days,Total');
    expect(lines.map((l) => l.split(',')[0])).toEqual([
      'Status',
      'Submitted',
      'Under Review',
      'All open',
      '',
    ]);
    expect(lines[3]!.endsWith(',12')).toBe(true);

    // The writers, on the fixed clock: exact records.
    expect(backlogCsv(await backlogReport(db(), {}, NOW))).toBe(
      '\uFEFFStatus,0–30 days,31–60 days,61–90 days,91–120 days,Over 120 days,Total\r\n' +
        'Submitted,2,1,1,1,1,6\r\nUnder Review,1,2,1,1,1,6\r\nAll open,3,3,2,2,2,12\r\n',
    );
    const expirables = expirablesCsv(await expirablesReport(db(), NOW)).split('\r\n');
    expect(expirables[0]).toBe(
      "\uFEFFMonth,Professional license,Malpractice insurance,Certification,Vaccination,Driver's license,Payor contract,Hospital privileges,All credentials,Recredentialing due",
    );
    expect(expirables[3]).toBe('2027-01,0,0,1,0,0,0,1,2,0');
    expect(expirables).toHaveLength(14); // header, 12 months, the final CRLF's empty tail
    const screening = screeningCsv(
      await screeningReport(db(), { from: '2026-10-01', to: '2026-11-30' }, NOW),
    );
    expect(screening).toBe(
      '\uFEFFMonth,Scheduled runs,Runs after an import,Matches found,Possible matches found\r\n' +
        '2026-10,1,1,0,2\r\n2026-11,0,1,1,1\r\n',
    );
  });

  it('is for administrators, the medical director and auditors only', async () => {
    const anonymous = await fetch(`${app.baseUrl}/api/admin/reports/backlog.csv`);
    expect(anonymous.status).toBe(401);
    await anonymous.body?.cancel();
    const provider = await signUpAndSignIn(app);
    const committee = await signUpStaff(app, 'committee');
    const specialist = await signUpStaff(app, 'specialist');
    const auditor = await signUpStaff(app, 'auditor');
    const director = await signUpStaff(app, 'medical_director');
    for (const path of ['backlog', 'expirables.csv', 'screening']) {
      for (const [who, client, status] of [
        ['provider', provider, 403],
        ['committee', committee, 403],
        ['specialist', specialist, 403],
        ['auditor', auditor, 200],
        ['medical director', director, 200],
      ] as const) {
        const response = await client.request('GET', `/api/admin/reports/${path}`);
        expect(response.status, `${who} ${path}`).toBe(status);
        await response.body?.cancel();
      }
    }
  }, 60_000);
});
