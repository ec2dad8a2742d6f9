/**
 * The 'Audit Log' tab (issue 6; issue 34): who did what to whose record, when and from where, newest
 * first, filtered by provider (searched by name or email through the admin's provider search, kept as
 * a user id), actor (a staff member), action and a range of UTC days; 'Export CSV' downloads every
 * event of the filter (GET /api/admin/audit-log/export, audited). The log holds identifiers and names
 * only, never PHI. A table on wide screens, one card per event on phones (issue 17).
 */
import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import { auditActionLabel } from '../../../domain/audit-actions.ts';
import { useAuditActors } from '../../app/audit-actors.ts';
import { DayRangeInput } from '../../components/day-range-input.tsx';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { ResponsiveTable, type TableColumn } from '../../components/responsive-table.tsx';
import {
  type AuditEvent,
  type AuditLog,
  type AuditLogFilter,
  type AuditPerson,
  auditLogExportUrl,
  useProviderCards,
} from './admin-api.ts';

/** The label of an action code as the log stores it (codes from before a rename show as they are). */
const actionLabel = (code: string): string | undefined => (auditActionLabel as Record<string, string>)[code];

import { ListPager } from '../../components/list-pager.tsx';

/** A person as a select option: name and email (shown on the page only; the filter keeps the id). */
const personOption = (p: { userId: string; name: string; email: string }) => ({
  value: p.userId,
  label: p.name ? `${p.name} (${p.email})` : p.email || p.userId,
});

/** Characters typed before the provider search asks the server. */
const MIN_SEARCH = 2;

/**
 * 'Provider': a searchable select whose options are the admin's provider search
 * (GET /api/admin/providers?search=) for what is typed; the chosen provider's user id is the filter.
 */
function ProviderFilter({
  value,
  chosen,
  onChange,
}: {
  value: string | undefined;
  chosen: AuditPerson | null;
  onChange: (userId: string | undefined) => void;
}) {
  const [searchValue, setSearchValue] = useState('');
  const chosenOption = chosen && chosen.userId === value ? personOption(chosen) : null;
  const typed = searchValue.trim();
  const [term] = useDebouncedValue(typed === chosenOption?.label ? '' : typed, 300);
  const found = useProviderCards(term, 1, term.length >= MIN_SEARCH);
  const options = (found.data?.providers ?? []).map((p) =>
    personOption({ userId: p.userId, name: `${p.firstName} ${p.lastName}`.trim(), email: p.email }),
  );
  if (chosenOption && !options.some((o) => o.value === chosenOption.value)) options.unshift(chosenOption);
  if (value && !chosenOption && !options.some((o) => o.value === value))
    options.unshift({ value, label: value });
  return (
    <Select
      label="Provider"
      placeholder="Search by name or email"
      searchable
      clearable
      clearButtonProps={{ 'aria-label': 'Clear provider' }}
      w={{ base: '100%', sm: 300 }}
      data={options}
      // The server searched already: show its matches as they are.
      filter={({ options: all }) => all}
      searchValue={searchValue}
      onSearchChange={setSearchValue}
      nothingFoundMessage={term.length >= MIN_SEARCH && !found.isFetching ? 'No provider found' : undefined}
      value={value ?? null}
      onChange={(userId) => onChange(userId ?? undefined)}
    />
  );
}

function Person({ person }: { person: AuditPerson | null }) {
  if (!person) return <>—</>;
  return (
    <>
      <Text size="sm" span display="block">
        {person.name || person.userId}
      </Text>
      <Text size="xs" c="dimmed" span display="block">
        {person.email}
      </Text>
    </>
  );
}

const columns: TableColumn<AuditEvent>[] = [
  { header: 'When', render: (event) => dayjs(event.occurredAt).format('MMM D, YYYY HH:mm:ss') },
  {
    header: 'Action',
    render: (event) => (
      <>
        <Text size="sm" span display="block">
          {actionLabel(event.action) ?? event.action}
        </Text>
        <Text size="xs" c="dimmed" ff="monospace" span display="block">
          {event.action}
        </Text>
      </>
    ),
  },
  { header: 'By', render: (event) => <Person person={event.actor} /> },
  { header: 'Subject', render: (event) => <Person person={event.subject} /> },
  {
    header: 'Record',
    render: (event) =>
      event.resourceType ? (
        <>
          {event.resourceType}{' '}
          <Text span ff="monospace" size="xs">
            {event.resourceId?.slice(0, 8)}
          </Text>
        </>
      ) : (
        '—'
      ),
  },
  { header: 'IP address', render: (event) => event.ipAddress ?? '—' },
];

/**
 * The tab: the filter's controls, 'Export CSV', the pager and the events.
 * @param data the page of the filter (GET /api/admin/audit-log), undefined while loading
 * @param filter the filter as the URL holds it (admin-url.ts); `onFilterChange` writes it back
 */
export function AuditLogTab({
  data,
  isFetching,
  enabled,
  filter,
  onFilterChange,
  onPageChange,
}: {
  data: AuditLog | undefined;
  isFetching: boolean;
  /** The tab is open: load the actor list. */
  enabled: boolean;
  filter: AuditLogFilter;
  onFilterChange: (filter: AuditLogFilter) => void;
  onPageChange: (page: number) => void;
}) {
  const actors = useAuditActors(enabled);
  const actorOptions = (actors.data?.people ?? []).map(personOption);
  const chosenActor = data?.filterPeople.actor;
  if (filter.actorUserId && !actorOptions.some((o) => o.value === filter.actorUserId))
    actorOptions.unshift(
      chosenActor?.userId === filter.actorUserId
        ? personOption(chosenActor)
        : { value: filter.actorUserId, label: filter.actorUserId },
    );
  // The picker's half-chosen range (a start, no end yet) stays local until its end is picked.
  return (
    <Stack aria-busy={isFetching}>
      <Group align="end" wrap="wrap">
        <ProviderFilter
          value={filter.subjectUserId}
          chosen={data?.filterPeople.subject ?? null}
          onChange={(subjectUserId) => onFilterChange({ ...filter, subjectUserId })}
        />
        <Select
          label="Actor"
          placeholder="Anyone"
          searchable
          clearable
          clearButtonProps={{ 'aria-label': 'Clear actor' }}
          w={{ base: '100%', sm: 260 }}
          data={actorOptions}
          value={filter.actorUserId ?? null}
          onChange={(actorUserId) => onFilterChange({ ...filter, actorUserId: actorUserId ?? undefined })}
        />
        <Select
          label="Action"
          placeholder="All actions"
          searchable
          clearable
          clearButtonProps={{ 'aria-label': 'Clear action' }}
          w={{ base: '100%', sm: 300 }}
          data={(data?.actions ?? []).map((value) => ({
            value,
            label: actionLabel(value) ? `${actionLabel(value)} (${value})` : value,
          }))}
          value={filter.action ?? null}
          onChange={(action) =>
            onFilterChange({ ...filter, action: (action ?? undefined) as AuditLogFilter['action'] })
          }
        />
        <DayRangeInput
          value={filter}
          onChange={(range) => onFilterChange({ ...filter, ...range })}
          placeholder="Any date"
          description="Both days included"
          width={260}
        />
        <Button
          component="a"
          href={auditLogExportUrl(filter)}
          download
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden="true" />}
        >
          Export CSV
        </Button>
      </Group>
      {!data ? (
        <InlineLoader />
      ) : data.events.length === 0 ? (
        <Text c="dimmed">No events match this filter.</Text>
      ) : (
        <>
          <ListPager info={data} noun={['event', 'events']} onPageChange={onPageChange} />
          <ResponsiveTable
            rows={data.events}
            columns={columns}
            rowKey={(event) => event.id}
            label="Audit events, newest first"
            caption
            striped
            minWidth={840}
          />
        </>
      )}
    </Stack>
  );
}
