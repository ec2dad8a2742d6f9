/**
 * The 'Review Queue' tab of /admin (issue 13): submitted and under-review applications, oldest
 * submission first, each with the provider, status, days since submission, the assigned reviewer,
 * whether an information request is open and the checklist's progress, and 'Open Review' to the
 * review page. Filters: status and 'Assigned to me'. Paged on the server (GET /api/admin/review-queue).
 * Issue 29 item 4: an approved provider's open credential update is listed too, badged 'Credential
 * Update' (instead of the application's status), with when it was sent and the sections it changed.
 * A row whose checklist has items needing re-verification (their verified data changed) says how
 * many in an orange badge: '2 need re-verification'.
 */
import { Anchor, Badge, Card, Checkbox, Group, Select, Stack, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { applicationStatusLabel } from '../../../domain/application-status.ts';
import { formatIsoDay } from '../../../domain/calendar.ts';
import { decisionDueText } from '../../../domain/committee/timeliness.ts';
import { CREDENTIAL_UPDATE_KIND_LABEL } from '../../../domain/credentials/credential-updates.ts';
import { verificationStatusColor } from '../../../domain/review/verification-checklist.ts';
import { sectionCatalog } from '../../../domain/sections/section-catalog.ts';
import { fromAdminState } from '../../app/admin-tabs.ts';
import { reviewPath } from '../../app/paths.ts';
import { AssignReviewer } from '../../components/assign-reviewer.tsx';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { ListPager } from '../../components/list-pager.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { formatDate } from '../../format.ts';
import { badgeColor } from '../../theme.ts';
import { type ReviewQueue, type ReviewQueueFilter, useReviewQueue } from './admin-api.ts';

type QueueItem = ReviewQueue['items'][number];

const statusOptions = [
  { value: 'all', label: 'All statuses' },
  { value: 'submitted', label: applicationStatusLabel.submitted },
  { value: 'under_review', label: applicationStatusLabel.under_review },
];

/** 'today', '1 day ago', '12 days ago'. */
function daysAgo(n: number): string {
  if (n <= 0) return 'today';
  return n === 1 ? '1 day ago' : `${n} days ago`;
}

/**
 * The queue row's count of items whose verified data changed (issue 29 item 3): '1 needs
 * re-verification', '2 need re-verification'.
 */
function needsReverificationLabel(n: number): string {
  return `${n} ${n === 1 ? 'needs' : 'need'} re-verification`;
}

function QueueCard({ item, canAssign }: { item: QueueItem; canAssign: boolean }) {
  const location = useLocation();
  const name = item.providerName || 'Provider without a profile';
  return (
    <Card withBorder padding="md" component="li" aria-label={name}>
      <Stack gap={6}>
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <div style={{ flex: '1 1 12rem', minWidth: 0, overflowWrap: 'anywhere' }}>
            <Text fw={600}>{name}</Text>
            {item.credentialUpdate ? (
              <>
                <Text size="sm" c="dimmed">
                  Update sent {formatDate(item.credentialUpdate.openedAt)},{' '}
                  {daysAgo(item.daysSinceSubmission)}
                </Text>
                <Text size="sm">
                  Changed:{' '}
                  {item.credentialUpdate.sections
                    .map((key) => sectionCatalog[key as keyof typeof sectionCatalog]?.title ?? key)
                    .join(', ')}
                </Text>
              </>
            ) : (
              <Text size="sm" c="dimmed">
                Completed {formatDate(item.submittedAt)}, {daysAgo(item.daysSinceSubmission)}
              </Text>
            )}
          </div>
          <Group gap={6} style={{ flexShrink: 0 }}>
            {item.openRequest && (
              <Badge color={badgeColor.blue} variant="filled">
                Information requested
              </Badge>
            )}
            {item.checklistNeedsReverification > 0 && (
              // The review checklist's colour for the status; the words say it, not the colour alone.
              <Badge color={badgeColor[verificationStatusColor.needs_reverification]} variant="filled">
                {needsReverificationLabel(item.checklistNeedsReverification)}
              </Badge>
            )}
            {item.kind === 'credential_update' ? (
              // Violet 9 (#5f3dc4) gives white text 7.4:1, apart from the statuses' colours.
              <Badge color="violet.9" variant="filled">
                {CREDENTIAL_UPDATE_KIND_LABEL}
              </Badge>
            ) : (
              <StatusBadge status={item.applicationStatus} />
            )}
          </Group>
        </Group>
        <Text size="sm">
          Reviewer: {item.reviewerId ? (item.reviewerName ?? 'a removed account') : 'Unassigned'}
        </Text>
        {item.decisionDue && (
          // Issue 32 item 7: NCQA's clock, overdue in red (the words say it too).
          <Text
            size="sm"
            c={item.decisionDue.daysLeft < 0 ? 'red.9' : undefined}
            fw={item.decisionDue.daysLeft < 0 ? 700 : undefined}
          >
            {decisionDueText(item.decisionDue)} ({formatIsoDay(item.decisionDue.dueOn)})
          </Text>
        )}
        <Text size="sm">
          Checklist:{' '}
          {item.checklistTotal === 0
            ? 'not generated yet'
            : `${item.checklistDone} of ${item.checklistTotal} verified or waived`}
        </Text>
        <Group gap="md">
          <Anchor
            component={Link}
            to={reviewPath(item.applicationId)}
            state={fromAdminState(location)}
            aria-label={`Open Review of ${name}`}
          >
            Open Review
          </Anchor>
          {/* Issue 32 item 3: a credential update's row is an approved file, which is not assigned. */}
          {canAssign && item.kind === 'application' && (
            <AssignReviewer
              applicationId={item.applicationId}
              status={item.applicationStatus}
              providerName={name}
            />
          )}
        </Group>
      </Stack>
    </Card>
  );
}

/**
 * The tab's content; queries only while the tab is shown. The filter and page are the dashboard's
 * (kept in its URL, issue 28): a new filter starts again at page 1.
 */
export function ReviewQueueTab({
  enabled,
  canAssign,
  filter,
  page,
  onFilterChange,
  onPageChange,
}: {
  enabled: boolean;
  /** The caller's roles review files and may assign them (issue 32 item 3). */
  canAssign: boolean;
  filter: ReviewQueueFilter;
  page: number;
  onFilterChange: (filter: ReviewQueueFilter) => void;
  onPageChange: (page: number) => void;
}) {
  const queue = useReviewQueue(filter, page, enabled);

  return (
    <Stack>
      <Group align="flex-end" gap="lg">
        <Select
          label="Status"
          w={220}
          allowDeselect={false}
          data={statusOptions}
          value={filter.status ?? 'all'}
          onChange={(value) =>
            onFilterChange({
              ...filter,
              status: value === 'submitted' || value === 'under_review' ? value : undefined,
            })
          }
        />
        <Checkbox
          label="Assigned to me"
          checked={filter.assignedToMe}
          onChange={(e) => onFilterChange({ ...filter, assignedToMe: e.currentTarget.checked })}
        />
      </Group>
      {queue.isPending ? (
        <InlineLoader label="Loading the review queue..." />
      ) : queue.isError ? (
        <Text>The review queue could not be loaded. Reload the page to try again.</Text>
      ) : queue.data.items.length === 0 ? (
        <Text c="dimmed">No applications are waiting for review.</Text>
      ) : (
        <>
          <Stack
            gap="sm"
            component="ul"
            aria-label="Review queue, oldest first"
            aria-busy={queue.isFetching}
            p={0}
            m={0}
            style={{ listStyle: 'none' }}
          >
            {queue.data.items.map((item) => (
              <QueueCard key={`${item.kind}-${item.applicationId}`} item={item} canAssign={canAssign} />
            ))}
          </Stack>
          <ListPager info={queue.data} noun={['application', 'applications']} onPageChange={onPageChange} />
        </>
      )}
    </Stack>
  );
}
