/**
 * `/admin` (spec §2 /admin, §8 admin toasts; issue 6): heading with the Admin badge (Sign Out in the app shell);
 * 'Loading admin dashboard...'; counters (total users, applications, documents); the search box
 * 'Search users by name or email...' (debounced, searched on the server; an exact NPI or license
 * number finds the provider too, issue 28); tabs 'Users & Applications', 'Review Queue' (issue 13),
 * 'All Documents', 'Audit Log', 'Notifications', 'Exclusions' and 'Screening Matches' (issue 30, the
 * screening feature's tabs, passed in by the router: features never import each other), 'Expiring'
 * (issue 14), 'Staff' and the committee's 'Decisions' and 'Committee' (issue 32, passed in likewise),
 * 'Reports' (issue 34, passed in likewise, its filter kept in the URL here), labelled in
 * web/app/admin-tabs.ts; the details dialog. Lists are paged on the server, so the
 * browser never holds more than one page, whatever the number of providers. The tab, the page and the
 * filters are in the URL, the search in history state (./admin-url.ts, issue 28): Back from a review
 * page returns to the dashboard as it was.
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
import { type ComponentType, Suspense, useEffect, useRef, useState } from 'react';
import type { ReportQuery } from '../../../domain/api/reports.ts';
import { hasPermission } from '../../../domain/permissions.ts';
import { type AccessRole, staffRoleLabel } from '../../../domain/roles.ts';
import { isTwoFactorRequired } from '../../api.ts';
import { visibleAdminTabs } from '../../app/admin-tabs.ts';
import type { Me } from '../../app/session.ts';
import { FullPageLoader } from '../../components/full-page-loader.tsx';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { notifyError } from '../../notify.ts';
import { useAdminStats, useAllDocuments, useAuditLog, useProviderCards } from './admin-api.ts';
import { useAdminView } from './admin-url.ts';
import { AuditLogTab } from './audit-log-tab.tsx';
import { DocumentsTab } from './documents-tab.tsx';
import { ExpiringTab } from './expiring-tab.tsx';
import { NotificationsTab } from './notifications-tab.tsx';
import { ProviderDetailsModal } from './provider-details-modal.tsx';
import { ProviderList } from './provider-list.tsx';
import { ReviewQueueTab } from './review-queue-tab.tsx';

const SEARCH_DEBOUNCE_MS = 300;
const number = new Intl.NumberFormat('en-US');

/**
 * The search box's text: typed freely, written to the view (`search`, via `onSearch`: history
 * state) once typing pauses, and set from the view when that changes otherwise (Back, a link).
 */
function useSearchInput(search: string, onSearch: (search: string) => void) {
  const [input, setInput] = useState(search);
  const [debounced] = useDebouncedValue(input.trim(), SEARCH_DEBOUNCE_MS);
  const written = useRef(search);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a pause in typing writes the URL
  useEffect(() => {
    if (debounced === written.current) return;
    written.current = debounced;
    onSearch(debounced);
  }, [debounced]);
  useEffect(() => {
    if (search === written.current) return;
    written.current = search;
    setInput(search);
  }, [search]);
  return [input, setInput] as const;
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
function AdminHeader({
  roles,
  exportRoster: ExportRoster,
}: {
  roles: readonly AccessRole[];
  exportRoster: ComponentType;
}) {
  return (
    <Container size="xl" py="md">
      <Group justify="space-between">
        <Group>
          <Title order={1} size="h3">
            Admin Dashboard
          </Title>
          {/* The spec's 'Admin' badge; each other staff role held by its name (issue 32). */}
          {roles.map((role) =>
            role === 'user' ? null : (
              <Badge key={role} color={role === 'admin' ? 'red.9' : 'blue.9'}>
                {role === 'admin' ? 'Admin' : staffRoleLabel[role]}
              </Badge>
            ),
          )}
        </Group>
        {/* Issue 33 item 2: the roster lists providers' credentials, for staff who read sections. */}
        {hasPermission(roles, 'read:section:any') && (
          <Suspense fallback={null}>
            <ExportRoster />
          </Suspense>
        )}
      </Group>
    </Container>
  );
}

/**
 * A tab's content rendered by another feature; `enabled` is true while the tab is shown; `canAct`:
 * the caller's roles may change what it shows (`review:application:any`, issue 32), else it reads only.
 */
export type AdminTabPanel = ComponentType<{ enabled: boolean; canAct: boolean }>;

/**
 * The 'Reports' tab (issue 34), rendered by the reports feature: `filter` is the range and specialist
 * the URL holds (./admin-url.ts), written back through `onFilterChange`; `listsStaff`: the caller may
 * read the staff list of the audit log's actor filter (`read:audit:any`) to offer as specialists.
 */
export type ReportsPanel = ComponentType<{
  enabled: boolean;
  listsStaff: boolean;
  filter: ReportQuery;
  onFilterChange: (filter: ReportQuery) => void;
}>;

/**
 * The tabs of other features, composed by the router (web/router.tsx; features never import each
 * other): exclusion screening's 'Exclusions' and 'Screening Matches' (issue 30), lazy chunks.
 */
export interface AdminTabPanels {
  exclusions: AdminTabPanel;
  screening: AdminTabPanel;
  /** The 'Staff' tab (issue 32 item 2). */
  staff: AdminTabPanel;
  /** 'Decisions' (issue 32 item 4): `canAct` decides clean files (`decide:application:any`). */
  decisions: AdminTabPanel;
  /** 'Committee' (issue 32 item 5): `canAct` manages meetings (`manage:meeting:any`). */
  committee: AdminTabPanel;
  /** 'API Clients' (issue 33 item 4): administrators register and revoke machine clients. */
  apiClients: AdminTabPanel;
  settings: AdminTabPanel;
  /** 'Reports' (issue 34): the managers' six reports, for roles holding `read:report:any`. */
  reports: ReportsPanel;
  /** The header's 'Export Roster' button and dialog (issue 33 item 2), for staff who read sections. */
  exportRoster: ComponentType;
}

export default function AdminPage({ panels, me }: { panels: AdminTabPanels; me: Me }) {
  const {
    view,
    openTab,
    openPage,
    setSearch,
    setReviewFilter,
    setAuditFilter,
    setExpiringFilter,
    setReportFilter,
  } = useAdminView();
  const { search } = view;
  // Only the tabs the caller's roles may open (issue 32); a tab named in the URL that is not one of
  // them opens the first that is.
  const shownTabs = visibleAdminTabs(me.roles);
  const tab = shownTabs.some((t) => t.value === view.tab) ? view.tab : (shownTabs[0]?.value ?? view.tab);
  const readsFiles = hasPermission(me.roles, 'read:provider:any');
  const reviews = hasPermission(me.roles, 'review:application:any');
  const [searchInput, setSearchInput] = useSearchInput(search, setSearch);
  /** The page of `tab` (the URL holds the open tab's page only). */
  const pageOf = (of: typeof tab) => (tab === of ? view.page : 1);
  const [viewing, setViewing] = useState<string | null>(null);

  const stats = useAdminStats(readsFiles);
  const providers = useProviderCards(search, pageOf('users'), readsFiles);
  const allDocuments = useAllDocuments(search, pageOf('documents'), tab === 'documents');
  const audit = useAuditLog(view.audit, pageOf('audit'), tab === 'audit');
  // two_factor_required is no failure to report: the app is taking the admin to the set-up page.
  const failed = [stats, providers, allDocuments, audit].some(
    (query) => query.isError && !isTwoFactorRequired(query.error),
  );
  useEffect(() => {
    if (failed) notifyError('Error', 'Failed to load admin data');
  }, [failed]);

  if (shownTabs.length === 0) {
    return (
      <main>
        <AdminHeader roles={me.roles} exportRoster={panels.exportRoster} />
        <Container size="xl" pb="xl">
          <Text>Nothing to open here for your roles yet. Ask an administrator to change your roles.</Text>
        </Container>
      </main>
    );
  }

  if (readsFiles && stats.isPending && providers.isPending) {
    return (
      <main>
        <AdminHeader roles={me.roles} exportRoster={panels.exportRoster} />
        <FullPageLoader label="Loading admin dashboard..." />
      </main>
    );
  }

  return (
    <>
      <main>
        <AdminHeader roles={me.roles} exportRoster={panels.exportRoster} />
        <Container size="xl" pb="xl">
          <Stack>
            {/* The totals and the search read every file: not for a Committee Member (issue 32). */}
            {readsFiles && (
              <>
                <SimpleGrid cols={{ base: 1, sm: 3 }} component="section" aria-label="Totals">
                  {/* Every account has a profile (server/auth/auth.ts), so this counts all of them. */}
                  <Counter
                    label="Total Users"
                    value={stats.data?.totalUsers}
                    description="All accounts: providers and staff"
                  />
                  <Counter label="Total Applications" value={stats.data?.totalApplications} />
                  <Counter label="Total Documents" value={stats.data?.totalDocuments} />
                </SimpleGrid>
                <TextInput
                  type="search"
                  aria-label="Search users by name or email"
                  placeholder="Search users by name or email..."
                  description="An exact NPI or license number finds the provider too."
                  leftSection={<IconSearch size={16} aria-hidden="true" />}
                  value={searchInput}
                  onChange={(event) => setSearchInput(event.currentTarget.value)}
                  maxLength={100}
                />
              </>
            )}
            <Tabs value={tab} onChange={openTab} keepMounted={false}>
              <Tabs.List aria-label="Admin views">
                {shownTabs.map(({ value, label }) => (
                  <Tabs.Tab key={value} value={value}>
                    {label}
                  </Tabs.Tab>
                ))}
              </Tabs.List>
              <Tabs.Panel value="users" pt="md">
                <ProviderList
                  data={providers.data}
                  isFetching={providers.isFetching}
                  onPageChange={openPage}
                  onView={setViewing}
                />
              </Tabs.Panel>
              <Tabs.Panel value="review" pt="md">
                <ReviewQueueTab
                  enabled={tab === 'review'}
                  canAssign={reviews}
                  filter={view.review}
                  page={pageOf('review')}
                  onFilterChange={setReviewFilter}
                  onPageChange={openPage}
                />
              </Tabs.Panel>
              <Tabs.Panel value="documents" pt="md">
                <DocumentsTab
                  data={allDocuments.data}
                  isFetching={allDocuments.isFetching}
                  onPageChange={openPage}
                />
              </Tabs.Panel>
              <Tabs.Panel value="audit" pt="md">
                <AuditLogTab
                  data={audit.data}
                  isFetching={audit.isFetching}
                  enabled={tab === 'audit'}
                  filter={view.audit}
                  onFilterChange={setAuditFilter}
                  onPageChange={openPage}
                />
              </Tabs.Panel>
              <Tabs.Panel value="notifications" pt="md">
                <NotificationsTab
                  enabled={tab === 'notifications'}
                  canResend={hasPermission(me.roles, 'send:notification:any')}
                />
              </Tabs.Panel>
              <Tabs.Panel value="exclusions" pt="md">
                <Suspense fallback={<InlineLoader />}>
                  <panels.exclusions enabled={tab === 'exclusions'} canAct={reviews} />
                </Suspense>
              </Tabs.Panel>
              <Tabs.Panel value="screening" pt="md">
                <Suspense fallback={<InlineLoader />}>
                  <panels.screening enabled={tab === 'screening'} canAct={reviews} />
                </Suspense>
              </Tabs.Panel>
              <Tabs.Panel value="decisions" pt="md">
                <Suspense fallback={<InlineLoader />}>
                  <panels.decisions
                    enabled={tab === 'decisions'}
                    canAct={hasPermission(me.roles, 'decide:application:any')}
                  />
                </Suspense>
              </Tabs.Panel>
              <Tabs.Panel value="committee" pt="md">
                <Suspense fallback={<InlineLoader />}>
                  <panels.committee
                    enabled={tab === 'committee'}
                    canAct={hasPermission(me.roles, 'manage:meeting:any')}
                  />
                </Suspense>
              </Tabs.Panel>
              <Tabs.Panel value="staff" pt="md">
                <Suspense fallback={<InlineLoader />}>
                  <panels.staff enabled={tab === 'staff'} canAct />
                </Suspense>
              </Tabs.Panel>
              <Tabs.Panel value="api-clients" pt="md">
                <Suspense fallback={<InlineLoader />}>
                  <panels.apiClients enabled={tab === 'api-clients'} canAct />
                </Suspense>
              </Tabs.Panel>
              <Tabs.Panel value="settings" pt="md">
                <Suspense fallback={<InlineLoader />}>
                  <panels.settings enabled={tab === 'settings'} canAct />
                </Suspense>
              </Tabs.Panel>
              <Tabs.Panel value="reports" pt="md">
                <Suspense fallback={<InlineLoader />}>
                  <panels.reports
                    enabled={tab === 'reports'}
                    listsStaff={hasPermission(me.roles, 'read:audit:any')}
                    filter={view.reports}
                    onFilterChange={setReportFilter}
                  />
                </Suspense>
              </Tabs.Panel>
              <Tabs.Panel value="expiring" pt="md">
                <ExpiringTab
                  enabled={tab === 'expiring'}
                  filter={view.expiring}
                  page={pageOf('expiring')}
                  onFilterChange={setExpiringFilter}
                  onPageChange={openPage}
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
