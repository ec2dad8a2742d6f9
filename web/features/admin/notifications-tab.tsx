/**
 * The administrators' 'Notifications' tab on /admin (issue 20; issue 28 item 8): what the portal sent
 * to the credentialing team's receiver, in two kinds chosen with a 'Type' segmented control (a radio
 * group: arrows move, the choice is announced; decision 018, addendum): completion notifications and
 * `application.status_changed` events. Each kind newest first, filtered by state, each as a card (no
 * wide table: readable at 390 px) with provider, state badge (text, not colour alone), times,
 * attempts, the next attempt of a pending one and the last error in full (wrapped; it may carry issue
 * 20's "receiver's body limit" hint), and its sends (issue 53 item 4): the first message and each
 * re-send with its webhook-id, first attempt, result, attempt count and an expandable attempt log.
 * Every card has 'Re-send' (issue 53 item 2: delivered ones too, for a receiver that lost what it
 * took), behind a confirmation dialog: a new message with a new `webhook-id` (issue 28 item 7).
 * Data: admin-api.ts (useAdminNotifications, useResendNotification, useAdminStatusEvents,
 * useResendStatusEvent), contract domain/api/notifications.ts.
 */
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  NativeSelect,
  SegmentedControl,
  Stack,
  Text,
} from '@mantine/core';
import { useState } from 'react';
import { type StatusEventState, statusEventStates } from '../../../domain/api/integration.ts';
import {
  type AdminNotification,
  type AdminStatusEvent,
  documentFetchState,
} from '../../../domain/api/notifications.ts';
import { applicationStatusLabel } from '../../../domain/application-status.ts';
import { type CompletionStatus, completionStatuses } from '../../../domain/completion-status.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { notifyError, notifySuccess } from '../../notify.ts';
import { badgeColor } from '../../theme.ts';
import {
  useAdminNotifications,
  useAdminStatusEvents,
  useResendNotification,
  useResendStatusEvent,
} from './admin-api.ts';
import {
  type DocumentFetchState,
  Field,
  fetchStateLabel,
  SendList,
  statusLabel,
  When,
} from './delivery-sends.tsx';

/** Badge fills from the theme's AA-checked set (web/theme.ts); the label says the state in text. */
const statusColor: Record<CompletionStatus, string> = {
  pending: badgeColor.blue,
  delivered: badgeColor.green,
  failed: badgeColor.red,
  undelivered: badgeColor.gray,
};

/** The provider as the dialog and toasts name them: their name, else their email, else 'this provider'. */
function providerOf(item: { providerName: string; providerEmail: string }): string {
  return item.providerName || item.providerEmail || 'this provider';
}

/** The label of the 'Re-send' button and of its confirmation (issue 28 quotes it). */
const RESEND = 'Re-send';

/** Who changed an application's status, as the status event card says it. */
const actorLabel: Record<AdminStatusEvent['actorType'], string> = {
  provider: 'Provider',
  reviewer: 'Reviewer',
  integration: 'Workflow integration',
};

function NotificationCard({
  notification,
  onResend,
}: {
  notification: AdminNotification;
  /** Without it (a role that reads only, issue 32) there is no Resend. */
  onResend?: (notification: AdminNotification) => void;
}) {
  const current = notification.sends.at(-1);
  const fetchState = current ? documentFetchState(current, Date.now()) : null;
  return (
    <Card withBorder padding="md" component="li" aria-label={`Notification of ${providerOf(notification)}`}>
      <Stack gap="xs">
        <CardHead item={notification} status={notification.status} fetchState={fetchState} />
        {fetchState === 'not_fetched' && current?.documents && (
          <Alert color="orange" variant="light" title="Documents not fetched">
            The receiver answered, but fetched {current.documents.fetched} of {current.documents.offered}{' '}
            documents before the links expired. Use 'Re-send' to send new links, and check the receiving
            workflow.
          </Alert>
        )}
        <Field label="Requested">
          <When iso={notification.requestedAt} />
        </Field>
        {notification.deliveredAt && (
          <Field label="Delivered">
            <When iso={notification.deliveredAt} />
          </Field>
        )}
        {notification.status === 'pending' && notification.nextAttemptAt && (
          <Field label="Next attempt">
            <When iso={notification.nextAttemptAt} />
          </Field>
        )}
        {notification.lastError && <Field label="Last error">{notification.lastError}</Field>}
        <SendList sends={notification.sends} idPrefix={`notification-${notification.id}`} />
        {onResend && (
          <Group>
            <Button size="xs" onClick={() => onResend(notification)}>
              {RESEND}
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

/** Provider name and email, and the state badge: the head of both kinds of card. */
function CardHead({
  item,
  status,
  fetchState = null,
}: {
  item: { providerName: string; providerEmail: string };
  status: CompletionStatus;
  /** A delivered links-mode send: whether the receiver fetched its documents (issue 53 item 3). */
  fetchState?: DocumentFetchState;
}) {
  return (
    <Group justify="space-between" wrap="wrap" gap="xs">
      <Stack gap={0} style={{ minWidth: 0 }}>
        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
          {item.providerName || '—'}
        </Text>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {item.providerEmail || '—'}
        </Text>
      </Stack>
      <Badge
        color={fetchState === 'not_fetched' ? badgeColor.orange : statusColor[status]}
        variant="filled"
        autoContrast
      >
        {fetchState ? fetchStateLabel[fetchState] : statusLabel[status]}
      </Badge>
    </Group>
  );
}

function StatusEventCard({
  event,
  onResend,
}: {
  event: AdminStatusEvent;
  /** Without it (a role that reads only, issue 32) there is no Resend. */
  onResend?: (event: AdminStatusEvent) => void;
}) {
  return (
    <Card withBorder padding="md" component="li" aria-label={`Status change of ${providerOf(event)}`}>
      <Stack gap="xs">
        <CardHead item={event} status={event.status} />
        <Field label="Change">
          {applicationStatusLabel[event.from]} → {applicationStatusLabel[event.to]}
        </Field>
        <Field label="Changed by">{actorLabel[event.actorType]}</Field>
        <Field label="Changed">
          <When iso={event.occurredAt} />
        </Field>
        {event.deliveredAt && (
          <Field label="Delivered">
            <When iso={event.deliveredAt} />
          </Field>
        )}
        {event.status === 'pending' && event.nextAttemptAt && (
          <Field label="Next attempt">
            <When iso={event.nextAttemptAt} />
          </Field>
        )}
        {event.lastError && <Field label="Last error">{event.lastError}</Field>}
        <SendList sends={event.sends} idPrefix={`event-${event.id}`} />
        {onResend && (
          <Group>
            <Button size="xs" onClick={() => onResend(event)}>
              {RESEND}
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

/** The state filter of either kind: 'All' or one of `states`. */
function StateFilter<S extends CompletionStatus>({
  states,
  value,
  onChange,
}: {
  states: readonly S[];
  value: S | 'all';
  onChange: (value: S | 'all') => void;
}) {
  return (
    <NativeSelect
      label="Status"
      value={value}
      onChange={(event) => onChange(event.currentTarget.value as S | 'all')}
      data={[
        { value: 'all', label: 'All' },
        ...states.map((state) => ({ value: state, label: statusLabel[state] })),
      ]}
      maw={240}
    />
  );
}

/** The list's loading line, its empty line, or its items. */
function ListBody({
  pending,
  fetching,
  empty,
  label,
  children,
}: {
  pending: boolean;
  fetching: boolean;
  empty: string | null;
  label: string;
  children: React.ReactNode;
}) {
  if (pending) {
    return (
      <Group>
        <Loader size="sm" aria-hidden="true" />
        <Text role="status">Loading notifications...</Text>
      </Group>
    );
  }
  if (empty) return <Text role="status">{empty}</Text>;
  return (
    <Stack
      component="ul"
      aria-label={label}
      aria-busy={fetching}
      gap="sm"
      style={{ listStyle: 'none', padding: 0, margin: 0 }}
    >
      {children}
    </Stack>
  );
}

/**
 * One kind of delivery (completion notifications or status events): the state filter, the list of
 * cards, and 'Re-send' behind a confirmation. Both kinds share their states' words (`statusLabel`).
 */
function DeliveryList<State extends CompletionStatus, Item extends { id: string }>({
  states,
  enabled,
  useList,
  useResend,
  label,
  noneYet,
  noneOf,
  renderCard,
  confirmTitle,
  confirmText,
  sentTitle,
  sentText,
}: {
  states: readonly State[];
  /** Whether the tab is shown (the list is read only then). */
  enabled: boolean;
  /** The kind's list query hook, for a state filter (`null`: all). */
  useList: (
    status: State | null,
    enabled: boolean,
  ) => { data?: Item[] | undefined; isPending: boolean; isFetching: boolean };
  /** The kind's 'Re-send' mutation hook. */
  useResend: () => {
    mutate: (
      id: string,
      callbacks: {
        onSuccess: (result: { status: CompletionStatus }) => void;
        onError: (error: Error) => void;
        onSettled: () => void;
      },
    ) => void;
    isPending: boolean;
  };
  /** The list's accessible name. */
  label: string;
  /** 'No notifications yet'. */
  noneYet: string;
  /** 'notifications' in "No failed notifications". */
  noneOf: string;
  renderCard: (item: Item, onResend: (item: Item) => void) => React.ReactNode;
  confirmTitle: string;
  confirmText: (item: Item) => string;
  sentTitle: string;
  sentText: (item: Item, status: CompletionStatus) => string;
}) {
  const [status, setStatus] = useState<State | 'all'>('all');
  const query = useList(status === 'all' ? null : status, enabled);
  const resend = useResend();
  const [confirming, setConfirming] = useState<Item | null>(null);

  const confirm = () => {
    if (!confirming) return;
    const item = confirming;
    resend.mutate(item.id, {
      onSuccess: (result) => notifySuccess(sentTitle, sentText(item, result.status)),
      onError: (error) => notifyError('Error', error.message),
      onSettled: () => setConfirming(null),
    });
  };

  const items = query.data ?? [];
  return (
    <Stack>
      <StateFilter states={states} value={status} onChange={setStatus} />
      <ListBody
        pending={query.isPending}
        fetching={query.isFetching}
        label={label}
        empty={
          items.length > 0
            ? null
            : status === 'all'
              ? noneYet
              : `No ${statusLabel[status].toLowerCase()} ${noneOf}`
        }
      >
        {items.map((item) => renderCard(item, setConfirming))}
      </ListBody>
      <ConfirmDialog
        opened={confirming !== null}
        title={confirmTitle}
        confirmLabel={RESEND}
        busy={resend.isPending}
        onConfirm={confirm}
        onCancel={() => setConfirming(null)}
      >
        {confirming && confirmText(confirming)}
      </ConfirmDialog>
    </Stack>
  );
}

function CompletionNotifications({ enabled, canResend }: { enabled: boolean; canResend: boolean }) {
  return (
    <DeliveryList<CompletionStatus, AdminNotification>
      states={completionStatuses}
      enabled={enabled}
      useList={useAdminNotifications}
      useResend={useResendNotification}
      label="Completion notifications"
      noneYet="No notifications yet"
      noneOf="notifications"
      renderCard={(notification, onResend) => (
        <NotificationCard
          key={notification.id}
          notification={notification}
          onResend={canResend ? onResend : undefined}
        />
      )}
      confirmTitle={`${RESEND} notification`}
      confirmText={(n) =>
        n.status === 'delivered'
          ? `The completion notification of ${providerOf(n)} was delivered. Send it again as a new message? The receiver will process it again.`
          : `Send the completion notification of ${providerOf(n)} again?`
      }
      sentTitle="Notification sent again"
      sentText={(n, status) =>
        `The completion notification of ${providerOf(n)} is now ${statusLabel[status].toLowerCase()}.`
      }
    />
  );
}

function StatusEvents({ enabled, canResend }: { enabled: boolean; canResend: boolean }) {
  return (
    <DeliveryList<StatusEventState, AdminStatusEvent>
      states={statusEventStates}
      enabled={enabled}
      useList={useAdminStatusEvents}
      useResend={useResendStatusEvent}
      label="Status changes"
      noneYet="No status changes yet"
      noneOf="status changes"
      renderCard={(event, onResend) => (
        <StatusEventCard key={event.id} event={event} onResend={canResend ? onResend : undefined} />
      )}
      confirmTitle={`${RESEND} status change`}
      confirmText={(e) =>
        e.status === 'delivered'
          ? `The status change of ${providerOf(e)} (${applicationStatusLabel[e.from]} → ${applicationStatusLabel[e.to]}) was delivered. Send it again as a new message? The receiver will process it again.`
          : `Send the status change of ${providerOf(e)} (${applicationStatusLabel[e.from]} → ${applicationStatusLabel[e.to]}) again?`
      }
      sentTitle="Status change sent again"
      sentText={(e, status) =>
        `The status change of ${providerOf(e)} is now ${statusLabel[status].toLowerCase()}.`
      }
    />
  );
}

type NotificationKind = 'completions' | 'status-events';

/**
 * The tab's content; `enabled` is whether the tab is shown (the shown kind's list is read only then);
 * `canResend`: the caller's roles may send again (`send:notification:any`, issue 32).
 */
export function NotificationsTab({ enabled, canResend }: { enabled: boolean; canResend: boolean }) {
  const [kind, setKind] = useState<NotificationKind>('completions');
  return (
    <Stack>
      <Stack gap={4}>
        <Text size="sm" fw={500} id="notification-kind-label">
          Type
        </Text>
        <SegmentedControl
          aria-labelledby="notification-kind-label"
          value={kind}
          onChange={(value) => setKind(value as NotificationKind)}
          data={[
            { value: 'completions', label: 'Completions' },
            { value: 'status-events', label: 'Status changes' },
          ]}
          style={{ alignSelf: 'flex-start' }}
        />
      </Stack>
      {kind === 'completions' ? (
        <CompletionNotifications enabled={enabled} canResend={canResend} />
      ) : (
        <StatusEvents enabled={enabled} canResend={canResend} />
      )}
    </Stack>
  );
}
