/**
 * The decision-centred reports of the 'Reports' tab (issue 34 items 1, 3, 6; decision 031):
 * 'Turnaround', 'Timeliness' and 'Workload', each a card with its chart, its numbers under 'Show as
 * table' and 'Export CSV'. Data: GET /api/admin/reports/{turnaround,timeliness,workload}
 * (reports-api.ts); shapes: domain/api/reports.ts.
 */
import { Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import {
  cycleLabel,
  type TimelinessReport,
  type TurnaroundReport,
  turnaroundStageLabel,
  turnaroundStages,
  type WorkloadReport,
} from '../../../domain/api/reports.ts';
import { formatIsoDay } from '../../../domain/calendar.ts';
import { ListPager } from '../../components/list-pager.tsx';
import { ResponsiveTable, type TableColumn } from '../../components/responsive-table.tsx';
import { EmptyReport, ReportCard, ReportChart, type ReportProps, TableToggle } from './report-card.tsx';
import {
  daysText,
  formatCount,
  missedClocksText,
  monthLabel,
  rangeLabel,
  timelinessChart,
  timelinessSummary,
  timelinessTotals,
  turnaroundChart,
  turnaroundFiles,
  turnaroundStagesChart,
  turnaroundStagesSummary,
  turnaroundSummary,
  workloadChart,
  workloadSummary,
} from './report-charts.ts';
import { reportPath, useReport } from './reports-api.ts';
import { ReviewLink } from './review-link.tsx';

/** The range a dated report covers, as the server filled it in. */
function RangeLine({ from, to }: { from: string; to: string }) {
  return <Text size="sm">{rangeLabel(from, to)} (UTC)</Text>;
}

type TurnaroundMonth = TurnaroundReport['months'][number];

const turnaroundColumns: TableColumn<TurnaroundMonth>[] = [
  { header: 'Month', render: (m) => monthLabel(m.month), noWrap: true },
  { header: 'Files decided', render: (m) => formatCount(m.all.files) },
  { header: 'Median days', render: (m) => daysText(m.all.medianDays) },
  { header: '90th percentile days', render: (m) => daysText(m.all.p90Days) },
  ...(['initial', 'recredentialing'] as const).flatMap((cycle): TableColumn<TurnaroundMonth>[] => [
    { header: `${cycleLabel[cycle]}: median days`, render: (m) => daysText(m[cycle].medianDays) },
    { header: `${cycleLabel[cycle]}: 90th percentile days`, render: (m) => daysText(m[cycle].p90Days) },
  ]),
  ...turnaroundStages.map(
    (s): TableColumn<TurnaroundMonth> => ({
      header: `${turnaroundStageLabel[s]}: median days`,
      render: (m) => daysText(m.stages[s].medianDays),
    }),
  ),
];

/**
 * 'Turnaround' (issue 34 item 1): per month of decision, the median and 90th percentile days from
 * completion (the attestation) to the decision, all files and split initial / recredentialing (a line
 * chart), and the median days of each stage (a stacked bar chart).
 */
export function TurnaroundReportCard({ filter, enabled }: ReportProps) {
  const query = useReport('turnaround', filter, enabled);
  return (
    <ReportCard
      reportId="turnaround"
      title="Turnaround"
      description="Days from completion (the attestation) to the decision, approved and rejected files, per month of decision; and the days each stage took."
      csvHref={reportPath('turnaround', filter, 'csv')}
      query={query}
      loadingLabel="Loading the turnaround report..."
    >
      {(report) => (
        <>
          <RangeLine from={report.from} to={report.to} />
          {turnaroundFiles(report) === 0 ? (
            <EmptyReport>No decisions in this range.</EmptyReport>
          ) : (
            <>
              <ReportChart
                kind="line"
                heading="Days from completion to decision"
                model={turnaroundChart(report)}
                summary={turnaroundSummary(report)}
                yAxisLabel="Days"
                decimals
              />
              <ReportChart
                kind="bar"
                heading="Median days in each stage (each stage's own median)"
                model={turnaroundStagesChart(report)}
                summary={turnaroundStagesSummary(report)}
                yAxisLabel="Days"
                decimals
              />
              <TableToggle reportId="turnaround">
                <ResponsiveTable
                  label="Turnaround per month of decision"
                  caption
                  rows={report.months}
                  columns={turnaroundColumns}
                  rowKey={(m) => m.month}
                  minWidth={1100}
                />
              </TableToggle>
            </>
          )}
        </>
      )}
    </ReportCard>
  );
}

type TimelinessMonth = TimelinessReport['months'][number];
type MissedFile = TimelinessReport['missed'][number];

const missedColumns: TableColumn<MissedFile>[] = [
  {
    header: 'Provider',
    render: (f) => <ReviewLink applicationId={f.applicationId} providerName={f.providerName} />,
  },
  { header: 'Cycle', render: (f) => cycleLabel[f.cycle] },
  { header: 'Decided on', render: (f) => formatIsoDay(f.decidedOn), noWrap: true },
  { header: 'Days from attestation', render: (f) => f.daysFromAttestation ?? '—' },
  { header: 'Days from oldest verification', render: (f) => f.daysFromOldestVerification ?? '—' },
  { header: 'Missed', render: (f) => missedClocksText(f.missedClocks) },
];

/**
 * 'Timeliness' (issue 34 item 3, NCQA's limits): per month of decision, the share of decisions made
 * within the attestation's and the oldest verification's limits (a 100 % bar chart), and every file
 * that missed either, linked to its review page.
 */
export function TimelinessReportCard({ filter, enabled }: ReportProps) {
  const query = useReport('timeliness', filter, enabled);
  return (
    <ReportCard
      reportId="timeliness"
      title="Timeliness"
      description="Decisions made within NCQA's limits of the attestation and of the oldest verification, as a share per month, and the files that missed."
      csvHref={reportPath('timeliness', filter, 'csv')}
      query={query}
      loadingLabel="Loading the timeliness report..."
    >
      {(report) => {
        const { attestationValidDays: a, verificationMaxAgeDays: v } = report.limits;
        const columns: TableColumn<TimelinessMonth>[] = [
          { header: 'Month', render: (m) => monthLabel(m.month), noWrap: true },
          { header: 'Decided', render: (m) => formatCount(m.decided) },
          { header: `Within ${a} days of attestation`, render: (m) => formatCount(m.withinAttestation) },
          {
            header: `Within ${v} days of oldest verification`,
            render: (m) => formatCount(m.withinVerification),
          },
          { header: 'In time (both)', render: (m) => formatCount(m.timely) },
          {
            header: 'Share in time',
            render: (m) => (m.timelyPercent === null ? '—' : `${m.timelyPercent}%`),
          },
        ];
        return (
          <>
            <RangeLine from={report.from} to={report.to} />
            {timelinessTotals(report).decided === 0 ? (
              <EmptyReport>No decisions in this range.</EmptyReport>
            ) : (
              <>
                <ReportChart
                  kind="bar"
                  barType="percent"
                  model={timelinessChart(report)}
                  summary={timelinessSummary(report)}
                  yAxisLabel="Share of decisions"
                />
                <TableToggle reportId="timeliness">
                  <ResponsiveTable
                    label="Timeliness per month of decision"
                    caption
                    rows={report.months}
                    columns={columns}
                    rowKey={(m) => m.month}
                    minWidth={760}
                  />
                </TableToggle>
                <Stack gap="xs">
                  <Title order={4} size="h5">
                    Files that missed
                  </Title>
                  {report.missed.length === 0 ? (
                    <Text size="sm">No decision in this range missed either limit.</Text>
                  ) : (
                    <MissedFiles files={report.missed} />
                  )}
                </Stack>
              </>
            )}
          </>
        );
      }}
    </ReportCard>
  );
}

/** Late files shown per page ('Files that missed'). */
const MISSED_PAGE_SIZE = 10;

/**
 * 'Files that missed' (issue 34 item 3), MISSED_PAGE_SIZE at a time with page buttons: a range of
 * 36 months may hold a thousand late files (the CSV has them all). Back to the first page when the
 * list changes (another range).
 */
function MissedFiles({ files }: { files: TimelinessReport['missed'] }) {
  const [shown, setShown] = useState({ files, page: 1 });
  const page = shown.files === files ? shown.page : 1;
  const pages = Math.max(1, Math.ceil(files.length / MISSED_PAGE_SIZE));
  const current = Math.min(page, pages);
  return (
    <Stack gap="xs">
      <ResponsiveTable
        label="Files decided after a limit, oldest decision first"
        rows={files.slice((current - 1) * MISSED_PAGE_SIZE, current * MISSED_PAGE_SIZE)}
        columns={missedColumns}
        rowKey={(f) => `${f.applicationId}-${f.decidedOn}`}
        minWidth={760}
      />
      <ListPager
        info={{ page: current, pageSize: MISSED_PAGE_SIZE, total: files.length, totalCapped: false }}
        noun={['file that missed', 'files that missed']}
        onPageChange={(next) => setShown({ files, page: next })}
      />
    </Stack>
  );
}

type WorkloadRow = WorkloadReport['rows'][number];

const workloadColumns: TableColumn<WorkloadRow>[] = [
  { header: 'Month', render: (r) => monthLabel(r.month), noWrap: true },
  { header: 'Staff member', render: (r) => r.name || r.userId },
  { header: 'Files decided', render: (r) => formatCount(r.filesDecided) },
  { header: 'Decisions recorded', render: (r) => formatCount(r.filesRecorded) },
  { header: 'Items verified', render: (r) => formatCount(r.itemsVerified) },
];

/**
 * 'Workload' (issue 34 item 6): per month, the files each person decided and the checklist items each
 * verified (two bar charts stacked by person), for everyone or the chosen specialist.
 */
export function WorkloadReportCard({ filter, enabled }: ReportProps) {
  const query = useReport('workload', filter, enabled);
  return (
    <ReportCard
      reportId="workload"
      title="Workload"
      description={
        filter.specialist
          ? 'Files decided and checklist items verified per month by the chosen specialist.'
          : 'Files decided and checklist items verified per specialist per month.'
      }
      csvHref={reportPath('workload', filter, 'csv')}
      query={query}
      loadingLabel="Loading the workload report..."
    >
      {(report) => {
        const decided = workloadChart(report, 'filesDecided');
        const verified = workloadChart(report, 'itemsVerified');
        return (
          <>
            <RangeLine from={report.from} to={report.to} />
            {report.rows.length === 0 ? (
              <EmptyReport>No files decided and no items verified in this range.</EmptyReport>
            ) : (
              <>
                {decided.data.length > 0 ? (
                  <ReportChart
                    kind="bar"
                    heading="Files decided"
                    model={decided}
                    summary={workloadSummary(report, 'filesDecided')}
                    yAxisLabel="Files"
                  />
                ) : (
                  <Text size="sm">No files decided in this range.</Text>
                )}
                {verified.data.length > 0 ? (
                  <ReportChart
                    kind="bar"
                    heading="Items verified"
                    model={verified}
                    summary={workloadSummary(report, 'itemsVerified')}
                    yAxisLabel="Items"
                  />
                ) : (
                  <Text size="sm">No checklist items verified in this range.</Text>
                )}
                <TableToggle reportId="workload">
                  <ResponsiveTable
                    label="Workload per person and month"
                    caption
                    rows={report.rows}
                    columns={workloadColumns}
                    rowKey={(r) => `${r.month}-${r.userId}`}
                  />
                </TableToggle>
              </>
            )}
          </>
        );
      }}
    </ReportCard>
  );
}
