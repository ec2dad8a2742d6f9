/**
 * The admin dashboard's tabs (spec §2 /admin; issue 28): each one's `?tab=` value in the URL and its
 * label, which is also its page name in the document title (web/app/page-titles.ts). Here, in the
 * shell, because the router titles the page and the admin feature renders the tabs.
 */
import { hasPermission, type Permission } from '../../domain/permissions.ts';
import type { AccessRole } from '../../domain/roles.ts';

/** The query parameter of /admin naming its open tab, e.g. `/admin?tab=review`. */
export const ADMIN_TAB_PARAM = 'tab';

/**
 * The tabs in their order on screen; the first shown is open when the URL names none. Each is shown
 * to the roles holding its `permission`, or, when it names a list, any one of them (issue 32,
 * domain/permissions.ts; the server checks the same permissions on the tab's requests). 'Decisions'
 * and 'Committee' are the credentialing committee's (issue 32 items 4 and 5): a Committee Member,
 * who reads only their own meetings (`read:meeting:member`), sees 'Committee' alone.
 */
export const adminTabs = [
  { value: 'users', label: 'Users & Applications', permission: 'read:provider:any' },
  { value: 'review', label: 'Review Queue', permission: 'read:application:any' },
  { value: 'decisions', label: 'Decisions', permission: 'read:application:any' },
  { value: 'committee', label: 'Committee', permission: ['read:meeting:any', 'read:meeting:member'] },
  { value: 'documents', label: 'All Documents', permission: 'read:document:any' },
  { value: 'audit', label: 'Audit Log', permission: 'read:audit:any' },
  { value: 'notifications', label: 'Notifications', permission: 'read:application:any' },
  { value: 'exclusions', label: 'Exclusions', permission: 'read:application:any' },
  { value: 'screening', label: 'Screening Matches', permission: 'read:application:any' },
  { value: 'expiring', label: 'Expiring', permission: 'read:provider:any' },
  // The managers' reports (issue 34): administrators, the medical director and auditors.
  { value: 'reports', label: 'Reports', permission: 'read:report:any' },
  { value: 'staff', label: 'Staff', permission: 'manage:staff:any' },
  { value: 'api-clients', label: 'API Clients', permission: 'manage:api_client:any' },
  // The organization's name, address and letter signer (issue 50 item 7).
  { value: 'settings', label: 'Settings', permission: 'manage:staff:any' },
] as const satisfies readonly {
  value: string;
  label: string;
  permission: Permission | readonly Permission[];
}[];

/**
 * The tabs someone acting with `roles` may open, in screen order: those whose permission (or any one
 * of whose permissions) one of the roles holds.
 */
export function visibleAdminTabs(roles: readonly AccessRole[]): (typeof adminTabs)[number][] {
  return adminTabs.filter((tab) => {
    const needed: readonly Permission[] =
      typeof tab.permission === 'string' ? [tab.permission] : tab.permission;
    return needed.some((permission) => hasPermission(roles, permission));
  });
}

/** One tab's `?tab=` value. */
export type AdminTab = (typeof adminTabs)[number]['value'];

/** The tab open when the URL names none, or names one that does not exist. */
export const DEFAULT_ADMIN_TAB: AdminTab = 'users';

/** The tab a `?tab=` value names; DEFAULT_ADMIN_TAB for null or an unknown value. */
export function adminTabOf(value: string | null): AdminTab {
  return adminTabs.find((tab) => tab.value === value)?.value ?? DEFAULT_ADMIN_TAB;
}

/**
 * The search term lives in the dashboard's history state, never in its URL: a name, an NPI or a
 * license number typed there must not reach the address bar, bookmarks, server logs or a Referer
 * (no PHI in URLs). Back and a reload restore history state like the URL.
 */
export interface AdminHistoryState {
  adminSearch: string;
}

/** The dashboard's search term kept in `state` (history state of /admin), '' when none. */
export function adminSearchOf(state: unknown): string {
  const search = (state as Partial<AdminHistoryState> | null)?.adminSearch;
  return typeof search === 'string' ? search.trim() : '';
}

/**
 * The history state of a link from the dashboard to a review page: the dashboard's URL (tab and
 * filters) and its search, so the review page's 'Back to Admin Dashboard' returns to it (issue 28).
 */
export interface FromAdminState extends AdminHistoryState {
  adminUrl: string;
}

/** The state for a link leaving the dashboard at `location`. */
export function fromAdminState(location: {
  pathname: string;
  search: string;
  state: unknown;
}): FromAdminState {
  return { adminUrl: `${location.pathname}${location.search}`, adminSearch: adminSearchOf(location.state) };
}

/**
 * Where 'Back to Admin Dashboard' leads: the dashboard as the link's state left it (URL and search),
 * else `/admin`.
 */
export function adminReturn(state: unknown): { to: string; state: AdminHistoryState } {
  const adminUrl = (state as Partial<FromAdminState> | null)?.adminUrl;
  // Only a dashboard URL of this app: the state is ours, but history state outlives deployments.
  const to = typeof adminUrl === 'string' && /^\/admin(\?|$)/.test(adminUrl) ? adminUrl : '/admin';
  return { to, state: { adminSearch: adminSearchOf(state) } };
}
