/**
 * The administrator's cycle actions on the review page (issue 29 item 2), offered as the server's
 * `cycleActions` says (it checks them again):
 * - 'Start Recredentialing Now' on the provider's latest approved application while they hold a
 *   credential and have no open cycle, confirmed in a dialog; the new draft's review page is linked.
 * - 'Close Without Decision' on a submitted or under-review application: a dialog with a required
 *   reason (at most REVIEW_TEXT_MAX characters, the server's schema validates the form).
 * Texts: domain/credentials/provider-credential.ts `cycleTexts`.
 */
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { CreatedApplication } from '../../../domain/api/applications.ts';
import {
  type CycleTransition,
  closeWithoutDecisionBodySchema,
} from '../../../domain/api/provider-credential.ts';
import { REVIEW_TEXT_MAX } from '../../../domain/api/review.ts';
import { cycleTexts } from '../../../domain/credentials/provider-credential.ts';
import { ApiError, api } from '../../api.ts';
import { ReasonDialog } from '../../components/reason-dialog.tsx';
import { notifyError, notifySuccess } from '../../notify.ts';
import type { AdminReview } from './review-api.ts';

const base = (applicationId: string) => `/api/admin/applications/${encodeURIComponent(applicationId)}`;

function useCycleAction<T, V>(path: (v: V) => string, body: (v: V) => unknown) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: V) => api<T>('POST', path(v), body(v)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}

/** 'Close Without Decision': a required reason (the server's schema validates the form). */
function CloseDialog({
  opened,
  onClose,
  onSubmit,
}: {
  opened: boolean;
  onClose: () => void;
  onSubmit: (reason: string) => Promise<void>;
}) {
  return (
    <ReasonDialog
      opened={opened}
      title={cycleTexts.closeWithoutDecision}
      submitLabel={cycleTexts.closeWithoutDecision}
      destructive
      maxLength={REVIEW_TEXT_MAX}
      schema={closeWithoutDecisionBodySchema}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <Text size="sm">{cycleTexts.closeWithoutDecisionHelp}</Text>
    </ReasonDialog>
  );
}

/** The cycle action buttons and their dialogs; nothing when the server offers none. */
export function CycleActions({
  review,
  onOpened,
}: {
  review: AdminReview;
  /** Called with the new draft's id after 'Start Recredentialing Now'. */
  onOpened?: (applicationId: string) => void;
}) {
  const [dialog, setDialog] = useState<'start' | 'close' | null>(null);
  const start = useCycleAction<CreatedApplication, void>(
    () => `${base(review.applicationId)}/start-recredentialing`,
    () => ({}),
  );
  const close = useCycleAction<CycleTransition, string>(
    () => `${base(review.applicationId)}/close`,
    (reason) => ({ reason }),
  );
  if (review.cycleActions.length === 0) return null;
  const fail = (title: string, error: unknown) =>
    notifyError(`${title} Failed`, error instanceof Error ? error.message : 'The action failed.');
  return (
    <Group gap="sm">
      {review.cycleActions.includes('start_recredentialing_now') && (
        <Button variant="default" onClick={() => setDialog('start')}>
          {cycleTexts.startRecredentialingNow}
        </Button>
      )}
      {review.cycleActions.includes('close_without_decision') && (
        <Button variant="default" color="red.9" onClick={() => setDialog('close')}>
          {cycleTexts.closeWithoutDecision}
        </Button>
      )}
      <Modal
        opened={dialog === 'start'}
        onClose={() => !start.isPending && setDialog(null)}
        title={`${cycleTexts.startRecredentialingNow}?`}
        closeButtonProps={{ 'aria-label': 'Close' }}
        centered
      >
        <Stack>
          <Text size="sm">{cycleTexts.startRecredentialingNowConfirm}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDialog(null)} disabled={start.isPending}>
              Cancel
            </Button>
            <Button
              loading={start.isPending}
              onClick={async () => {
                try {
                  const created = await start.mutateAsync();
                  setDialog(null);
                  notifySuccess(
                    cycleTexts.startRecredentialingNow,
                    'A recredentialing draft is open for the provider.',
                  );
                  onOpened?.(created.id);
                } catch (error) {
                  setDialog(null);
                  fail(cycleTexts.startRecredentialingNow, error);
                }
              }}
            >
              {cycleTexts.startRecredentialingNow}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <CloseDialog
        opened={dialog === 'close'}
        onClose={() => setDialog(null)}
        onSubmit={async (reason) => {
          try {
            await close.mutateAsync(reason);
            notifySuccess(
              cycleTexts.closeWithoutDecision,
              'The application is withdrawn without a decision.',
            );
          } catch (error) {
            if (!(error instanceof ApiError && error.issues.length > 0))
              fail(cycleTexts.closeWithoutDecision, error);
            throw error;
          }
        }}
      />
    </Group>
  );
}
