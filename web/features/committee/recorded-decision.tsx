/**
 * A decision the committee recorded for a file (issue 32 item 5), as the meeting page shows it: its
 * label in a badge, its text ('Conditions: …'), the votes ('For 3 · Against 0 · Abstained 1'), the
 * effective date of an approval and the discussion summary.
 */
import { Badge, Stack, Text } from '@mantine/core';
import { formatIsoDay } from '../../../domain/calendar.ts';
import {
  type CommitteeDecision,
  committeeDecisionTextLabel,
  decisionLabelFor,
} from '../../../domain/committee/committee-decisions.ts';
import { badgeColor } from '../../theme.ts';
import type { RecordedDecision as Decision } from './committee-api.ts';
import { votesText } from './committee-format.ts';

const decisionColor: Record<CommitteeDecision, string> = {
  approve: badgeColor.green,
  approve_with_conditions: badgeColor.green,
  deny: badgeColor.red,
  defer: badgeColor.orange,
};

/** A committee decision's badge alone (issue 32 item 5). */
export function DecisionBadge({ decision, kind }: { decision: CommitteeDecision; kind?: string }) {
  return (
    <Badge color={decisionColor[decision]} variant="filled">
      {decisionLabelFor(kind, decision)}
    </Badge>
  );
}

/** A recorded decision with its text, votes, effective date and discussion (issue 32 item 5). */
export function RecordedDecision({ decision, kind }: { decision: Decision; kind?: string }) {
  const textLabel = committeeDecisionTextLabel[decision.decision];
  return (
    <Stack gap={2} align="flex-start">
      <DecisionBadge decision={decision.decision} kind={kind} />
      {textLabel && decision.text && (
        <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
          {textLabel}: {decision.text}
        </Text>
      )}
      <Text size="sm">{votesText(decision)}</Text>
      {decision.effectiveDate && (
        <Text size="sm">Effective Date: {formatIsoDay(decision.effectiveDate)}</Text>
      )}
      <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
        Discussion: {decision.discussion}
      </Text>
    </Stack>
  );
}
