/**
 * One finding of the 'Screening Matches' queue (issue 30 item 4): the provider (linked to the
 * application's review page, keeping the dashboard's view for 'Back'), the source, the strength
 * ('Possible match' / 'Match'), what matched, when it was found, a pending change ("No longer on the
 * list"), and the provider's and the list row's fields side by side. A line that differs is marked by
 * an icon and the word "Differs" (not colour alone, WCAG 1.4.1); a line with one side empty reads
 * "Not on one side". The decision buttons name the provider and the source (several cards repeat them).
 */
import { Anchor, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconMinus } from '@tabler/icons-react';
import { useId } from 'react';
import { Link, useLocation } from 'react-router';
import {
  type ComparisonLine,
  type FindingDecision,
  findingDecisionLabel,
} from '../../../domain/api/screening.ts';
import { fromAdminState } from '../../app/admin-tabs.ts';
import { reviewPath } from '../../app/paths.ts';
import { ResponsiveTable, type TableColumn } from '../../components/responsive-table.tsx';
import { formatDate } from '../../format.ts';
import { badgeColor } from '../../theme.ts';
import type { ScreeningFinding } from './screening-api.ts';
import {
  agreementText,
  decisionsFor,
  matchedOnLabel,
  pendingChangeText,
  strengthLabel,
} from './screening-texts.ts';

const strengthColor: Record<ScreeningFinding['strength'], string> = {
  match: badgeColor.red,
  possible_match: badgeColor.orange,
};

/** The agreement cell: icon and words. */
function Agreement({ line }: { line: ComparisonLine }) {
  const Icon =
    line.agreement === 'different' ? IconAlertTriangle : line.agreement === 'same' ? IconCheck : IconMinus;
  return (
    <Group gap={4} wrap="nowrap" component="span">
      <Icon size={16} aria-hidden="true" />
      <Text size="sm" span fw={line.agreement === 'different' ? 700 : undefined}>
        {agreementText(line)}
      </Text>
    </Group>
  );
}

/** A differing value, marked (the <mark> is announced by some screen readers; the words always are). */
function Value({ line, value }: { line: ComparisonLine; value: string }) {
  if (!value)
    return (
      <Text size="sm" span c="dimmed">
        —
      </Text>
    );
  return line.agreement === 'different' ? <mark>{value}</mark> : value;
}

const comparisonColumns: TableColumn<ComparisonLine>[] = [
  {
    header: 'Field',
    render: (l) => (
      <Text size="sm" span fw={600}>
        {l.label}
      </Text>
    ),
  },
  { header: 'Provider', render: (l) => <Value line={l} value={l.provider} /> },
  { header: 'List row', render: (l) => <Value line={l} value={l.list} /> },
  { header: 'Comparison', render: (l) => <Agreement line={l} />, noWrap: true },
];

export function FindingCard({
  finding,
  onDecide,
}: {
  finding: ScreeningFinding;
  /** Without it (a role that reads only, issue 32) the card has no decision buttons. */
  onDecide?: (finding: ScreeningFinding, decision: FindingDecision) => void;
}) {
  const location = useLocation();
  const titleId = useId();
  const name = finding.providerName || 'Provider without a profile';
  const differing = finding.comparison.filter((l) => l.agreement === 'different').length;
  return (
    <Card withBorder padding="md" component="li" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <div style={{ flex: '1 1 14rem', minWidth: 0, overflowWrap: 'anywhere' }}>
            <Title order={3} size="h5" id={titleId}>
              <Anchor
                component={Link}
                to={reviewPath(finding.applicationId)}
                state={fromAdminState(location)}
                inherit
              >
                {name}
              </Anchor>
            </Title>
            <Text size="sm">
              {finding.sourceLabel} · Matched on: {matchedOnLabel[finding.matchedOn]} · Found{' '}
              {formatDate(finding.foundAt)}
            </Text>
          </div>
          <Group gap={6} style={{ flexShrink: 0 }}>
            {finding.pendingChange && (
              <Badge color={badgeColor.blue} variant="filled">
                {pendingChangeText[finding.pendingChange]}
              </Badge>
            )}
            <Badge color={strengthColor[finding.strength]} variant="filled">
              {strengthLabel[finding.strength]}
            </Badge>
          </Group>
        </Group>
        {finding.pendingChange && (
          <Text size="sm">
            {pendingChangeText[finding.pendingChange]}: the list row
            {finding.entry.reinstatementDate
              ? ` was reinstated on ${formatDate(finding.entry.reinstatementDate)}`
              : ' left the list'}
            . Accept the change to close this finding.
          </Text>
        )}
        <Text size="sm">
          {differing === 0
            ? 'No field differs.'
            : `${differing} ${differing === 1 ? 'field differs' : 'fields differ'} between the provider and the list row.`}
        </Text>
        <ResponsiveTable
          rows={finding.comparison}
          columns={comparisonColumns}
          rowKey={(l) => l.label}
          label={`${name} and the ${finding.sourceLabel} row, side by side`}
          caption
          minWidth={600}
        />
        {onDecide && (
          <Group gap="sm">
            {decisionsFor(finding).map((decision) => (
              <Button
                key={decision}
                variant={decision === 'not_same_person' ? 'default' : 'filled'}
                color={decision === 'confirm_match' ? 'red.9' : undefined}
                onClick={() => onDecide(finding, decision)}
                aria-label={`${findingDecisionLabel[decision]}: ${name}, ${finding.sourceLabel}`}
              >
                {findingDecisionLabel[decision]}
              </Button>
            ))}
          </Group>
        )}
      </Stack>
    </Card>
  );
}
