/**
 * 'Export Roster' (issue 33 item 2) on the admin dashboard, for staff who read providers' sections:
 * a dialog choosing the file format (CSV or Excel) and the columns, preselected with the caller's
 * remembered choice (GET /api/admin/roster/columns, the default layout until one is saved).
 * 'Download' saves the choice (PUT, so the next export starts from it) and then downloads
 * /api/admin/roster.csv or .xlsx, which the server streams and audits. Columns keep the roster's
 * standard order (domain/exports/roster.ts).
 */
import { Alert, Button, Checkbox, Group, Modal, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { z } from 'zod';
import type { rosterColumnsAnswerSchema } from '../../../domain/api/exports.ts';
import {
  defaultRosterColumns,
  type RosterColumnKey,
  type RosterFormat,
  rosterColumns,
} from '../../../domain/exports/roster.ts';
import { api } from '../../api.ts';
import { InlineLoader } from '../../components/inline-loader.tsx';

type ColumnsAnswer = z.infer<typeof rosterColumnsAnswerSchema>;

const COLUMNS_PATH = '/api/admin/roster/columns';

/** The roster's download address in `format` (the server reads the remembered columns). */
export function rosterUrl(format: RosterFormat): string {
  return `/api/admin/roster.${format}`;
}

/** Starts a download of `href` the way a link would: the browser saves the file the server names. */
function download(href: string) {
  const link = document.createElement('a');
  link.href = href;
  link.download = '';
  document.body.append(link);
  link.click();
  link.remove();
}

/** The button and its dialog. */
export function ExportRosterButton() {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconDownload size={16} aria-hidden="true" />}
        onClick={() => setOpened(true)}
      >
        Export Roster
      </Button>
      <ExportRosterDialog opened={opened} onClose={() => setOpened(false)} />
    </>
  );
}

function ExportRosterDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const remembered = useQuery({
    queryKey: ['roster-columns'],
    queryFn: () => api<ColumnsAnswer>('GET', COLUMNS_PATH),
    enabled: opened,
  });
  const [format, setFormat] = useState<RosterFormat>('csv');
  const [chosen, setChosen] = useState<RosterColumnKey[]>([]);
  useEffect(() => {
    if (opened && remembered.data) setChosen(remembered.data.columns);
  }, [opened, remembered.data]);
  const save = useMutation({
    mutationFn: (columns: RosterColumnKey[]) => api<ColumnsAnswer>('PUT', COLUMNS_PATH, { columns }),
    onSuccess: (answer) => {
      queryClient.setQueryData(['roster-columns'], answer);
      download(rosterUrl(format));
      onClose();
    },
  });
  // The standard order, whatever order the boxes were ticked in.
  const ordered = (keys: readonly string[]) =>
    rosterColumns.map((c) => c.key).filter((key) => keys.includes(key));

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Export Roster"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack>
        <Text size="sm">
          Credentialed providers, one row per practice location. Your column choice is kept for your next
          export.
        </Text>
        {remembered.isLoading && <InlineLoader label="Loading your columns..." />}
        {remembered.isError && (
          <Alert color="red" variant="light" role="alert" title="Your columns could not be loaded">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{remembered.error.message}</Text>
              <Button size="xs" variant="default" onClick={() => remembered.refetch()}>
                Try again
              </Button>
            </Stack>
          </Alert>
        )}
        {remembered.data && (
          <>
            <Radio.Group label="Format" value={format} onChange={(value) => setFormat(value as RosterFormat)}>
              <Group mt="xs">
                <Radio value="csv" label="CSV" />
                <Radio value="xlsx" label="Excel (XLSX)" />
              </Group>
            </Radio.Group>
            <Checkbox.Group
              label="Columns"
              description={`${chosen.length} of ${rosterColumns.length} chosen`}
              value={chosen}
              onChange={(keys) => setChosen(ordered(keys))}
              error={chosen.length === 0 ? 'Choose at least one column' : undefined}
            >
              <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs" spacing="xs">
                {rosterColumns.map((column) => (
                  <Checkbox key={column.key} value={column.key} label={column.header} />
                ))}
              </SimpleGrid>
            </Checkbox.Group>
            {save.isError && (
              <Alert color="red" variant="light" role="alert" title="The roster could not be exported">
                {save.error.message}
              </Alert>
            )}
            <Group justify="space-between">
              <Button variant="subtle" onClick={() => setChosen(defaultRosterColumns)}>
                Reset to Default
              </Button>
              <Group>
                <Button variant="default" onClick={onClose}>
                  Cancel
                </Button>
                <Button
                  leftSection={<IconDownload size={16} aria-hidden="true" />}
                  disabled={chosen.length === 0}
                  loading={save.isPending}
                  onClick={() => save.mutate(chosen)}
                >
                  Download
                </Button>
              </Group>
            </Group>
          </>
        )}
      </Stack>
    </Modal>
  );
}
