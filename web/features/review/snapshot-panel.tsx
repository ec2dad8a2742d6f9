/**
 * The frozen snapshot of the review page (issue 13, decision 018): a version picker (version 1 at
 * completion, one more per response to an information request), the field-by-field changes from the
 * previous version, and the eleven sections as they were in the chosen version. Labels come from the
 * section registry (domain/review/snapshot-labels.ts).
 */
import { Accordion, Alert, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { changeLabel, describeSnapshot } from '../../../domain/review/snapshot-labels.ts';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { formatDate } from '../../format.ts';
import { type AdminReview, useApplicationVersion } from './review-api.ts';

const reasonLabel: Record<string, string> = {
  completion: 'completed',
  response: 'response to a request',
};

function shown(value: unknown): string {
  if (value === undefined) return '(none)';
  if (value === null || value === '') return '(empty)';
  return String(value);
}

function ChangesTable({
  changes,
  previous,
}: {
  changes: { path: string; before?: unknown; after?: unknown }[];
  previous: number;
}) {
  if (changes.length === 0) {
    return <Text size="sm">No field changed since version {previous}.</Text>;
  }
  return (
    // A plain scrolling box (keyboard-focusable, named): on a phone the four columns scroll sideways
    // inside it, never the page.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable)
    <section tabIndex={0} aria-label="Changed fields" style={{ overflowX: 'auto' }}>
      <Table striped withTableBorder miw={520} aria-label={`Changes since version ${previous}`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Section</Table.Th>
            <Table.Th scope="col">Field</Table.Th>
            <Table.Th scope="col">Before</Table.Th>
            <Table.Th scope="col">After</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {changes.map((change) => {
            const label = changeLabel(change.path);
            return (
              <Table.Tr key={change.path}>
                <Table.Td>
                  {label.section}
                  {label.entry !== undefined ? `, entry ${label.entry}` : ''}
                </Table.Td>
                <Table.Td>{label.field}</Table.Td>
                <Table.Td>
                  <del>{shown(change.before)}</del>
                </Table.Td>
                <Table.Td>
                  <ins>{shown(change.after)}</ins>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </section>
  );
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
          {data.version > 1 && (
            <Stack gap={4}>
              <Title order={3} size="h5">
                Changes since version {data.version - 1}
              </Title>
              <ChangesTable changes={data.changes} previous={data.version - 1} />
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
