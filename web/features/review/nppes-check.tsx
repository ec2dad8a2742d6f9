/**
 * 'Check NPPES' on the NPI checklist item (issue 15): the NPI Registry's record beside the application
 * (name and other names, credential, status and enumeration date, taxonomies with state and license,
 * every practice location: issue 30 item 6), the mismatches highlighted (an organization's NPI among
 * them), and 'Record as verified' to save the outcome in one click
 * (source NPPES NPI Registry, today, a note summing up the record). The server keeps the raw record.
 */
import { Alert, Button, Card, Group, List, Stack, Text } from '@mantine/core';
import { isoDay } from '../../../domain/review/verification-checklist.ts';
import { notifyError, notifySuccess } from '../../notify.ts';
import { badgeColor } from '../../theme.ts';
import { type NppesCheck, useCheckNppes, useUpdateVerification } from './review-api.ts';

function summary(check: NppesCheck): string {
  const r = check.record;
  const parts = [`NPPES ${r.npi}: ${r.name}${r.credential ? `, ${r.credential}` : ''}`, r.status];
  if (r.enumerationDate) parts.push(`enumerated ${r.enumerationDate}`);
  if (check.mismatches.length > 0) parts.push(`mismatches: ${check.mismatches.join('; ')}`);
  return parts.join('; ');
}

export function NppesCheckPanel({ applicationId, itemId }: { applicationId: string; itemId: string }) {
  const check = useCheckNppes(applicationId);
  const record = useUpdateVerification(applicationId);
  const result = check.data;

  return (
    <Stack gap="xs">
      <div>
        <Button
          size="xs"
          variant="default"
          loading={check.isPending}
          onClick={() =>
            check.mutate(itemId, { onError: (e) => notifyError('NPPES Check Failed', e.message) })
          }
        >
          Check NPPES
        </Button>
      </div>
      {check.isError && (
        <Alert color="red" variant="light" role="alert" title="NPPES could not be checked">
          {check.error.message}
        </Alert>
      )}
      {result && (
        <Card withBorder padding="sm" aria-label="NPPES record">
          <Stack gap={4}>
            <Text fw={600}>
              {result.record.name}
              {result.record.credential ? `, ${result.record.credential}` : ''}
            </Text>
            <Text size="sm">
              NPI {result.record.npi} ({result.record.enumerationType}), {result.record.status}
              {result.record.enumerationDate ? `, enumerated ${result.record.enumerationDate}` : ''}
            </Text>
            {result.record.taxonomies.map((t) => (
              <Text size="sm" key={`${t.code}-${t.state}-${t.license}`}>
                {t.primary ? 'Primary: ' : ''}
                {t.description} ({t.code}){t.license ? `, license ${t.state ?? ''} ${t.license}` : ''}
              </Text>
            ))}
            {result.record.otherNames.length > 0 && (
              <Text size="sm">Other names: {result.record.otherNames.join('; ')}</Text>
            )}
            {result.record.practiceLocations.length === 1 && (
              <Text size="sm">Practice location: {result.record.practiceLocations[0]}</Text>
            )}
            {result.record.practiceLocations.length > 1 && (
              <div>
                <Text size="sm">Practice locations ({result.record.practiceLocations.length}):</Text>
                <List size="sm" aria-label="Practice locations">
                  {result.record.practiceLocations.map((location) => (
                    <List.Item key={location}>{location}</List.Item>
                  ))}
                </List>
              </div>
            )}
            {result.mismatches.length > 0 ? (
              <Stack
                gap={2}
                role="status"
                p="xs"
                style={{
                  borderLeft: `4px solid ${badgeColor.orange}`,
                  background: 'var(--mantine-color-gray-0)',
                }}
              >
                <Text size="sm" fw={600}>
                  Differs from the application
                </Text>
                <List size="sm">
                  {result.mismatches.map((m) => (
                    <List.Item key={m}>
                      <mark>{m}</mark>
                    </List.Item>
                  ))}
                </List>
              </Stack>
            ) : (
              <Text size="sm">Matches the application.</Text>
            )}
            <Group gap="xs">
              <Button
                size="xs"
                loading={record.isPending}
                onClick={() =>
                  record.mutate(
                    {
                      itemId,
                      update: {
                        status: 'verified',
                        source: 'NPPES NPI Registry',
                        verifiedAt: isoDay(new Date()),
                        note: summary(result).slice(0, 4000),
                      },
                    },
                    {
                      onSuccess: () => notifySuccess('Checklist Updated', 'NPI: Verified against NPPES'),
                      onError: (e) => notifyError('Checklist Not Updated', e.message),
                    },
                  )
                }
              >
                Record as verified
              </Button>
            </Group>
          </Stack>
        </Card>
      )}
    </Stack>
  );
}
