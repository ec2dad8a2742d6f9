/**
 * The parts of a Notifications card that say what was sent (issue 53 items 3 and 4): the state words,
 * a labelled field, a time, and the list of sends (the first message and each re-send with its
 * webhook-id, first attempt, result, documents fetched in links mode, attempts and attempt log).
 * Used by notifications-tab.tsx; the shapes are domain/api/notifications.ts.
 */
import { Stack, Text, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import type {
  DeliverySend,
  DeliverySendResult,
  documentFetchState,
  NotificationAttempt,
} from '../../../domain/api/notifications.ts';
import type { CompletionStatus } from '../../../domain/completion-status.ts';

/** A delivery state in words (badges, the state filter, toasts). */
export const statusLabel: Record<CompletionStatus, string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
  undelivered: 'Undelivered',
};

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium' });

/** A time as the cards print it ('Nov 28, 2026, 10:00:00 AM'), machine-readable in `dateTime`. */
export function When({ iso }: { iso: string }) {
  return <time dateTime={iso}>{dateTime.format(new Date(iso))}</time>;
}

/** One 'Label: value' line of a card, wrapping anywhere at 390 px. */
export function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      <Text span fw={600}>
        {label}:
      </Text>{' '}
      {children}
    </Text>
  );
}

function AttemptLog({ attempts }: { attempts: NotificationAttempt[] }) {
  if (attempts.length === 0) return <Text size="sm">No attempts yet</Text>;
  return (
    <ol style={{ margin: 0, paddingInlineStart: '1.25rem' }}>
      {attempts.map((attempt) => (
        <li key={attempt.attemptedAt}>
          <Stack gap={0}>
            <Field label="Attempted at">
              <When iso={attempt.attemptedAt} />
            </Field>
            <Field label="HTTP status">{attempt.httpStatus ?? 'no answer'}</Field>
            <Field label="Duration">{attempt.durationMs === null ? '—' : `${attempt.durationMs} ms`}</Field>
            {attempt.error && <Field label="Error">{attempt.error}</Field>}
          </Stack>
        </li>
      ))}
    </ol>
  );
}

export type DocumentFetchState = ReturnType<typeof documentFetchState>;

/** A delivered links-mode notification's state in words (issue 53 item 3). */
export const fetchStateLabel: Record<NonNullable<DocumentFetchState>, string> = {
  fetched: 'Delivered (documents fetched)',
  waiting: 'Delivered, documents not fetched yet',
  not_fetched: 'Delivered, documents not fetched',
};

/** A send's result in words (an earlier send is delivered or not; the current one has the card's state). */
const sendResultLabel: Record<DeliverySendResult, string> = {
  ...statusLabel,
  not_delivered: 'Not delivered',
};

/** 'First send', 'Re-send 2', or for attempts logged before sends were recorded 'Earlier send'. */
function sendTitle(send: DeliverySend, resendNumber: number): string {
  if (send.resend === null) return 'Earlier send (webhook-id not recorded)';
  return send.resend ? `Re-send ${resendNumber}` : 'First send';
}

/** One send: its id, first attempt, result, delivery time and attempts, the log behind a toggle. */
function SendItem({ send, title, logId }: { send: DeliverySend; title: string; logId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <li>
      <Stack gap={2}>
        <Text size="sm" fw={600}>
          {title}
        </Text>
        {send.webhookId && (
          <Field label="Webhook ID">
            <Text span ff="monospace" size="sm">
              {send.webhookId}
            </Text>
          </Field>
        )}
        <Field label="Result">{sendResultLabel[send.result]}</Field>
        <Field label="First attempt">
          {send.firstAttemptAt ? <When iso={send.firstAttemptAt} /> : 'none yet'}
        </Field>
        {send.deliveredAt && (
          <Field label="Delivered">
            <When iso={send.deliveredAt} />
          </Field>
        )}
        {send.documents && (
          <Field label="Documents fetched">
            {send.documents.fetched} of {send.documents.offered} (links valid until{' '}
            <When iso={send.documents.linksExpireAt} />)
          </Field>
        )}
        <Field label="Attempts">{send.attempts.length}</Field>
        {send.attempts.length > 0 && (
          <>
            <UnstyledButton
              aria-expanded={open}
              aria-controls={logId}
              onClick={() => setOpen((value) => !value)}
              style={{ textDecoration: 'underline', alignSelf: 'flex-start' }}
            >
              <Text size="sm" span>
                {open ? 'Hide attempt log' : 'Show attempt log'} ({send.attempts.length})
              </Text>
            </UnstyledButton>
            <div id={logId} hidden={!open}>
              {open && <AttemptLog attempts={send.attempts} />}
            </div>
          </>
        )}
      </Stack>
    </li>
  );
}

/** The sends of a card, oldest first (issue 53 item 4). */
export function SendList({ sends, idPrefix }: { sends: DeliverySend[]; idPrefix: string }) {
  let resends = 0;
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        Sends ({sends.length})
      </Text>
      <Stack
        component="ol"
        gap="xs"
        style={{ margin: 0, paddingInlineStart: '1.25rem' }}
        aria-label={`Sends (${sends.length})`}
      >
        {sends.map((send, index) => {
          if (send.resend) resends += 1;
          return (
            <SendItem
              key={send.webhookId ?? `unknown-${index}`}
              send={send}
              title={sendTitle(send, resends)}
              logId={`${idPrefix}-send-${index}`}
            />
          );
        })}
      </Stack>
    </Stack>
  );
}
