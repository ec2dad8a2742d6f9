/**
 * `/admin/applications/:applicationId` (issue 13, docs/decisions/018-review-workflow.md): an
 * application's review page for administrators. The provider's name, status and dates, the assigned
 * reviewer, the actions the state machine allows now, the verification checklist, the frozen snapshot
 * with its versions and changes, the information requests and the timeline (transitions, requests,
 * responses, verifications and notifications, from the audit log), and at the top the flag 'Needs
 * committee review' with its reasons: the disclosure questions of the latest attestation answered Yes
 * (issue 28) and a malpractice claim paid in the last 5 years (issue 31 item 4). Reading it is an audited admin read
 * on the server; an unknown id shows 'Application not found'.
 */

import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Container,
  Grid,
  Group,
  Stack,
  Text,
  Timeline,
  Title,
} from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { type ApplicationStatus, applicationStatusLabel } from '../../../domain/application-status.ts';
import { type AuditAction, auditActionLabel } from '../../../domain/audit-actions.ts';
import { formatIsoDay } from '../../../domain/calendar.ts';
import { decisionDueBasisText, decisionDueText } from '../../../domain/committee/timeliness.ts';
import { cycleTexts } from '../../../domain/credentials/provider-credential.ts';
import { hasPermission } from '../../../domain/permissions.ts';
import { OWN_FILE_NOTICE as ownFileNotice } from '../../../domain/review/file-duties.ts';
import { type SectionKey, sectionByKey } from '../../../domain/sections/registry.ts';
import { adminReturn } from '../../app/admin-tabs.ts';
import { reviewPath } from '../../app/paths.ts';
import type { Me } from '../../app/session.ts';
import { AssignReviewer } from '../../components/assign-reviewer.tsx';
import { CredentialAndCycle } from '../../components/credential-badge.tsx';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { MonitoringNotice } from '../../components/monitoring-notice.tsx';
import { formatDate } from '../../format.ts';
import { AttestationPanel, CommitteeReviewFlag, ReattestationBadge } from './attestation-panel.tsx';
import { CredentialUpdateBanner, useOpenCredentialUpdate } from './credential-update-banner.tsx';
import { CycleActions } from './cycle-actions.tsx';
import { DecisionRouting } from './decision-routing.tsx';
import { ReviewActions } from './review-actions.tsx';
import { type AdminReview, fileSummaryUrl, useAdminReview } from './review-api.ts';
import { SnapshotPanel } from './snapshot-panel.tsx';
import { VerificationChecklistPanel } from './verification-checklist-panel.tsx';

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

function personName(review: AdminReview, id: string | null, me: Me): string {
  if (!id) return 'the system';
  if (id === me.user.id) return 'you';
  return review.people[id] ?? 'a removed account';
}

function sectionTitle(key: string): string {
  return sectionByKey[key as SectionKey]?.title ?? key;
}

function Facts({ review, me }: { review: AdminReview; me: Me }) {
  const facts: [string, ReactNode][] = [];
  if (review.submittedAt) facts.push(['Completed', formatDate(review.submittedAt)]);
  if (review.reviewStartedAt) facts.push(['Review started', formatDate(review.reviewStartedAt)]);
  facts.push(['Reviewer', review.reviewerId ? personName(review, review.reviewerId, me) : 'Unassigned']);
  if (review.decidedAt) facts.push(['Decided', formatDate(review.decidedAt)]);
  // Issue 32 item 7: NCQA's clock, overdue in red (the words say it too).
  const due = review.decisionDue;
  if (due) {
    facts.push([
      'Decision due',
      <Text
        key="due"
        component="span"
        c={due.daysLeft < 0 ? 'red.9' : undefined}
        fw={due.daysLeft < 0 ? 700 : undefined}
      >
        {formatIsoDay(due.dueOn)}: {decisionDueText(due)} ({decisionDueBasisText(due)})
      </Text>,
    ]);
  }
  return (
    <Group gap="xl" component="dl" m={0}>
      {facts.map(([label, value]) => (
        <div key={label}>
          <Text component="dt" size="xs" c="dimmed">
            {label}
          </Text>
          <Text component="dd" m={0}>
            {value}
          </Text>
        </div>
      ))}
    </Group>
  );
}

function Requests({ review }: { review: AdminReview }) {
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        Information requests
      </Title>
      {review.requests.length === 0 ? (
        <Text c="dimmed">No information has been requested.</Text>
      ) : (
        <Stack gap="xs" component="ol" p={0} m={0} style={{ listStyle: 'none' }}>
          {review.requests.map((r) => (
            <Card key={r.id} withBorder padding="sm" component="li">
              <Stack gap={4}>
                <Group justify="space-between">
                  <Text fw={600}>Requested {dateTime.format(new Date(r.requestedAt))}</Text>
                  {r.respondedAt ? (
                    <Badge color="gray.7" variant="filled">
                      Answered
                    </Badge>
                  ) : (
                    <Badge color="blue.8" variant="filled">
                      Waiting for the provider
                    </Badge>
                  )}
                </Group>
                <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
                  {r.message}
                </Text>
                <Text size="sm" c="dimmed">
                  Sections: {r.sections.map(sectionTitle).join(', ')}
                </Text>
                {r.respondedAt && (
                  <Text size="sm">
                    Answered {dateTime.format(new Date(r.respondedAt))}
                    {r.versionAfter ? `, version ${r.versionAfter}` : ''}
                    {r.response ? `: ${r.response}` : ' (no reply)'}
                  </Text>
                )}
              </Stack>
            </Card>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function timelineDetail(details: AdminReview['timeline'][number]['details']): string {
  if (!details) return '';
  if (typeof details.note === 'string') return details.note;
  const from = details.fromStatus;
  const to = details.toStatus;
  if (typeof from === 'string' && typeof to === 'string' && from !== to) {
    const label = (s: string) => applicationStatusLabel[s as ApplicationStatus] ?? s;
    return `${label(from)} → ${label(to)}`;
  }
  return '';
}

function ReviewTimeline({ review, me }: { review: AdminReview; me: Me }) {
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        Timeline
      </Title>
      {review.timeline.length === 0 ? (
        <Text c="dimmed">Nothing has happened yet.</Text>
      ) : (
        <Timeline bulletSize={14} lineWidth={2} active={review.timeline.length}>
          {review.timeline.map((entry, i) => (
            <Timeline.Item
              // biome-ignore lint/suspicious/noArrayIndexKey: the timeline is append-only and ordered
              key={i}
              title={auditActionLabel[entry.action as AuditAction] ?? entry.action}
            >
              <Text size="sm" c="dimmed">
                {dateTime.format(new Date(entry.occurredAt))} by{' '}
                {entry.details?.actor === 'integration'
                  ? `the workflow integration (${entry.details.integration ?? 'unnamed'})`
                  : personName(review, entry.actorUserId, me)}
              </Text>
              {entry.action === 'review.assigned' && typeof entry.details?.to === 'string' ? (
                <Text size="sm">To {personName(review, entry.details.to, me)}</Text>
              ) : (
                timelineDetail(entry.details) && <Text size="sm">{timelineDetail(entry.details)}</Text>
              )}
            </Timeline.Item>
          ))}
        </Timeline>
      )}
    </Stack>
  );
}

export default function ReviewPage({ me }: { me: Me }) {
  const { applicationId = '' } = useParams();
  const query = useAdminReview(applicationId);
  // Issue 29 item 4: an approved provider's open credential update, verified on this page.
  const openUpdate = useOpenCredentialUpdate(applicationId).data?.open ?? null;
  const review = query.data;
  const navigate = useNavigate();
  // Back to the dashboard as the link from it left it: tab, search and filters (issue 28).
  const back = adminReturn(useLocation().state);
  // Issue 32: the buttons of the review are for roles that review (the server refuses the others).
  // Issue 50 item 1: nobody acts on their own file (the server refuses it too).
  const ownFile = review?.userId === me.user.id;
  const canReview = hasPermission(me.roles, 'review:application:any') && !ownFile;

  return (
    <Container size="xl" py="md">
      <Stack gap="lg">
        <Anchor component={Link} to={back.to} state={back.state} size="sm">
          ← Back to Admin Dashboard
        </Anchor>
        {query.isLoading && <InlineLoader label="Loading the application..." />}
        {query.isError &&
          (query.error instanceof Error && 'status' in query.error && query.error.status === 404 ? (
            <Alert color="red" variant="light" role="alert" title="Application not found">
              No application has this id. Open applications from the Review Queue on the Admin Dashboard.
            </Alert>
          ) : (
            <Alert color="red" variant="light" role="alert" title="The application could not be loaded">
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{query.error.message}</Text>
                <Button size="xs" variant="default" onClick={() => query.refetch()}>
                  Try again
                </Button>
              </Stack>
            </Alert>
          ))}
        {review && (
          <>
            <Stack gap="xs">
              <Group gap="sm">
                <Title order={1} size="h3">
                  {review.providerName || 'Provider without a profile'}
                </Title>
                {/* Issue 29 item 1: the provider's credential beside this cycle, each with its own badge. */}
                <CredentialAndCycle credential={review.credential} cycle={review} />
                <ReattestationBadge review={review} />
              </Group>
              <Group gap="md" align="flex-end">
                <Facts review={review} me={me} />
                {canReview && (
                  <AssignReviewer applicationId={review.applicationId} status={review.applicationStatus} />
                )}
                {/* Issue 33 item 1: written from the completed application's snapshot, so once there is one. */}
                {review.versions.length > 0 && (
                  <Button
                    component="a"
                    href={fileSummaryUrl(review.applicationId)}
                    download
                    variant="default"
                    leftSection={<IconDownload size={16} aria-hidden="true" />}
                  >
                    Download File Summary
                  </Button>
                )}
              </Group>
              <MonitoringNotice credential={review.credential} audience="staff" />
              {ownFile && (
                <Alert color="blue" variant="light" title="Your own file" role="status">
                  {ownFileNotice}
                </Alert>
              )}
              {review.applicationStatus === 'rejected' && review.decisionReason && (
                <Text size="sm">Reason for the rejection: {review.decisionReason}</Text>
              )}
              {review.applicationStatus === 'withdrawn' && (
                <Text size="sm">
                  {review.withdrawalReason
                    ? `Closed without a decision${review.withdrawnAt ? ` on ${formatDate(review.withdrawnAt)}` : ''}. Reason: ${review.withdrawalReason}`
                    : `${cycleTexts.withdrawnByProvider}${review.withdrawnAt ? ` on ${formatDate(review.withdrawnAt)}` : ''}.`}
                </Text>
              )}
            </Stack>
            {/* Issue 31 item 4: a Yes disclosure or a recently paid claim marks the file for the
                credentialing committee; above the actions, visible without scrolling (issue 28). */}
            <CommitteeReviewFlag review={review} />
            {openUpdate && (
              <CredentialUpdateBanner
                applicationId={review.applicationId}
                update={openUpdate}
                checklist={review.checklist}
                canComplete={canReview}
              />
            )}
            <DecisionRouting review={review} />
            <ReviewActions review={review} me={me} />
            {canReview && <CycleActions review={review} onOpened={(id) => navigate(reviewPath(id))} />}
            <Grid gap="xl">
              <Grid.Col span={{ base: 12, md: 5 }}>
                <VerificationChecklistPanel
                  applicationId={review.applicationId}
                  items={review.checklist}
                  editable={review.applicationStatus === 'under_review' || openUpdate !== null}
                  canRecord={canReview}
                  people={review.people}
                />
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 7 }}>
                <SnapshotPanel review={review} />
              </Grid.Col>
            </Grid>
            <Grid gap="xl">
              <Grid.Col span={{ base: 12, md: 6 }}>
                <Requests review={review} />
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 6 }}>
                <ReviewTimeline review={review} me={me} />
              </Grid.Col>
            </Grid>
            <AttestationPanel review={review} />
          </>
        )}
      </Stack>
    </Container>
  );
}
