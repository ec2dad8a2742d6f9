/**
 * The provider's attestations on the review page (issue 14; NCQA CR 3): each signed attestation
 * with its answers (a "Yes" with its explanation), the typed name, when, from where and with what
 * browser, and the snapshot it signs; 'Re-attestation required' when the latest is older than
 * ATTESTATION_VALID_DAYS while the application is reviewed (the server decides:
 * `AdminReview.reattestationRequired`).
 *
 * `DisclosureAlert` (issue 28): the Yes answers of the latest attestation, flagged at the top of the
 * review page, because the panel itself sits below the timeline.
 *
 * `CommitteeReviewFlag` (issue 31 item 4): 'Needs committee review' with the server's reasons
 * (`AdminReview.committeeReview`), beside the status facts.
 *
 * Answers are listed as the record holds them (issue 31 item 2): an attestation signed with the
 * first four questions shows those four, a current one every question.
 */
import { Alert, Badge, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
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

/** The heading of the disclosures alert (issue 28). */
export const DISCLOSURES_ANSWERED_YES = 'Disclosures answered Yes';

/**
 * The questions the provider answered Yes in the latest attestation (the one in force), each with
 * its explanation, as an alert with a heading; nothing when there is no attestation or every answer
 * is No. Earlier attestations stay in the panel below.
 */
export function DisclosureAlert({ review }: { review: AdminReview }) {
  const latest = review.attestations.at(-1);
  const yes = latest?.answers.filter((answer) => answer.answer === 'yes') ?? [];
  if (!latest || yes.length === 0) return null;
  return (
    <Alert
      color="orange.9"
      variant="light"
      icon={<IconAlertTriangle aria-hidden="true" />}
      title={
        <Title order={2} size="h4">
          {DISCLOSURES_ANSWERED_YES}
        </Title>
      }
    >
      <Stack gap="xs">
        <Text size="sm">
          In the attestation signed {dayjs(latest.signedAt).format('MMM D, YYYY')}, the provider answered Yes
          to {yes.length === 1 ? 'this question' : `these ${yes.length} questions`}:
        </Text>
        <List size="sm" spacing={4}>
          {yes.map((answer) => (
            <List.Item key={answer.questionId}>
              <Text size="sm" fw={600}>
                {answer.question}
              </Text>
              <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
                {answer.explanation ? `Explanation: ${answer.explanation}` : 'No explanation given.'}
              </Text>
            </List.Item>
          ))}
        </List>
      </Stack>
    </Alert>
  );
}

/** The flag's text (issue 31 item 4: "marks the file as needing committee review"). */
export const COMMITTEE_REVIEW_NEEDED = 'Needs committee review';

/**
 * 'Needs committee review' and its reasons (one line each, e.g. 'Yes to: <question>'), when the
 * server says the file needs it; nothing otherwise. Decided on the server (issue 31 item 4).
 */
export function CommitteeReviewFlag({ review }: { review: AdminReview }) {
  const { needed, reasons } = review.committeeReview;
  if (!needed) return null;
  return (
    <Stack gap={4} component="section" aria-label={COMMITTEE_REVIEW_NEEDED}>
      <Group gap="xs">
        <Badge color={badgeColor.red} variant="filled">
          {COMMITTEE_REVIEW_NEEDED}
        </Badge>
      </Group>
      <List size="sm" spacing={2}>
        {reasons.map((reason) => (
          <List.Item key={reason}>{reason}</List.Item>
        ))}
      </List>
    </Stack>
  );
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
