/**
 * The review on the provider's dashboard (issue 13): the 'Action required' banner of an open
 * information request (the team's message, links to the sections it opened, an optional reply and
 * 'Submit Response'), and the decision (date and, for a rejection, the reason) once there is one,
 * with its letters and the appeal of a denial (issue 32 item 6: 'Request Appeal' within 30 days).
 */
import { Anchor, Button, Card, List, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { z } from 'zod';
import { appealBodySchema } from '../../../domain/api/review.ts';
import { formatIsoDay } from '../../../domain/calendar.ts';
import { APPEAL_STATEMENT_MAX } from '../../../domain/committee/decision-letters.ts';
import { cycleTexts } from '../../../domain/credentials/provider-credential.ts';
import { formatLockDay } from '../../../domain/review/lock-messages.ts';
import { REVIEW_TEXT_MAX } from '../../../domain/review/review-workflow.ts';
import {
  type CatalogSectionKey as SectionKey,
  sectionCatalog,
  sectionPath,
} from '../../../domain/sections/section-catalog.ts';
import {
  letterUrl,
  type ProviderReview,
  useRequestAppeal,
  useSubmitResponse,
} from '../../app/provider-review.ts';
import { AppealAttachmentList } from '../../components/appeal-attachment-list.tsx';
import { ReasonDialog } from '../../components/reason-dialog.tsx';
import { notifyError, notifySuccess } from '../../notify.ts';
import { AppealAttachmentsField } from './appeal-attachments-field.tsx';

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
 * when they closed it without a decision (issue 29); then the decision's letters and its appeal
 * (issue 32 item 6).
 */
export function DecisionNote({ applicationId, review }: { applicationId: string; review: ProviderReview }) {
  if (review.applicationStatus === 'withdrawn' && review.withdrawalReason) {
    return (
      <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
        {cycleTexts.closedByTeamReason} {review.withdrawalReason}
      </Text>
    );
  }
  if (!review.decidedAt) return null;
  const day = formatLockDay(new Date(review.decidedAt));
  const decided =
    review.applicationStatus === 'approved' ? (
      <Text size="sm">Approved on {day}.</Text>
    ) : review.applicationStatus === 'rejected' ? (
      <Stack gap={4}>
        <Text size="sm">Rejected on {day}.</Text>
        {review.decisionReason && (
          <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
            Reason: {review.decisionReason}
          </Text>
        )}
      </Stack>
    ) : null;
  if (!decided) return null;
  return (
    <Stack gap="xs">
      {decided}
      {review.letters.length > 0 && (
        <List size="sm" aria-label="Decision letters">
          {review.letters.map((letter) => (
            <List.Item key={letter.letterId}>
              <Anchor href={letterUrl(applicationId, letter.letterId)} download>
                {letter.title} (PDF)
              </Anchor>{' '}
              of {formatLockDay(new Date(letter.createdAt))}
            </List.Item>
          ))}
        </List>
      )}
      {review.appeal && <AppealNote applicationId={applicationId} appeal={review.appeal} />}
    </Stack>
  );
}

/** The dialog's one field ('Statement') checked with the API contract's rule. */
const appealReasonSchema = z.object({ reason: appealBodySchema.shape.statement });

/** Where the appeal of a denial stands, and 'Request Appeal' while it may be requested. */
function AppealNote({
  applicationId,
  appeal,
}: {
  applicationId: string;
  appeal: NonNullable<ProviderReview['appeal']>;
}) {
  const [open, setOpen] = useState(false);
  const request = useRequestAppeal(applicationId);
  const on = (iso: string | null) => (iso ? formatLockDay(new Date(iso)) : '');
  switch (appeal.status) {
    case 'available':
      return (
        <Stack gap={4} align="flex-start">
          <Text size="sm">
            You may request an appeal until {appeal.deadline ? formatIsoDay(appeal.deadline) : ''}. A later
            meeting of the Credentialing Committee hears it, and its decision is final.
          </Text>
          <Button variant="default" onClick={() => setOpen(true)}>
            Request Appeal
          </Button>
          <ReasonDialog
            opened={open}
            title="Request Appeal"
            submitLabel="Request Appeal"
            fieldLabel="Statement"
            description="Why the decision should change: what the committee did not know, or what has changed."
            maxLength={APPEAL_STATEMENT_MAX}
            schema={appealReasonSchema}
            onSubmit={async (statement) => {
              try {
                await request.mutateAsync(statement);
                notifySuccess(
                  'Appeal Requested',
                  'The Credentialing Committee will hear it at a later meeting.',
                );
              } catch (error) {
                notifyError('Appeal Not Requested', error instanceof Error ? error.message : 'Try again.');
                throw error;
              }
            }}
            onClose={() => setOpen(false)}
          >
            <AppealAttachmentsField applicationId={applicationId} attachments={appeal.attachments} />
            <Text size="sm">You can appeal once. The committee's decision on your appeal is final.</Text>
          </ReasonDialog>
        </Stack>
      );
    case 'closed':
      return (
        <Text size="sm">
          The time to request an appeal ended on {appeal.deadline ? formatIsoDay(appeal.deadline) : ''}.
        </Text>
      );
    case 'requested':
      return (
        <Stack gap={4}>
          <Text size="sm">
            Appeal requested on {on(appeal.requestedAt)}. A later meeting of the Credentialing Committee hears
            it; its decision is final.
          </Text>
          <AppealAttachmentList attachments={appeal.attachments} />
        </Stack>
      );
    case 'upheld':
      return (
        <Text size="sm">
          Your appeal was heard on {on(appeal.decidedAt)}: the denial was upheld. This decision is final.
        </Text>
      );
    case 'approved':
      return (
        <Text size="sm">Your appeal was heard on {on(appeal.decidedAt)}: your application was approved.</Text>
      );
  }
}
