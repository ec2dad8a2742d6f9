/**
 * The 'Staff' tab of /admin (issue 32 item 2), for administrators: everyone who holds a staff role,
 * or the people a name or email search finds, each with one checkbox per role (Administrator,
 * Credentialing Specialist, Medical Director, Committee Member, Auditor). Ticking or clearing a box
 * saves at once ('Roles saved'); the change is audited and applies from the person's next request.
 * Taking away someone's last role asks first; the server refuses to remove the last administrator
 * and the toast says what to do. Data: staff-api.ts.
 */
import { Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { OWN_ROLES_MESSAGE, STAFF_SEARCH_MAX, type StaffMember } from '../../../domain/api/staff.ts';
import { type StaffRole, staffRoleLabel, staffRoles } from '../../../domain/roles.ts';
import { ApiError } from '../../api.ts';
import { useSession } from '../../app/session.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { ResponsiveTable, type TableColumn } from '../../components/responsive-table.tsx';
import { notifyError, notifySuccess } from '../../notify.ts';
import { useSetStaffRoles, useStaffList } from './staff-api.ts';

/** A pending change that takes away the person's last role: confirmed before it is saved. */
interface PendingRemoval {
  person: StaffMember;
  roles: StaffRole[];
}

export function StaffTab({ enabled }: { enabled: boolean }) {
  // Issue 50 item 5: nobody changes their own roles; the server refuses it too (OWN_ROLES_MESSAGE).
  const myId = useSession().data?.user?.id;
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const list = useStaffList(debounced, enabled);
  const setRoles = useSetStaffRoles();
  const [pending, setPending] = useState<PendingRemoval | null>(null);

  const save = (person: StaffMember, roles: StaffRole[]) =>
    setRoles.mutate(
      { userId: person.userId, roles },
      {
        onSuccess: (saved) =>
          notifySuccess(
            'Roles saved',
            saved.roles.length > 0
              ? `${saved.name} now has: ${saved.roles.map((r) => staffRoleLabel[r]).join(', ')}.`
              : `${saved.name} has no staff role now.`,
          ),
        onError: (error) =>
          notifyError(
            'Roles not saved',
            error instanceof ApiError ? error.message : 'The roles could not be saved. Try again.',
          ),
      },
    );

  const toggle = (person: StaffMember, role: StaffRole, on: boolean) => {
    const roles = staffRoles.filter((r) => (r === role ? on : person.roles.includes(r)));
    if (roles.length === 0) setPending({ person, roles });
    else save(person, roles);
  };

  const columns: TableColumn<StaffMember>[] = [
    {
      header: 'Person',
      render: (person) => (
        <>
          <Text size="sm" fw={600} span display="block">
            {person.name || person.email}
          </Text>
          <Text size="xs" c="dimmed" span display="block">
            {person.email}
          </Text>
        </>
      ),
    },
    {
      header: 'Roles',
      render: (person) => (
        <Stack gap={4}>
          <Group gap="md" role="group" aria-label={`Roles of ${person.name || person.email}`}>
            {staffRoles.map((role) => (
              <Checkbox
                key={role}
                label={staffRoleLabel[role]}
                checked={person.roles.includes(role)}
                disabled={setRoles.isPending || person.userId === myId}
                onChange={(event) => toggle(person, role, event.currentTarget.checked)}
              />
            ))}
          </Group>
          {person.userId === myId && (
            <Text size="xs" c="dimmed">
              {OWN_ROLES_MESSAGE}
            </Text>
          )}
        </Stack>
      ),
    },
  ];

  return (
    <Stack>
      <TextInput
        type="search"
        label="Find a person"
        description="Part of a name or an email. Without a search, everyone who holds a staff role is listed."
        leftSection={<IconSearch size={16} aria-hidden="true" />}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        maxLength={STAFF_SEARCH_MAX}
      />
      {list.isPending ? (
        <InlineLoader label="Loading staff..." />
      ) : list.isError ? (
        <Text c="red.9">The staff list could not be loaded. Reload the page to try again.</Text>
      ) : list.data.people.length === 0 ? (
        <Text c="dimmed">
          {debounced ? `Nobody matches “${debounced}”.` : 'Nobody holds a staff role yet.'}
        </Text>
      ) : (
        <>
          <ResponsiveTable
            label={debounced ? `People matching “${debounced}”` : 'Staff'}
            columns={columns}
            rows={list.data.people}
            rowKey={(person) => person.userId}
          />
          {list.data.more && (
            <Text size="sm" c="dimmed">
              More people match: type more of the name or the email.
            </Text>
          )}
        </>
      )}
      <ConfirmDialog
        opened={pending !== null}
        title="Remove the last role?"
        confirmLabel="Remove"
        onCancel={() => setPending(null)}
        onConfirm={() => {
          if (pending) save(pending.person, pending.roles);
          setPending(null);
        }}
      >
        {pending &&
          `${pending.person.name || pending.person.email} will have no staff role and no access to the admin pages.`}
      </ConfirmDialog>
    </Stack>
  );
}
