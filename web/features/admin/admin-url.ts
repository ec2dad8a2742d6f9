/**
 * The admin dashboard's view in its URL (issue 28): the open tab, the page and each tab's filters are
 * search parameters of /admin, so Back from a review page (or a reload, or a shared link) shows the
 * dashboard as it was. The search term is kept in the entry's history state instead (Back and reload
 * restore it too), so a name, NPI or license number never lands in a URL (`AdminHistoryState`).
 * Opening a tab or another page adds a history entry; a filter or the search replaces the current
 * one (typing is not a trail of entries) and goes back to page 1.
 *
 * `/admin?tab=review&status=submitted&assigned=me&page=2`. Defaults are left out of the URL; a value
 * that is not valid (an edited URL) reads as its default.
 *
 * The 'Audit Log' filter (issue 34) is in the URL too: `action`, `from`/`to` (`YYYY-MM-DD`) and the
 * provider and actor as user ids only (`subject`, `actor`), never a name or email. An id is an opaque
 * account key, not PHI, and it lets a reload, Back or a shared link show the same filter and the
 * same 'Export CSV' link; the names the controls show come from the server (`filterPeople`).
 *
 * The 'Reports' filter (issue 34, decision 031) has its own names, so the audit log's days (any span)
 * never become a report's range (at most 36 months): `reportFrom`/`reportTo` (`YYYY-MM-DD`, both or
 * neither; neither = the server's last 12 months) and `specialist` (a staff member's user id).
 */
import { useRef } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import {
  type AuditLogFilter,
  auditLogExportQuerySchema,
  auditLogFilterShape,
} from '../../../domain/api/admin.ts';
import { type ReportQuery, reportQuerySchema } from '../../../domain/api/reports.ts';
import { auditActions } from '../../../domain/audit-actions.ts';
import {
  credentialKinds,
  DEFAULT_EXPIRING_WINDOW,
  expiringWindows,
} from '../../../domain/credentials/expiring-credentials.ts';
import {
  ADMIN_TAB_PARAM,
  type AdminHistoryState,
  type AdminTab,
  adminSearchOf,
  adminTabOf,
  DEFAULT_ADMIN_TAB,
} from '../../app/admin-tabs.ts';
import type { ExpiringFilter, ReviewQueueFilter } from './admin-api.ts';

/** Search parameters of /admin besides ADMIN_TAB_PARAM. */
const PARAM = {
  page: 'page',
  status: 'status',
  assigned: 'assigned',
  action: 'action',
  subject: 'subject',
  actor: 'actor',
  from: 'from',
  to: 'to',
  window: 'window',
  kind: 'kind',
  reportFrom: 'reportFrom',
  reportTo: 'reportTo',
  specialist: 'specialist',
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
  /** The 'Audit Log' filter (ids and days only); `{}` = every event. */
  audit: AuditLogFilter;
  expiring: ExpiringFilter;
  /** The 'Reports' filter: a range of UTC days and a specialist; `{}` = the last 12 months, everyone. */
  reports: ReportQuery;
}

function pageOf(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 && page <= MAX_PAGE ? page : 1;
}

function oneOf<T extends string>(values: readonly T[], value: string | null): T | undefined {
  return values.find((v) => v === value);
}

/**
 * The audit log's filter in `params`, checked by the server's own schema: each value that is not
 * valid alone (an edited URL) is dropped, and a `from` after `to` drops both.
 */
function auditFilterOf(params: URLSearchParams): AuditLogFilter {
  const raw = {
    action: params.get(PARAM.action) ?? undefined,
    subjectUserId: params.get(PARAM.subject) ?? undefined,
    actorUserId: params.get(PARAM.actor) ?? undefined,
    from: params.get(PARAM.from) ?? undefined,
    to: params.get(PARAM.to) ?? undefined,
  };
  const shape = auditLogFilterShape;
  const valid = Object.fromEntries(
    Object.entries(raw).filter(([key, value]) => shape[key as keyof typeof shape].safeParse(value).success),
  );
  const parsed = auditLogExportQuerySchema.safeParse(valid);
  return parsed.success ? parsed.data : { ...valid, from: undefined, to: undefined };
}

/**
 * The reports' filter in `params`, checked by the server's own schema: a specialist that is not a
 * plausible id is dropped, and so is a range the server would refuse (one end only, from after to,
 * over 36 months, a day that is not one).
 */
function reportFilterOf(params: URLSearchParams): ReportQuery {
  const specialist = params.get(PARAM.specialist) ?? undefined;
  const range = {
    from: params.get(PARAM.reportFrom) ?? undefined,
    to: params.get(PARAM.reportTo) ?? undefined,
  };
  const parsed = reportQuerySchema.safeParse({ ...range, specialist });
  if (parsed.success) return parsed.data;
  const alone = reportQuerySchema.safeParse({ specialist });
  return alone.success ? alone.data : {};
}

/** The view a query string and the entry's history state describe. */
export function readAdminView(params: URLSearchParams, state: unknown): AdminView {
  return {
    tab: adminTabOf(params.get(ADMIN_TAB_PARAM)),
    search: adminSearchOf(state),
    page: pageOf(params.get(PARAM.page)),
    review: {
      status: oneOf(['submitted', 'under_review'] as const, params.get(PARAM.status)),
      assignedToMe: params.get(PARAM.assigned) === 'me',
    },
    audit: auditFilterOf(params),
    expiring: {
      window: oneOf(expiringWindows, params.get(PARAM.window)) ?? DEFAULT_EXPIRING_WINDOW,
      kind: oneOf(credentialKinds, params.get(PARAM.kind)),
    },
    reports: reportFilterOf(params),
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
 *   `setReviewFilter`, `setAuditFilter`, `setExpiringFilter`, `setReportFilter` (replace the entry,
 *   back to page 1)
 */
export function useAdminView() {
  const [params] = useSearchParams();
  const { state } = useLocation();
  const navigate = useNavigate();
  const view = readAdminView(params, state);
  // The latest search, for setters called from an older render (the search box's debounced write):
  // React Router's own setter would start from the params of the render that created it, and undo
  // a filter chosen in between.
  const latestSearch = useRef(view.search);
  latestSearch.current = view.search;
  const change = (edit: (next: URLSearchParams) => void, replace: boolean, search?: string) => {
    const historyState: AdminHistoryState = { adminSearch: search ?? latestSearch.current };
    const next = new URLSearchParams(window.location.search);
    edit(next);
    const query = next.toString();
    // A click's change renders at once (flushSync): the router renders navigations in a transition,
    // and a checkbox or select controlled by the URL would otherwise show its old value meanwhile.
    // The search box's debounced write comes from an effect, where flushing is not allowed.
    navigate(
      { search: query ? `?${query}` : '' },
      { replace, state: historyState, flushSync: search === undefined },
    );
  };
  /** A filter (or the search) changed: the list starts again at page 1. */
  const filter = (edit: (next: URLSearchParams) => void, search?: string) =>
    change(
      (next) => {
        edit(next);
        next.delete(PARAM.page);
      },
      true,
      search,
    );
  return {
    view,
    openTab: (tab: string | null) =>
      change((next) => {
        put(next, ADMIN_TAB_PARAM, adminTabOf(tab), DEFAULT_ADMIN_TAB);
        next.delete(PARAM.page);
      }, false),
    openPage: (page: number) => change((next) => put(next, PARAM.page, String(page), '1'), false),
    setSearch: (search: string) => filter(() => {}, search.trim()),
    setReviewFilter: (review: ReviewQueueFilter) =>
      filter((next) => {
        put(next, PARAM.status, review.status);
        put(next, PARAM.assigned, review.assignedToMe ? 'me' : undefined);
      }),
    setAuditFilter: (audit: AuditLogFilter) =>
      filter((next) => {
        put(next, PARAM.action, oneOf(auditActions, audit.action ?? null));
        put(next, PARAM.subject, audit.subjectUserId);
        put(next, PARAM.actor, audit.actorUserId);
        put(next, PARAM.from, audit.from);
        put(next, PARAM.to, audit.to);
      }),
    setExpiringFilter: (expiring: ExpiringFilter) =>
      filter((next) => {
        put(next, PARAM.window, expiring.window, DEFAULT_EXPIRING_WINDOW);
        put(next, PARAM.kind, expiring.kind);
      }),
    setReportFilter: (reports: ReportQuery) =>
      filter((next) => {
        put(next, PARAM.reportFrom, reports.from);
        put(next, PARAM.reportTo, reports.to);
        put(next, PARAM.specialist, reports.specialist);
      }),
  };
}
