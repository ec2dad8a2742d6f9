/**
 * The dashboard's credential update card (issue 29 item 4): for the approved application whose
 * credential is current, saved changes not sent yet ('Submit Update', so nothing saved is lost), then
 * 'Credential update sent <date>: the credentialing team verifies the change' while the update is in
 * the review queue, and 'Credential update reviewed <date>' once a reviewer completed it. Nothing for
 * an application that takes no updates or never had one.
 */
import { Card, Stack, Text, Title } from '@mantine/core';
import {
  credentialUpdateReviewedText,
  credentialUpdateSentText,
  credentialUpdateTexts,
} from '../../../domain/credentials/credential-updates.ts';
import { sectionCatalog } from '../../../domain/sections/section-catalog.ts';
import { useCredentialUpdate } from '../../app/credential-update.ts';
import { SubmitUpdateButton } from '../../components/submit-update-button.tsx';

const titleOf = (key: string) => sectionCatalog[key as keyof typeof sectionCatalog]?.title ?? key;

export function CredentialUpdateCard({
  applicationId,
  approved,
}: {
  applicationId: string;
  approved: boolean;
}) {
  const query = useCredentialUpdate(applicationId, approved);
  const status = query.data;
  if (!status) return null;
  const unsent = status.allowed ? status.unsentSections : [];
  const latest = status.latest;
  if (unsent.length === 0 && !latest) return null;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="credential-update-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="credential-update-title">
          {credentialUpdateTexts.bannerTitle}
        </Title>
        {latest &&
          (latest.reviewedAt ? (
            <Text size="sm">{credentialUpdateReviewedText(latest.reviewedAt)}</Text>
          ) : (
            <Text size="sm" role="status">
              {credentialUpdateSentText(latest.updatedAt)}
            </Text>
          ))}
        {unsent.length > 0 && (
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{credentialUpdateTexts.unsent}</Text>
            <Text size="sm">Changed: {unsent.map(titleOf).join(', ')}</Text>
            <SubmitUpdateButton applicationId={applicationId} />
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
