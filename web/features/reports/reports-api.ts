/**
 * The 'Reports' tab's reads (issue 34, decision 031): the six reports under GET /api/admin/reports/*,
 * each as JSON (parsed with the contract's schemas, domain/api/reports.ts and reports-pipeline.ts)
 * and as the `.csv` download of the same query, and the people the specialist filter offers.
 * Errors reach the queries' `error` as ApiErrors carrying the server's message.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  type ReportQuery,
  timelinessReportSchema,
  turnaroundReportSchema,
  workloadReportSchema,
} from '../../../domain/api/reports.ts';
import {
  backlogReportSchema,
  expirablesReportSchema,
  screeningReportSchema,
} from '../../../domain/api/reports-pipeline.ts';
import { api } from '../../api.ts';
import { useAuditActors } from '../../app/audit-actors.ts';
import '../../zod-config.ts';

/** The reports in the tab's order (issue 34 items 1, 2, 3, 4, 5, 6). */
export const reportNames = [
  'turnaround',
  'backlog',
  'timeliness',
  'expirables',
  'screening',
  'workload',
] as const;
export type ReportName = (typeof reportNames)[number];

const reportSchemas = {
  turnaround: turnaroundReportSchema,
  backlog: backlogReportSchema,
  timeliness: timelinessReportSchema,
  expirables: expirablesReportSchema,
  screening: screeningReportSchema,
  workload: workloadReportSchema,
} as const satisfies Record<ReportName, z.ZodType>;

/** The JSON body of each report. */
export type ReportOf<N extends ReportName> = z.output<(typeof reportSchemas)[N]>;

/**
 * Which filter fields each report's route reads (server/reports/*.routes.ts): the range for the dated
 * reports; the specialist for Backlog (the assigned reviewer) and Workload (the person); nothing for
 * the expirables forecast (the next 12 months from today).
 */
export const reportFilterFields: Record<ReportName, readonly (keyof ReportQuery)[]> = {
  turnaround: ['from', 'to'],
  backlog: ['specialist'],
  timeliness: ['from', 'to'],
  expirables: [],
  screening: ['from', 'to'],
  workload: ['from', 'to', 'specialist'],
};

/** The part of `filter` report `name` reads (so a filter it ignores never changes its cache key). */
export function reportQueryOf(name: ReportName, filter: ReportQuery): ReportQuery {
  return Object.fromEntries(
    reportFilterFields[name].flatMap((field) => (filter[field] ? [[field, filter[field]]] : [])),
  ) as ReportQuery;
}

/**
 * Where report `name` is read, e.g. `/api/admin/reports/workload?from=2026-01-01&to=2026-03-31&specialist=u1`,
 * or with `format` 'csv' its download (`/api/admin/reports/workload.csv?...`), for `filter`'s fields
 * the report reads (`reportFilterFields`).
 */
export function reportPath(name: ReportName, filter: ReportQuery, format: 'json' | 'csv' = 'json'): string {
  const query = new URLSearchParams(reportQueryOf(name, filter) as Record<string, string>).toString();
  return `/api/admin/reports/${name}${format === 'csv' ? '.csv' : ''}${query ? `?${query}` : ''}`;
}

/**
 * GET one report for `filter` while `enabled` (the tab is open). A changed filter keeps the previous
 * answer on screen until the new one arrives (`isPlaceholderData`, shown as busy).
 */
export function useReport<N extends ReportName>(name: N, filter: ReportQuery, enabled: boolean) {
  const query = reportQueryOf(name, filter);
  return useQuery({
    queryKey: ['admin', 'reports', name, query],
    enabled,
    queryFn: async (): Promise<ReportOf<N>> =>
      reportSchemas[name].parse(await api<unknown>('GET', reportPath(name, query))) as ReportOf<N>,
    placeholderData: keepPreviousData,
  });
}

/** A person the specialist filter offers: a user id and the name (and email, when known) shown. */
export interface SpecialistChoice {
  userId: string;
  name: string;
  email?: string;
}

/**
 * The specialist filter's people. With `listsStaff` (`read:audit:any`: administrators, auditors)
 * everyone holding a staff role, from the audit log's actor list (GET /api/admin/audit-log/actors,
 * the same cache entry as that tab's); otherwise (the medical director) the people with work in the
 * range, from the Workload report for everyone: no other staff list is open to `read:report:any`.
 */
export function useSpecialistChoices(
  listsStaff: boolean,
  range: Pick<ReportQuery, 'from' | 'to'>,
  enabled: boolean,
) {
  const actors = useAuditActors(enabled && listsStaff);
  const workload = useReport('workload', { from: range.from, to: range.to }, enabled && !listsStaff);
  if (listsStaff) return { choices: actors.data?.people, isError: actors.isError };
  return { choices: workload.data && peopleOfWorkload(workload.data), isError: workload.isError };
}

/** Each person of a Workload report once, by name. */
export function peopleOfWorkload(report: ReportOf<'workload'>): SpecialistChoice[] {
  const byId = new Map<string, SpecialistChoice>();
  for (const row of report.rows) byId.set(row.userId, { userId: row.userId, name: row.name });
  return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name));
}
