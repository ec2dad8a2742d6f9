/**
 * The 'Audit Log' tab (issue 6): who did what to whose record, when and from where, newest first,
 * filtered by action. The log holds identifiers and names only, never PHI.
 */
import { Select, Stack, Table, Text } from '@mantine/core';
import dayjs from 'dayjs';
import { InlineLoader } from '../../components/inline-loader.tsx';
import type { AuditEvent, AuditPerson, PageInfo } from './admin-api.ts';
import { ListPager } from './list-pager.tsx';

/** Readable names of the actions the dashboard is about; others show their code. */
const actionLabel: Record<string, string> = {
  'admin.view_provider': 'Viewed provider details',
  'document.download': 'Downloaded document',
  'document.upload': 'Uploaded document',
  'document.delete': 'Deleted document',
  'auth.sign_in': 'Signed in',
  'auth.sign_in_failed': 'Sign-in failed',
  'auth.sign_out': 'Signed out',
  'auth.sign_up': 'Signed up',
  'auth.email_verified': 'Email confirmed',
  'auth.password_reset_requested': 'Password reset requested',
  'auth.password_reset': 'Password reset',
  'auth.password_changed': 'Password changed',
  'auth.name_changed': 'Name changed',
  'notification.sent': 'Completion notification sent',
  'notification.resend': 'Completion notification resent',
  'auth.role_changed': 'Role changed',
  'auth.two_factor_enabled': 'Two-factor authentication set up',
  'auth.two_factor_disabled': 'Two-factor authentication turned off',
  'auth.two_factor_reset': 'Two-factor authentication reset',
  'auth.two_factor_failed': 'Wrong authentication code',
  'auth.sign_in_two_factor': 'Signed in with a second factor',
  'auth.backup_code_used': 'Backup code used',
  'auth.backup_codes_regenerated': 'New backup codes made',
};

function Person({ person }: { person: AuditPerson | null }) {
  if (!person) return <>—</>;
  return (
    <>
      <Text size="sm">{person.name || person.userId}</Text>
      <Text size="xs" c="dimmed">
        {person.email}
      </Text>
    </>
  );
}

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
          label: actionLabel[value] ? `${actionLabel[value]} (${value})` : value,
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
            <Table.ScrollContainer minWidth={840}>
              <Table striped>
                <Table.Caption>Audit events, newest first</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">When</Table.Th>
                    <Table.Th scope="col">Action</Table.Th>
                    <Table.Th scope="col">By</Table.Th>
                    <Table.Th scope="col">Subject</Table.Th>
                    <Table.Th scope="col">Record</Table.Th>
                    <Table.Th scope="col">IP address</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.events.map((event) => (
                    <Table.Tr key={event.id}>
                      <Table.Td>{dayjs(event.occurredAt).format('MMM D, YYYY HH:mm:ss')}</Table.Td>
                      <Table.Td>
                        <Text size="sm">{actionLabel[event.action] ?? event.action}</Text>
                        <Text size="xs" c="dimmed" ff="monospace">
                          {event.action}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Person person={event.actor} />
                      </Table.Td>
                      <Table.Td>
                        <Person person={event.subject} />
                      </Table.Td>
                      <Table.Td>
                        {event.resourceType ? (
                          <Text size="sm">
                            {event.resourceType}{' '}
                            <Text span ff="monospace" size="xs">
                              {event.resourceId?.slice(0, 8)}
                            </Text>
                          </Text>
                        ) : (
                          '—'
                        )}
                      </Table.Td>
                      <Table.Td>{event.ipAddress ?? '—'}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </>
      )}
    </Stack>
  );
}
