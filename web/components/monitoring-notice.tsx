/**
 * What ongoing monitoring found on a credential (issue 49 item 2): a red notice 'Credential
 * suspended' with each open finding in words (domain `monitoringFindingNotice`: what was found, that
 * payers see the credential as inactive while the committee reviews it, and what the provider can do).
 * Shown on the provider's dashboard and on the review page; nothing while the standing is active.
 */
import { Alert, List, Text } from '@mantine/core';
import type { ProviderCredentialDto } from '../../domain/api/provider-credential.ts';
import {
  MONITORING_NOTICE_TITLE,
  monitoringFindingNotice,
  standingReasonText,
} from '../../domain/credentials/credential-standing.ts';

/** The notice, or nothing when the credential is active. `audience` picks the words. */
export function MonitoringNotice({
  credential,
  audience,
}: {
  credential: ProviderCredentialDto;
  audience: 'provider' | 'staff';
}) {
  if (credential.standing !== 'suspended' || credential.findings.length === 0) return null;
  return (
    <Alert color="red" title={MONITORING_NOTICE_TITLE} role="alert" data-testid="monitoring-notice">
      {audience === 'provider' ? (
        credential.findings.map((f) => (
          <Text size="sm" key={`${f.kind}-${f.detail}-${f.foundOn}`}>
            {monitoringFindingNotice(f)}
          </Text>
        ))
      ) : (
        <>
          <Text size="sm">
            Ongoing monitoring suspended this credential: the directory publishes it as inactive until the
            findings are resolved or the committee decides.
          </Text>
          <List size="sm">
            {credential.findings.map((f) => (
              <List.Item key={`${f.kind}-${f.detail}-${f.foundOn}`}>{standingReasonText(f)}</List.Item>
            ))}
          </List>
        </>
      )}
    </Alert>
  );
}
