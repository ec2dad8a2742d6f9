/**
 * The pipeline reports of the 'Reports' tab (issue 34 items 2, 4, 5; decision 031): 'Backlog and
 * aging', 'Expirables forecast' and 'Screening', each a card with its chart, its numbers under 'Show
 * as table' and 'Export CSV', and the lists the issue asks for (the oldest ten open files, the open
 * possible matches, each list's last import). Data: GET /api/admin/reports/{backlog,expirables,screening}
 * (reports-api.ts); shapes: domain/api/reports-pipeline.ts.
 */
import { Stack, Text, Title } from '@mantine/core';
import type {
  BacklogReport,
  ExpirablesReport,
  ScreeningReport,
} from '../../../domain/api/reports-pipeline.ts';
import { applicationStatusLabel } from '../../../domain/application-status.ts';
import { credentialKindLabel, credentialKinds } from '../../../domain/credentials/expiring-credentials.ts';
import { type AgeBucket, ageBuckets } from '../../../domain/reports/pipeline-buckets.ts';
import { ResponsiveTable, type TableColumn } from '../../components/responsive-table.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { formatDate } from '../../format.ts';
import { EmptyReport, ReportCard, ReportChart, type ReportProps, TableToggle } from './report-card.tsx';
import {
  ageBucketLabel,
  backlogChart,
  backlogSummary,
  countOf,
  expirablesChart,
  expirablesSummary,
  expirablesTotals,
  formatCount,
  monthLabel,
  rangeLabel,
  screeningChart,
  screeningSummary,
  screeningTotals,
} from './report-charts.ts';
import { reportPath, useReport } from './reports-api.ts';
import { ReviewLink } from './review-link.tsx';

/** A row of the backlog's table: one open status, or 'All open'. */
interface BacklogRow {
  label: string;
  buckets: Record<AgeBucket, number>;
  total: number;
}

const backlogColumns: TableColumn<BacklogRow>[] = [
  { header: 'Status', render: (r) => r.label },
  ...ageBuckets.map(
    (b): TableColumn<BacklogRow> => ({ header: ageBucketLabel(b), render: (r) => formatCount(r.buckets[b]) }),
  ),
  { header: 'Total', render: (r) => formatCount(r.total) },
];

type OldestFile = BacklogReport['oldest'][number];

const oldestColumns: TableColumn<OldestFile>[] = [
  {
    header: 'Provider',
    render: (f) => <ReviewLink applicationId={f.applicationId} providerName={f.providerName} />,
  },
  { header: 'Status', render: (f) => <StatusBadge status={f.status} /> },
  { header: 'Attested', render: (f) => formatDate(f.attestedAt), noWrap: true },
  { header: 'Days since attestation', render: (f) => f.days },
];

/**
 * 'Backlog and aging' (issue 34 item 2): the open files now (Submitted, Under Review) by days since
 * the attestation, stacked by status, for everyone or the files assigned to the chosen specialist;
 * and the ten oldest, linked to their review pages.
 */
export function BacklogReportCard({ filter, enabled }: ReportProps) {
  const query = useReport('backlog', filter, enabled);
  return (
    <ReportCard
      reportId="backlog"
      title="Backlog and aging"
      description={`Open files now (${applicationStatusLabel.submitted}, ${applicationStatusLabel.under_review}) by days since the attestation${filter.specialist ? ', assigned to the chosen specialist' : ''}; the date range does not apply.`}
      csvHref={reportPath('backlog', filter, 'csv')}
      query={query}
      loadingLabel="Loading the backlog report..."
    >
      {(report) => {
        if (report.total.total === 0)
          return (
            <EmptyReport>
              {filter.specialist ? 'No open files are assigned to this person.' : 'No open files.'}
            </EmptyReport>
          );
        const rows: BacklogRow[] = [
          ...report.byStatus.map((s) => ({ label: applicationStatusLabel[s.status], ...s })),
          { label: 'All open', buckets: report.total, total: report.total.total },
        ];
        return (
          <>
            <Text size="sm">{countOf(report.total.total, 'open file')}</Text>
            <ReportChart
              kind="bar"
              model={backlogChart(report)}
              summary={backlogSummary(report)}
              yAxisLabel="Files"
            />
            <TableToggle reportId="backlog">
              <ResponsiveTable
                label="Open files by status and days since attestation"
                caption
                rows={rows}
                columns={backlogColumns}
                rowKey={(r) => r.label}
              />
            </TableToggle>
            <Stack gap="xs">
              <Title order={4} size="h5">
                Oldest open files
              </Title>
              <ResponsiveTable
                label="The oldest open files, oldest attestation first"
                rows={report.oldest}
                columns={oldestColumns}
                rowKey={(f) => f.applicationId}
              />
            </Stack>
          </>
        );
      }}
    </ReportCard>
  );
}

type ExpirablesMonth = ExpirablesReport['months'][number];

const expirablesColumns: TableColumn<ExpirablesMonth>[] = [
  { header: 'Month', render: (m) => monthLabel(m.month), noWrap: true },
  ...credentialKinds.map(
    (k): TableColumn<ExpirablesMonth> => ({
      header: credentialKindLabel[k],
      render: (m) => formatCount(m.byKind[k]),
    }),
  ),
  { header: 'All credentials', render: (m) => formatCount(m.credentials) },
  { header: 'Recredentialing due', render: (m) => formatCount(m.recredentialingDue) },
];

/**
 * 'Expirables forecast' (issue 34 item 4): for this month and the eleven after it, the credentials
 * the 'Expiring' tab lists expiring in each, stacked by kind, and the recredentialing due dates.
 */
export function ExpirablesReportCard({ enabled }: Pick<ReportProps, 'enabled'>) {
  const query = useReport('expirables', {}, enabled);
  return (
    <ReportCard
      reportId="expirables"
      title="Expirables forecast"
      description="Credentials expiring per month for the next 12 months, from today, by kind (those the 'Expiring' tab lists), and the recredentialing due dates; the date range does not apply."
      csvHref={reportPath('expirables', {}, 'csv')}
      query={query}
      loadingLabel="Loading the expirables forecast..."
    >
      {(report) => {
        const totals = expirablesTotals(report);
        if (totals.credentials === 0 && totals.recredentialing === 0)
          return (
            <EmptyReport>Nothing expires and no recredentialing falls due in the next 12 months.</EmptyReport>
          );
        return (
          <>
            <Text size="sm">
              {countOf(totals.credentials, 'credential')} expiring,{' '}
              {countOf(totals.recredentialing, 'recredentialing')} due
            </Text>
            <ReportChart
              kind="bar"
              model={expirablesChart(report)}
              summary={expirablesSummary(report)}
              yAxisLabel="Count"
            />
            <TableToggle reportId="expirables">
              <ResponsiveTable
                label="Credentials expiring and recredentialing due per month"
                caption
                rows={report.months}
                columns={expirablesColumns}
                rowKey={(m) => m.month}
                minWidth={960}
              />
            </TableToggle>
          </>
        );
      }}
    </ReportCard>
  );
}

type ScreeningMonth = ScreeningReport['months'][number];
type ScreeningSource = ScreeningReport['sources'][number];

const screeningColumns: TableColumn<ScreeningMonth>[] = [
  { header: 'Month', render: (m) => monthLabel(m.month), noWrap: true },
  { header: 'Monthly runs', render: (m) => formatCount(m.scheduledRuns) },
  { header: 'Runs after an import', render: (m) => formatCount(m.importRuns) },
  { header: 'Matches found', render: (m) => formatCount(m.matches) },
  { header: 'Possible matches found', render: (m) => formatCount(m.possibleMatches) },
];

const openBucketColumns: TableColumn<{ bucket: AgeBucket; n: number }>[] = [
  { header: 'Days since found', render: (r) => ageBucketLabel(r.bucket) },
  { header: 'Open possible matches', render: (r) => formatCount(r.n) },
];

const sourceColumns: TableColumn<ScreeningSource>[] = [
  { header: 'List', render: (s) => s.label },
  {
    header: 'Last import',
    render: (s) => (s.lastAppliedAt ? formatDate(s.lastAppliedAt) : 'Never imported'),
    noWrap: true,
  },
  { header: 'Days since', render: (s) => s.days ?? '—' },
  { header: 'Rows', render: (s) => (s.rows === null ? '—' : formatCount(s.rows)) },
];

/**
 * 'Screening' (issue 34 item 5): per month of the range, the monitoring runs and the findings
 * recorded (a bar chart); the possible matches open now by age; each list's last import.
 */
export function ScreeningReportCard({ filter, enabled }: ReportProps) {
  const query = useReport('screening', filter, enabled);
  return (
    <ReportCard
      reportId="screening"
      title="Screening"
      description="Monitoring runs and the matches they found per month; the possible matches open now and their age; each exclusion list's last import."
      csvHref={reportPath('screening', filter, 'csv')}
      query={query}
      loadingLabel="Loading the screening report..."
    >
      {(report) => {
        const totals = screeningTotals(report);
        const open = report.openPossibleMatches;
        return (
          <>
            <Text size="sm">{rangeLabel(report.from, report.to)} (UTC)</Text>
            {totals.runs + totals.matches + totals.possibleMatches === 0 ? (
              <EmptyReport>No monitoring runs and no findings in this range.</EmptyReport>
            ) : (
              <>
                <ReportChart
                  kind="bar"
                  model={screeningChart(report)}
                  summary={screeningSummary(report)}
                  yAxisLabel="Count"
                />
                <TableToggle reportId="screening">
                  <ResponsiveTable
                    label="Monitoring runs and findings per month"
                    caption
                    rows={report.months}
                    columns={screeningColumns}
                    rowKey={(m) => m.month}
                  />
                </TableToggle>
              </>
            )}
            <Stack gap="xs">
              <Title order={4} size="h5">
                Open possible matches
              </Title>
              {open.total === 0 ? (
                <Text size="sm">No possible match is waiting for a decision.</Text>
              ) : (
                <>
                  <Text size="sm">
                    {countOf(open.total, 'possible match', 'possible matches')} open; the oldest was found{' '}
                    {open.oldestDays ? `${countOf(open.oldestDays, 'day')} ago` : 'today'}.
                  </Text>
                  <ResponsiveTable
                    label="Open possible matches by days since found"
                    rows={ageBuckets.map((bucket) => ({ bucket, n: open.buckets[bucket] }))}
                    columns={openBucketColumns}
                    rowKey={(r) => r.bucket}
                  />
                </>
              )}
            </Stack>
            <Stack gap="xs">
              <Title order={4} size="h5">
                Last import of each list
              </Title>
              <ResponsiveTable
                label="Each exclusion list's last applied import"
                rows={report.sources}
                columns={sourceColumns}
                rowKey={(s) => s.source}
              />
            </Stack>
          </>
        );
      }}
    </ReportCard>
  );
}
