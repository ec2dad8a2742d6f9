/** Queries and mutations of the provider's applications (spec §7 provider_applications). */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  applicationListSchema,
  applicationSchema,
  CreatedApplication,
} from '../../../domain/api/applications.ts';
import type { CycleTransition } from '../../../domain/api/provider-credential.ts';
import { api } from '../../api.ts';
import { APPLICATIONS_READ, takeEarlyRead } from '../../early-reads.ts';

/** An application as the API returns it (domain/api/applications.ts). */
export type Application = z.infer<typeof applicationSchema>;
/**
 * How long a read started before its page rendered stays fresh (ms): the page's first render uses
 * it instead of reading again. Saves invalidate it at once, as before.
 */
export const PREFETCH_FRESH_MS = 2_000;

/** GET /api/applications' body: the provider's applications and their credential. */
export type ApplicationList = z.infer<typeof applicationListSchema>;

export const applicationsQueryKey = ['applications'] as const;

/**
 * GET /api/applications, read once for both of its parts (`useApplications`, `useCredential`). On
 * /dashboard, web/early.ts starts it as soon as the session shows a provider, before the app's code
 * has loaded, and the first fetch takes that answer (decision 033).
 */
export const applicationListQuery = queryOptions({
  queryKey: applicationsQueryKey,
  queryFn: () =>
    takeEarlyRead<ApplicationList>(APPLICATIONS_READ) ?? api<ApplicationList>('GET', APPLICATIONS_READ),
  staleTime: PREFETCH_FRESH_MS,
});

/** The provider's applications. */
export function useApplications() {
  return useQuery({ ...applicationListQuery, select: (list) => list.applications });
}

/** The drafts with work-history gaps to explain (issue 51 item 6), from the same read. */
export function useWorkHistoryGaps() {
  return useQuery({ ...applicationListQuery, select: (list) => list.workHistoryGaps });
}

/**
 * The provider's credential, apart from the cycle in progress (issue 29 item 1): the same read as
 * the applications, so whatever refreshes the applications refreshes it too.
 */
export function useCredential() {
  return useQuery({ ...applicationListQuery, select: (list) => list.credential });
}

/** 'Withdraw' of the provider's draft (issue 29 item 2): the credential is untouched. */
export function useWithdrawApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (applicationId: string) =>
      api<CycleTransition>('POST', `/api/applications/${applicationId}/withdraw`, {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: applicationsQueryKey }),
  });
}

export function useApplication(applicationId: string | undefined) {
  return useQuery({
    queryKey: ['application', applicationId],
    enabled: Boolean(applicationId),
    queryFn: () => api<Application>('GET', `/api/applications/${applicationId}`),
  });
}

/**
 * 'Start New Application' / 'Start Recredentialing': the new draft and what was copied into it from
 * the most recent application (issue 14; null when it starts empty).
 */
export function useCreateApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<CreatedApplication>('POST', '/api/applications', {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: applicationsQueryKey }),
  });
}
