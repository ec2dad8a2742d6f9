/**
 * Application status values, labels and badge colours (spec §4).
 * Colours are Mantine colour names; shades are picked in the web theme for WCAG AA contrast.
 * `withdrawn` is ours, not the spec's (issue 29, decision 025): a cycle closed without a decision, by
 * the provider ('Withdraw', a draft) or an administrator ('Close Without Decision', with a reason).
 */
export const applicationStatuses = [
  'draft',
  'submitted',
  'under_review',
  'approved',
  'rejected',
  'withdrawn',
] as const;
export type ApplicationStatus = (typeof applicationStatuses)[number];

export const applicationStatusLabel: Record<ApplicationStatus, string> = {
  draft: 'Draft',
  submitted: 'Submitted',
  under_review: 'Under Review',
  approved: 'Approved',
  rejected: 'Rejected',
  withdrawn: 'Withdrawn',
};

export const applicationStatusColor: Record<
  ApplicationStatus,
  'yellow' | 'blue' | 'orange' | 'green' | 'red' | 'gray'
> = {
  draft: 'yellow',
  submitted: 'blue',
  under_review: 'orange',
  approved: 'green',
  rejected: 'red',
  withdrawn: 'gray',
};

/**
 * The current application (spec §4): the first draft in newest-first order, otherwise the newest.
 * @param applications newest first
 */
export function pickCurrentApplication<T extends { applicationStatus: ApplicationStatus }>(
  applications: readonly T[],
): T | undefined {
  return applications.find((a) => a.applicationStatus === 'draft') ?? applications[0];
}

/**
 * The application whose credentials the provider renews (issue 29): the current one, except that a
 * withdrawn cycle renews nothing of its own, so while the credential runs it is the approved
 * application behind it. `approved` says whether that application takes credential updates (issue
 * 29 item 4). The dashboard's 'Expiring Credentials' and 'Credential Update' cards read it, and
 * web/early-reads.ts starts their reads from it before the app has loaded.
 * @param current the current application (pickCurrentApplication)
 * @param credential the provider's credential (GET /api/applications' `credential`)
 */
export function renewableApplication(
  current: { id: string; applicationStatus: ApplicationStatus },
  credential: { state: string; applicationId: string | null } | undefined,
): { applicationId: string; approved: boolean } {
  if (
    current.applicationStatus === 'withdrawn' &&
    credential?.state === 'credentialed' &&
    credential.applicationId
  ) {
    return { applicationId: credential.applicationId, approved: true };
  }
  return { applicationId: current.id, approved: current.applicationStatus === 'approved' };
}
