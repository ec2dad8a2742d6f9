/** A committee meeting's status (issue 32 item 5): 'Closed' once its minutes are frozen, else 'Open'. */
import { Badge } from '@mantine/core';
import { badgeColor } from '../../theme.ts';

/** 'Closed' or 'Open', in words and colour (issue 32 item 5). */
export function MeetingStatusBadge({ closedAt }: { closedAt: string | null }) {
  return closedAt ? (
    <Badge color={badgeColor.gray} variant="filled">
      Closed
    </Badge>
  ) : (
    <Badge color={badgeColor.blue} variant="filled">
      Open
    </Badge>
  );
}
