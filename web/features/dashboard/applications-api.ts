/** Queries and mutations of the provider's applications (spec §7 provider_applications). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  applicationListSchema,
  applicationSchema,
  CreatedApplication,
} from '../../../domain/api/applications.ts';
import type { CycleTransition } from '../../../domain/api/provider-credential.ts';
import { api } from '../../api.ts';

/** An application as the API returns it (domain/api/applications.ts). */
export type Application = z.infer<typeof applicationSchema>;
type ApplicationList = z.infer<typeof applicationListSchema>;

export const applicationsQueryKey = ['applications'] as const;

export function useApplications() {
  return useQuery({
    queryKey: applicationsQueryKey,
    queryFn: async () => (await api<ApplicationList>('GET', '/api/applications')).applications,
  });
}

/**
 * The provider's credential, apart from the cycle in progress (issue 29 item 1). Its key sits under
 * ['applications'], so whatever refreshes the applications refreshes it too.
 */
export function useCredential() {
  return useQuery({
    queryKey: [...applicationsQueryKey, 'credential'],
    queryFn: async () => (await api<ApplicationList>('GET', '/api/applications')).credential,
  });
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
