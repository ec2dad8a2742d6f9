/**
 * The decision-centred reports (issue 34 items 1, 3, 6) on the real server and PostgreSQL, against a
 * small hand-made fixture whose every figure is computed by hand below: Turnaround (medians and 90th
 * percentiles, linear interpolation, per cycle and per stage), Timeliness (shares and the files that
 * missed), Workload (per person and month, the specialist filter), the month buckets at the range's
 * edges, the CSVs, and who may read them.
 *
 * The range is 2026-01-15..2026-03-31: months 2026-01 (from the 15th), 2026-02 (no decision) and
 * 2026-03. Times are UTC.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TimelinessReport, TurnaroundReport, WorkloadReport } from '../../domain/api/reports.ts';
import {
  Client,
  createTestApp,
  grantAdmin,
  signUpAndSignIn,
  signUpStaff,
  type TestApp,
} from '../../tests/harness.ts';
import { decisionClockLimitsOf } from '../env.ts';
import { timelinessReport, turnaroundReport } from './decision-reports.ts';
import { reportFixtures } from './testing/report-fixtures.ts';

let app: TestApp;
let admin: Awaited<ReturnType<typeof signUpAndSignIn>>;
const RANGE = 'from=2026-01-15&to=2026-03-31';

const query = (text: string, values: unknown[]) => app.runtime.deps.database.pool.query(text, values);

const { person, decidedFile } = reportFixtures(query);

const ids: Record<string, string> = {};
const staff: Record<'dana' | 'carl' | 'sam' | 'vic', string> = { dana: '', carl: '', sam: '', vic: '' };

beforeAll(async () => {
  app = await createTestApp();
  admin = await signUpAndSignIn(app);
  await grantAdmin(app, admin);
  staff.dana = await person('Dana', 'Director');
  staff.carl = await person('Carl', 'Chair');
  staff.sam = await person('Sam', 'Specialist');
  staff.vic = await person('Vic', 'Verifier');
  const { dana, carl, sam, vic } = staff;

  // January. F1: 50 days (review waits 5, the provider 4, the decision 10; in review 31).
  ids.f1 = await decidedFile({
    provider: ['Fay', 'One'],
    completedAt: '2025-12-01T10:00:00Z',
    reviewStartedAt: '2025-12-06T10:00:00Z',
    requests: [['2025-12-10T10:00:00Z', '2025-12-14T10:00:00Z']],
    referrals: [['2026-01-10T10:00:00Z', '2026-01-20T10:00:00Z', 'approved']],
    decidedAt: '2026-01-20T10:00:00Z',
    decidedBy: dana,
    // Oldest verification 2025-12-20 (31 days); the one after the decision counts for Workload only.
    items: [
      ['verified', '2025-12-20', sam],
      ['verified', '2026-01-05', vic],
      ['pending', '', ''],
      ['verified', '2026-01-25', sam],
    ],
  });
  // F2, recredentialing, rejected: 88 days (2 + 83 + 0 + 3); its oldest verification is 149 days old.
  ids.f2 = await decidedFile({
    provider: ['Gus', 'Two'],
    cycle: 'recredentialing',
    status: 'rejected',
    completedAt: '2025-11-01T10:00:00Z',
    reviewStartedAt: '2025-11-03T10:00:00Z',
    referrals: [['2026-01-25T10:00:00Z', '2026-01-28T10:00:00Z', 'rejected']],
    decidedAt: '2026-01-28T10:00:00Z',
    decidedBy: carl,
    items: [
      ['verified', '2025-09-01', vic],
      // A waiver is no verification: neither the clock's nor Workload's.
      ['waived', '2025-08-01', sam],
    ],
  });
  // F3 on the range's first instant: 10 days (1 + 9), never sent for decision, nothing verified.
  ids.f3 = await decidedFile({
    provider: ['Hal', 'Three'],
    completedAt: '2026-01-05T00:00:00Z',
    reviewStartedAt: '2026-01-06T00:00:00Z',
    decidedAt: '2026-01-15T00:00:00Z',
    decidedBy: dana,
  });
  // Just before the range: counted nowhere.
  ids.f0 = await decidedFile({
    provider: ['Ida', 'Before'],
    completedAt: '2025-12-01T00:00:00Z',
    reviewStartedAt: '2025-12-02T00:00:00Z',
    decidedAt: '2026-01-14T23:59:59Z',
    decidedBy: dana,
    items: [['verified', '2025-12-03', sam]],
  });

  // March. F4: 181 days from completion (2 + 179), re-attested on 2026-01-15, so 75 days from the
  // attestation in force; oldest verification 2026-01-10 (80 days).
  ids.f4 = await decidedFile({
    provider: ['Jo', 'Four'],
    completedAt: '2025-10-01T23:59:00Z',
    reAttestedAt: '2026-01-15T09:00:00Z',
    reviewStartedAt: '2025-10-03T23:59:00Z',
    decidedAt: '2026-03-31T23:59:00Z',
    decidedBy: carl,
    items: [
      ['verified', '2026-01-10', sam],
      ['verified', '2026-01-15', sam],
      ['verified', '2026-02-10', vic],
      ['discrepancy', '2026-02-11', vic],
      ['verified', '2026-03-05', dana],
    ],
  });
  // F6, rejected: 120 days (1 + 119) and exactly 120 from the attestation (in time), but 121 from
  // the oldest verification (late).
  ids.f6 = await decidedFile({
    provider: ['Kim', 'Six'],
    status: 'rejected',
    completedAt: '2025-11-20T08:00:00Z',
    reviewStartedAt: '2025-11-21T08:00:00Z',
    decidedAt: '2026-03-20T08:00:00Z',
    decidedBy: dana,
    items: [
      ['verified', '2025-11-19', vic],
      ['verified', '2026-03-31', sam],
      ['verified', '2026-04-01', sam],
    ],
  });
  // F7, recredentialing: 138 days (1 + 129 + 0 + 8: deferred once, 5 days then 3 waiting for
  // decision); 138 days from the attestation (late), nothing verified. Its provider's name would
  // be a formula in a spreadsheet.
  ids.f7 = await decidedFile({
    provider: ['=Eve', 'Formula'],
    cycle: 'recredentialing',
    completedAt: '2025-10-15T00:00:00Z',
    reviewStartedAt: '2025-10-16T00:00:00Z',
    referrals: [
      ['2026-02-20T00:00:00Z', '2026-02-25T00:00:00Z', 'deferred'],
      ['2026-02-27T00:00:00Z', '2026-03-02T00:00:00Z', 'approved'],
    ],
    decidedAt: '2026-03-02T00:00:00Z',
    decidedBy: carl,
  });
  // Just after the range.
  ids.f5 = await decidedFile({
    provider: ['Lou', 'After'],
    completedAt: '2026-03-01T00:00:00Z',
    reviewStartedAt: '2026-03-02T00:00:00Z',
    decidedAt: '2026-04-01T00:00:00Z',
    decidedBy: carl,
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
});

async function report<T>(path: string, client = admin) {
  const answer = await client.json<T>('GET', path);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

/** The body's text, after checking it starts with the UTF-8 byte order mark. */
async function csvText(response: Response): Promise<string> {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  const bytes = Buffer.from(await response.arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return bytes.subarray(3).toString('utf8');
}

const stats = (files: number, medianDays: number | null, p90Days: number | null) => ({
  files,
  medianDays,
  p90Days,
});
const none = stats(0, null, null);

describe('Turnaround', () => {
  it('gives median and 90th percentile days per month, by cycle and per stage, from the edges of the range', async () => {
    const body = await report<TurnaroundReport>(`/api/admin/reports/turnaround?${RANGE}`);
    expect(body.from).toBe('2026-01-15');
    expect(body.months.map((m) => m.month)).toEqual(['2026-01', '2026-02', '2026-03']);
    const [january, february, march] = body.months;

    // January: F3 (10), F1 (50), F2 (88); F0, a second before the range, is not counted.
    expect(january).toEqual({
      month: '2026-01',
      all: stats(3, 50, 80.4),
      initial: stats(2, 30, 46),
      recredentialing: stats(1, 88, 88),
      stages: {
        waitingForReview: stats(3, 2, 4.4), // 1, 2, 5
        inReview: stats(3, 31, 72.6), // 9, 31, 83
        waitingForProvider: stats(3, 0, 3.2), // 0, 0, 4
        waitingForDecision: stats(3, 3, 8.6), // 0, 3, 10
      },
    });
    // February: nothing decided, still a bucket.
    expect(february).toEqual({
      month: '2026-02',
      all: none,
      initial: none,
      recredentialing: none,
      stages: { waitingForReview: none, inReview: none, waitingForProvider: none, waitingForDecision: none },
    });
    // March: F6 (120), F7 (138), F4 (181, decided a minute before the range ends); F5 on April 1 is out.
    expect(march).toEqual({
      month: '2026-03',
      all: stats(3, 138, 172.4),
      initial: stats(2, 150.5, 174.9),
      recredentialing: stats(1, 138, 138),
      stages: {
        waitingForReview: stats(3, 1, 1.8), // 1, 1, 2
        inReview: stats(3, 129, 169), // 119, 129, 179
        waitingForProvider: stats(3, 0, 0),
        waitingForDecision: stats(3, 0, 6.4), // 0, 0, 8 (5 + 3 around the deferral)
      },
    });
  });

  it('moves files between months with the range: a range ending on Jan 27 drops F2 and keeps one month', async () => {
    const body = await report<TurnaroundReport>(
      '/api/admin/reports/turnaround?from=2026-01-14&to=2026-01-27',
    );
    expect(body.months).toHaveLength(1);
    // F3 (10), F0 (Dec 1 00:00 -> Jan 14 23:59:59: 45 days less a second, 45.0), F1 (50).
    expect(body.months[0]?.all.files).toBe(3);
    expect(body.months[0]?.all.medianDays).toBe(45);
    expect(body.months[0]?.recredentialing).toEqual(none);
  });

  it('writes the same numbers as CSV, one record per month', async () => {
    const text = await csvText(await admin.request('GET', `/api/admin/reports/turnaround.csv?${RANGE}`));
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(
      [
        'Month',
        ...[
          'All',
          'Initial',
          'Recredentialing',
          'Waiting for review',
          'In review',
          'Waiting for the provider',
          'Waiting for decision',
        ].flatMap((l) => [`${l} files`, `${l} median days`, `${l} 90th percentile days`]),
      ].join(','),
    );
    expect(lines[1]).toBe('2026-01,3,50,80.4,2,30,46,1,88,88,3,2,4.4,3,31,72.6,3,0,3.2,3,3,8.6');
    expect(lines[2]).toBe(`2026-02${',0,,'.repeat(7)}`);
    expect(lines).toHaveLength(5); // header, three months, the final CRLF's empty tail
  });
});

describe('Timeliness', () => {
  it('counts decisions within the configured limits per month and lists the files that missed', async () => {
    const body = await report<TimelinessReport>(`/api/admin/reports/timeliness?${RANGE}`);
    expect(body.limits).toEqual({ attestationValidDays: 120, verificationMaxAgeDays: 120 });
    expect(body.months).toEqual([
      // F1 and F3 in time; F2's oldest verification is 149 days old.
      {
        month: '2026-01',
        decided: 3,
        withinAttestation: 3,
        withinVerification: 2,
        timely: 2,
        timelyPercent: 66.7,
      },
      {
        month: '2026-02',
        decided: 0,
        withinAttestation: 0,
        withinVerification: 0,
        timely: 0,
        timelyPercent: null,
      },
      // F4 in time (re-attested); F6 missed the verification clock by a day; F7 the attestation's.
      {
        month: '2026-03',
        decided: 3,
        withinAttestation: 2,
        withinVerification: 2,
        timely: 1,
        timelyPercent: 33.3,
      },
    ]);
    expect(body.missed).toEqual([
      {
        applicationId: ids.f2,
        providerName: 'Gus Two',
        cycle: 'recredentialing',
        decidedOn: '2026-01-28',
        daysFromAttestation: 88,
        daysFromOldestVerification: 149,
        missedClocks: ['verification'],
      },
      {
        applicationId: ids.f7,
        providerName: '=Eve Formula',
        cycle: 'recredentialing',
        decidedOn: '2026-03-02',
        daysFromAttestation: 138,
        daysFromOldestVerification: null,
        missedClocks: ['attestation'],
      },
      {
        applicationId: ids.f6,
        providerName: 'Kim Six',
        cycle: 'initial',
        decidedOn: '2026-03-20',
        daysFromAttestation: 120,
        daysFromOldestVerification: 121,
        missedClocks: ['verification'],
      },
    ]);
  });

  it('uses the limits the server is configured with', async () => {
    const strict = await createTestApp({ ATTESTATION_VALID_DAYS: '60', VERIFICATION_MAX_AGE_DAYS: '150' });
    try {
      // The same fixture read with those limits: F2 (88 > 60; 149 <= 150) now misses the attestation only.
      const body = await timelinessReport(
        app.runtime.deps.db,
        { from: '2026-01-15', to: '2026-01-31' },
        decisionClockLimitsOf(strict.runtime.deps.env),
      );
      expect(body.limits).toEqual({ attestationValidDays: 60, verificationMaxAgeDays: 150 });
      expect(body.months[0]).toMatchObject({
        decided: 3,
        withinAttestation: 2,
        withinVerification: 3,
        timely: 2,
      });
      expect(body.missed.map((f) => [f.applicationId, f.missedClocks])).toEqual([[ids.f2, ['attestation']]]);
    } finally {
      await strict.close();
    }
  }, 60_000);

  it('writes the months, then the late files, as CSV with the formula cell defused', async () => {
    const text = await csvText(await admin.request('GET', `/api/admin/reports/timeliness.csv?${RANGE}`));
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(
      'Month,Decided,Within 120 days of attestation,Within 120 days of oldest verification,Timely,Timely %,Late file,Provider,Cycle,Decided on,Days from attestation,Days from oldest verification,Missed',
    );
    expect(lines.slice(1, 4)).toEqual(['2026-01,3,3,2,2,66.7', '2026-02,0,0,0,0,', '2026-03,3,2,2,1,33.3']);
    expect(lines[5]).toBe(`2026-03,,,,,,${ids.f7},'=Eve Formula,Recredentialing,2026-03-02,138,,attestation`);
    expect(lines).toHaveLength(8);
  });
});

describe('Workload', () => {
  const row = (
    month: string,
    who: keyof typeof staff,
    name: string,
    filesDecided: number,
    itemsVerified: number,
    filesRecorded = 0,
  ) => ({
    month,
    userId: staff[who],
    name,
    filesDecided,
    filesRecorded,
    itemsVerified,
  });

  it('counts files decided and items verified per person and month, inside the range only', async () => {
    // Issue 50 item 9: a committee decision of February counts for each member who voted on it, and
    // as recorded (not decided) for the secretary who recorded it.
    const meeting = await query(
      `insert into committee_meetings (scheduled_at, quorum, created_at) values ('2026-02-10T15:00:00Z', 2, now()) returning id`,
      [],
    );
    const referral = await query(
      `insert into decision_referrals (application_id, track, reasons, sent_at, closed_at, outcome)
       values ($1, 'committee', '[]', '2026-02-09T00:00:00Z', '2026-02-10T16:00:00Z', 'deferred') returning id`,
      [ids.f4],
    );
    const item = await query(
      `insert into committee_agenda_items (meeting_id, application_id, referral_id, position, decision, decision_text,
         votes_for, votes_against, votes_abstained, decided_at, decided_by)
       values ($1, $2, $3, 1, 'defer', 'More', 2, 0, 0, '2026-02-10T16:00:00Z', $4) returning id`,
      [meeting.rows[0]!.id, ids.f4, referral.rows[0]!.id, staff.sam],
    );
    for (const member of [staff.dana, staff.carl]) {
      await query(
        `insert into committee_votes (agenda_item_id, member_id, vote, reviewed_at, created_at, updated_at)
         values ($1, $2, 'defer', now(), now(), now())`,
        [item.rows[0]!.id, member],
      );
    }
    const body = await report<WorkloadReport>(`/api/admin/reports/workload?${RANGE}`);
    expect(body.rows).toEqual([
      row('2026-01', 'carl', 'Carl Chair', 1, 0),
      // F3 (on the first instant) and F1; F0 a second earlier is out.
      row('2026-01', 'dana', 'Dana Director', 2, 0),
      // F1's item after its decision and F4's on Jan 15; those of Jan 10 and before are out.
      row('2026-01', 'sam', 'Sam Specialist', 0, 2),
      row('2026-02', 'carl', 'Carl Chair', 1, 0),
      row('2026-02', 'dana', 'Dana Director', 1, 0),
      row('2026-02', 'sam', 'Sam Specialist', 0, 0, 1),
      // F4's verified item; the discrepancy does not count.
      row('2026-02', 'vic', 'Vic Verifier', 0, 1),
      row('2026-03', 'carl', 'Carl Chair', 2, 0),
      // A decision and a verification by the same person in one month make one row.
      row('2026-03', 'dana', 'Dana Director', 1, 1),
      // F6's item of Mar 31 counts, that of Apr 1 does not.
      row('2026-03', 'sam', 'Sam Specialist', 0, 1),
    ]);
  });

  it('keeps one person with `specialist`', async () => {
    // The February committee decision of the test above is still in the database.
    const sam = await report<WorkloadReport>(`/api/admin/reports/workload?${RANGE}&specialist=${staff.sam}`);
    expect(sam.rows).toEqual([
      row('2026-01', 'sam', 'Sam Specialist', 0, 2),
      row('2026-02', 'sam', 'Sam Specialist', 0, 0, 1),
      row('2026-03', 'sam', 'Sam Specialist', 0, 1),
    ]);
    const dana = await report<WorkloadReport>(
      `/api/admin/reports/workload?${RANGE}&specialist=${staff.dana}`,
    );
    expect(dana.rows).toEqual([
      row('2026-01', 'dana', 'Dana Director', 2, 0),
      row('2026-02', 'dana', 'Dana Director', 1, 0),
      row('2026-03', 'dana', 'Dana Director', 1, 1),
    ]);
    const nobody = await report<WorkloadReport>(
      `/api/admin/reports/workload?${RANGE}&specialist=no-such-user`,
    );
    expect(nobody.rows).toEqual([]);
  });

  it('writes a record per person and month as CSV', async () => {
    const text = await csvText(
      await admin.request('GET', `/api/admin/reports/workload.csv?${RANGE}&specialist=${staff.dana}`),
    );
    expect(text).toBe(
      `Month,Staff member,User ID,Files decided,Decisions recorded,Items verified\r\n2026-01,Dana Director,${staff.dana},2,0,0\r\n2026-02,Dana Director,${staff.dana},1,0,0\r\n2026-03,Dana Director,${staff.dana},1,0,1\r\n`,
    );
  });
});

describe('the figures recorded with each decision (decision_facts)', () => {
  it('keep a decision as it stood: a verification re-opened later changes nothing; a changed or undone decision is recorded again', async () => {
    // Decided 2026-06-10, 40 days after completion; its only verification (2026-01-20) is 141 days old.
    const id = await decidedFile({
      provider: ['Lou', 'Later'],
      completedAt: '2026-05-01T00:00:00Z',
      reviewStartedAt: '2026-05-02T00:00:00Z',
      decidedAt: '2026-06-10T00:00:00Z',
      decidedBy: staff.dana,
      items: [['verified', '2026-01-20', staff.sam]],
    });
    const db = app.runtime.deps.db;
    const june = { from: '2026-06-01', to: '2026-06-30' };
    const limits = decisionClockLimitsOf(app.runtime.deps.env);
    const before = await timelinessReport(db, june, limits);
    expect(before.missed.map((f) => [f.applicationId, f.daysFromOldestVerification])).toEqual([[id, 141]]);

    await query(
      `update verification_items set status = 'pending', verified_at = null where application_id = $1`,
      [id],
    );
    expect(await timelinessReport(db, june, limits)).toEqual(before);

    // Moved to 2026-06-20: recorded again, from the checklist as it stands then (nothing verified).
    await query(`update provider_applications set decided_at = '2026-06-20T00:00:00Z' where id = $1`, [id]);
    const moved = await timelinessReport(db, june, limits);
    expect(moved.missed).toEqual([]);
    expect(moved.months[0]).toMatchObject({ decided: 1, timely: 1 });
    const turnaround = await turnaroundReport(db, june);
    expect(turnaround.months[0]!.all).toEqual({ files: 1, medianDays: 50, p90Days: 50 });

    // Back under review: no longer a decision.
    await query(
      `update provider_applications set application_status = 'under_review', decided_at = null where id = $1`,
      [id],
    );
    expect((await turnaroundReport(db, june)).months[0]!.all.files).toBe(0);
    await query('delete from provider_applications where id = $1', [id]);
  });
});

describe('the query', () => {
  it('defaults to the last 12 months and refuses reversed, one-sided or over-long ranges', async () => {
    const body = await report<WorkloadReport>('/api/admin/reports/workload');
    const today = new Date().toISOString().slice(0, 10);
    expect(body.to).toBe(today);
    expect(body.from.endsWith('-01')).toBe(true);

    for (const [q, message] of [
      ['from=2026-03-01&to=2026-02-28', 'From must be on or before To'],
      ['from=2026-03-01', 'Give both From and To, or neither'],
      ['from=2023-01-01&to=2026-01-01', 'A report covers at most 36 months'],
      ['from=2026-02-30&to=2026-03-01', 'From must be a date (YYYY-MM-DD)'],
    ] as const) {
      const refused = await admin.json<{ message: string; issues?: { message: string }[] }>(
        'GET',
        `/api/admin/reports/turnaround?${q}`,
      );
      expect(refused.status, q).toBe(400);
      expect(JSON.stringify(refused.body), q).toContain(message);
    }
    // 36 months exactly is accepted.
    const longest = await report<TurnaroundReport>(
      '/api/admin/reports/turnaround?from=2023-04-01&to=2026-03-31',
    );
    expect(longest.months).toHaveLength(36);
  });
});

describe('who may read the reports', () => {
  const paths = [
    'turnaround',
    'timeliness',
    'workload',
    'turnaround.csv',
    'timeliness.csv',
    'workload.csv',
  ].map((p) => `/api/admin/reports/${p}?${RANGE}`);

  it('refuses anonymous callers (401), providers, specialists and committee members (403)', async () => {
    const provider = await signUpAndSignIn(app);
    const specialist = await signUpStaff(app, 'specialist');
    const member = await signUpStaff(app, 'committee');
    for (const path of paths) {
      expect((await new Client(app).request('GET', path)).status, path).toBe(401);
      expect((await provider.request('GET', path)).status, path).toBe(403);
      expect((await specialist.request('GET', path)).status, path).toBe(403);
      expect((await member.request('GET', path)).status, path).toBe(403);
    }
  }, 60_000);

  it('lets the medical director and the auditor read them', async () => {
    const director = await signUpStaff(app, 'medical_director');
    const auditor = await signUpStaff(app, 'auditor');
    for (const path of paths) {
      expect((await director.request('GET', path)).status, path).toBe(200);
      expect((await auditor.request('GET', path)).status, path).toBe(200);
    }
  }, 60_000);
});
