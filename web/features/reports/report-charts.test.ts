/** What the 'Reports' tab draws and says of it (issue 34): chart rows, series and accessible names. */
import { describe, expect, it } from 'vitest';
import type { TimelinessReport, TurnaroundReport, WorkloadReport } from '../../../domain/api/reports.ts';
import type {
  BacklogReport,
  ExpirablesReport,
  ScreeningReport,
} from '../../../domain/api/reports-pipeline.ts';
import {
  backlogChart,
  backlogSummary,
  expirablesChart,
  expirablesSummary,
  missedClocksText,
  monthLabel,
  screeningChart,
  screeningSummary,
  timelinessChart,
  timelinessSummary,
  turnaroundChart,
  turnaroundStagesChart,
  turnaroundSummary,
  WORKLOAD_PEOPLE_SHOWN,
  workloadChart,
  workloadSummary,
} from './report-charts.ts';
import { peopleOfWorkload, reportPath, reportQueryOf } from './reports-api.ts';

const none = { files: 0, medianDays: null, p90Days: null };
const stats = (files: number, medianDays: number, p90Days: number) => ({ files, medianDays, p90Days });
const noStages = {
  waitingForReview: none,
  inReview: none,
  waitingForProvider: none,
  waitingForDecision: none,
};

const turnaround: TurnaroundReport = {
  from: '2026-01-01',
  to: '2026-03-15',
  months: [
    {
      month: '2026-01',
      all: stats(3, 10, 18.4),
      initial: stats(2, 8, 9.6),
      recredentialing: stats(1, 20, 20),
      stages: { ...noStages, waitingForReview: stats(3, 2, 4), inReview: stats(3, 6.5, 12) },
    },
    { month: '2026-02', all: none, initial: none, recredentialing: none, stages: noStages },
    {
      month: '2026-03',
      all: stats(1, 4.5, 4.5),
      initial: stats(1, 4.5, 4.5),
      recredentialing: none,
      stages: { ...noStages, inReview: stats(1, 4.5, 4.5) },
    },
  ],
};

describe('Turnaround (item 1)', () => {
  it('draws a point per month with decisions and none (not 0) for a month without', () => {
    const { data, series } = turnaroundChart(turnaround);
    expect(data.map((d) => d.x)).toEqual(['Jan 2026', 'Feb 2026', 'Mar 2026']);
    expect(data[0]).toEqual({ x: 'Jan 2026', median: 10, p90: 18.4, initial: 8, recredentialing: 20 });
    expect(data[1]).toEqual({ x: 'Feb 2026', median: null, p90: null, initial: null, recredentialing: null });
    expect(series.map((s) => s.label)).toEqual([
      'Median, all files',
      '90th percentile, all files',
      'Median, initial',
      'Median, recredentialing',
    ]);
  });

  it("stacks each stage's median in the issue's order", () => {
    const { data, series } = turnaroundStagesChart(turnaround);
    expect(series.map((s) => [s.label, s.stackId])).toEqual([
      ['Waiting for review', 'stages'],
      ['In review', 'stages'],
      ['Waiting for the provider', 'stages'],
      ['Waiting for decision', 'stages'],
    ]);
    expect(data[0]).toMatchObject({ waitingForReview: 2, inReview: 6.5, waitingForProvider: 0 });
  });

  it('names the chart with the range, the files and the latest month with decisions', () => {
    expect(turnaroundSummary(turnaround)).toBe(
      "Line chart of the days from completion to decision per month, Jan 1, 2026 to Mar 15, 2026: 4 files decided. In Mar 2026, the latest month with decisions: median 4.5 days, 90th percentile 4.5 days. The numbers are in the table under 'Show as table'.",
    );
  });
});

describe('Backlog and aging (item 2)', () => {
  const buckets = (a: number, b: number, c: number, d: number, e: number) => ({
    '0–30': a,
    '31–60': b,
    '61–90': c,
    '91–120': d,
    'over 120': e,
  });
  const backlog: BacklogReport = {
    asOf: '2026-03-15T12:00:00.000Z',
    specialist: null,
    byStatus: [
      { status: 'submitted', buckets: buckets(1, 0, 0, 0, 2), total: 3 },
      { status: 'under_review', buckets: buckets(0, 4, 0, 0, 0), total: 4 },
    ],
    total: { ...buckets(1, 4, 0, 0, 2), total: 7 },
    oldest: [],
  };

  it('has a bar per age bucket, stacked by status', () => {
    const { data, series } = backlogChart(backlog);
    expect(data.map((d) => d.x)).toEqual([
      '0–30 days',
      '31–60 days',
      '61–90 days',
      '91–120 days',
      'Over 120 days',
    ]);
    expect(data[4]).toEqual({ x: 'Over 120 days', submitted: 2, under_review: 0 });
    expect(series.map((s) => [s.name, s.label, s.stackId])).toEqual([
      ['submitted', 'Submitted', 'open'],
      ['under_review', 'Under Review', 'open'],
    ]);
  });

  it("names every bucket's count and the total", () => {
    expect(backlogSummary(backlog)).toContain(
      ': 0–30 days 1, 31–60 days 4, 61–90 days 0, 91–120 days 0, Over 120 days 2; 7 open files in all.',
    );
  });
});

describe('Timeliness (item 3)', () => {
  const timeliness: TimelinessReport = {
    from: '2026-01-01',
    to: '2026-02-28',
    limits: { attestationValidDays: 120, verificationMaxAgeDays: 120 },
    months: [
      {
        month: '2026-01',
        decided: 6,
        withinAttestation: 5,
        withinVerification: 6,
        timely: 5,
        timelyPercent: 83.3,
      },
      {
        month: '2026-02',
        decided: 3,
        withinAttestation: 3,
        withinVerification: 3,
        timely: 3,
        timelyPercent: 100,
      },
    ],
    missed: [],
  };

  it('splits each month into decisions in time and late ones, drawn as parts of 100 %', () => {
    expect(timelinessChart(timeliness).data).toEqual([
      { x: 'Jan 2026', timely: 5, late: 1 },
      { x: 'Feb 2026', timely: 3, late: 0 },
    ]);
  });

  it("says the limits and the range's share in time", () => {
    expect(timelinessSummary(timeliness)).toContain(
      'within 120 days of the attestation and 120 days of the oldest verification, per month, Jan 1, 2026 to Feb 28, 2026: 8 of 9 decisions in time (88.9%).',
    );
  });

  it('names the clocks a late file missed, attestation first', () => {
    expect(missedClocksText(['verification', 'attestation'])).toBe('Attestation and Oldest verification');
    expect(missedClocksText(['verification'])).toBe('Oldest verification');
  });
});

describe('Expirables forecast (item 4)', () => {
  const kinds = {
    professional_license: 0,
    malpractice_insurance: 0,
    certification: 0,
    vaccination: 0,
    drivers_license: 0,
    payor_contract: 0,
    hospital_privileges: 0,
  };
  const expirables: ExpirablesReport = {
    asOf: '2026-11-27T00:00:00.000Z',
    months: [
      { month: '2026-11', byKind: { ...kinds, vaccination: 2 }, credentials: 2, recredentialingDue: 0 },
      {
        month: '2026-12',
        byKind: { ...kinds, professional_license: 1 },
        credentials: 1,
        recredentialingDue: 1,
      },
    ],
  };

  it('stacks the kinds in one bar and puts recredentialing due in its own', () => {
    const { data, series } = expirablesChart(expirables);
    expect(data[1]).toMatchObject({ x: 'Dec 2026', professional_license: 1, recredentialingDue: 1 });
    expect(new Set(series.slice(0, 7).map((s) => s.stackId))).toEqual(new Set(['credentials']));
    expect(series.at(-1)).toMatchObject({ label: 'Recredentialing due', stackId: 'recredentialing' });
  });

  it('sums the forecast in its name', () => {
    expect(expirablesSummary(expirables)).toContain(
      ', Nov 2026 to Dec 2026: 3 credentials expiring, 1 recredentialing due.',
    );
  });
});

describe('Screening (item 5)', () => {
  const screening: ScreeningReport = {
    asOf: '2026-03-15T12:00:00.000Z',
    from: '2026-02-01',
    to: '2026-03-15',
    months: [
      { month: '2026-02', scheduledRuns: 1, importRuns: 2, matches: 0, possibleMatches: 3 },
      { month: '2026-03', scheduledRuns: 1, importRuns: 0, matches: 1, possibleMatches: 0 },
    ],
    openPossibleMatches: {
      total: 0,
      buckets: { '0–30': 0, '31–60': 0, '61–90': 0, '91–120': 0, 'over 120': 0 },
      oldestDays: null,
    },
    sources: [],
  };

  it('stacks the runs beside the findings', () => {
    const { data, series } = screeningChart(screening);
    expect(series.map((s) => s.stackId)).toEqual(['runs', 'runs', 'findings', 'findings']);
    expect(data[0]).toEqual({
      x: 'Feb 2026',
      scheduledRuns: 1,
      importRuns: 2,
      matches: 0,
      possibleMatches: 3,
    });
  });

  it('sums runs and findings in its name', () => {
    expect(screeningSummary(screening)).toContain(': 4 runs, 1 match and 3 possible matches found.');
  });
});

describe('Workload (item 6)', () => {
  const row = (month: string, userId: string, filesDecided: number, itemsVerified: number) => ({
    month,
    userId,
    name: `Person ${userId}`,
    filesDecided,
    filesRecorded: 0,
    itemsVerified,
  });
  const workload: WorkloadReport = {
    from: '2026-01-01',
    to: '2026-03-31',
    rows: [row('2026-01', 'a', 0, 5), row('2026-01', 'b', 2, 1), row('2026-03', 'a', 0, 2)],
  };

  it('draws every month of the range, each person a part of the stack, without people who did none of it', () => {
    const verified = workloadChart(workload, 'itemsVerified');
    expect(verified.series.map((s) => s.label)).toEqual(['Person a', 'Person b']);
    expect(verified.data).toEqual([
      { x: 'Jan 2026', person0: 5, person1: 1 },
      { x: 'Feb 2026', person0: 0, person1: 0 },
      { x: 'Mar 2026', person0: 2, person1: 0 },
    ]);
    const decided = workloadChart(workload, 'filesDecided');
    expect(decided.series.map((s) => s.label)).toEqual(['Person b']);
    expect(decided.data[0]).toEqual({ x: 'Jan 2026', person0: 2 });
  });

  it(`sums everyone past the ${WORKLOAD_PEOPLE_SHOWN} busiest as 'Everyone else'`, () => {
    const many: WorkloadReport = {
      ...workload,
      rows: Array.from({ length: WORKLOAD_PEOPLE_SHOWN + 2 }, (_, i) => row('2026-02', `p${i}`, 0, 20 - i)),
    };
    const { data, series } = workloadChart(many, 'itemsVerified');
    expect(series).toHaveLength(WORKLOAD_PEOPLE_SHOWN + 1);
    expect(series.at(-1)?.label).toBe('Everyone else');
    // The two quietest: 20 - 7 and 20 - 8.
    expect(data[1]?.others).toBe(13 + 12);
    expect(data[1]?.person0).toBe(20);
  });

  it('has no rows when nobody did the work counted', () => {
    expect(workloadChart({ ...workload, rows: [row('2026-01', 'a', 0, 1)] }, 'filesDecided').data).toEqual(
      [],
    );
  });

  it('names the count, the total and the people', () => {
    expect(workloadSummary(workload, 'itemsVerified')).toContain(': 8 by 2 people.');
    expect(workloadSummary(workload, 'filesDecided')).toContain(': 2 by 1 person.');
  });

  it('offers each person once, by name, as a specialist', () => {
    expect(peopleOfWorkload(workload)).toEqual([
      { userId: 'a', name: 'Person a' },
      { userId: 'b', name: 'Person b' },
    ]);
  });
});

describe('where each report is read and downloaded', () => {
  const filter = { from: '2026-01-01', to: '2026-03-31', specialist: 'user-1' };

  it('sends each report only the filter fields its route reads', () => {
    expect(reportPath('turnaround', filter)).toBe(
      '/api/admin/reports/turnaround?from=2026-01-01&to=2026-03-31',
    );
    expect(reportPath('workload', filter, 'csv')).toBe(
      '/api/admin/reports/workload.csv?from=2026-01-01&to=2026-03-31&specialist=user-1',
    );
    expect(reportPath('backlog', filter, 'csv')).toBe('/api/admin/reports/backlog.csv?specialist=user-1');
    expect(reportPath('expirables', filter)).toBe('/api/admin/reports/expirables');
    expect(reportPath('screening', {})).toBe('/api/admin/reports/screening');
  });

  it('keys a report by what it reads, so a specialist does not reload the others', () => {
    expect(reportQueryOf('timeliness', filter)).toEqual({ from: '2026-01-01', to: '2026-03-31' });
    expect(reportQueryOf('backlog', { from: '2026-01-01', to: '2026-03-31' })).toEqual({});
  });

  it('labels UTC months whatever the zone', () => {
    expect(monthLabel('2026-12')).toBe('Dec 2026');
  });
});
