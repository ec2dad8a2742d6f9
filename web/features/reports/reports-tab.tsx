/**
 * The 'Reports' tab of /admin (issue 34, decision 031), for the roles holding `read:report:any`
 * (administrators, the medical director, auditors): a date range (UTC days, both included; none = the
 * server's last 12 months) and a specialist (Backlog: files assigned to them; Workload: their work),
 * both kept in the URL by the admin page; then the six reports, each a chart with its numbers under
 * 'Show as table' and 'Export CSV': 'Turnaround', 'Backlog and aging', 'Timeliness', 'Expirables
 * forecast', 'Screening', 'Workload'. Reports load only while the tab is open.
 */
import { Group, Select, Stack, Text, Title } from '@mantine/core';
import { FILTER_LAST_DAY } from '../../../domain/api/date-range.ts';
import { type ReportQuery, reportQuerySchema } from '../../../domain/api/reports.ts';
import { DayRangeInput } from '../../components/day-range-input.tsx';
import { TimelinessReportCard, TurnaroundReportCard, WorkloadReportCard } from './decision-reports.tsx';
import { BacklogReportCard, ExpirablesReportCard, ScreeningReportCard } from './pipeline-reports.tsx';
import { useSpecialistChoices } from './reports-api.ts';

/**
 * 'Specialist': the staff member whose assigned files (Backlog) and work (Workload) the reports show;
 * empty = everyone. The choices come from `useSpecialistChoices` (the staff list, or the people with
 * work in the range when the caller cannot read it); the filter keeps the user id.
 */
function SpecialistSelect({
  filter,
  listsStaff,
  enabled,
  onChange,
}: {
  filter: ReportQuery;
  listsStaff: boolean;
  enabled: boolean;
  onChange: (specialist: string | undefined) => void;
}) {
  const { choices, isError } = useSpecialistChoices(listsStaff, filter, enabled);
  const options = (choices ?? []).map((p) => ({
    value: p.userId,
    label: p.email ? `${p.name || p.email} (${p.email})` : p.name || p.userId,
  }));
  if (filter.specialist && !options.some((o) => o.value === filter.specialist))
    options.unshift({ value: filter.specialist, label: filter.specialist });
  return (
    <Select
      label="Specialist"
      placeholder="Everyone"
      description="Backlog: files assigned to them. Workload: their work."
      searchable
      clearable
      clearButtonProps={{ 'aria-label': 'Clear specialist' }}
      w={{ base: '100%', sm: 320 }}
      data={options}
      error={isError ? 'The staff list could not be loaded' : undefined}
      value={filter.specialist ?? null}
      onChange={(userId) => onChange(userId ?? undefined)}
    />
  );
}

/**
 * The tab (issue 34): the filter, then the six report cards, one column (each chart full width).
 * @param filter the range and specialist as the URL holds them (`{}`: last 12 months, everyone)
 * @param listsStaff the caller reads the staff list (`read:audit:any`) for the specialist filter
 */
export function ReportsTab({
  enabled,
  listsStaff,
  filter,
  onFilterChange,
}: {
  enabled: boolean;
  listsStaff: boolean;
  filter: ReportQuery;
  onFilterChange: (filter: ReportQuery) => void;
}) {
  return (
    <Stack component="section" aria-labelledby="reports-title">
      <Stack gap={4}>
        <Title order={2} size="h4" id="reports-title">
          Reports
        </Title>
        <Text size="sm">
          How long files take, what is open and how old, whether decisions meet NCQA's time limits, what will
          lapse, what monitoring found and who did the work. Months and days are UTC.
        </Text>
      </Stack>
      <Group align="flex-start" wrap="wrap" role="group" aria-label="Report filter">
        <DayRangeInput
          value={filter}
          onChange={(range) => onFilterChange({ ...filter, ...range })}
          placeholder="Last 12 months"
          description="Both days included; at most 36 months"
          maxDate={FILTER_LAST_DAY}
          check={(range) => {
            const checked = reportQuerySchema.safeParse(range);
            return checked.success ? null : (checked.error.issues[0]?.message ?? 'Choose another range');
          }}
          width={280}
        />
        <SpecialistSelect
          filter={filter}
          listsStaff={listsStaff}
          enabled={enabled}
          onChange={(specialist) => onFilterChange({ ...filter, specialist })}
        />
      </Group>
      <TurnaroundReportCard filter={filter} enabled={enabled} />
      <BacklogReportCard filter={filter} enabled={enabled} />
      <TimelinessReportCard filter={filter} enabled={enabled} />
      <ExpirablesReportCard enabled={enabled} />
      <ScreeningReportCard filter={filter} enabled={enabled} />
      <WorkloadReportCard filter={filter} enabled={enabled} />
    </Stack>
  );
}
