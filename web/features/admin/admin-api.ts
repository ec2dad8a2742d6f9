/**
 * Queries of the admin dashboard (spec §7 "Admin", issue 6). Everything is paged and searched on the
 * server; the browser holds one page and one provider's details at a time. Shapes mirror
 * server/admin/admin.routes.ts.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ApplicationStatus } from '../../../domain/application-status.ts';
import type { Role } from '../../../domain/roles.ts';
import type { DocumentType } from '../../../domain/sections/documents.ts';
import type { SectionKey } from '../../../domain/sections/registry.ts';
import { ApiError, api } from '../../api.ts';

/** Cards and rows per page. */
export const ADMIN_PAGE_SIZE = 20;

export interface PageInfo {
  total: number;
  /** `total` is the server's count cap and more rows match ("10,000+"). */
  totalCapped: boolean;
  page: number;
  pageSize: number;
}

export interface AdminStats {
  totalUsers: number;
  totalApplications: number;
  totalDocuments: number;
}

export interface CardDocument {
  id: string;
  documentName: string;
  documentType: DocumentType;
  /** Bytes. */
  fileSize: number;
  mimeType: string;
}

export interface ProviderCard {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  role: Role;
  joinedAt: string;
  currentApplication: { id: string; applicationStatus: ApplicationStatus; createdAt: string } | null;
  applicationCount: number;
  documentCount: number;
  documents: CardDocument[];
}

export type SectionValue = string | number | boolean | null;

export interface ProviderDetails {
  profile: {
    userId: string;
    firstName: string;
    lastName: string;
    email: string;
    role: Role;
    joinedAt: string;
  };
  applications: {
    id: string;
    applicationStatus: ApplicationStatus;
    createdAt: string;
    completeSections: string[];
    progress: number;
  }[];
  selectedApplicationId: string | null;
  sections: { key: SectionKey; title: string; rows: ({ id: string } & Record<string, SectionValue>)[] }[];
}

export interface DocumentListItem extends CardDocument {
  applicationId: string;
  uploadedAt: string;
  owner: { userId: string; firstName: string; lastName: string; email: string } | null;
}

export interface AuditPerson {
  userId: string;
  name: string;
  email: string;
}

export interface AuditEvent {
  id: number;
  occurredAt: string;
  action: string;
  actor: AuditPerson | null;
  subject: AuditPerson | null;
  resourceType: string | null;
  resourceId: string | null;
  ipAddress: string | null;
  details: Record<string, SectionValue> | null;
}

function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export function useAdminStats() {
  return useQuery({
    queryKey: ['admin', 'stats'],
    queryFn: () => api<AdminStats>('GET', '/api/admin/stats'),
  });
}

export function useProviderCards(search: string, page: number) {
  return useQuery({
    queryKey: ['admin', 'providers', search, page],
    queryFn: () =>
      api<PageInfo & { providers: ProviderCard[] }>(
        'GET',
        `/api/admin/providers${query({ search, page, pageSize: ADMIN_PAGE_SIZE })}`,
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
        `/api/admin/providers/${encodeURIComponent(userId!)}${query({ applicationId })}`,
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
      api<PageInfo & { documents: DocumentListItem[] }>(
        'GET',
        `/api/admin/documents${query({ search, page, pageSize: ADMIN_PAGE_SIZE })}`,
      ),
    placeholderData: keepPreviousData,
  });
}

export function useAuditLog(action: string | null, page: number, enabled: boolean) {
  return useQuery({
    queryKey: ['admin', 'audit-log', action, page],
    enabled,
    queryFn: () =>
      api<PageInfo & { events: AuditEvent[]; actions: string[] }>(
        'GET',
        `/api/admin/audit-log${query({ action: action ?? undefined, page, pageSize: ADMIN_PAGE_SIZE })}`,
      ),
    placeholderData: keepPreviousData,
    // The log grows while the admin works (their own views and downloads): read it fresh.
    staleTime: 0,
    refetchOnMount: 'always',
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
