/**
 * Application status values, labels and badge colours (spec §4).
 * Colours are Mantine colour names; shades are picked in the web theme for WCAG AA contrast.
 */
export const applicationStatuses = ['draft', 'submitted', 'under_review', 'approved', 'rejected'] as const;
export type ApplicationStatus = (typeof applicationStatuses)[number];

export const applicationStatusLabel: Record<ApplicationStatus, string> = {
  draft: 'Draft',
  submitted: 'Submitted',
  under_review: 'Under Review',
  approved: 'Approved',
  rejected: 'Rejected',
};

export const applicationStatusColor: Record<
  ApplicationStatus,
  'yellow' | 'blue' | 'orange' | 'green' | 'red'
> = {
  draft: 'yellow',
  submitted: 'blue',
  under_review: 'orange',
  approved: 'green',
  rejected: 'red',
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
