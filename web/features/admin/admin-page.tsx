/**
 * `/admin` (spec §2 /admin, §8 admin toasts; issue 6): heading with the Admin badge (Sign Out in the app shell);
 * 'Loading admin dashboard...'; counters (total users, applications, documents); the search box
 * 'Search users by name or email...' (debounced, searched on the server); tabs 'Users & Applications',
 * 'Review Queue' (issue 13), 'All Documents', 'Audit Log', 'Notifications', 'Exclusions' (issue 15) and
 * 'Expiring' (issue 14); the details dialog. Lists are paged on the server, so the browser
 * never holds more than one page, whatever the number of providers.
 */
import {
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
import { isTwoFactorRequired } from '../../api.ts';
import { FullPageLoader } from '../../components/full-page-loader.tsx';
import { notifyError } from '../../notify.ts';
import { useAdminStats, useAllDocuments, useAuditLog, useProviderCards } from './admin-api.ts';
import { AuditLogTab } from './audit-log-tab.tsx';
import { DocumentsTab } from './documents-tab.tsx';
import { ExclusionsTab } from './exclusions-tab.tsx';
import { ExpiringTab } from './expiring-tab.tsx';
import { NotificationsTab } from './notifications-tab.tsx';
import { ProviderDetailsModal } from './provider-details-modal.tsx';
import { ProviderList } from './provider-list.tsx';
import { ReviewQueueTab } from './review-queue-tab.tsx';

const SEARCH_DEBOUNCE_MS = 300;
const number = new Intl.NumberFormat('en-US');

/** A page number that belongs to one filter value: it falls back to 1 when the filter changes. */
function usePageFor<Filter>(filter: Filter): [number, (page: number) => void] {
  const [state, setState] = useState<{ filter: Filter; page: number }>({ filter, page: 1 });
  return [state.filter === filter ? state.page : 1, (page) => setState({ filter, page })];
}

function Counter({
  label,
  value,
  description,
}: {
  label: string;
  value: number | undefined;
  /** What is counted, when the label alone could mislead (issue 17). */
  description?: string;
}) {
  return (
    <Card withBorder padding="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={700}>
        {value === undefined ? '…' : number.format(value)}
      </Text>
      {description && (
        <Text size="xs" c="dimmed">
          {description}
        </Text>
      )}
    </Card>
  );
}

/**
 * The page's heading with the Admin badge (spec §2 /admin). Sign Out, the administrator's name and
 * 'Account' are in the app shell's header above it (issue 17, web/components/app-shell.tsx).
 */
function AdminHeader() {
  return (
    <Container size="xl" py="md">
      <Group>
        <Title order={1} size="h3">
          Admin Dashboard
        </Title>
        <Badge color="red.9">Admin</Badge>
      </Group>
    </Container>
  );
}

export default function AdminPage() {
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
      <main>
        <AdminHeader />
        <FullPageLoader label="Loading admin dashboard..." />
      </main>
    );
  }

  return (
    <>
      <main>
        <AdminHeader />
        <Container size="xl" pb="xl">
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 3 }} component="section" aria-label="Totals">
              {/* Every account has a profile (server/auth/auth.ts), so this counts all of them. */}
              <Counter
                label="Total Users"
                value={stats.data?.totalUsers}
                description="All accounts: providers and administrators"
              />
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
                <Tabs.Tab value="review">Review Queue</Tabs.Tab>
                <Tabs.Tab value="documents">All Documents</Tabs.Tab>
                <Tabs.Tab value="audit">Audit Log</Tabs.Tab>
                <Tabs.Tab value="notifications">Notifications</Tabs.Tab>
                <Tabs.Tab value="exclusions">Exclusions</Tabs.Tab>
                <Tabs.Tab value="expiring">Expiring</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="users" pt="md">
                <ProviderList
                  data={providers.data}
                  isFetching={providers.isFetching}
                  onPageChange={setUsersPage}
                  onView={setViewing}
                />
              </Tabs.Panel>
              <Tabs.Panel value="review" pt="md">
                <ReviewQueueTab enabled={tab === 'review'} />
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
              <Tabs.Panel value="notifications" pt="md">
                <NotificationsTab enabled={tab === 'notifications'} />
              </Tabs.Panel>
              <Tabs.Panel value="exclusions" pt="md">
                <ExclusionsTab enabled={tab === 'exclusions'} />
              </Tabs.Panel>
              <Tabs.Panel value="expiring" pt="md">
                <ExpiringTab enabled={tab === 'expiring'} />
              </Tabs.Panel>
            </Tabs>
          </Stack>
        </Container>
      </main>
      <ProviderDetailsModal userId={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
