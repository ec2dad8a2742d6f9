/**
 * The frozen snapshot of the review page (issue 13, decision 018): a version picker (version 1 at
 * completion, one more per response to an information request), the rows that changed since the
 * previous version (or, for a copied application's version 1, since the previous cycle; issue 29
 * item 5), and the eleven sections as they were in the chosen version. Labels come from the section
 * registry (domain/review/snapshot-labels.ts); changes are paired by row identity on the server
 * (domain/review/application-snapshot.ts `diffByRow`).
 */
import {
  Accordion,
  Alert,
  Badge,
  Box,
  Group,
  Paper,
  Select,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import type { RowChangeKind } from '../../../domain/review/application-snapshot.ts';
import { describeSnapshot } from '../../../domain/review/snapshot-labels.ts';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { formatDate } from '../../format.ts';
import { badgeColor } from '../../theme.ts';
import { type AdminReview, type ApplicationVersion, useApplicationVersion } from './review-api.ts';

const reasonLabel: Record<string, string> = {
  completion: 'completed',
  response: 'response to a request',
};

const changeBadge: Record<RowChangeKind, { label: string; color: string }> = {
  added: { label: 'Added', color: badgeColor.green },
  removed: { label: 'Removed', color: badgeColor.red },
  changed: { label: 'Changed', color: badgeColor.blue },
};

/** Long values (a 200-character description, a hash) wrap anywhere: no truncation, no sideways scroll. */
const wrap = { overflowWrap: 'anywhere', minWidth: 0 } as const;

function shown(value: string | number | boolean | null): string {
  if (value === null || value === '') return '(empty)';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

type Change = ApplicationVersion['changes'][number];

/** One field of a row change: 'Label: before → after' ('Before'/'After' named for screen readers). */
function FieldChangeLine({ field, change }: { field: Change['fields'][number]; change: RowChangeKind }) {
  return (
    <Box component="li" style={wrap}>
      <Text component="span" size="sm" fw={600}>
        {field.label}:
      </Text>{' '}
      {change !== 'added' && (
        <Text component="del" size="sm" c="red.9" style={{ ...wrap, textDecoration: 'line-through' }}>
          <VisuallyHidden>Before: </VisuallyHidden>
          {shown(field.before)}
        </Text>
      )}
      {change === 'changed' && (
        <Text component="span" size="sm" aria-hidden="true">
          {' → '}
        </Text>
      )}
      {change !== 'removed' && (
        <Text
          component="ins"
          size="sm"
          c={badgeColor.green}
          style={{ ...wrap, textDecoration: 'none', fontWeight: 500 }}
        >
          <VisuallyHidden>After: </VisuallyHidden>
          {shown(field.after)}
        </Text>
      )}
    </Box>
  );
}

/**
 * The rows that differ, one card each: a heading 'Section › row' with an Added / Removed / Changed
 * badge, then its fields, before → after. Wraps at 390 px and 1280 px alike.
 */
function RowChanges({ changes, since }: { changes: Change[]; since: string }) {
  if (changes.length === 0) return <Text size="sm">Nothing changed since {since}.</Text>;
  return (
    <Stack
      component="ul"
      gap="xs"
      p={0}
      m={0}
      style={{ listStyle: 'none' }}
      aria-label={`Changes since ${since}`}
    >
      {changes.map((change) => {
        const badge = changeBadge[change.change];
        const title = change.rowLabel ? `${change.sectionLabel} › ${change.rowLabel}` : change.sectionLabel;
        return (
          <Paper
            component="li"
            key={`${change.section}:${change.rowKey}`}
            withBorder
            p="sm"
            aria-label={`${title}, ${badge.label.toLowerCase()}`}
            style={wrap}
          >
            <Group gap="xs" wrap="nowrap" align="flex-start" justify="space-between">
              <Title order={4} size="h6" style={wrap}>
                {title}
              </Title>
              <Badge color={badge.color} variant="filled" autoContrast style={{ flexShrink: 0 }}>
                {badge.label}
              </Badge>
            </Group>
            <Stack component="ul" gap={2} mt={4} p={0} m={0} style={{ listStyle: 'none' }}>
              {change.fields.map((field) => (
                <FieldChangeLine key={field.field} field={field} change={change.change} />
              ))}
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}

/** 'version 1', or 'the previous cycle' for a copied application's first version. */
function comparedWithText(comparedWith: ApplicationVersion['comparedWith']): string | null {
  if (!comparedWith) return null;
  return comparedWith.kind === 'previous_cycle' ? 'the previous cycle' : `version ${comparedWith.version}`;
}

/** The snapshot with its version picker; starts at the newest version. */
export function SnapshotPanel({ review }: { review: AdminReview }) {
  const newest = review.versions.at(-1)?.version;
  const [picked, setPicked] = useState<number | undefined>(undefined);
  const version = picked ?? newest;
  const query = useApplicationVersion(review.applicationId, version);

  if (newest === undefined) {
    return (
      <Stack gap="sm">
        <Title order={2} size="h4">
          Application snapshot
        </Title>
        <Text c="dimmed">The application has not been completed yet: there is no snapshot to review.</Text>
      </Stack>
    );
  }
  const data = query.data;
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end">
        <Title order={2} size="h4">
          Application snapshot
        </Title>
        <Select
          label="Version"
          w={{ base: '100%', sm: 380 }}
          allowDeselect={false}
          value={String(version)}
          onChange={(value) => value && setPicked(Number(value))}
          data={[...review.versions].reverse().map((v) => ({
            value: String(v.version),
            label: `Version ${v.version} · ${reasonLabel[v.reason] ?? v.reason} · ${formatDate(v.createdAt)}`,
          }))}
        />
      </Group>
      {query.isError && (
        <Alert color="red" variant="light" role="alert" title="The snapshot could not be loaded">
          {query.error.message}
        </Alert>
      )}
      {!data ? (
        query.isLoading && <InlineLoader label="Loading the snapshot..." />
      ) : (
        <>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            SHA-256 {data.sha256}
          </Text>
          {comparedWithText(data.comparedWith) && (
            <Stack gap={4}>
              <Title order={3} size="h5">
                Changes since {comparedWithText(data.comparedWith)}
              </Title>
              <RowChanges changes={data.changes} since={comparedWithText(data.comparedWith)!} />
            </Stack>
          )}
          <Accordion multiple variant="separated" defaultValue={['personalInformation']}>
            {describeSnapshot(data.snapshot as Parameters<typeof describeSnapshot>[0]).map((section) => (
              <Accordion.Item key={section.key} value={section.key}>
                <Accordion.Control>
                  {section.title}
                  {section.key !== 'personalInformation' && ` (${section.entries.length})`}
                </Accordion.Control>
                <Accordion.Panel>
                  {section.entries.length === 0 ? (
                    <Text size="sm" c="dimmed">
                      Nothing entered.
                    </Text>
                  ) : (
                    <Stack gap="sm">
                      {section.entries.map((entry, i) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: snapshot rows are positional and never reorder
                        <dl key={i} style={{ margin: 0 }} aria-label={`${section.title}, entry ${i + 1}`}>
                          {entry
                            .filter((f) => f.value !== '')
                            .map((f) => (
                              <Group key={f.label} gap="xs" wrap="nowrap" align="baseline">
                                <Text component="dt" size="sm" c="dimmed" miw={160}>
                                  {f.label}
                                </Text>
                                <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
                                  {f.value}
                                </Text>
                              </Group>
                            ))}
                        </dl>
                      ))}
                    </Stack>
                  )}
                </Accordion.Panel>
              </Accordion.Item>
            ))}
          </Accordion>
        </>
      )}
    </Stack>
  );
}
