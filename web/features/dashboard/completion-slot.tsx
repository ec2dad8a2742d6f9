/**
 * The completion button on the Application Status card (spec §4; issue 5). Offered for a draft at
 * 100%, and kept (disabled) after completion: 'Application Completed' -> 'Submitting...' (disabled) -> 'Completed ✓' (green, disabled).
 * The server records the completion, which delivers it to the credentialing team inside the product
 * (the 'Review Queue', and an email to the staff who review files; issue 51 item 6): any 2xx answer
 * means the product accepted it, so the provider gets the spec's 'Success' toast and 'Completed ✓',
 * which are then true. The webhook to the team's own system is a further delivery whose state is the
 * staff's (the admin 'Notifications' tab), never the provider's; the spec §8 error toast answers only
 * a completion the product could not accept (a refusal, an outage). The state comes from the
 * application (`completion`), so it survives reloads. Completing moves the application to Submitted
 * on the server (issue 13; the client never sets a status, spec §4).
 * Issue 14: the first click opens the attestation dialog (attestation-dialog.tsx, loaded then); the
 * completion is sent with the signed attestation.
 */
import { Alert, Button, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
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

function useCompleteApplication(applicationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (attestation: AttestationInput) =>
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
  // Recorded is delivered to the team (issue 51 item 6), whatever became of the webhook.
  const completed = application.completion !== null;
  const offered = (application.applicationStatus === 'draft' && application.progress === 100) || completed;
  if (!offered) return null;

  // Issue 29 item 7: an unexplained work-history gap is said before the attestation is signed (the
  // server refuses the completion for it anyway; this spares a signature that would be refused).
  const sign = async () => {
    setRefusal(null);
    const gap = await firstUnexplainedGap(application.id).catch(() => null);
    if (gap) setRefusal(gap);
    else setSigning(true);
  };

  const send = (attestation: AttestationInput) => {
    setRefusal(null);
    return complete.mutateAsync(attestation).then(
      () => {
        setSigning(false);
        // The product accepted the completion (any 2xx): the team has it (issue 51 item 6).
        notifySuccess('Success', 'Application completion notification sent successfully');
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
      <Button
        onClick={() => void sign()}
        disabled={complete.isPending || completed}
        color={completed ? 'green.9' : undefined}
        // Disabled buttons are grey by default; the completed one stays green (spec §4).
        style={
          completed
            ? { backgroundColor: 'var(--mantine-color-green-9)', color: 'var(--mantine-color-white)' }
            : undefined
        }
      >
        {complete.isPending ? 'Submitting...' : completed ? 'Completed ✓' : 'Application Completed'}
      </Button>
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
    </Stack>
  );
}
