/**
 * The reviewer's actions on the review page (issue 13): 'Start Review', 'Request Information' (a
 * dialog with 'Message' and one checkbox per section, labelled with the section title), 'Send for
 * Decision' (issue 32 item 4: to 'Clean Files' or 'Ready for Committee'; the server's refusal, e.g.
 * the checklist items to redo, is shown in the page), and the medical director's 'Approve' (confirmed)
 * and 'Send to Committee' (a note is required) of a clean file. A denial is the committee's, at its
 * meeting. Only what the state machine and the caller's roles allow now is offered; the server checks
 * it all again.
 */
import { Alert, Button, Checkbox, Group, List, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { requestInformationBodySchema } from '../../../domain/api/review.ts';
import { hasPermission } from '../../../domain/permissions.ts';
import { reviewActionLabel } from '../../../domain/review/review-workflow.ts';
import { sections } from '../../../domain/sections/registry.ts';
import { ApiError } from '../../api.ts';
import type { Me } from '../../app/session.ts';
import { ApproveSignedDialog } from '../../components/approve-signed-dialog.tsx';
import { SendToCommitteeDialog } from '../../components/send-to-committee-dialog.tsx';
import { issuesToFormErrors, zodValidate } from '../../forms/zod-form.ts';
import { notifyError, notifySuccess } from '../../notify.ts';
import { type AdminReview, type Transition, useTransition } from './review-api.ts';

function RequestInformationDialog({
  opened,
  onClose,
  onSubmit,
}: {
  opened: boolean;
  onClose: () => void;
  onSubmit: (body: { message: string; sections: string[] }) => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const form = useForm({
    initialValues: { message: '', sections: [] as string[] },
    validate: zodValidate(requestInformationBodySchema),
  });
  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    try {
      await onSubmit(values);
      form.reset();
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.issues.length > 0)
        form.setErrors(issuesToFormErrors(error.issues));
    } finally {
      setBusy(false);
    }
  });
  return (
    <Modal
      opened={opened}
      onClose={() => !busy && onClose()}
      title="Request Information"
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
      size="lg"
    >
      <form onSubmit={submit} noValidate aria-label="Request Information">
        <Stack>
          <Text size="sm">
            The provider is emailed and can change only the sections you choose, then responds. Approving
            waits for the response.
          </Text>
          <Textarea label="Message" required autosize minRows={3} {...form.getInputProps('message')} />
          <Checkbox.Group
            label="Sections the provider may change"
            required
            {...form.getInputProps('sections')}
          >
            <Stack gap={6} mt={6}>
              {sections.map((s) => (
                <Checkbox key={s.key} value={s.key} label={s.title} />
              ))}
            </Stack>
          </Checkbox.Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Send Request
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

const label: Record<Transition['action'], string> = {
  start_review: reviewActionLabel.start_review,
  request_information: reviewActionLabel.request_information,
  approve: reviewActionLabel.approve,
  send_for_decision: 'Send for Decision',
  send_to_committee: 'Send to Committee',
};

const success: Record<Transition['action'], string> = {
  start_review: 'The review has started and is assigned to you.',
  request_information: 'The provider has been asked for information.',
  approve: 'The application is approved.',
  send_for_decision: 'The file is waiting for a decision.',
  send_to_committee: "The file is on 'Ready for Committee'.",
};

/** The action buttons, their dialogs, and the last refusal of the server (e.g. 'Approve' with items to redo). */
export function ReviewActions({ review, me }: { review: AdminReview; me: Me }) {
  const transition = useTransition(review.applicationId);
  const [dialog, setDialog] = useState<'request' | 'approve' | 'committee' | null>(null);
  const [refusal, setRefusal] = useState<{ message: string; reasons: string[] } | null>(null);
  const can = (a: AdminReview['availableActions'][number]) => review.availableActions.includes(a);
  const track = review.decisionRouting.track;
  // Issue 32 item 4: a file under review with no open request (what 'Request Information' needs too)
  // and on no list yet goes for decision; a clean one may be sent on by whoever decides it.
  const canSend = can('request_information') && track === null;
  const canSendOn =
    review.applicationStatus === 'under_review' &&
    track === 'clean_files' &&
    hasPermission(me.roles, 'decide:application:any');

  async function run(t: Transition) {
    setRefusal(null);
    try {
      await transition.mutateAsync(t);
      notifySuccess(label[t.action], success[t.action]);
    } catch (error) {
      const message = error instanceof Error ? error.message : 'The action failed.';
      // A refusal (409, e.g. 'Approve' with items to redo) is shown once, in the page; other failures toast.
      if (error instanceof ApiError && error.status === 409) setRefusal({ message, reasons: error.reasons });
      else notifyError(`${label[t.action]} Failed`, message);
      throw error;
    }
  }
  const quietly = (t: Transition) => run(t).catch(() => {});

  if (review.availableActions.length === 0 && !canSendOn) return null;
  return (
    <Stack gap="sm">
      <Group gap="sm">
        {can('start_review') && (
          <Button onClick={() => quietly({ action: 'start_review' })} loading={transition.isPending}>
            Start Review
          </Button>
        )}
        {can('request_information') && (
          <Button variant="default" onClick={() => setDialog('request')}>
            Request Information
          </Button>
        )}
        {can('approve') && (
          <Button color="#1e6b30" onClick={() => setDialog('approve')}>
            Approve
          </Button>
        )}
        {canSend && (
          <Button
            variant="default"
            onClick={() => quietly({ action: 'send_for_decision' })}
            loading={transition.isPending}
          >
            Send for Decision
          </Button>
        )}
        {canSendOn && (
          <Button variant="default" onClick={() => setDialog('committee')}>
            Send to Committee
          </Button>
        )}
      </Group>
      {refusal && (
        <Alert
          color="red"
          variant="light"
          role="alert"
          title="Not done"
          withCloseButton
          onClose={() => setRefusal(null)}
          closeButtonLabel="Dismiss"
        >
          {refusal.reasons.length > 0 ? (
            <Stack gap={4}>
              <Text size="sm">{refusal.message.split(' Redo: ')[0]} Redo:</Text>
              {/* Issue 29: a reason names the item and its changes in full, wrapped on a phone. */}
              <List size="sm" style={{ overflowWrap: 'anywhere' }}>
                {refusal.reasons.map((reason) => (
                  <List.Item key={reason}>{reason}</List.Item>
                ))}
              </List>
            </Stack>
          ) : (
            <Text size="sm">{refusal.message}</Text>
          )}
        </Alert>
      )}
      <RequestInformationDialog
        opened={dialog === 'request'}
        onClose={() => setDialog(null)}
        onSubmit={(body) => run({ action: 'request_information', body })}
      />
      <SendToCommitteeDialog
        opened={dialog === 'committee'}
        providerName={review.providerName || 'The file'}
        onClose={() => setDialog(null)}
        onSubmit={(note) => run({ action: 'send_to_committee', note })}
      />
      <ApproveSignedDialog
        opened={dialog === 'approve'}
        providerName={review.providerName}
        onClose={() => setDialog(null)}
        onApprove={(signature) => run({ action: 'approve', signature })}
      />
    </Stack>
  );
}
