/**
 * The 'Audit Log' tab (issue 6): who did what to whose record, when and from where, newest first,
 * filtered by action. The log holds identifiers and names only, never PHI. A table on wide screens,
 * one card per event on phones (issue 17).
 */
import { Select, Stack, Text } from '@mantine/core';
import dayjs from 'dayjs';
import { auditActionLabel } from '../../../domain/audit-actions.ts';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { ResponsiveTable, type TableColumn } from '../../components/responsive-table.tsx';
import type { AuditEvent, AuditPerson, PageInfo } from './admin-api.ts';

/** The label of an action code as the log stores it (codes from before a rename show as they are). */
const actionLabel = (code: string): string | undefined => (auditActionLabel as Record<string, string>)[code];

import { ListPager } from './list-pager.tsx';

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

export function AuditLogTab({
  data,
  isFetching,
  action,
  onActionChange,
  onPageChange,
}: {
  data: (PageInfo & { events: AuditEvent[]; actions: string[] }) | undefined;
  isFetching: boolean;
  action: string | null;
  onActionChange: (action: string | null) => void;
  onPageChange: (page: number) => void;
}) {
  return (
    <Stack aria-busy={isFetching}>
      <Select
        label="Action"
        placeholder="All actions"
        clearable
        maw={360}
        data={(data?.actions ?? []).map((value) => ({
          value,
          label: actionLabel(value) ? `${actionLabel(value)} (${value})` : value,
        }))}
        value={action}
        onChange={onActionChange}
      />
      {!data ? (
        <InlineLoader />
      ) : (
        <>
          <ListPager info={data} noun={['event', 'events']} onPageChange={onPageChange} />
          {data.events.length > 0 && (
            <ResponsiveTable
              rows={data.events}
              columns={columns}
              rowKey={(event) => event.id}
              label="Audit events, newest first"
              caption
              striped
              minWidth={840}
            />
          )}
        </>
      )}
    </Stack>
  );
}
