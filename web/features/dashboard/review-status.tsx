/**
 * The review on the provider's dashboard (issue 13): the 'Action required' banner of an open
 * information request (the team's message, links to the sections it opened, an optional reply and
 * 'Submit Response'), and the decision (date and, for a rejection, the reason) once there is one.
 */
import { Anchor, Button, Card, List, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { cycleTexts } from '../../../domain/credentials/provider-credential.ts';
import { formatLockDay } from '../../../domain/review/lock-messages.ts';
import { REVIEW_TEXT_MAX } from '../../../domain/review/review-workflow.ts';
import {
  type CatalogSectionKey as SectionKey,
  sectionCatalog,
  sectionPath,
} from '../../../domain/sections/section-catalog.ts';
import { type ProviderReview, useSubmitResponse } from '../../app/provider-review.ts';
import { notifyError, notifySuccess } from '../../notify.ts';

/** 'Action required': shown while the credentialing team waits for the provider. */
export function ActionRequiredBanner({
  applicationId,
  request,
}: {
  applicationId: string;
  request: NonNullable<ProviderReview['openRequest']>;
}) {
  const submit = useSubmitResponse(applicationId);
  const [reply, setReply] = useState('');
  const tooLong = reply.length > REVIEW_TEXT_MAX;
  const send = () =>
    submit.mutate(
      { requestId: request.id, reply },
      {
        onSuccess: () => {
          setReply('');
          notifySuccess(
            'Response Submitted',
            'The credentialing team has your changes and will continue the review.',
          );
        },
        onError: (error) => notifyError('Response Not Submitted', error.message),
      },
    );
  return (
    // A white card with an orange edge rather than a tinted Alert: links, the reply's description and
    // the button keep their AA contrast on white (axe failed them on the light orange fill).
    <Card
      withBorder
      padding="lg"
      role="alert"
      aria-labelledby="action-required-title"
      style={{ borderLeft: '6px solid var(--mantine-color-orange-9)' }}
    >
      <Stack gap="sm">
        <Title order={2} size="h3" id="action-required-title">
          Action required
        </Title>
        <Text size="sm">The credentialing team asks:</Text>
        <Text size="sm" fw={500} style={{ whiteSpace: 'pre-line' }}>
          {request.message}
        </Text>
        <div>
          <Text size="sm">Update these sections, then submit your response:</Text>
          <List size="sm">
            {request.sections.map((key) => {
              const section = sectionCatalog[key as SectionKey];
              return section ? (
                <List.Item key={key}>
                  <Anchor
                    component={Link}
                    to={sectionPath(section, applicationId)}
                    c="gray.9"
                    underline="always"
                  >
                    {section.title}
                  </Anchor>
                </List.Item>
              ) : null;
            })}
          </List>
        </div>
        <Textarea
          label="Reply (optional)"
          description="A note for the credentialing team about what you changed."
          autosize
          minRows={2}
          value={reply}
          onChange={(e) => setReply(e.currentTarget.value)}
          error={tooLong ? `The reply may be at most ${REVIEW_TEXT_MAX} characters` : undefined}
        />
        <div>
          <Button onClick={send} loading={submit.isPending} disabled={tooLong}>
            Submit Response
          </Button>
        </div>
      </Stack>
    </Card>
  );
}

/**
 * The decision line of an approved or rejected application, and the credentialing team's reason
 * when they closed it without a decision (issue 29).
 */
export function DecisionNote({ review }: { review: ProviderReview }) {
  if (review.applicationStatus === 'withdrawn' && review.withdrawalReason) {
    return (
      <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
        {cycleTexts.closedByTeamReason} {review.withdrawalReason}
      </Text>
    );
  }
  if (!review.decidedAt) return null;
  const day = formatLockDay(new Date(review.decidedAt));
  if (review.applicationStatus === 'approved') {
    return <Text size="sm">Approved on {day}.</Text>;
  }
  if (review.applicationStatus === 'rejected') {
    return (
      <Stack gap={4}>
        <Text size="sm">Rejected on {day}.</Text>
        {review.decisionReason && (
          <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
            Reason: {review.decisionReason}
          </Text>
        )}
      </Stack>
    );
  }
  return null;
}
