/**
 * One staged import on the 'Exclusions' tab (issue 30 items 1-3): what the file was read as before
 * anything changes ('Import' then 'Apply'). The detected format (source, kind), the file name and
 * its encoding, the rows read, the rows skipped with each line number and why (collapsed past
 * SKIPPED_SHOWN), a sample of the rows, the list's size now, and why applying needs a reason when it
 * does. 'Apply' and 'Discard' are the caller's (exclusions-tab.tsx): their buttons name the file, as
 * several imports may be waiting.
 */
import {
  Badge,
  Button,
  Card,
  Group,
  List,
  SimpleGrid,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { type ReactNode, useId, useState } from 'react';
import type { ExclusionRow } from '../../../domain/api/screening.ts';
import { ResponsiveTable, type TableColumn } from '../../components/responsive-table.tsx';
import { formatDate } from '../../format.ts';
import { badgeColor } from '../../theme.ts';
import type { StagedImport } from './screening-api.ts';
import { countOf, fileKindLabel, skippedLineText } from './screening-texts.ts';

/** Skipped lines listed before 'Show all' is pressed. */
export const SKIPPED_SHOWN = 5;

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const encodingLabel: Record<StagedImport['encoding'], string> = {
  'utf-8': 'UTF-8',
  'windows-1252': 'Windows-1252',
};

const sampleColumns: TableColumn<ExclusionRow>[] = [
  { header: 'Line', render: (r) => r.line, noWrap: true },
  { header: 'Name', render: (r) => r.name },
  { header: 'NPI', render: (r) => r.npi ?? '—', noWrap: true },
  { header: 'Date of birth', render: (r) => formatDate(r.dob) || '—', noWrap: true },
  {
    header: 'Exclusion',
    render: (r) =>
      [r.exclusionType, r.exclusionDate ? formatDate(r.exclusionDate) : ''].filter(Boolean).join(', ') || '—',
  },
  { header: 'Reinstated', render: (r) => formatDate(r.reinstatementDate) || '—', noWrap: true },
];

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed">
        {label}
      </Text>
      <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

function SkippedLines({ staged }: { staged: StagedImport }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const many = staged.skipped.length > SKIPPED_SHOWN;
  const shown = open || !many ? staged.skipped : staged.skipped.slice(0, SKIPPED_SHOWN);
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        Skipped: {countOf(staged.skippedCount, 'line', 'lines')}
        {staged.skippedCount > staged.skipped.length
          ? ` (the first ${staged.skipped.length} are listed)`
          : ''}
      </Text>
      <List size="sm" id={listId} aria-label={`Skipped lines of ${staged.fileName}`}>
        {shown.map((s) => (
          <List.Item key={s.line}>{skippedLineText(s)}</List.Item>
        ))}
      </List>
      {many && (
        <UnstyledButton
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => setOpen((value) => !value)}
          style={{ textDecoration: 'underline' }}
        >
          <Text size="sm" span>
            {open ? 'Show fewer skipped lines' : `Show all ${staged.skipped.length} listed skipped lines`}
          </Text>
        </UnstyledButton>
      )}
    </Stack>
  );
}

export function StagedImportCard({
  staged,
  applying,
  discarding,
  onApply,
  onDiscard,
}: {
  staged: StagedImport;
  /** 'Apply' of this import is under way. */
  applying: boolean;
  discarding: boolean;
  /** Without them (a role that reads only, issue 32) the card has no 'Apply' and 'Discard'. */
  onApply?: (staged: StagedImport) => void;
  onDiscard?: (staged: StagedImport) => void;
}) {
  const titleId = useId();
  const busy = applying || discarding;
  return (
    <Card withBorder padding="md" component="li" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <Title order={3} size="h5" id={titleId} style={{ overflowWrap: 'anywhere' }}>
            {staged.formatLabel}: {staged.fileName}
          </Title>
          <Badge color={badgeColor.blue} variant="filled">
            Not applied yet
          </Badge>
        </Group>
        <SimpleGrid component="dl" cols={{ base: 2, sm: 4 }} spacing="sm" verticalSpacing="xs" m={0}>
          <Fact label="Source">{staged.sourceLabel}</Fact>
          <Fact label="Kind of file">{fileKindLabel[staged.kind]}</Fact>
          <Fact label="File">{staged.fileName}</Fact>
          <Fact label="Encoding">{encodingLabel[staged.encoding]}</Fact>
          <Fact label="Imported">{dateTime.format(new Date(staged.stagedAt))}</Fact>
          <Fact label="Rows read">{countOf(staged.rowCount, 'row', 'rows')}</Fact>
          <Fact label="Rows skipped">{countOf(staged.skippedCount, 'line', 'lines')}</Fact>
          <Fact label="On the list now">{countOf(staged.currentRows, 'row', 'rows')}</Fact>
        </SimpleGrid>
        {staged.needsReason && (
          // Marked by a border and said in words; dark text on a light ground keeps AA contrast.
          <Stack
            gap={2}
            p="xs"
            style={{
              borderLeft: `4px solid ${badgeColor.orange}`,
              background: 'var(--mantine-color-gray-0)',
            }}
          >
            <Text size="sm" fw={600}>
              A reason is needed to apply this file
            </Text>
            <Text size="sm">{staged.needsReason}</Text>
          </Stack>
        )}
        {staged.skippedCount > 0 && <SkippedLines staged={staged} />}
        {staged.sample.length > 0 ? (
          <ResponsiveTable
            rows={staged.sample}
            columns={sampleColumns}
            rowKey={(r) => r.line}
            label={`First ${countOf(staged.sample.length, 'row', 'rows')} of ${staged.fileName}`}
            caption
            striped
            minWidth={720}
          />
        ) : (
          <Text size="sm">The file has no rows to add to the list.</Text>
        )}
        {onApply && onDiscard && (
          <Group gap="sm">
            <Button
              onClick={() => onApply(staged)}
              loading={applying}
              disabled={discarding}
              aria-label={`Apply ${staged.fileName}`}
            >
              Apply
            </Button>
            <Button
              variant="default"
              onClick={() => onDiscard(staged)}
              disabled={busy}
              aria-label={`Discard ${staged.fileName}`}
            >
              Discard
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
