/**
 * `/dashboard` (spec §2 /dashboard, §4): welcome line, Application Status card, the eleven section
 * cards, Previous Applications. 'Sign Out' and 'Account' (issue 16) are in the app shell's header
 * (issue 17, web/components/app-shell.tsx), on this screen as on every signed-in one. The current application is the first draft, else the newest.
 */
import { Button, Card, Container, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { lazy, memo, Suspense, useDeferredValue, useEffect } from 'react';
import type { ProviderCredentialDto } from '../../../domain/api/provider-credential.ts';
import { pickCurrentApplication, renewableApplication } from '../../../domain/application-status.ts';
import { recredentialingOpen } from '../../../domain/credentials/recredentialing.ts';
import { finalStatuses, reviewStatuses } from '../../../domain/review/review-workflow.ts';
import { type ProviderReview, useProviderReview } from '../../app/provider-review.ts';
import type { Me } from '../../app/session.ts';
import { CredentialAndCycle } from '../../components/credential-badge.tsx';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { MonitoringNotice } from '../../components/monitoring-notice.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { formatDate } from '../../format.ts';
import { notifyError, notifySuccess } from '../../notify.ts';
import {
  type Application,
  type ApplicationList,
  useApplications,
  useCreateApplication,
  useCredential,
  useWorkHistoryGaps,
} from './applications-api.ts';
import { CompletionSlot } from './completion-slot.tsx';
import { CredentialUpdateCard } from './credential-update-card.tsx';
import { StartCycleButton, WithdrawButton } from './cycle-actions.tsx';
import { ExpiringCredentialsCard } from './expiring-credentials-card.tsx';
import { useProfile } from './profile-api.ts';
import { ReattestationCard } from './reattestation-card.tsx';
import { CopiedFromCard, copiedSummary, notCopiedSummary, RecredentialingNote } from './recredentialing.tsx';
import { SectionsCard } from './section-cards.tsx';

// The review's banner and decision note (issue 13) show only once an application is completed; with
// the appeal form they bring zod and the review contract's schemas, so they load when first shown,
// not with every dashboard (decision 033).
const ActionRequiredBanner = lazy(() =>
  import('./review-status.tsx').then((m) => ({ default: m.ActionRequiredBanner })),
);
const DecisionNote = lazy(() => import('./review-status.tsx').then((m) => ({ default: m.DecisionNote })));

/**
 * Starts a draft (spec §4); after an earlier application the server pre-fills it (issue 14). The
 * toasts follow the awaited result: the button itself is gone once the new draft renders.
 */
function StartApplicationButton({ label = 'Start New Application' }: { label?: string }) {
  const create = useCreateApplication();
  const start = async () => {
    try {
      const { copied } = await create.mutateAsync();
      notifySuccess('Application Created', 'New credentialing application started');
      if (copied) notifySuccess('Copied From Your Previous Application', copiedSummary(copied));
      const notCopied = copied && notCopiedSummary(copied);
      if (notCopied) notifyError('Documents Not Copied', notCopied);
    } catch {
      notifyError('Error', 'Failed to create new application');
    }
  };
  return (
    <Button disabled={create.isPending} onClick={start}>
      {create.isPending ? 'Creating...' : label}
    </Button>
  );
}

function StatusCard({
  application,
  review,
  signer,
  credential,
}: {
  application: Application;
  review: ProviderReview | undefined;
  /** The profile's names, for the attestation's signature. */
  signer: { firstName: string; lastName: string } | null;
  /** The provider's credential apart from this cycle (issue 29 item 1); undefined while loading. */
  credential: ProviderCredentialDto | undefined;
}) {
  const now = new Date();
  // Issue 29: recredentialing follows the credential, not this application (a withdrawn cycle may be current).
  const recredentialing =
    credential?.state === 'credentialed' && credential.endsOn
      ? { dueOn: credential.endsOn, open: recredentialingOpen(credential.endsOn, now) }
      : null;
  // Issue 49 item 5: an approval effective later is held too (no 'Start New Application' offered).
  const credentialHeld =
    credential?.state === 'credentialed' ||
    credential?.state === 'pending' ||
    credential?.state === 'expired';
  const decidedOrWithdrawn =
    finalStatuses.includes(application.applicationStatus) || application.applicationStatus === 'withdrawn';
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="status-title">
      <Stack>
        <Group justify="space-between">
          <Title order={2} size="h3" id="status-title">
            Application Status
          </Title>
          {credential ? (
            <CredentialAndCycle credential={credential} cycle={application} />
          ) : (
            <StatusBadge status={application.applicationStatus} />
          )}
        </Group>
        {credential && <MonitoringNotice credential={credential} audience="provider" />}
        <Text size="sm" c="dimmed">
          Created {formatDate(application.createdAt)}
        </Text>
        <div>
          <Group justify="space-between" mb={4}>
            <Text size="sm" id="progress-label">
              Progress
            </Text>
            <Text size="sm" fw={600}>
              {application.progress}%
            </Text>
          </Group>
          <Progress.Root size="lg">
            <Progress.Section value={application.progress} aria-labelledby="progress-label" />
          </Progress.Root>
        </div>
        {application.applicationStatus === 'draft' && (
          <Group justify="space-between" wrap="wrap">
            <Text size="sm">
              {/* Issue 51 item 6: at 100% the spec's draft sentence is no longer true; say the next step. */}
              {application.progress === 100
                ? "All sections are complete. Press 'Application Completed' to sign the attestation and send your application for review."
                : 'Complete all sections to submit your application for review.'}
            </Text>
            <WithdrawButton applicationId={application.id} />
          </Group>
        )}
        {application.applicationStatus === 'withdrawn' && (
          <Text size="sm">
            This application was withdrawn
            {application.withdrawnAt ? ` on ${formatDate(application.withdrawnAt)}` : ''} without a decision.
            Your credential is not affected.
          </Text>
        )}
        <CompletionSlot application={application} signer={signer} />
        {reviewStatuses.includes(application.applicationStatus) && !review?.openRequest && (
          <Text size="sm">
            Your application is with the credentialing team. You can change it only if they ask you for more
            information.
          </Text>
        )}
        {review && (
          <Suspense fallback={null}>
            <DecisionNote applicationId={application.id} review={review} />
          </Suspense>
        )}
        {recredentialing && <RecredentialingNote {...recredentialing} />}
        {decidedOrWithdrawn &&
          credential &&
          (credentialHeld ? (
            // Issue 29 item 2: while credentialed, only from 180 days before the end date (the server agrees).
            (!recredentialing || recredentialing.open) && (
              <div>
                <StartCycleButton label="Start Recredentialing" />
              </div>
            )
          ) : (
            <Group>
              <Text size="sm">You can start a new application at any time.</Text>
              <StartCycleButton label="Start New Application" />
            </Group>
          ))}
      </Stack>
    </Card>
  );
}

function PreviousApplicationsCard({ applications }: { applications: Application[] }) {
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="previous-title">
      <Title order={2} size="h3" id="previous-title" mb="md">
        Previous Applications
      </Title>
      <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {applications.map((a) => (
          <Group key={a.id} justify="space-between" component="li">
            <Text ff="monospace">{a.id.slice(0, 8)}</Text>
            <Text size="sm">{formatDate(a.createdAt)}</Text>
            <StatusBadge status={a.applicationStatus} />
          </Group>
        ))}
      </Stack>
    </Card>
  );
}

/**
 * The page: its API reads, and the view of their answers. Each answer arrives as an urgent render
 * (TanStack Query's store); the view gets them through `useDeferredValue`, so the page's first full
 * render (every card) runs as a transition, in slices that let the browser paint and respond, not as
 * one long task per answer; meanwhile the memoised view keeps what it shows (decision 033).
 */
export default function DashboardPage({ me }: { me: Me }) {
  const applicationsQuery = useApplications();
  const credentialQuery = useCredential();
  const gapsQuery = useWorkHistoryGaps();
  const profileQuery = useProfile();
  useEffect(() => {
    if (applicationsQuery.isError) notifyError('Error', 'Failed to load applications');
  }, [applicationsQuery.isError]);
  // Spec §8: only a failed load is an error; a provider without a profile row just has no names.
  useEffect(() => {
    if (profileQuery.isError) notifyError('Error', 'Failed to load profile information');
  }, [profileQuery.isError]);
  const applications = useDeferredValue(applicationsQuery.data);
  const current = applications ? pickCurrentApplication(applications) : undefined;
  // The review state (issue 13) of a completed application: the banner and the decision.
  const review = useProviderReview(
    current?.id ?? '',
    current !== undefined && current.applicationStatus !== 'draft',
  );
  return (
    <DashboardView
      applications={applications}
      failed={useDeferredValue(applicationsQuery.isError)}
      credential={useDeferredValue(credentialQuery.data)}
      profile={useDeferredValue(profileQuery.data ?? me.profile)}
      review={useDeferredValue(review.data)}
      workHistoryGaps={useDeferredValue(gapsQuery.data)}
    />
  );
}

interface DashboardViewProps {
  /** The provider's applications; undefined while loading. */
  applications: Application[] | undefined;
  /** The applications could not be loaded. */
  failed: boolean;
  credential: ProviderCredentialDto | undefined;
  profile: { firstName: string; lastName: string } | null | undefined;
  review: ProviderReview | undefined;
  /** The drafts with work-history gaps to explain (issue 51 item 6); undefined while loading. */
  workHistoryGaps: ApplicationList['workHistoryGaps'] | undefined;
}

/** What the dashboard shows for its reads' answers (re-rendered only when one of them changes). */
const DashboardView = memo(function DashboardView({
  applications,
  failed,
  credential,
  profile,
  review,
  workHistoryGaps,
}: DashboardViewProps) {
  const current = applications ? pickCurrentApplication(applications) : undefined;
  const previous =
    applications && applications.length > 1 ? applications.filter((a) => a.id !== current?.id) : [];
  // Issue 29: a withdrawn cycle renews nothing of its own; while the credential runs, the expiring
  // items are the approved application's behind it, so each keeps its 'Update Credential'.
  const renewable = current && renewableApplication(current, credential);

  return (
    <main>
      <Container size="lg" pb="xl">
        <Title order={1} size="h3" py="md">
          Welcome, {profile?.firstName} {profile?.lastName}
        </Title>
        {failed ? (
          <Card withBorder padding="lg">
            <Text>We could not load your applications. Reload the page to try again.</Text>
          </Card>
        ) : !applications ? (
          <InlineLoader />
        ) : !current ? (
          <Card withBorder padding="xl" component="section">
            <Stack align="center" ta="center">
              <Title order={2} size="h3">
                No Applications Yet
              </Title>
              <Text>Start your provider credentialing application to begin the process.</Text>
              <StartApplicationButton />
            </Stack>
          </Card>
        ) : (
          <Stack>
            {review?.openRequest && (
              <Suspense fallback={null}>
                <ActionRequiredBanner applicationId={current.id} request={review.openRequest} />
              </Suspense>
            )}
            {renewable && (
              <>
                <ExpiringCredentialsCard
                  applicationId={renewable.applicationId}
                  approved={renewable.approved}
                />
                <CredentialUpdateCard applicationId={renewable.applicationId} approved={renewable.approved} />
              </>
            )}
            {review?.reattestationRequired && (
              <ReattestationCard applicationId={current.id} signer={profile ?? null} />
            )}
            {current.copiedFromId && current.applicationStatus === 'draft' && (
              <CopiedFromCard source={applications.find((a) => a.id === current.copiedFromId)} />
            )}
            <StatusCard
              application={current}
              review={review}
              signer={profile ?? null}
              credential={credential}
            />
            <SectionsCard
              application={current}
              gapsToExplain={workHistoryGaps?.find((g) => g.applicationId === current.id)?.unexplained ?? 0}
            />
            {previous.length > 0 && <PreviousApplicationsCard applications={previous} />}
          </Stack>
        )}
      </Container>
    </main>
  );
});
