/**
 * Where the file stands on its way to a decision (issue 32 item 4), above the review's actions: the
 * list it was sent to ('Clean Files' or 'Ready for Committee') with why it is not clean and the
 * medical director's note; the committee's deferral that sent it back, with what is missing; and,
 * once decided, who decided it, from when and on what conditions, its letters and the provider's
 * appeal (issue 32 item 6).
 */
import { Alert, Anchor, List, Stack, Text } from '@mantine/core';
import { formatIsoDay } from '../../../domain/calendar.ts';
import { deciderLabel, decisionTrackLabel } from '../../../domain/committee/committee-decisions.ts';
import { letterUrl } from '../../app/provider-review.ts';
import { AppealAttachmentList } from '../../components/appeal-attachment-list.tsx';
import { formatDate } from '../../format.ts';
import type { AdminReview } from './review-api.ts';

/** The file's decision list, deferral or decision, or nothing while none applies. */
export function DecisionRouting({ review }: { review: AdminReview }) {
  const { track, sentAt, reasons, note, deferral } = review.decisionRouting;
  if (
    review.decision &&
    (review.applicationStatus === 'approved' || review.applicationStatus === 'rejected')
  ) {
    const { by, effectiveDate, conditions } = review.decision;
    const { appeal } = review;
    return (
      <Stack gap={4}>
        <Text size="sm">
          Decided by {deciderLabel[by]}
          {review.decidedAt ? ` on ${formatDate(review.decidedAt)}` : ''}.
          {effectiveDate ? ` Effective ${formatIsoDay(effectiveDate)}.` : ''}
          {conditions ? ` Conditions: ${conditions}` : ''}
        </Text>
        {review.letters.length > 0 && (
          <List size="sm" aria-label="Decision letters">
            {review.letters.map((letter) => (
              <List.Item key={letter.letterId}>
                <Anchor href={letterUrl(review.applicationId, letter.letterId)} download>
                  {letter.title} (PDF)
                </Anchor>{' '}
                of {formatDate(letter.createdAt)}
              </List.Item>
            ))}
          </List>
        )}
        {appeal?.requestedAt && (
          <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
            {appeal.status === 'requested'
              ? `Appeal requested on ${formatDate(appeal.requestedAt)}, waiting on 'Ready for Committee'.`
              : `Appeal ${appeal.status === 'upheld' ? 'heard: the denial was upheld' : 'heard: approved'}${appeal.decidedAt ? ` on ${formatDate(appeal.decidedAt)}` : ''}.`}{' '}
            Statement: {appeal.statement}
          </Text>
        )}
        {appeal?.requestedAt && <AppealAttachmentList attachments={appeal.attachments} />}
      </Stack>
    );
  }
  if (track) {
    return (
      <Alert color="blue" variant="light" title={`On '${decisionTrackLabel[track]}'`}>
        <Stack gap={4}>
          <Text size="sm">
            Sent for decision{sentAt ? ` on ${formatDate(sentAt)}` : ''}.{' '}
            {track === 'clean_files'
              ? 'The Medical Director approves it or sends it to the committee.'
              : 'It waits for a committee meeting.'}
          </Text>
          {reasons.length > 0 && (
            <List size="sm">
              {reasons.map((reason) => (
                <List.Item key={reason}>{reason}</List.Item>
              ))}
            </List>
          )}
          {note && <Text size="sm">Medical Director's note: {note}</Text>}
        </Stack>
      </Alert>
    );
  }
  if (deferral && review.applicationStatus === 'under_review') {
    return (
      <Alert color="orange" variant="light" title="Deferred by the committee">
        <Text size="sm">
          On {formatDate(deferral.at)} the committee deferred its decision. What is missing: {deferral.text}.
          Send the file for decision again once it is resolved.
        </Text>
      </Alert>
    );
  }
  return null;
}
