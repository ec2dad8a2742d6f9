/**
 * Paths the shell and several features link to (features never import each other, so they share
 * these through the shell rather than through each other's modules).
 */

import { isStaff } from '../../domain/roles.ts';
import type { Me } from './session.ts';

/** The query parameter of /auth naming its open tab: `?tab=sign-up` opens 'Sign Up' (issue 28). */
export const AUTH_TAB_PARAM = 'tab';

/** The tabs of /auth: 'Sign In' (the default) and 'Sign Up'. */
export type AuthTab = 'sign-in' | 'sign-up';

/** /auth with its 'Sign Up' tab open: where 'Get Started' and 'Start Application' lead. */
export const SIGN_UP_PATH = `/auth?${AUTH_TAB_PARAM}=sign-up`;

/** The account page: the second factor's status, 'Set up' and 'Turn off' (issue 16). */
export const ACCOUNT_PATH = '/account';

/** The second factor's set-up page (issue 16): password, QR code and key, then backup codes. */
export const TWO_FACTOR_SETUP_PATH = '/account/two-factor';

/**
 * An application's review page for administrators (issue 13): the snapshot, the checklist, the
 * timeline and the actions. Linked from the Review Queue and the provider cards.
 */
export const APPLICATION_REVIEW_PATH = '/admin/applications/:applicationId';

/** The review page of one application, e.g. `/admin/applications/0b6c…`. */
export function reviewPath(applicationId: string): string {
  return `/admin/applications/${encodeURIComponent(applicationId)}`;
}

/**
 * A credentialing committee meeting's page (issue 32 item 5): its members, quorum and agenda, and for
 * those who manage meetings the agenda's order, recusals, 'Record Decision' and 'Close Meeting'.
 * Linked from the admin 'Committee' and 'Decisions' tabs.
 */
export const MEETING_PATH = '/admin/meetings/:meetingId';

/** The page of one committee meeting, e.g. `/admin/meetings/4f1a…`. */
export function meetingPath(meetingId: string): string {
  return `/admin/meetings/${encodeURIComponent(meetingId)}`;
}

/**
 * Where a person's pages start: '/admin' for staff (administrators, spec §2, and every staff role of
 * issue 32), '/dashboard' for providers.
 */
export function roleHomePath(roles: Me['roles']): string {
  return isStaff(roles) ? '/admin' : '/dashboard';
}

/**
 * Where a signed-in caller belongs now: the set-up page while the session says a second factor is
 * required (administrators before enrolment, issue 16), else their role's home.
 */
export function homePathOf(me: Pick<Me, 'roles' | 'twoFactorRequired'>): string {
  return me.twoFactorRequired ? TWO_FACTOR_SETUP_PATH : roleHomePath(me.roles);
}
