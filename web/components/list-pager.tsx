/**
 * "Showing 21–40 of 1,234 users" plus page buttons: the admin lists (paged on the server) and the
 * Reports tab's lists of files (paged in the browser).
 */
import { Box, Group, Pagination, Text } from '@mantine/core';
import type { PageInfo } from '../../domain/api/admin.ts';

const number = new Intl.NumberFormat('en-US');

export function ListPager({
  info,
  noun,
  onPageChange,
}: {
  info: PageInfo;
  /** Noun of the rows, singular and plural, e.g. ['user', 'users']. */
  noun: readonly [one: string, other: string];
  onPageChange: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(info.total / info.pageSize));
  const first = info.total === 0 ? 0 : (info.page - 1) * info.pageSize + 1;
  const last = Math.min(info.page * info.pageSize, info.total);
  return (
    <Group justify="space-between" wrap="wrap">
      <Text size="sm" aria-live="polite">
        {info.total === 0
          ? `No ${noun[1]} found`
          : `Showing ${number.format(first)}–${number.format(last)} of ${number.format(info.total)}${
              info.totalCapped ? '+' : ''
            } ${info.total === 1 && !info.totalCapped ? noun[0] : noun[1]}`}
      </Text>
      {pages > 1 && (
        <Box component="nav" aria-label={`Pages of ${noun[1]}`}>
          <Pagination
            total={pages}
            value={Math.min(info.page, pages)}
            onChange={onPageChange}
            siblings={1}
            withEdges
            getControlProps={(control) => ({
              'aria-label': `${control[0]!.toUpperCase()}${control.slice(1)} page`,
            })}
            getItemProps={(page) => ({ 'aria-label': `Page ${page}` })}
          />
        </Box>
      )}
    </Group>
  );
}
