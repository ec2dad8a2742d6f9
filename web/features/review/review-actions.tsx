/**
 * The reviewer's actions on the review page (issue 13): 'Start Review', 'Request Information' (a
 * dialog with 'Message' and one checkbox per section, labelled with the section title), 'Approve'
 * (confirmed; the server's refusal, e.g. the checklist items to redo, is shown in the page) and
 * 'Reject' (a reason is required). Only the actions the state machine allows now are offered
 * (`availableActions` from the server); the server checks them again.
 */
import { Alert, Button, Checkbox, Group, List, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import {
  REVIEW_TEXT_MAX,
  rejectBodySchema,
  requestInformationBodySchema,
} from '../../../domain/api/review.ts';
import { rejectionEndsCredentialText } from '../../../domain/credentials/provider-credential.ts';
import { type ReviewAction, reviewActionLabel } from '../../../domain/review/review-workflow.ts';
import { sections } from '../../../domain/sections/registry.ts';
import { ApiError } from '../../api.ts';
import { credentialStateOf } from '../../components/credential-badge.tsx';
import { ReasonDialog } from '../../components/reason-dialog.tsx';
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

/** 'Reject': a required reason, and what a recredentialing denial does to the credential. */
function RejectDialog({
  opened,
  onClose,
  onSubmit,
  endsCredential,
}: {
  opened: boolean;
  onClose: () => void;
  onSubmit: (reason: string) => Promise<void>;
  /** Issue 29 item 1: what a recredentialing denial does to the credential, said before confirming. */
  endsCredential: string | null;
}) {
  return (
    <ReasonDialog
      opened={opened}
      title="Reject the application"
      submitLabel="Reject"
      destructive
      maxLength={REVIEW_TEXT_MAX}
      schema={rejectBodySchema}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <Text size="sm">The decision is final. The provider sees the reason and is emailed.</Text>
      {endsCredential && (
        <Alert color="red" variant="light" role="alert" title="The credential ends">
          {endsCredential}
        </Alert>
      )}
    </ReasonDialog>
  );
}

function ApproveDialog({
  opened,
  busy,
  onClose,
  onConfirm,
}: {
  opened: boolean;
  busy: boolean;
  onClose: () => void;
  onConfirm: () => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={() => !busy && onClose()}
      title="Approve the application"
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
    >
      <Stack>
        <Text>The decision is final. The provider sees it on the dashboard and is emailed.</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button color="#1e6b30" onClick={onConfirm} loading={busy}>
            Approve
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

const success: Partial<Record<ReviewAction, string>> = {
  start_review: 'The review has started and is assigned to you.',
  request_information: 'The provider has been asked for information.',
  approve: 'The application is approved.',
  reject: 'The application is rejected.',
};

/** The action buttons, their dialogs, and the last refusal of the server (e.g. 'Approve' with items to redo). */
export function ReviewActions({ review }: { review: AdminReview }) {
  const transition = useTransition(review.applicationId);
  const [dialog, setDialog] = useState<'request' | 'approve' | 'reject' | null>(null);
  const [refusal, setRefusal] = useState<{ message: string; reasons: string[] } | null>(null);
  const can = (a: ReviewAction) => review.availableActions.includes(a);

  async function run(t: Transition) {
    setRefusal(null);
    try {
      await transition.mutateAsync(t);
      notifySuccess(reviewActionLabel[t.action], success[t.action] ?? '');
    } catch (error) {
      const message = error instanceof Error ? error.message : 'The action failed.';
      // A refusal (409, e.g. 'Approve' with items to redo) is shown once, in the page; other failures toast.
      if (error instanceof ApiError && error.status === 409) setRefusal({ message, reasons: error.reasons });
      else notifyError(`${reviewActionLabel[t.action]} Failed`, message);
      throw error;
    }
  }
  const quietly = (t: Transition) => run(t).catch(() => {});

  if (review.availableActions.length === 0) return null;
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
        {can('reject') && (
          <Button color="red.9" variant="outline" onClick={() => setDialog('reject')}>
            Reject
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
      <RejectDialog
        opened={dialog === 'reject'}
        onClose={() => setDialog(null)}
        onSubmit={(reason) => run({ action: 'reject', reason })}
        endsCredential={rejectionEndsCredentialText(
          review.cycle,
          credentialStateOf(review.credential),
          review.providerName,
          new Date(),
        )}
      />
      <ApproveDialog
        opened={dialog === 'approve'}
        busy={transition.isPending}
        onClose={() => setDialog(null)}
        onConfirm={() => {
          setDialog(null);
          void quietly({ action: 'approve' });
        }}
      />
    </Stack>
  );
}
