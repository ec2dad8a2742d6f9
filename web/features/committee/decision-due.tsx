/**
 * NCQA's decision clock of a file (issue 32 item 7, domain/committee/timeliness.ts), written as the
 * Review Queue writes it: 'Decision due in 12 days (Mar 3, 2027)'; overdue in red and bold and in
 * words ('Decision overdue by 3 days'), never by colour alone. A file whose clock has not started
 * says so.
 */
import { Text } from '@mantine/core';
import type { DecisionFile } from '../../../domain/api/committee.ts';
import { formatIsoDay } from '../../../domain/calendar.ts';
import { decisionDueText } from '../../../domain/committee/timeliness.ts';

/** The clock's words for `due` (issue 32 item 7); `size` as Mantine's Text. */
export function DecisionDue({
  due,
  size = 'sm',
}: {
  due: DecisionFile['decisionDue'];
  size?: 'xs' | 'sm' | 'md';
}) {
  if (!due) {
    return (
      <Text size={size} c="dimmed" span>
        Not started
      </Text>
    );
  }
  const overdue = due.daysLeft < 0;
  return (
    <Text size={size} c={overdue ? 'red.9' : undefined} fw={overdue ? 700 : undefined} span>
      {decisionDueText(due)} ({formatIsoDay(due.dueOn)})
    </Text>
  );
}
