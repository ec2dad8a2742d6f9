/**
 * The pipeline reports of the 'Reports' tab (issue 34 items 2, 4, 5; contract
 * domain/api/reports-pipeline.ts), for whoever holds `read:report:any` (administrators, the medical
 * director, auditors): each as JSON and as a CSV of its table (`.csv`: UTF-8 with a BOM, CRLF,
 * RFC 4180 quoting, formula cells defused by server/http/csv.ts). Reads only, never audited (counts,
 * and the oldest files' names, which every holder already reads in the review queue).
 *
 * - GET /api/admin/reports/backlog[.csv]?specialist=
 * - GET /api/admin/reports/expirables[.csv]
 * - GET /api/admin/reports/screening[.csv]?from=&to=
 */
import { z } from 'zod';
import { reportQuerySchema } from '../../domain/api/reports.ts';
import {
  type BacklogReport,
  backlogQuerySchema,
  backlogReportSchema,
  type ExpirablesReport,
  expirablesReportSchema,
  type ScreeningReport,
  screeningReportSchema,
} from '../../domain/api/reports-pipeline.ts';
import { errorResponseSchema } from '../../domain/app-error.ts';
import { applicationStatusLabel } from '../../domain/application-status.ts';
import { isoDay } from '../../domain/calendar.ts';
import { credentialKindLabel, credentialKinds } from '../../domain/credentials/expiring-credentials.ts';
import { ageBuckets } from '../../domain/reports/pipeline-buckets.ts';
import type { AppInstance } from '../app-types.ts';
import { requirePermission } from '../auth/actor.ts';
import { attachmentDisposition } from '../documents/content-disposition.ts';
import { CSV_BOM, type CsvCell, csvRecord } from '../http/csv.ts';
import { backlogReport, expirablesReport, screeningReport } from './pipeline-reports.ts';

const errorResponses = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
} as const;

/** A whole CSV file: the BOM, the header, the records. */
export function csvFile(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return CSV_BOM + csvRecord(header) + rows.map((row) => csvRecord(row)).join('');
}

/**
 * The backlog's table as CSV: one record per open status, then 'All open', with the count of each age
 * bucket (days since the attestation) and the total.
 */
export function backlogCsv(report: BacklogReport): string {
  const header = ['Status', ...ageBuckets.map((b) => `${b} days`.replace(/^over/, 'Over')), 'Total'];
  return csvFile(header, [
    ...report.byStatus.map((s) => [
      applicationStatusLabel[s.status],
      ...ageBuckets.map((b) => s.buckets[b]),
      s.total,
    ]),
    ['All open', ...ageBuckets.map((b) => report.total[b]), report.total.total],
  ]);
}

/** The forecast's table as CSV: one record per month, a column per kind, the total, recredentialing due. */
export function expirablesCsv(report: ExpirablesReport): string {
  const header = [
    'Month',
    ...credentialKinds.map((k) => credentialKindLabel[k]),
    'All credentials',
    'Recredentialing due',
  ];
  return csvFile(
    header,
    report.months.map((m) => [
      m.month,
      ...credentialKinds.map((k) => m.byKind[k]),
      m.credentials,
      m.recredentialingDue,
    ]),
  );
}

/** The screening table as CSV: one record per month of the range (runs and findings recorded). */
export function screeningCsv(report: ScreeningReport): string {
  const header = [
    'Month',
    'Scheduled runs',
    'Runs after an import',
    'Matches found',
    'Possible matches found',
  ];
  return csvFile(
    header,
    report.months.map((m) => [m.month, m.scheduledRuns, m.importRuns, m.matches, m.possibleMatches]),
  );
}

/** The Fastify plugin of the pipeline reports (registered by server/routes.ts). */
export async function pipelineReportRoutes(app: AppInstance) {
  const sendCsv = (reply: import('fastify').FastifyReply, name: string, body: string) =>
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', attachmentDisposition(`${name}-${isoDay(new Date())}.csv`))
      .header('x-content-type-options', 'nosniff')
      .send(body);

  for (const csv of [false, true]) {
    const suffix = csv ? '.csv' : '';
    const as = csv ? ' as CSV (UTF-8 with a BOM, CRLF, RFC 4180; formula cells defused)' : '';

    app.get(
      `/api/admin/reports/backlog${suffix}`,
      {
        config: { access: 'admin' },
        schema: {
          summary: `Backlog and aging: open files by status and age bucket, the oldest ten${as} (issue 34)`,
          description:
            'Open files (Submitted, Under Review) at now, by status and by days since the attestation (UTC calendar days; buckets 0–30, 31–60, 61–90, 91–120, over 120), with the ten oldest and their review pages. `specialist`: a user id, only the files assigned to them. The CSV holds the counts table.',
          tags: ['reports'],
          querystring: backlogQuerySchema,
          response: {
            200: csv ? z.unknown().describe('The CSV file') : backlogReportSchema,
            ...errorResponses,
          },
        },
      },
      async (request, reply) => {
        await requirePermission(request, 'read:report:any');
        const report = await backlogReport(app.deps.db, request.query, new Date());
        return csv ? sendCsv(reply, 'backlog', backlogCsv(report)) : report;
      },
    );

    app.get(
      `/api/admin/reports/expirables${suffix}`,
      {
        config: { access: 'admin' },
        schema: {
          summary: `Expirables forecast: credentials expiring per month for 12 months, by kind, and recredentialing due dates${as} (issue 34)`,
          description:
            "The twelve UTC months from now's: the dated credentials the 'Expiring' tab lists, expiring in each month (from today) by kind, and the running credentials' recredentialing due dates (36 months after approval, NCQA CR 4).",
          tags: ['reports'],
          response: {
            200: csv ? z.unknown().describe('The CSV file') : expirablesReportSchema,
            ...errorResponses,
          },
        },
      },
      async (request, reply) => {
        await requirePermission(request, 'read:report:any');
        const report = await expirablesReport(app.deps.db, new Date());
        return csv ? sendCsv(reply, 'expirables', expirablesCsv(report)) : report;
      },
    );

    app.get(
      `/api/admin/reports/screening${suffix}`,
      {
        config: { access: 'admin' },
        schema: {
          summary: `Screening: monitoring runs and findings per month, open possible matches and their age, each list's last import${as} (issue 34)`,
          description:
            '`from`, `to`: UTC days (YYYY-MM-DD), both included, both or neither, at most 36 months; default the twelve months ending today. Open possible matches and last imports are at now. The CSV holds the per-month table.',
          tags: ['reports'],
          querystring: reportQuerySchema,
          response: {
            200: csv ? z.unknown().describe('The CSV file') : screeningReportSchema,
            ...errorResponses,
          },
        },
      },
      async (request, reply) => {
        await requirePermission(request, 'read:report:any');
        const report = await screeningReport(app.deps.db, request.query, new Date());
        return csv ? sendCsv(reply, 'screening', screeningCsv(report)) : report;
      },
    );
  }
}
