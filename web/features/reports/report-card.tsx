/**
 * The frame every report of the 'Reports' tab shares (issue 34): a card with the report's heading
 * (level 3) and what it counts, 'Export CSV' (the report's `.csv` for the same query), its loading
 * and error states; the chart, named for assistive technology by a sentence (the SVG is not
 * readable); and the 'Show as table' switch that shows the same numbers as a table (cards on phones).
 */
import '@mantine/charts/styles.css';
import { BarChart, LineChart } from '@mantine/charts';
import { Alert, Box, Button, Card, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import type { ReportQuery } from '../../../domain/api/reports.ts';
import { InlineLoader } from '../../components/inline-loader.tsx';
import type { ChartModel } from './report-charts.ts';

/** What every report card is given: the tab's filter and whether the tab is open (its queries run). */
export interface ReportProps {
  filter: ReportQuery;
  enabled: boolean;
}

/** The id of a report's heading, which names its card and describes its controls. */
const titleIdOf = (reportId: string) => `report-${reportId}-title`;

/**
 * One report's card. `children` renders the answer (charts, lists, the table toggle); while the
 * first answer is on its way a loader shows, and a failure says so with 'Try again'. A changed filter
 * keeps the previous answer shown, marked busy, until the new one arrives.
 * @param reportId a short id unique on the page ('turnaround'), for the element ids
 * @param csvHref the report's CSV download for the current query (reports-api.ts `reportPath`)
 */
export function ReportCard<T>({
  reportId,
  title,
  description,
  csvHref,
  query,
  loadingLabel,
  children,
}: {
  reportId: string;
  title: string;
  description: ReactNode;
  csvHref: string;
  query: UseQueryResult<T>;
  loadingLabel: string;
  children: (data: T) => ReactNode;
}) {
  const titleId = titleIdOf(reportId);
  return (
    <Card
      withBorder
      padding="md"
      component="section"
      aria-labelledby={titleId}
      aria-busy={query.isFetching}
      miw={0}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <Stack gap={2} style={{ flex: '1 1 16rem', minWidth: 0 }}>
            <Title order={3} size="h4" id={titleId}>
              {title}
            </Title>
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          </Stack>
          <Button
            component="a"
            href={csvHref}
            download
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden="true" />}
            aria-describedby={titleId}
          >
            Export CSV
          </Button>
        </Group>
        {query.isPending ? (
          <InlineLoader size="sm" label={loadingLabel} />
        ) : query.isError ? (
          <Alert color="red" variant="light" role="alert" title={`The ${title} report could not be loaded`}>
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{query.error.message}</Text>
              <Button size="xs" variant="default" onClick={() => query.refetch()}>
                Try again
              </Button>
            </Stack>
          </Alert>
        ) : (
          children(query.data)
        )}
      </Stack>
    </Card>
  );
}

/** What a report shows when its range holds nothing to draw ('No decisions in this range.'). */
export function EmptyReport({ children }: { children: ReactNode }) {
  return <Text c="dimmed">{children}</Text>;
}

/**
 * A chart of `model`, full width, named by `summary` (role="img": the SVG's marks mean nothing to a
 * screen reader; the numbers are in the table). `heading` is a visible caption when a card has two.
 * Recharts' keyboard layer is off: its focusable `role="application"` surface would sit inside the
 * image; the table is the keyboard's and the screen reader's way to the numbers.
 */
export function ReportChart({
  kind,
  model,
  summary,
  heading,
  barType = 'default',
  yAxisLabel,
  decimals = false,
}: {
  kind: 'line' | 'bar';
  model: ChartModel;
  summary: string;
  heading?: string;
  /** Bars: side by side and stacked by each series' `stackId` ('default'), or as parts of 100 %. */
  barType?: 'default' | 'percent';
  yAxisLabel?: string;
  /** The values are not whole numbers (days). */
  decimals?: boolean;
}) {
  const common = {
    h: 260,
    w: '100%',
    data: model.data,
    dataKey: 'x',
    withLegend: true,
    // The series' own order (recharts sorts the legend alphabetically by key otherwise).
    legendProps: {
      verticalAlign: 'bottom' as const,
      itemSorter: (item: { dataKey?: unknown }) => model.series.findIndex((s) => s.name === item.dataKey),
    },
    accessibilityLayer: false,
    // Axis ticks and tooltips written as the tables write them: 100,000, 71.4.
    valueFormatter: (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 1 }),
    yAxisLabel,
    xAxisProps: { interval: 'preserveStartEnd' as const, minTickGap: 12 },
    // Parts of 100 % are fractions of 1 on the axis: whole numbers only would stretch it to 400 %.
    yAxisProps: { allowDecimals: decimals || barType === 'percent' },
  };
  return (
    <Stack gap={4}>
      {heading && (
        <Text size="sm" fw={600}>
          {heading}
        </Text>
      )}
      <Box role="img" aria-label={summary}>
        {kind === 'line' ? (
          <LineChart {...common} series={model.series} connectNulls={false} curveType="linear" />
        ) : (
          <BarChart {...common} series={model.series} type={barType} maxBarWidth={48} />
        )}
      </Box>
    </Stack>
  );
}

/**
 * 'Show as table' (issue 34): a switch, reached by Tab and toggled with Space, showing `children`
 * (the report's numbers as a table) beneath it. Off at first: the chart is the report's face.
 */
export function TableToggle({ reportId, children }: { reportId: string; children: ReactNode }) {
  const [shown, setShown] = useState(false);
  const tableId = `report-${reportId}-table`;
  return (
    <Stack gap="xs">
      <Switch
        label="Show as table"
        checked={shown}
        onChange={(event) => setShown(event.currentTarget.checked)}
        aria-controls={tableId}
        aria-describedby={titleIdOf(reportId)}
      />
      <div id={tableId}>{shown && children}</div>
    </Stack>
  );
}
