/**
 * The provider's credential beside the cycle in progress (issue 29 item 1): 'Credentialed until
 * MMM D, YYYY', 'Credential ended MMM D, YYYY', 'Credential expired' (domain `credentialLabel`), or
 * 'Not credentialed', each with its own badge next to the cycle's status badge; 'Approved, effective MMM
 * D, YYYY' before a first approval's effective date, and a 'Suspended' badge beside it while ongoing
 * monitoring holds a finding open (issue 49). Shared by the
 * dashboard, the admin card and details, and the review page header.
 */
import { Badge, Group, Text } from '@mantine/core';
import type { ProviderCredentialDto } from '../../domain/api/provider-credential.ts';
import type { ApplicationStatus } from '../../domain/application-status.ts';
import {
  type ApplicationCycle,
  applicationCycleLabel,
  type CredentialState,
  credentialLabel,
  credentialStateColor,
} from '../../domain/credentials/provider-credential.ts';
import { badgeColor } from '../theme.ts';
import { StatusBadge } from './status-badge.tsx';

/** The domain state of the API's credential. */
export function credentialStateOf(credential: ProviderCredentialDto): CredentialState {
  switch (credential.state) {
    case 'pending':
      return { state: 'pending', effectiveOn: credential.effectiveOn ?? '', endsOn: credential.endsOn ?? '' };
    case 'credentialed':
      return { state: 'credentialed', endsOn: credential.endsOn ?? '' };
    case 'ended':
      return { state: 'ended', endedOn: credential.endedOn ?? '' };
    case 'expired':
      return { state: 'expired', endsOn: credential.endsOn ?? '' };
    default:
      return { state: 'none' };
  }
}

/** The credential's badge. */
export function CredentialBadge({ credential }: { credential: ProviderCredentialDto }) {
  const state = credentialStateOf(credential);
  return (
    <Group gap={6} wrap="nowrap">
      <Badge color={badgeColor[credentialStateColor[state.state]]} autoContrast variant="filled">
        {credentialLabel(state) ?? 'Not credentialed'}
      </Badge>
      {credential.standing === 'suspended' && state.state === 'credentialed' && (
        <Badge color={badgeColor.red} autoContrast variant="filled">
          Suspended
        </Badge>
      )}
    </Group>
  );
}

/** The credential and the cycle side by side, each labelled for screen readers and sighted users. */
export function CredentialAndCycle({
  credential,
  cycle,
}: {
  credential: ProviderCredentialDto;
  cycle: { cycle: ApplicationCycle; applicationStatus: ApplicationStatus } | null;
}) {
  return (
    <Group gap="xs" wrap="wrap" data-testid="credential-and-cycle">
      <Group gap={6} wrap="nowrap">
        <Text size="sm" c="dimmed">
          Credential
        </Text>
        <CredentialBadge credential={credential} />
      </Group>
      {cycle && (
        <Group gap={6} wrap="nowrap">
          <Text size="sm" c="dimmed">
            {applicationCycleLabel[cycle.cycle]}
          </Text>
          <StatusBadge status={cycle.applicationStatus} />
        </Group>
      )}
    </Group>
  );
}
