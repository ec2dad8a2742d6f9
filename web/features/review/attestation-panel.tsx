/**
 * The provider's attestations on the review page (issue 14; NCQA CR 3): each signed attestation
 * with its answers (a "Yes" with its explanation), the typed name, when, from where and with what
 * browser, and the snapshot it signs; 'Re-attestation required' when the latest is older than
 * ATTESTATION_VALID_DAYS while the application is reviewed (the server decides:
 * `AdminReview.reattestationRequired`).
 */
import { Badge, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import dayjs from 'dayjs';
import type { AdminReview } from '../../../domain/api/review.ts';
import { badgeColor } from '../../theme.ts';

/** The badge text (issue 14 gives it in quotes). */
export const REATTESTATION_REQUIRED = 'Re-attestation required';

const kindLabel: Record<AdminReview['attestations'][number]['kind'], string> = {
  completion: 'Signed with the completion',
  re_attestation: 'Signed again during the review',
};

export function ReattestationBadge({ review }: { review: AdminReview }) {
  return review.reattestationRequired ? (
    <Badge color={badgeColor.orange} variant="filled">
      {REATTESTATION_REQUIRED}
    </Badge>
  ) : null;
}

export function AttestationPanel({ review }: { review: AdminReview }) {
  return (
    <Stack gap="sm">
      <Group gap="sm">
        <Title order={2} size="h4">
          Attestation
        </Title>
        <ReattestationBadge review={review} />
      </Group>
      {review.attestations.length === 0 && (
        <Text c="dimmed">
          No attestation: this application was completed before attestations were asked for.
        </Text>
      )}
      {[...review.attestations].reverse().map((attestation) => (
        <Card
          key={attestation.id}
          withBorder
          padding="md"
          component="section"
          aria-label={kindLabel[attestation.kind]}
        >
          <Stack gap="xs">
            <Text size="sm" fw={600}>
              {kindLabel[attestation.kind]}: “{attestation.signature}”,{' '}
              {dayjs(attestation.signedAt).format('MMM D, YYYY h:mm A')}
            </Text>
            <List size="sm" spacing={4} type="ordered">
              {attestation.answers.map((answer) => (
                <List.Item key={answer.questionId}>
                  {answer.question} <strong>{answer.answer === 'yes' ? 'Yes' : 'No'}</strong>
                  {answer.explanation && (
                    <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
                      Explanation: {answer.explanation}
                    </Text>
                  )}
                </List.Item>
              ))}
            </List>
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              From {attestation.ipAddress ?? 'an unknown address'}
              {attestation.userAgent ? ` with ${attestation.userAgent}` : ''}. Signs version{' '}
              {attestation.snapshotVersion}, SHA-256 {attestation.snapshotSha256}.
            </Text>
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
