/**
 * The lines a checklist item carries from the newest snapshot (`details`, domain/api/review.ts). For
 * the work-history item: each gap of 6 months or more with the provider's explanation, or 'not
 * explained' (issue 29 item 7, NCQA CR 3; lines from domain/sections/work-history-gaps.ts), and a line
 * saying there is none when there is none. A list named by its heading for screen readers; long
 * explanations wrap at 390 px.
 */
import { List, Stack, Text } from '@mantine/core';
import { GAP_LOOKBACK_YEARS } from '../../../domain/sections/work-history-gaps.ts';
import type { VerificationItemDto } from './review-api.ts';

export function ItemDetails({ item }: { item: VerificationItemDto }) {
  if (item.kind !== 'work_history') return null;
  const headingId = `details-${item.id}`;
  return (
    <Stack gap={2}>
      <Text size="sm" fw={600} id={headingId}>
        Gaps of 6 months or more
      </Text>
      {item.details.length === 0 ? (
        <Text size="sm">None in the last {GAP_LOOKBACK_YEARS} years.</Text>
      ) : (
        <List size="sm" aria-labelledby={headingId} style={{ overflowWrap: 'anywhere' }}>
          {item.details.map((line) => (
            <List.Item key={line}>{line}</List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}
