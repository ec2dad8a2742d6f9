/**
 * What the 'Reports' tab draws (issue 34): each report's answer turned into the rows and series of a
 * Mantine chart, and the sentence that names the chart for assistive technology (the SVG itself is not
 * readable; the same numbers are in the table under 'Show as table'). Pure: no React, no fetch.
 */
import {
  cycleLabel,
  type TimelinessReport,
  type TurnaroundReport,
  timelinessClocks,
  turnaroundStageLabel,
  turnaroundStages,
  type WorkloadReport,
} from '../../../domain/api/reports.ts';
import type {
  BacklogReport,
  ExpirablesReport,
  ScreeningReport,
} from '../../../domain/api/reports-pipeline.ts';
import { applicationStatusLabel } from '../../../domain/application-status.ts';
import { formatIsoDay } from '../../../domain/calendar.ts';
import { credentialKindLabel, credentialKinds } from '../../../domain/credentials/expiring-credentials.ts';
import { ageBuckets } from '../../../domain/reports/pipeline-buckets.ts';
import { monthsBetween } from '../../../domain/reports/report-math.ts';

/** A chart's series: the data key, its label in the legend and tooltip, a Mantine colour, a stack. */
export interface ChartSeries {
  name: string;
  label: string;
  color: string;
  stackId?: string;
}

/** A chart: one row per x-axis value (`x` the label), one key per series. */
export interface ChartModel {
  data: Record<string, string | number | null>[];
  series: ChartSeries[];
}

/**
 * Colours of the series in order, at shades dark enough for 3:1 against white (WCAG 1.4.11) and
 * apart in hue, so neighbours in a stack are told apart.
 */
export const seriesColors = [
  'indigo.7',
  'teal.8',
  'orange.8',
  'grape.7',
  'cyan.9',
  'red.8',
  'lime.9',
  'gray.7',
] as const;

/** Appended to every chart's name: where its numbers can be read. */
const TABLE_HINT = "The numbers are in the table under 'Show as table'.";

/** 'YYYY-MM' -> 'Mar 2026' (a UTC month, whatever the browser's zone). */
export function monthLabel(month: string): string {
  return new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-US', {
    timeZone: 'UTC',
    month: 'short',
    year: 'numeric',
  });
}

/** 'Jan 1, 2026 to Mar 31, 2026'. */
export function rangeLabel(from: string, to: string): string {
  return `${formatIsoDay(from)} to ${formatIsoDay(to)}`;
}

/** A count with thousands separators, as every figure of the tab is written: 36,557. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** A count with its noun: (1, 'file') -> '1 file', (2, 'file') -> '2 files'. */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** Days for a table cell or a sentence: 12.5 -> '12.5', null (no file) -> '—'. */
export function daysText(days: number | null): string {
  return days === null ? '—' : days.toLocaleString('en-US', { maximumFractionDigits: 1 });
}

/** The label of an age bucket in days: '0–30' -> '0–30 days', 'over 120' -> 'Over 120 days'. */
export function ageBucketLabel(bucket: (typeof ageBuckets)[number]): string {
  return `${bucket} days`.replace(/^over/, 'Over');
}

// ---- 1. Turnaround -------------------------------------------------------------------------------------

/** Files decided in the range (approved or rejected). */
export function turnaroundFiles(report: TurnaroundReport): number {
  return report.months.reduce((sum, m) => sum + m.all.files, 0);
}

/**
 * Issue 34 item 1, as lines per month of decision: the median and 90th percentile days from completion
 * to decision of all files, and the medians of initial and recredentialing files. A month without a
 * decision has no point (null), never a 0.
 */
export function turnaroundChart(report: TurnaroundReport): ChartModel {
  return {
    data: report.months.map((m) => ({
      x: monthLabel(m.month),
      median: m.all.medianDays,
      p90: m.all.p90Days,
      initial: m.initial.medianDays,
      recredentialing: m.recredentialing.medianDays,
    })),
    series: [
      { name: 'median', label: 'Median, all files', color: seriesColors[0] },
      { name: 'p90', label: '90th percentile, all files', color: seriesColors[5] },
      { name: 'initial', label: `Median, ${cycleLabel.initial.toLowerCase()}`, color: seriesColors[1] },
      {
        name: 'recredentialing',
        label: `Median, ${cycleLabel.recredentialing.toLowerCase()}`,
        color: seriesColors[3],
      },
    ],
  };
}

/** Issue 34 item 1's stages: the median days of each stage per month of decision, stacked. */
export function turnaroundStagesChart(report: TurnaroundReport): ChartModel {
  return {
    data: report.months.map((m) => ({
      x: monthLabel(m.month),
      ...Object.fromEntries(turnaroundStages.map((s) => [s, m.stages[s].medianDays ?? 0])),
    })),
    series: turnaroundStages.map((s, i) => ({
      name: s,
      label: turnaroundStageLabel[s],
      color: seriesColors[i]!,
      stackId: 'stages',
    })),
  };
}

/** The turnaround chart's accessible name. */
export function turnaroundSummary(report: TurnaroundReport): string {
  const latest = report.months.findLast((m) => m.all.files > 0);
  const latestText = latest
    ? ` In ${monthLabel(latest.month)}, the latest month with decisions: median ${daysText(latest.all.medianDays)} days, 90th percentile ${daysText(latest.all.p90Days)} days.`
    : '';
  return `Line chart of the days from completion to decision per month, ${rangeLabel(report.from, report.to)}: ${countOf(turnaroundFiles(report), 'file')} decided.${latestText} ${TABLE_HINT}`;
}

/** The stages chart's accessible name. */
export function turnaroundStagesSummary(report: TurnaroundReport): string {
  const medians = turnaroundStages
    .map((s) => {
      const all = report.months.filter((m) => m.stages[s].files > 0).map((m) => m.stages[s].medianDays ?? 0);
      return all.length ? `${turnaroundStageLabel[s]} up to ${daysText(Math.max(...all))} days` : null;
    })
    .filter((text) => text !== null);
  return `Stacked bar chart of the median days of each stage per month, ${rangeLabel(report.from, report.to)}${medians.length ? `: ${medians.join('; ')}` : ''}. ${TABLE_HINT}`;
}

// ---- 2. Backlog and aging ------------------------------------------------------------------------------

/** Issue 34 item 2: open files per age bucket (days since the attestation), stacked by status. */
export function backlogChart(report: BacklogReport): ChartModel {
  return {
    data: ageBuckets.map((bucket) => ({
      x: ageBucketLabel(bucket),
      ...Object.fromEntries(report.byStatus.map((s) => [s.status, s.buckets[bucket]])),
    })),
    series: report.byStatus.map((s, i) => ({
      name: s.status,
      label: applicationStatusLabel[s.status],
      color: seriesColors[i === 0 ? 2 : 0]!,
      stackId: 'open',
    })),
  };
}

/** The backlog chart's accessible name. */
export function backlogSummary(report: BacklogReport): string {
  const buckets = ageBuckets.map((b) => `${ageBucketLabel(b)} ${formatCount(report.total[b])}`).join(', ');
  return `Stacked bar chart of open files by days since attestation and status: ${buckets}; ${countOf(report.total.total, 'open file')} in all. ${TABLE_HINT}`;
}

// ---- 3. Timeliness -------------------------------------------------------------------------------------

/** Decisions in the range, and those made within both limits. */
export function timelinessTotals(report: TimelinessReport): { decided: number; timely: number } {
  return report.months.reduce(
    (sum, m) => ({ decided: sum.decided + m.decided, timely: sum.timely + m.timely }),
    { decided: 0, timely: 0 },
  );
}

/**
 * Issue 34 item 3, as a share per month: decisions within both of NCQA's limits ('In time') and the
 * others ('Late'), drawn as parts of 100 %; a month without decisions has no bar.
 */
export function timelinessChart(report: TimelinessReport): ChartModel {
  return {
    data: report.months.map((m) => ({
      x: monthLabel(m.month),
      timely: m.timely,
      late: m.decided - m.timely,
    })),
    series: [
      { name: 'timely', label: 'In time', color: seriesColors[1] },
      { name: 'late', label: 'Late', color: seriesColors[5] },
    ],
  };
}

/** The timeliness chart's accessible name. */
export function timelinessSummary(report: TimelinessReport): string {
  const { decided, timely } = timelinessTotals(report);
  const share = decided ? ` (${Math.round((timely / decided) * 1000) / 10}%)` : '';
  return `Bar chart of the share of decisions made within ${report.limits.attestationValidDays} days of the attestation and ${report.limits.verificationMaxAgeDays} days of the oldest verification, per month, ${rangeLabel(report.from, report.to)}: ${formatCount(timely)} of ${countOf(decided, 'decision')} in time${share}. ${TABLE_HINT}`;
}

/** The clocks a late file missed, in words: ['attestation'] -> 'Attestation'. */
export function missedClocksText(clocks: readonly (typeof timelinessClocks)[number][]): string {
  const words: Record<(typeof timelinessClocks)[number], string> = {
    attestation: 'Attestation',
    verification: 'Oldest verification',
  };
  return timelinessClocks
    .filter((c) => clocks.includes(c))
    .map((c) => words[c])
    .join(' and ');
}

// ---- 4. Expirables forecast ----------------------------------------------------------------------------

/**
 * Issue 34 item 4: per month of the next twelve, the credentials expiring stacked by kind, and beside
 * them (their own bar) the recredentialing due dates.
 */
export function expirablesChart(report: ExpirablesReport): ChartModel {
  return {
    data: report.months.map((m) => ({
      x: monthLabel(m.month),
      ...m.byKind,
      recredentialingDue: m.recredentialingDue,
    })),
    series: [
      ...credentialKinds.map((k, i) => ({
        name: k,
        label: credentialKindLabel[k],
        color: seriesColors[i]!,
        stackId: 'credentials',
      })),
      {
        name: 'recredentialingDue',
        label: 'Recredentialing due',
        color: 'dark.9',
        stackId: 'recredentialing',
      },
    ],
  };
}

/** Credentials expiring and recredentialing due over the forecast. */
export function expirablesTotals(report: ExpirablesReport): { credentials: number; recredentialing: number } {
  return report.months.reduce(
    (sum, m) => ({
      credentials: sum.credentials + m.credentials,
      recredentialing: sum.recredentialing + m.recredentialingDue,
    }),
    { credentials: 0, recredentialing: 0 },
  );
}

/** The forecast chart's accessible name. */
export function expirablesSummary(report: ExpirablesReport): string {
  const { credentials, recredentialing } = expirablesTotals(report);
  const first = report.months[0]?.month;
  const last = report.months.at(-1)?.month;
  const span = first && last ? `, ${monthLabel(first)} to ${monthLabel(last)}` : '';
  return `Stacked bar chart of the credentials expiring per month by kind, beside the recredentialing due dates${span}: ${countOf(credentials, 'credential')} expiring, ${countOf(recredentialing, 'recredentialing')} due. ${TABLE_HINT}`;
}

// ---- 5. Screening --------------------------------------------------------------------------------------

/**
 * Issue 34 item 5: per month, the monitoring runs (the monthly job's and those after an import,
 * stacked) beside the findings recorded (matches and possible matches, stacked).
 */
export function screeningChart(report: ScreeningReport): ChartModel {
  return {
    data: report.months.map((m) => ({
      x: monthLabel(m.month),
      scheduledRuns: m.scheduledRuns,
      importRuns: m.importRuns,
      matches: m.matches,
      possibleMatches: m.possibleMatches,
    })),
    series: [
      { name: 'scheduledRuns', label: 'Monthly runs', color: seriesColors[0], stackId: 'runs' },
      { name: 'importRuns', label: 'Runs after an import', color: seriesColors[1], stackId: 'runs' },
      { name: 'matches', label: 'Matches found', color: seriesColors[5], stackId: 'findings' },
      {
        name: 'possibleMatches',
        label: 'Possible matches found',
        color: seriesColors[2],
        stackId: 'findings',
      },
    ],
  };
}

/** Runs and findings over the range. */
export function screeningTotals(report: ScreeningReport) {
  return report.months.reduce(
    (sum, m) => ({
      runs: sum.runs + m.scheduledRuns + m.importRuns,
      matches: sum.matches + m.matches,
      possibleMatches: sum.possibleMatches + m.possibleMatches,
    }),
    { runs: 0, matches: 0, possibleMatches: 0 },
  );
}

/** The screening chart's accessible name. */
export function screeningSummary(report: ScreeningReport): string {
  const t = screeningTotals(report);
  return `Bar chart of monitoring runs and findings per month, ${rangeLabel(report.from, report.to)}: ${countOf(t.runs, 'run')}, ${countOf(t.matches, 'match', 'matches')} and ${countOf(t.possibleMatches, 'possible match', 'possible matches')} found. ${TABLE_HINT}`;
}

// ---- 6. Workload ---------------------------------------------------------------------------------------

/** How many people get their own series; the rest are one, 'Everyone else' (a legend stays readable). */
export const WORKLOAD_PEOPLE_SHOWN = 7;

/** The counts of a Workload chart. */
export type WorkloadMetric = 'filesDecided' | 'itemsVerified';

/**
 * Issue 34 item 6, one chart per count: per month of the range (every month, those without work at
 * 0), `metric` stacked by person. The
 * WORKLOAD_PEOPLE_SHOWN people with the most of it have their own series; the others are summed as
 * 'Everyone else'. People with none of it are left out.
 */
export function workloadChart(report: WorkloadReport, metric: WorkloadMetric): ChartModel {
  const totals = new Map<string, { name: string; total: number }>();
  for (const row of report.rows) {
    const person = totals.get(row.userId) ?? { name: row.name, total: 0 };
    person.total += row[metric];
    totals.set(row.userId, person);
  }
  const ranked = [...totals.entries()]
    .filter(([, p]) => p.total > 0)
    .sort(([, a], [, b]) => b.total - a.total || a.name.localeCompare(b.name));
  const shown = ranked.slice(0, WORKLOAD_PEOPLE_SHOWN);
  const others = ranked.length > shown.length;
  const keyOf = new Map(shown.map(([userId], i) => [userId, `person${i}`]));
  // Every month of the range, as the other charts (the report lists only months with work).
  const months = monthsBetween(report.from, report.to);
  const data = months.map((month) => {
    const row: Record<string, string | number> = { x: monthLabel(month) };
    for (const key of keyOf.values()) row[key] = 0;
    if (others) row.others = 0;
    for (const r of report.rows) {
      if (r.month !== month || totals.get(r.userId)!.total === 0) continue;
      const key = keyOf.get(r.userId) ?? 'others';
      row[key] = (row[key] as number) + r[metric];
    }
    return row;
  });
  return {
    data: ranked.length ? data : [],
    series: [
      ...shown.map(([, p], i) => ({
        name: `person${i}`,
        label: p.name,
        color: seriesColors[i]!,
        stackId: 'people',
      })),
      ...(others
        ? [{ name: 'others', label: 'Everyone else', color: seriesColors[7], stackId: 'people' }]
        : []),
    ],
  };
}

/** A workload chart's accessible name. */
export function workloadSummary(report: WorkloadReport, metric: WorkloadMetric): string {
  const what = metric === 'filesDecided' ? 'files decided' : 'checklist items verified';
  const total = report.rows.reduce((sum, r) => sum + r[metric], 0);
  const people = new Set(report.rows.filter((r) => r[metric] > 0).map((r) => r.userId)).size;
  return `Stacked bar chart of ${what} per month by person, ${rangeLabel(report.from, report.to)}: ${formatCount(total)} by ${countOf(people, 'person', 'people')}. ${TABLE_HINT}`;
}
