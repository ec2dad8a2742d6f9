/**
 * The admin dashboard's view in its URL (issue 28): the open tab, the search, the page and each tab's
 * filters are search parameters of /admin, so Back from a review page (or a reload, or a shared link)
 * shows the dashboard as it was. Opening a tab or another page adds a history entry; a filter or the
 * search replaces the current one (typing is not a trail of entries) and goes back to page 1.
 *
 * `/admin?tab=review&status=submitted&assigned=me&page=2`. Defaults are left out of the URL; a value
 * that is not valid (an edited URL) reads as its default.
 */
import { useSearchParams } from 'react-router';
import { type AuditAction, auditActions } from '../../../domain/audit-actions.ts';
import {
  credentialKinds,
  DEFAULT_EXPIRING_WINDOW,
  expiringWindows,
} from '../../../domain/credentials/expiring-credentials.ts';
import { ADMIN_TAB_PARAM, type AdminTab, adminTabOf, DEFAULT_ADMIN_TAB } from '../../app/admin-tabs.ts';
import type { ExpiringFilter, ReviewQueueFilter } from './admin-api.ts';

/** Search parameters of /admin besides ADMIN_TAB_PARAM. */
const PARAM = {
  search: 'q',
  page: 'page',
  status: 'status',
  assigned: 'assigned',
  action: 'action',
  window: 'window',
  kind: 'kind',
} as const;

/** The highest page number read from the URL (the server's own limit for the lists). */
const MAX_PAGE = 1_000_000;

/** What the URL of /admin says. */
export interface AdminView {
  tab: AdminTab;
  /** The search box's term as searched (trimmed); '' = none. */
  search: string;
  /** The open tab's page, 1-based. */
  page: number;
  review: ReviewQueueFilter;
  auditAction: AuditAction | null;
  expiring: ExpiringFilter;
}

function pageOf(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 && page <= MAX_PAGE ? page : 1;
}

function oneOf<T extends string>(values: readonly T[], value: string | null): T | undefined {
  return values.find((v) => v === value);
}

/** The view a query string describes. */
export function readAdminView(params: URLSearchParams): AdminView {
  return {
    tab: adminTabOf(params.get(ADMIN_TAB_PARAM)),
    search: (params.get(PARAM.search) ?? '').trim(),
    page: pageOf(params.get(PARAM.page)),
    review: {
      status: oneOf(['submitted', 'under_review'] as const, params.get(PARAM.status)),
      assignedToMe: params.get(PARAM.assigned) === 'me',
    },
    auditAction: oneOf(auditActions, params.get(PARAM.action)) ?? null,
    expiring: {
      window: oneOf(expiringWindows, params.get(PARAM.window)) ?? DEFAULT_EXPIRING_WINDOW,
      kind: oneOf(credentialKinds, params.get(PARAM.kind)),
    },
  };
}

/** Sets `name` to `value`, or removes it for undefined, null, '' or the default. */
function put(params: URLSearchParams, name: string, value: string | null | undefined, fallback?: string) {
  if (value === undefined || value === null || value === '' || value === fallback) params.delete(name);
  else params.set(name, value);
}

/**
 * The dashboard's view and its setters, on the URL of the current page.
 * @returns the view, plus `openTab`, `openPage` (new history entries) and `setSearch`,
 *   `setReviewFilter`, `setAuditAction`, `setExpiringFilter` (replace the entry, back to page 1)
 */
export function useAdminView() {
  const [params, setParams] = useSearchParams();
  const view = readAdminView(params);
  const change = (edit: (next: URLSearchParams) => void, replace: boolean) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        edit(next);
        return next;
      },
      { replace },
    );
  /** A filter changed: the list starts again at page 1. */
  const filter = (edit: (next: URLSearchParams) => void) =>
    change((next) => {
      edit(next);
      next.delete(PARAM.page);
    }, true);
  return {
    view,
    openTab: (tab: string | null) =>
      change((next) => {
        put(next, ADMIN_TAB_PARAM, adminTabOf(tab), DEFAULT_ADMIN_TAB);
        next.delete(PARAM.page);
      }, false),
    openPage: (page: number) => change((next) => put(next, PARAM.page, String(page), '1'), false),
    setSearch: (search: string) => filter((next) => put(next, PARAM.search, search.trim())),
    setReviewFilter: (review: ReviewQueueFilter) =>
      filter((next) => {
        put(next, PARAM.status, review.status);
        put(next, PARAM.assigned, review.assignedToMe ? 'me' : undefined);
      }),
    setAuditAction: (action: string | null) =>
      filter((next) => put(next, PARAM.action, oneOf(auditActions, action))),
    setExpiringFilter: (expiring: ExpiringFilter) =>
      filter((next) => {
        put(next, PARAM.window, expiring.window, DEFAULT_EXPIRING_WINDOW);
        put(next, PARAM.kind, expiring.kind);
      }),
  };
}
