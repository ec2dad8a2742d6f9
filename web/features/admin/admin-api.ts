/**
 * Queries of the admin dashboard (spec §7 "Admin", issue 6). Everything is paged and searched on the
 * server; the browser holds one page and one provider's details at a time. The shapes are the API
 * contract's (domain/api/admin.ts), the same schemas the server validates and serialises with.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AdminStats,
  AuditLog,
  AuditLogFilter,
  AuditLogQuery,
  DocumentList,
  DocumentListQuery,
  ExpiringExportQuery,
  ExpiringList,
  ExpiringListQuery,
  ProviderDetails,
  ProviderDetailsQuery,
  ProviderList,
  ProviderListQuery,
} from '../../../domain/api/admin.ts';
import type { StatusEventState } from '../../../domain/api/integration.ts';
import {
  type AdminNotification,
  type AdminNotificationListQuery,
  type AdminStatusEvent,
  type AdminStatusEventListQuery,
  adminNotificationListSchema,
  adminNotificationSchema,
  adminStatusEventListSchema,
  adminStatusEventSchema,
} from '../../../domain/api/notifications.ts';
import type { ReviewQueue, ReviewQueueQuery } from '../../../domain/api/review.ts';
import type { CompletionStatus } from '../../../domain/completion-status.ts';
import { ApiError, api } from '../../api.ts';
import '../../zod-config.ts';

export type {
  AdminStats,
  AuditEvent,
  AuditLog,
  AuditLogFilter,
  AuditPerson,
  CardDocument,
  DocumentListItem,
  ExpiringListItem,
  PageInfo,
  ProviderCard,
  ProviderDetails,
  SectionValue,
} from '../../../domain/api/admin.ts';
export type { ReviewQueue } from '../../../domain/api/review.ts';

/** Cards and rows per page. */
export const ADMIN_PAGE_SIZE = 20;

function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export function useAdminStats(enabled = true) {
  return useQuery({
    queryKey: ['admin', 'stats'],
    enabled,
    queryFn: () => api<AdminStats>('GET', '/api/admin/stats'),
  });
}

export function useProviderCards(search: string, page: number, enabled = true) {
  return useQuery({
    queryKey: ['admin', 'providers', search, page],
    enabled,
    queryFn: () =>
      api<ProviderList>(
        'GET',
        `/api/admin/providers${query({ search, page, pageSize: ADMIN_PAGE_SIZE } satisfies ProviderListQuery)}`,
      ),
    placeholderData: keepPreviousData,
  });
}

/** One provider's details; each call is an audited view on the server, so nothing is retried or cached. */
export function useProviderDetails(userId: string | null, applicationId: string | undefined) {
  return useQuery({
    queryKey: ['admin', 'provider', userId, applicationId ?? 'current'],
    enabled: Boolean(userId),
    queryFn: () =>
      api<ProviderDetails>(
        'GET',
        `/api/admin/providers/${encodeURIComponent(userId!)}${query({ applicationId } satisfies ProviderDetailsQuery)}`,
      ),
    placeholderData: keepPreviousData,
    retry: false,
    gcTime: 0,
  });
}

export function useAllDocuments(search: string, page: number, enabled: boolean) {
  return useQuery({
    queryKey: ['admin', 'documents', search, page],
    enabled,
    queryFn: () =>
      api<DocumentList>(
        'GET',
        `/api/admin/documents${query({ search, page, pageSize: ADMIN_PAGE_SIZE } satisfies DocumentListQuery)}`,
      ),
    placeholderData: keepPreviousData,
  });
}

/**
 * GET /api/admin/audit-log: one page of the audit log's filter (issue 6; issue 34: provider,
 * actor, action, UTC days), newest first, with the people the filter names (`filterPeople`).
 */
export function useAuditLog(filter: AuditLogFilter, page: number, enabled: boolean) {
  return useQuery({
    queryKey: ['admin', 'audit-log', filter, page],
    enabled,
    queryFn: () =>
      api<AuditLog>(
        'GET',
        `/api/admin/audit-log${query({ ...filter, page, pageSize: ADMIN_PAGE_SIZE } satisfies AuditLogQuery)}`,
      ),
    placeholderData: keepPreviousData,
    // The log grows while the admin works (their own views and downloads): read it fresh.
    staleTime: 0,
    refetchOnMount: 'always',
  });
}

/**
 * Where the browser downloads the audit log's filter as CSV (GET /api/admin/audit-log/export; the
 * session cookie goes with a same-origin link). The query holds ids and days only, no PHI.
 */
export function auditLogExportUrl(filter: AuditLogFilter): string {
  return `/api/admin/audit-log/export${query({ ...filter })}`;
}

/**
 * Completion notifications, newest first (issue 20; GET /api/admin/notifications), optionally of one
 * state; at most 100 (the server's default `limit`). Parsed with the contract's schema.
 * @throws ApiError (through the query's `error`) when the server refuses or cannot be reached
 */
export function useAdminNotifications(status: CompletionStatus | null, enabled: boolean) {
  return useQuery({
    queryKey: ['admin', 'notifications', status],
    enabled,
    queryFn: async () =>
      adminNotificationListSchema.parse(
        await api<unknown>(
          'GET',
          `/api/admin/notifications${query({ status: status ?? undefined } satisfies Partial<AdminNotificationListQuery>)}`,
        ),
      ).notifications,
    placeholderData: keepPreviousData,
    // Deliveries change state on the server while the admin looks: read the list fresh.
    staleTime: 0,
    refetchOnMount: 'always',
  });
}

/**
 * Send a completion notification again (issue 20; POST /api/admin/notifications/:id/resend). Resolves
 * with the notification's new state; refreshes the notifications lists and the audit log.
 * @throws ApiError with the server's message (404 unknown notification, 403 without the permission)
 */
export function useResendNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (notificationId: string): Promise<AdminNotification> =>
      adminNotificationSchema.parse(
        await api<unknown>('POST', `/api/admin/notifications/${encodeURIComponent(notificationId)}/resend`),
      ),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['admin', 'notifications'] }),
        queryClient.invalidateQueries({ queryKey: ['admin', 'audit-log'] }),
      ]),
  });
}

/**
 * `application.status_changed` events, newest first (issue 28; GET /api/admin/status-events),
 * optionally of one state; at most 100 (the server's default `limit`). Parsed with the contract's schema.
 * @throws ApiError (through the query's `error`) when the server refuses or cannot be reached
 */
export function useAdminStatusEvents(status: StatusEventState | null, enabled: boolean) {
  return useQuery({
    queryKey: ['admin', 'status-events', status],
    enabled,
    queryFn: async () =>
      adminStatusEventListSchema.parse(
        await api<unknown>(
          'GET',
          `/api/admin/status-events${query({ status: status ?? undefined } satisfies Partial<AdminStatusEventListQuery>)}`,
        ),
      ).statusEvents,
    placeholderData: keepPreviousData,
    // Deliveries change state on the server while the admin looks: read the list fresh.
    staleTime: 0,
    refetchOnMount: 'always',
  });
}

/**
 * Send a status event again as a new message (issue 28; POST /api/admin/status-events/:id/resend).
 * Resolves with the event's new state; refreshes the status event lists and the audit log.
 * @throws ApiError with the server's message (404 unknown event, 403 without the permission)
 */
export function useResendStatusEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (eventId: string): Promise<AdminStatusEvent> =>
      adminStatusEventSchema.parse(
        await api<unknown>('POST', `/api/admin/status-events/${encodeURIComponent(eventId)}/resend`),
      ),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['admin', 'status-events'] }),
        queryClient.invalidateQueries({ queryKey: ['admin', 'audit-log'] }),
      ]),
  });
}

/**
 * Download a document through the documents route (owner or admin; audited there as
 * 'document.download') and hand it to the browser as a file named `fileName`.
 * @throws ApiError when the server refuses or cannot be reached
 */
export async function downloadDocument(documentId: string, fileName: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`/api/documents/${encodeURIComponent(documentId)}/download`, {
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'network', 'Cannot reach the server. Check your connection and try again.');
  }
  if (!response.ok)
    throw new ApiError(response.status, 'internal', `The download failed (${response.status}).`);
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // Give the browser a moment to start the download before the object URL goes away.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

/** Filters of the 'Review Queue' tab (issue 13): status and 'assigned to me'. */
export interface ReviewQueueFilter {
  status: ReviewQueueQuery['status'];
  assignedToMe: boolean;
}

/**
 * GET /api/admin/review-queue: submitted and under-review applications, oldest submission first, one
 * page of REVIEW_QUEUE_PAGE_SIZE (domain/api/review.ts).
 */
export function useReviewQueue(filter: ReviewQueueFilter, page: number, enabled: boolean) {
  return useQuery({
    queryKey: ['admin', 'review-queue', filter.status, filter.assignedToMe, page],
    enabled,
    queryFn: () =>
      api<ReviewQueue>(
        'GET',
        `/api/admin/review-queue${query({ status: filter.status, assigned: filter.assignedToMe ? 'me' : undefined, page })}`,
      ),
    placeholderData: keepPreviousData,
  });
}

/** The 'Expiring' tab's filter (issue 14): the window and one kind (undefined: all kinds). */
export type ExpiringFilter = ExpiringExportQuery;

/**
 * GET /api/admin/expiring-credentials: one page of credentials of current applications in the
 * filter's window, soonest first (issue 14).
 */
export function useExpiringCredentials(filter: ExpiringFilter, page: number, enabled: boolean) {
  return useQuery({
    queryKey: ['admin', 'expiring-credentials', filter.window, filter.kind, page],
    enabled,
    queryFn: () =>
      api<ExpiringList>(
        'GET',
        `/api/admin/expiring-credentials${query({ ...filter, page, pageSize: ADMIN_PAGE_SIZE } satisfies ExpiringListQuery)}`,
      ),
    placeholderData: keepPreviousData,
  });
}

/**
 * Where the browser downloads the filter as CSV (GET /api/admin/expiring-credentials/export; the
 * session cookie goes with a same-origin link). The query holds the filter only, no PHI.
 */
export function expiringExportUrl(filter: ExpiringFilter): string {
  return `/api/admin/expiring-credentials/export${query({ ...filter })}`;
}
