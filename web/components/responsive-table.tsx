/**
 * A list of rows that is a table on wide screens and a stack of cards on phones (issue 17: at 390 px
 * the section, documents and admin tables were 560-840 px wide inside a 316 px box, their Delete and
 * download buttons off screen).
 *
 * - From Mantine's `sm` breakpoint (48em) up: a table with the columns' headers, one row per item, the
 *   row's actions in a last column.
 * - Below `sm`: one card per row (a list item), each column as a "label: value" line in a description
 *   list, the row's actions visible at the bottom of the card.
 *
 * Both are rendered and one is hidden by CSS (`visibleFrom` / `hiddenFrom`): the right one shows on the
 * first paint, without waiting for JavaScript to measure the screen, and a hidden copy (display: none)
 * is out of the accessibility tree, so screen readers and role-based queries see one list only.
 * Column headers are the callers' (the spec's) texts, defined once per screen.
 */
import { Box, Card, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';

/** One column: its header (shown as the table header and as the card's label) and its cell. */
export interface TableColumn<Row> {
  header: string;
  render: (row: Row) => ReactNode;
  /** Keep the table cell on one line (sizes, dates); the card line wraps anyway. */
  noWrap?: boolean;
}

export interface ResponsiveTableProps<Row> {
  rows: readonly Row[];
  columns: readonly TableColumn<Row>[];
  /** A stable key of a row (its id). */
  rowKey: (row: Row) => string | number;
  /** Accessible name of the card list, and the table's caption when `caption` is true. */
  label: string;
  /** Show `label` as the table's visible caption (the admin lists); otherwise the table is named by it. */
  caption?: boolean;
  /** The row's actions (Delete, download): the last table column and the foot of each card. */
  actions?: (row: Row) => ReactNode;
  /** Header of the actions column; read by screen readers only. Default 'Actions'. */
  actionsHeader?: string;
  /** Minimum table width in px from `sm` up; a narrower box scrolls the table sideways. */
  minWidth?: number;
  striped?: boolean;
  /**
   * Rows shown greyed out and marked `aria-disabled` (issue 32: an agenda's file the caller is recused
   * for); their content says why, not the grey alone.
   */
  rowDisabled?: (row: Row) => boolean;
}

/** The table (from `sm` up) and the cards (below `sm`) of `rows`; see the module comment. */
export function ResponsiveTable<Row>({
  rows,
  columns,
  rowKey,
  label,
  caption = false,
  actions,
  actionsHeader = 'Actions',
  minWidth,
  striped = false,
  rowDisabled,
}: ResponsiveTableProps<Row>) {
  const disabledProps = (row: Row) =>
    rowDisabled?.(row) ? ({ 'aria-disabled': true, bg: 'gray.1' } as const) : {};
  return (
    <>
      <Box visibleFrom="sm">
        <Table.ScrollContainer minWidth={minWidth ?? 0}>
          <Table striped={striped} aria-label={caption ? undefined : label}>
            {caption && <Table.Caption>{label}</Table.Caption>}
            <Table.Thead>
              <Table.Tr>
                {columns.map((column) => (
                  <Table.Th key={column.header} scope="col">
                    {column.header}
                  </Table.Th>
                ))}
                {actions && (
                  <Table.Th scope="col">
                    <VisuallyHidden>{actionsHeader}</VisuallyHidden>
                  </Table.Th>
                )}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={rowKey(row)} {...disabledProps(row)}>
                  {columns.map((column) => (
                    <Table.Td
                      key={column.header}
                      style={column.noWrap ? { whiteSpace: 'nowrap' } : { overflowWrap: 'anywhere' }}
                    >
                      {column.render(row)}
                    </Table.Td>
                  ))}
                  {actions && (
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap" justify="flex-end">
                        {actions(row)}
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Box>
      <Stack
        hiddenFrom="sm"
        component="ul"
        aria-label={label}
        gap="sm"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
      >
        {rows.map((row) => (
          <Card key={rowKey(row)} component="li" withBorder padding="sm" {...disabledProps(row)}>
            <Stack component="dl" gap={6} m={0}>
              {columns.map((column) => (
                <div key={column.header}>
                  <Text component="dt" size="xs" c="dimmed">
                    {column.header}
                  </Text>
                  <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
                    {column.render(row)}
                  </Text>
                </div>
              ))}
            </Stack>
            {actions && (
              <Group gap="xs" mt="sm" wrap="wrap">
                {actions(row)}
              </Group>
            )}
          </Card>
        ))}
      </Stack>
    </>
  );
}
