/**
 * The provider's attestations on the review page (issue 14; NCQA CR 3): each signed attestation
 * with its answers (a "Yes" with its explanation), the typed name, when, from where and with what
 * browser, and the snapshot it signs; 'Re-attestation required' when the latest is older than
 * ATTESTATION_VALID_DAYS while the application is reviewed (the server decides:
 * `AdminReview.reattestationRequired`).
 *
 * `CommitteeReviewFlag` (issue 31 item 4, issue 32 item 4): 'Needs committee review' at the top of
 * the review page with the server's reasons (`AdminReview.committeeReview`, domain/committee/
 * clean-file.ts): the Yes answers of the latest attestation with their explanations (issue 28's
 * alert, merged in: the panel itself sits below the timeline), a malpractice claim paid in the last
 * five years, an exclusion match and each checklist item in discrepancy; 'Clean file' with the
 * criteria it meets once every item is verified or waived and none of them holds.
 *
 * Answers are listed as the record holds them (issue 31 item 2): an attestation signed with the
 * first four questions shows those four, a current one every question.
 */
import { Alert, Badge, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import dayjs from 'dayjs';
import type { AdminReview } from '../../../domain/api/review.ts';
import { committeeReviewReason } from '../../../domain/attestation.ts';
import { CLEAN_FILE_CRITERIA } from '../../../domain/committee/clean-file.ts';
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

/** The flag's heading (issue 31 item 4: "marks the file as needing committee review"). */
export const COMMITTEE_REVIEW_NEEDED = 'Needs committee review';

/**
 * 'Needs committee review' at the top of the review page (issue 31 item 4), with every reason the
 * server gives (`AdminReview.committeeReview`, one line each): a Yes disclosure of the latest
 * attestation (the one in force) with its explanation, 'A malpractice claim was paid in the last 5
 * years'. Nothing when the file does not need it. One flag: it took over the 'Disclosures answered
 * Yes' alert of issue 28, which listed the same Yes answers a second time; it stays above the actions,
 * visible without scrolling, while the full answers are in the attestation panel below.
 */
export function CommitteeReviewFlag({ review }: { review: AdminReview }) {
  const { needed, reasons } = review.committeeReview;
  if (!needed) return <CleanFileNote review={review} />;
  const latest = review.attestations.at(-1);
  // A Yes answer gives the reason 'Yes to: <question>' (domain committeeReviewReason): its explanation.
  const yesAnswers = new Map(
    (latest?.answers ?? [])
      .filter((answer) => answer.answer === 'yes')
      .map((answer) => [committeeReviewReason(answer.question), answer]),
  );
  return (
    <Alert
      color="orange.9"
      variant="light"
      icon={<IconAlertTriangle aria-hidden="true" />}
      title={
        <Title order={2} size="h4">
          {COMMITTEE_REVIEW_NEEDED}
        </Title>
      }
    >
      <Stack gap="xs">
        <List size="sm" spacing={4}>
          {reasons.map((reason) => {
            const answer = yesAnswers.get(reason);
            return (
              <List.Item key={reason}>
                <Text size="sm" fw={600}>
                  {reason}
                </Text>
                {answer && (
                  <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
                    {answer.explanation ? `Explanation: ${answer.explanation}` : 'No explanation given.'}
                  </Text>
                )}
              </List.Item>
            );
          })}
        </List>
        {latest && yesAnswers.size > 0 && (
          <Text size="sm">
            Disclosures from the attestation signed {dayjs(latest.signedAt).format('MMM D, YYYY')}.
          </Text>
        )}
      </Stack>
    </Alert>
  );
}

/** The note's heading (issue 32 item 4: "clean files"). */
export const CLEAN_FILE = 'Clean file';

/**
 * 'Clean file' with the criteria it meets (issue 32 item 4), once every checklist item is verified
 * or waived: before that a pending item may still turn out a discrepancy, so nothing is said.
 */
function CleanFileNote({ review }: { review: AdminReview }) {
  const settled = review.checklist.every((item) => item.status === 'verified' || item.status === 'waived');
  if (review.checklist.length === 0 || !settled) return null;
  return (
    <Alert
      role="region"
      aria-label={CLEAN_FILE}
      color="green.9"
      variant="light"
      icon={<IconCircleCheck aria-hidden="true" />}
      title={
        <Title order={2} size="h4">
          {CLEAN_FILE}
        </Title>
      }
    >
      <Text size="sm">Every checklist item is verified or waived, and the file meets each criterion:</Text>
      <List size="sm" spacing={2} mt={4}>
        {CLEAN_FILE_CRITERIA.map((criterion) => (
          <List.Item key={criterion}>{criterion}</List.Item>
        ))}
      </List>
    </Alert>
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
