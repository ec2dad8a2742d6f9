import { Badge } from '@mantine/core';
import {
  type ApplicationStatus,
  applicationStatusColor,
  applicationStatusLabel,
} from '../../domain/application-status.ts';
import { badgeColor } from '../theme.ts';

/** Application status badge with the spec's labels and colours (spec §4). */
export function StatusBadge({ status }: { status: ApplicationStatus }) {
  return (
    <Badge color={badgeColor[applicationStatusColor[status]]} autoContrast variant="filled">
      {applicationStatusLabel[status]}
    </Badge>
  );
}
