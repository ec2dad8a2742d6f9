/**
 * The decision-centred reports' routes (issue 34 items 1, 3, 6; contract domain/api/reports.ts), each
 * as JSON and as a CSV download of the same numbers:
 * - GET /api/admin/reports/turnaround[.csv]   days from completion to decision, and per stage
 * - GET /api/admin/reports/timeliness[.csv]   decisions within NCQA's limits, and the files that missed
 * - GET /api/admin/reports/workload[.csv]     files decided and items verified per staff member
 * Query `from`, `to` (YYYY-MM-DD, both or neither; default the last 12 months), `specialist` (Workload).
 * Permission `read:report:any` (administrators, medical directors, auditors), checked before the query
 * is validated (401 anonymous, 403 others). The CSVs are small (at most 36 months; a row per month,
 * per late file or per person-month), written whole: RFC 4180 with formula cells defused
 * (http/csv.ts). They are not audited: they hold aggregates, and the one PHI-bearing column (the late
 * files' provider names) is what the JSON report shows too; the audit log has no action for them
 * (domain/audit-actions.ts is not extended by this feature).
 */
import { z } from 'zod';
import {
  cycleLabel,
  type ReportQuery,
  reportQuerySchema,
  type TimelinessReport,
  type TurnaroundReport,
  timelinessReportSchema,
  turnaroundReportSchema,
  turnaroundStageLabel,
  turnaroundStages,
  type WorkloadReport,
  workloadReportSchema,
} from '../../domain/api/reports.ts';
import { errorResponseSchema } from '../../domain/app-error.ts';
import type { AppInstance } from '../app-types.ts';
import { requirePermission } from '../auth/actor.ts';
import { attachmentDisposition } from '../documents/content-disposition.ts';
import { decisionClockLimitsOf } from '../env.ts';
import { CSV_BOM, type CsvCell, csvRecord } from '../http/csv.ts';
import {
  type ReportRange,
  reportRangeOf,
  timelinessReport,
  turnaroundReport,
  workloadReport,
} from './decision-reports.ts';

const errorResponses = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
} as const;

/** A CSV file: the BOM, the header, the records. */
function csvOf(header: readonly string[], records: readonly (readonly CsvCell[])[]): string {
  return CSV_BOM + csvRecord(header) + records.map((r) => csvRecord(r)).join('');
}

const statsHeader = (label: string) => [
  `${label} files`,
  `${label} median days`,
  `${label} 90th percentile days`,
];

/** Turnaround as CSV: one record per month; the totals by cycle, then each stage. */
export function turnaroundCsv(report: TurnaroundReport): string {
  const header = [
    'Month',
    ...statsHeader('All'),
    ...statsHeader(cycleLabel.initial),
    ...statsHeader(cycleLabel.recredentialing),
    ...turnaroundStages.flatMap((s) => statsHeader(turnaroundStageLabel[s])),
  ];
  const cells = (s: { files: number; medianDays: number | null; p90Days: number | null }) => [
    s.files,
    s.medianDays,
    s.p90Days,
  ];
  return csvOf(
    header,
    report.months.map((m) => [
      m.month,
      ...cells(m.all),
      ...cells(m.initial),
      ...cells(m.recredentialing),
      ...turnaroundStages.flatMap((s) => cells(m.stages[s])),
    ]),
  );
}

/**
 * Timeliness as CSV: one record per month, then one per late file (the 'Month' column says which:
 * a month, or the late file's decision month with its details).
 */
export function timelinessCsv(report: TimelinessReport): string {
  const header = [
    'Month',
    'Decided',
    `Within ${report.limits.attestationValidDays} days of attestation`,
    `Within ${report.limits.verificationMaxAgeDays} days of oldest verification`,
    'Timely',
    'Timely %',
    'Late file',
    'Provider',
    'Cycle',
    'Decided on',
    'Days from attestation',
    'Days from oldest verification',
    'Missed',
  ];
  const months = report.months.map((m): CsvCell[] => [
    m.month,
    m.decided,
    m.withinAttestation,
    m.withinVerification,
    m.timely,
    m.timelyPercent,
  ]);
  const missed = report.missed.map((f): CsvCell[] => [
    f.decidedOn.slice(0, 7),
    null,
    null,
    null,
    null,
    null,
    f.applicationId,
    f.providerName,
    cycleLabel[f.cycle],
    f.decidedOn,
    f.daysFromAttestation,
    f.daysFromOldestVerification,
    f.missedClocks.join(' and '),
  ]);
  return csvOf(header, [...months, ...missed]);
}

/** Workload as CSV: one record per person and month with work. */
export function workloadCsv(report: WorkloadReport): string {
  return csvOf(
    ['Month', 'Staff member', 'User ID', 'Files decided', 'Decisions recorded', 'Items verified'],
    report.rows.map((r) => [r.month, r.name, r.userId, r.filesDecided, r.filesRecorded, r.itemsVerified]),
  );
}

export async function decisionReportRoutes(app: AppInstance) {
  // Before validation, so an anonymous caller gets 401 and others 403 whatever they send.
  app.addHook('onRequest', async (request) => {
    await requirePermission(request, 'read:report:any');
  });

  /** GET `${path}.csv`: the report `load` reads, as the CSV `csv` writes, named `${name}-FROM-TO.csv`. */
  function csvRoute(options: {
    path: string;
    name: string;
    summary: string;
    csv(range: ReportRange, query: ReportQuery): Promise<string>;
  }) {
    app.get(
      options.path,
      {
        config: { access: 'admin' },
        schema: {
          summary: options.summary,
          description:
            "The JSON report's numbers as text/csv (UTF-8 with a BOM, CRLF, RFC 4180 quoting; text cells starting with = + - @ tab or CR prefixed with ' against formula injection), one header row. Not audited (aggregates; no audit action exists for it).",
          tags: ['reports'],
          querystring: reportQuerySchema,
          response: { 200: z.unknown().describe('The CSV file'), ...errorResponses },
        },
      },
      async (request, reply) => {
        await requirePermission(request, 'read:report:any');
        const range = reportRangeOf(request.query, new Date());
        const body = await options.csv(range, request.query);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header(
            'content-disposition',
            attachmentDisposition(`${options.name}-${range.from}-${range.to}.csv`),
          )
          .header('x-content-type-options', 'nosniff')
          .send(body);
      },
    );
  }

  const limits = () => decisionClockLimitsOf(app.deps.env);

  app.get(
    '/api/admin/reports/turnaround',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Turnaround: days from completion to decision per month, and per stage (issue 34 item 1)',
        description:
          'Per UTC month of decision (approved or rejected): median and 90th percentile (linear interpolation, percentile_cont) of the elapsed days from the completion attestation to the decision, for all files, initial and recredentialing; and of each stage (waiting for review, in review, waiting for the provider, waiting for decision).',
        tags: ['reports'],
        querystring: reportQuerySchema,
        response: { 200: turnaroundReportSchema, ...errorResponses },
      },
    },
    async (request) => {
      await requirePermission(request, 'read:report:any');
      return turnaroundReport(app.deps.db, reportRangeOf(request.query, new Date()));
    },
  );
  csvRoute({
    path: '/api/admin/reports/turnaround.csv',
    name: 'turnaround',
    summary: 'Turnaround as CSV (issue 34 item 1)',
    csv: async (range) => turnaroundCsv(await turnaroundReport(app.deps.db, range)),
  });

  app.get(
    '/api/admin/reports/timeliness',
    {
      config: { access: 'admin' },
      schema: {
        summary:
          "Timeliness: decisions within NCQA's limits per month, and the files that missed (issue 34 item 3)",
        description:
          'Per UTC month of decision: decisions within ATTESTATION_VALID_DAYS of the attestation in force and within VERIFICATION_MAX_AGE_DAYS of the oldest verification (UTC calendar days), their share, and every late file.',
        tags: ['reports'],
        querystring: reportQuerySchema,
        response: { 200: timelinessReportSchema, ...errorResponses },
      },
    },
    async (request) => {
      await requirePermission(request, 'read:report:any');
      return timelinessReport(app.deps.db, reportRangeOf(request.query, new Date()), limits());
    },
  );
  csvRoute({
    path: '/api/admin/reports/timeliness.csv',
    name: 'timeliness',
    summary: 'Timeliness as CSV (issue 34 item 3)',
    csv: async (range) => timelinessCsv(await timelinessReport(app.deps.db, range, limits())),
  });

  app.get(
    '/api/admin/reports/workload',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Workload: files decided and items verified per staff member per month (issue 34 item 6)',
        description:
          '`specialist` (a user id) keeps one person. Files decided by decided_at, checklist items verified by their verification day; months with work only.',
        tags: ['reports'],
        querystring: reportQuerySchema,
        response: { 200: workloadReportSchema, ...errorResponses },
      },
    },
    async (request) => {
      await requirePermission(request, 'read:report:any');
      return workloadReport(app.deps.db, reportRangeOf(request.query, new Date()), request.query.specialist);
    },
  );
  csvRoute({
    path: '/api/admin/reports/workload.csv',
    name: 'workload',
    summary: 'Workload as CSV (issue 34 item 6)',
    csv: async (range, query) => workloadCsv(await workloadReport(app.deps.db, range, query.specialist)),
  });
}
