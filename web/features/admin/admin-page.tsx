/**
 * `/admin` (spec §2 /admin, §8 admin toasts; issue 6): header with the Admin badge and Sign Out;
 * 'Loading admin dashboard...'; counters (total users, applications, documents); the search box
 * 'Search users by name or email...' (debounced, searched on the server); tabs 'Users & Applications',
 * 'All Documents' and 'Audit Log'; the details dialog. Lists are paged on the server, so the browser
 * never holds more than one page, whatever the number of providers.
 */
import {
  Anchor,
  Badge,
  Card,
  Container,
  Group,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { isTwoFactorRequired } from '../../api.ts';
import { ACCOUNT_PATH } from '../../app/paths.ts';
import type { Me } from '../../app/session.ts';
import { FullPageLoader } from '../../components/full-page-loader.tsx';
import { SignOutButton } from '../../components/sign-out-button.tsx';
import { notifyError } from '../../notify.ts';
import { useAdminStats, useAllDocuments, useAuditLog, useProviderCards } from './admin-api.ts';
import { AuditLogTab } from './audit-log-tab.tsx';
import { DocumentsTab } from './documents-tab.tsx';
import { ProviderDetailsModal } from './provider-details-modal.tsx';
import { ProviderList } from './provider-list.tsx';

const SEARCH_DEBOUNCE_MS = 300;
const number = new Intl.NumberFormat('en-US');

/** A page number that belongs to one filter value: it falls back to 1 when the filter changes. */
function usePageFor<Filter>(filter: Filter): [number, (page: number) => void] {
  const [state, setState] = useState<{ filter: Filter; page: number }>({ filter, page: 1 });
  return [state.filter === filter ? state.page : 1, (page) => setState({ filter, page })];
}

function Counter({ label, value }: { label: string; value: number | undefined }) {
  return (
    <Card withBorder padding="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={700}>
        {value === undefined ? '…' : number.format(value)}
      </Text>
    </Card>
  );
}

function AdminHeader({ me }: { me: Me }) {
  return (
    <header>
      <Container size="xl" py="md">
        <Group justify="space-between">
          <Group>
            <Title order={1} size="h3">
              Admin Dashboard
            </Title>
            <Badge color="red.9">Admin</Badge>
          </Group>
          <Group>
            <span>{me.user.email}</span>
            <Anchor component={Link} to={ACCOUNT_PATH}>
              Account
            </Anchor>
            <SignOutButton />
          </Group>
        </Group>
      </Container>
    </header>
  );
}

export default function AdminPage({ me }: { me: Me }) {
  const [searchInput, setSearchInput] = useState('');
  const [search] = useDebouncedValue(searchInput.trim(), SEARCH_DEBOUNCE_MS);
  const [tab, setTab] = useState<string | null>('users');
  const [auditAction, setAuditAction] = useState<string | null>(null);
  const [usersPage, setUsersPage] = usePageFor(search);
  const [documentsPage, setDocumentsPage] = usePageFor(search);
  const [auditPage, setAuditPage] = usePageFor(auditAction);
  const [viewing, setViewing] = useState<string | null>(null);

  const stats = useAdminStats();
  const providers = useProviderCards(search, usersPage);
  const allDocuments = useAllDocuments(search, documentsPage, tab === 'documents');
  const audit = useAuditLog(auditAction, auditPage, tab === 'audit');
  // two_factor_required is no failure to report: the app is taking the admin to the set-up page.
  const failed = [stats, providers, allDocuments, audit].some(
    (query) => query.isError && !isTwoFactorRequired(query.error),
  );
  useEffect(() => {
    if (failed) notifyError('Error', 'Failed to load admin data');
  }, [failed]);

  if (stats.isPending && providers.isPending) {
    return (
      <>
        <AdminHeader me={me} />
        <main>
          <FullPageLoader label="Loading admin dashboard..." />
        </main>
      </>
    );
  }

  return (
    <>
      <AdminHeader me={me} />
      <main>
        <Container size="xl" pb="xl">
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 3 }} component="section" aria-label="Totals">
              <Counter label="Total Users" value={stats.data?.totalUsers} />
              <Counter label="Total Applications" value={stats.data?.totalApplications} />
              <Counter label="Total Documents" value={stats.data?.totalDocuments} />
            </SimpleGrid>
            <TextInput
              type="search"
              aria-label="Search users by name or email"
              placeholder="Search users by name or email..."
              leftSection={<IconSearch size={16} aria-hidden="true" />}
              value={searchInput}
              onChange={(event) => setSearchInput(event.currentTarget.value)}
              maxLength={100}
            />
            <Tabs value={tab} onChange={setTab} keepMounted={false}>
              <Tabs.List aria-label="Admin views">
                <Tabs.Tab value="users">Users &amp; Applications</Tabs.Tab>
                <Tabs.Tab value="documents">All Documents</Tabs.Tab>
                <Tabs.Tab value="audit">Audit Log</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="users" pt="md">
                <ProviderList
                  data={providers.data}
                  isFetching={providers.isFetching}
                  onPageChange={setUsersPage}
                  onView={setViewing}
                />
              </Tabs.Panel>
              <Tabs.Panel value="documents" pt="md">
                <DocumentsTab
                  data={allDocuments.data}
                  isFetching={allDocuments.isFetching}
                  onPageChange={setDocumentsPage}
                />
              </Tabs.Panel>
              <Tabs.Panel value="audit" pt="md">
                <AuditLogTab
                  data={audit.data}
                  isFetching={audit.isFetching}
                  action={auditAction}
                  onActionChange={setAuditAction}
                  onPageChange={setAuditPage}
                />
              </Tabs.Panel>
            </Tabs>
          </Stack>
        </Container>
      </main>
      <ProviderDetailsModal userId={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
