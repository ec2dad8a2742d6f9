import { Anchor } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { fromAdminState } from '../../app/admin-tabs.ts';
import { reviewPath } from '../../app/paths.ts';

/**
 * A provider's name linking to the file's review page; Back (and the page's 'Back to Admin
 * Dashboard') returns to the 'Reports' tab with its filter (issue 28's history state).
 */
export function ReviewLink({ applicationId, providerName }: { applicationId: string; providerName: string }) {
  const location = useLocation();
  return (
    <Anchor component={Link} to={reviewPath(applicationId)} state={fromAdminState(location)} size="sm">
      {providerName || 'Provider without a profile'}
    </Anchor>
  );
}
