/**
 * The administrators' 'Notifications' tab on /admin (issue 20): completion notifications newest first,
 * filtered by state, each as a card (no wide table: readable at 390 px) with provider, state badge
 * (text, not colour alone), times, attempts, the next attempt of a pending one, the last error in full
 * (wrapped; it may carry issue 20's "receiver's body limit" hint), and an expandable attempt log.
 * Failed and undelivered notifications have 'Resend', behind a confirmation dialog.
 * Data: useAdminNotifications / useResendNotification (admin-api.ts), contract domain/api/notifications.ts.
 */
import { Badge, Button, Card, Group, Loader, NativeSelect, Stack, Text, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import type { AdminNotification, NotificationAttempt } from '../../../domain/api/notifications.ts';
import { type CompletionStatus, completionStatuses } from '../../../domain/completion-status.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { notifyError, notifySuccess } from '../../notify.ts';
import { badgeColor } from '../../theme.ts';
import { useAdminNotifications, useResendNotification } from './admin-api.ts';

const statusLabel: Record<CompletionStatus, string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
  undelivered: 'Undelivered',
};

/** Badge fills from the theme's AA-checked set (web/theme.ts); the label says the state in text. */
const statusColor: Record<CompletionStatus, string> = {
  pending: badgeColor.blue,
  delivered: badgeColor.green,
  failed: badgeColor.red,
  undelivered: badgeColor.gray,
};

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium' });

function When({ iso }: { iso: string }) {
  return <time dateTime={iso}>{dateTime.format(new Date(iso))}</time>;
}

/** The provider as the dialog and toasts name them: their name, else their email, else 'this provider'. */
function providerOf(notification: AdminNotification): string {
  return notification.providerName || notification.providerEmail || 'this provider';
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
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

function NotificationCard({
  notification,
  onResend,
}: {
  notification: AdminNotification;
  onResend: (notification: AdminNotification) => void;
}) {
  const [open, setOpen] = useState(false);
  const logId = `attempts-${notification.id}`;
  const canResend = notification.status === 'failed' || notification.status === 'undelivered';
  return (
    <Card withBorder padding="md" component="li" aria-label={`Notification of ${providerOf(notification)}`}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {notification.providerName || '—'}
            </Text>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {notification.providerEmail || '—'}
            </Text>
          </Stack>
          <Badge color={statusColor[notification.status]} variant="filled" autoContrast>
            {statusLabel[notification.status]}
          </Badge>
        </Group>
        <Field label="Requested">
          <When iso={notification.requestedAt} />
        </Field>
        {notification.deliveredAt && (
          <Field label="Delivered">
            <When iso={notification.deliveredAt} />
          </Field>
        )}
        <Field label="Attempts">{notification.attempts}</Field>
        {notification.status === 'pending' && notification.nextAttemptAt && (
          <Field label="Next attempt">
            <When iso={notification.nextAttemptAt} />
          </Field>
        )}
        {notification.lastError && <Field label="Last error">{notification.lastError}</Field>}
        <Group gap="sm" wrap="wrap">
          <UnstyledButton
            aria-expanded={open}
            aria-controls={logId}
            onClick={() => setOpen((value) => !value)}
            style={{ textDecoration: 'underline' }}
          >
            <Text size="sm" span>
              {open ? 'Hide attempt log' : 'Show attempt log'} ({notification.attemptLog.length})
            </Text>
          </UnstyledButton>
          {canResend && (
            <Button size="xs" onClick={() => onResend(notification)}>
              Resend
            </Button>
          )}
        </Group>
        <div id={logId} hidden={!open}>
          {open && <AttemptLog attempts={notification.attemptLog} />}
        </div>
      </Stack>
    </Card>
  );
}

/** The tab's content; `enabled` is whether the tab is shown (the list is read only then). */
export function NotificationsTab({ enabled }: { enabled: boolean }) {
  const [status, setStatus] = useState<CompletionStatus | 'all'>('all');
  const list = useAdminNotifications(status === 'all' ? null : status, enabled);
  const resend = useResendNotification();
  const [confirming, setConfirming] = useState<AdminNotification | null>(null);

  const confirm = () => {
    if (!confirming) return;
    const provider = providerOf(confirming);
    resend.mutate(confirming.id, {
      onSuccess: (result) =>
        notifySuccess(
          'Notification sent again',
          `The completion notification of ${provider} is now ${statusLabel[result.status].toLowerCase()}.`,
        ),
      onError: (error) => notifyError('Error', error.message),
      onSettled: () => setConfirming(null),
    });
  };

  const notifications = list.data ?? [];
  return (
    <Stack>
      <NativeSelect
        label="Status"
        value={status}
        onChange={(event) => setStatus(event.currentTarget.value as CompletionStatus | 'all')}
        data={[
          { value: 'all', label: 'All' },
          ...completionStatuses.map((value) => ({ value, label: statusLabel[value] })),
        ]}
        maw={240}
      />
      {list.isPending ? (
        <Group>
          <Loader size="sm" aria-hidden="true" />
          <Text role="status">Loading notifications...</Text>
        </Group>
      ) : notifications.length === 0 ? (
        <Text role="status">
          {status === 'all'
            ? 'No notifications yet'
            : `No ${statusLabel[status].toLowerCase()} notifications`}
        </Text>
      ) : (
        <Stack
          component="ul"
          aria-label="Completion notifications"
          aria-busy={list.isFetching}
          gap="sm"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
        >
          {notifications.map((notification) => (
            <NotificationCard key={notification.id} notification={notification} onResend={setConfirming} />
          ))}
        </Stack>
      )}
      <ConfirmDialog
        opened={confirming !== null}
        title="Resend notification"
        confirmLabel="Resend"
        busy={resend.isPending}
        onConfirm={confirm}
        onCancel={() => setConfirming(null)}
      >
        {confirming && `Send the completion notification of ${providerOf(confirming)} again?`}
      </ConfirmDialog>
    </Stack>
  );
}
