/**
 * The completion button on the Application Status card (spec §4; issue 5). Offered for a draft at
 * 100%, and kept (disabled once delivered) after completion: 'Application Completed' -> 'Submitting...' (disabled) -> 'Completed ✓' (green, disabled).
 * The server sends the notification (never the browser) and answers 200 once the credentialing team's
 * system accepted it, 202 otherwise; the toasts and the line under the button tell the truth about
 * which (spec §8 texts). The state comes from the application (`completion`), so it survives reloads.
 * Completing moves the application to Submitted on the server (issue 13; the client never sets a
 * status, spec §4), so after completion the button is shown because a completion exists.
 * Issue 14: the first click opens the attestation dialog (attestation-dialog.tsx, loaded then); the
 * completion is sent with the signed attestation. Clicking again after a completion that is not yet
 * delivered asks the server about it again, without a new attestation.
 * Issue 28 item 17: the error toast and the line saying why it was not delivered answer the provider's
 * own click, once; a later load of the dashboard says nothing about the delivery (the endpoint's
 * state is the credentialing team's business: the admin 'Notifications' tab), and once the team has
 * the application (under review, decided) the button is gone unless it was delivered ('Completed ✓').
 */
import { Alert, Button, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { z } from 'zod';
import type { completionResponseSchema } from '../../../domain/api/notifications.ts';
import type { AttestationInput } from '../../../domain/attestation.ts';
import { isoDay } from '../../../domain/calendar.ts';
import {
  type GapPosition,
  unexplainedGaps,
  unexplainedGapsMessage,
} from '../../../domain/sections/work-history-gaps.ts';
import { ApiError, api } from '../../api.ts';
import { notifyError, notifySuccess } from '../../notify.ts';
import { type Application, type ApplicationList, applicationsQueryKey } from './applications-api.ts';
import { LazyAttestationDialog } from './lazy-attestation-dialog.tsx';

/**
 * The completion's refusal for an unexplained work-history gap (the server's own words and rule,
 * domain/sections/work-history-gaps.ts), from the saved positions and graduation dates; null when
 * every gap of 6 months or more is explained.
 */
async function firstUnexplainedGap(applicationId: string): Promise<string | null> {
  const base = `/api/applications/${encodeURIComponent(applicationId)}/sections`;
  const [positions, schools] = await Promise.all([
    api<{ rows: GapPosition[] }>('GET', `${base}/work-history`),
    api<{ rows: { graduationDate: string | null }[] }>('GET', `${base}/education`),
  ]);
  const [first, ...others] = unexplainedGaps(
    positions.rows,
    schools.rows.map((s) => s.graduationDate),
    isoDay(new Date()),
  );
  return first ? unexplainedGapsMessage(first, others.length) : null;
}

/** The answer of POST .../completion, also the application's `completion` (domain/api/notifications.ts). */
type Completion = z.infer<typeof completionResponseSchema>;

/** What the provider is told, right after their click, while the notification is not delivered. */
const undeliveredExplanation: Record<Exclude<Completion['status'], 'delivered'>, string> = {
  pending:
    'Your application is marked complete. The notification to the credentialing team is queued and will be delivered automatically when their system is reachable again.',
  failed:
    "Your application is marked complete, but the credentialing team's system did not accept the notification. Their administrators can see it and send it again.",
  undelivered:
    "Saved; the credentialing team's endpoint is not configured yet. Your completion is recorded and will be sent once it is.",
};

/** How often the dashboard re-reads a queued notification's state, ms. */
const QUEUED_REFRESH_MS = 15_000;

function useCompleteApplication(applicationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    // With the signed attestation for a new completion; without a body to ask about an existing one.
    mutationFn: (attestation?: AttestationInput) =>
      api<Completion>('POST', `/api/applications/${applicationId}/completion`, attestation),
    onSuccess: (completion) =>
      queryClient.setQueryData<ApplicationList>(
        applicationsQueryKey,
        (list) =>
          list && {
            ...list,
            applications: list.applications.map((a) => (a.id === applicationId ? { ...a, completion } : a)),
          },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: applicationsQueryKey }),
  });
}

/** While the notification is queued, re-read the applications now and then: the button turns green when delivered. */
function useRefreshWhileQueued(queued: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!queued) return;
    const timer = setInterval(
      () => queryClient.invalidateQueries({ queryKey: applicationsQueryKey }),
      QUEUED_REFRESH_MS,
    );
    return () => clearInterval(timer);
  }, [queued, queryClient]);
}

export function CompletionSlot({
  application,
  signer,
}: {
  application: Application;
  /** The profile's names, which the attestation's signature must match (null without a profile). */
  signer: { firstName: string; lastName: string } | null;
}) {
  const complete = useCompleteApplication(application.id);
  const [signing, setSigning] = useState(false);
  // A 409 refusal (e.g. an unexplained work-history gap, issue 29 item 7): the server's message, which
  // says what to fix where, stays under the button until the next click.
  const [refusal, setRefusal] = useState<string | null>(null);
  const completion = application.completion;
  const delivered = completion?.status === 'delivered';
  // The provider acted in this page: only then is the delivery theirs to hear about (issue 28).
  const answered = complete.data !== undefined;
  useRefreshWhileQueued(completion?.status === 'pending');
  const offered =
    (application.applicationStatus === 'draft' && application.progress === 100) ||
    (completion !== null && (delivered || application.applicationStatus === 'submitted'));
  if (!offered) return null;

  // Issue 29 item 7: an unexplained work-history gap is said before the attestation is signed (the
  // server refuses the completion for it anyway; this spares a signature that would be refused).
  const sign = async () => {
    setRefusal(null);
    const gap = await firstUnexplainedGap(application.id).catch(() => null);
    if (gap) setRefusal(gap);
    else setSigning(true);
  };

  const send = (attestation?: AttestationInput) => {
    setRefusal(null);
    return complete.mutateAsync(attestation).then(
      (state) => {
        setSigning(false);
        if (state.status === 'delivered') {
          notifySuccess('Success', 'Application completion notification sent successfully');
        } else {
          notifyError('Error', 'Failed to send application completion notification');
        }
      },
      (error: unknown) => {
        notifyError('Error', 'Failed to send application completion notification');
        if (error instanceof ApiError && error.status === 409) {
          // Nothing in the dialog to correct: close it and say what to fix in the application.
          setSigning(false);
          setRefusal(error.message);
          return;
        }
        // The dialog shows the server's field messages, and stays open to correct them.
        throw error;
      },
    );
  };

  return (
    <Stack gap="xs" align="flex-start">
      {offered && (
        <Button
          onClick={() => (completion ? void send().catch(() => {}) : void sign())}
          disabled={complete.isPending || delivered}
          color={delivered ? 'green.9' : undefined}
          // Disabled buttons are grey by default; the completed one stays green (spec §4).
          style={
            delivered
              ? { backgroundColor: 'var(--mantine-color-green-9)', color: 'var(--mantine-color-white)' }
              : undefined
          }
        >
          {complete.isPending ? 'Submitting...' : delivered ? 'Completed ✓' : 'Application Completed'}
        </Button>
      )}
      <LazyAttestationDialog
        opened={signing}
        onClose={() => setSigning(false)}
        signer={signer}
        onSign={send}
        submitting={complete.isPending}
      />
      {refusal && !complete.isPending && (
        // 'red' light, as the form error summary: a shade ('red.9') would fill the background dark.
        <Alert color="red" variant="light" role="alert" title="Not completed yet">
          <Text size="sm">{refusal}</Text>
        </Alert>
      )}
      {answered && completion && completion.status !== 'delivered' && !complete.isPending && (
        <Text size="sm" role="status">
          {undeliveredExplanation[completion.status]}
        </Text>
      )}
    </Stack>
  );
}
