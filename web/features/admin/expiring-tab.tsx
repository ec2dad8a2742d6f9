/**
 * The 'Expiring' tab of /admin (issue 14, decision 023): the dated credentials of every provider's
 * current application that have expired or expire within the chosen window, soonest (most overdue)
 * first, with the provider, what it is, its section, the date and the days left, coloured by urgency
 * like the provider's dashboard card. Filters: window and credential type. Paged on the server
 * (GET /api/admin/expiring-credentials); 'Export CSV' downloads every row of the filter.
 */
import { Badge, Button, Group, Select, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import {
  credentialKindLabel,
  credentialKinds,
  daysLeftText,
  expiringWindowLabel,
  expiringWindows,
} from '../../../domain/credentials/expiring-credentials.ts';
import { type CatalogSectionKey, sectionCatalog } from '../../../domain/sections/section-catalog.ts';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { ListPager } from '../../components/list-pager.tsx';
import { ResponsiveTable, type TableColumn } from '../../components/responsive-table.tsx';
import { formatDate } from '../../format.ts';
import { expiryUrgencyColor } from '../../theme.ts';
import {
  type ExpiringFilter,
  type ExpiringListItem,
  expiringExportUrl,
  useExpiringCredentials,
} from './admin-api.ts';

const ALL_KINDS = 'all';
const windowOptions = expiringWindows.map((value) => ({ value, label: expiringWindowLabel(value) }));
const kindOptions = [
  { value: ALL_KINDS, label: 'All kinds' },
  ...credentialKinds.map((value) => ({ value, label: credentialKindLabel[value] })),
];

const columns: TableColumn<ExpiringListItem>[] = [
  {
    header: 'Provider',
    render: (c) => (
      <>
        <Text size="sm" span display="block">
          {`${c.provider.firstName} ${c.provider.lastName}`.trim() || 'Provider without a profile'}
        </Text>
        <Text size="xs" c="dimmed" span display="block">
          {c.provider.email}
        </Text>
      </>
    ),
  },
  {
    header: 'Credential',
    render: (c) => (
      <>
        <Text size="sm" span display="block">
          {c.name}
        </Text>
        <Text size="xs" c="dimmed" span display="block">
          {credentialKindLabel[c.kind]}
        </Text>
      </>
    ),
  },
  { header: 'Section', render: (c) => sectionCatalog[c.sectionKey as CatalogSectionKey].title },
  { header: 'Expires', render: (c) => formatDate(c.expiresOn), noWrap: true },
  {
    header: 'Days left',
    render: (c) => (
      <Badge color={expiryUrgencyColor[c.urgency]} variant="filled">
        {daysLeftText(c.daysLeft)}
      </Badge>
    ),
    noWrap: true,
  },
];

/**
 * The tab's content; queries only while the tab is shown. The filter and page are the dashboard's
 * (kept in its URL, issue 28): a new filter starts again at page 1.
 */
export function ExpiringTab({
  enabled,
  filter,
  page,
  onFilterChange,
  onPageChange,
}: {
  enabled: boolean;
  filter: ExpiringFilter;
  page: number;
  onFilterChange: (filter: ExpiringFilter) => void;
  onPageChange: (page: number) => void;
}) {
  const expiring = useExpiringCredentials(filter, page, enabled);

  return (
    <Stack>
      <Group align="flex-end" gap="lg" wrap="wrap">
        <Select
          label="Window"
          description="Includes what has already expired"
          w={240}
          allowDeselect={false}
          data={windowOptions}
          value={filter.window}
          onChange={(value) => {
            const window = expiringWindows.find((w) => w === value);
            if (window) onFilterChange({ ...filter, window });
          }}
        />
        <Select
          label="Credential type"
          w={240}
          allowDeselect={false}
          data={kindOptions}
          value={filter.kind ?? ALL_KINDS}
          onChange={(value) => {
            const kind = credentialKinds.find((k) => k === value);
            onFilterChange({ ...filter, kind });
          }}
        />
        <Button
          component="a"
          href={expiringExportUrl(filter)}
          download
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden="true" />}
        >
          Export CSV
        </Button>
      </Group>
      {expiring.isPending ? (
        <InlineLoader label="Loading expiring credentials..." />
      ) : expiring.isError ? (
        <Text>The expiring credentials could not be loaded. Reload the page to try again.</Text>
      ) : expiring.data.credentials.length === 0 ? (
        <Text c="dimmed">No credentials have expired or expire in this window.</Text>
      ) : (
        <Stack aria-busy={expiring.isFetching}>
          <ListPager info={expiring.data} noun={['credential', 'credentials']} onPageChange={onPageChange} />
          <ResponsiveTable
            rows={expiring.data.credentials}
            columns={columns}
            rowKey={(c) => `${c.kind}-${c.rowId}`}
            label="Expiring credentials, soonest first"
            caption
            striped
            minWidth={760}
          />
        </Stack>
      )}
    </Stack>
  );
}
