/** Queries and mutations of the provider's applications (spec §7 provider_applications). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApplicationStatus } from '../../../domain/application-status.ts';
import { api } from '../../api.ts';

export interface Application {
  id: string;
  applicationStatus: ApplicationStatus;
  createdAt: string;
  completeSections: string[];
  progress: number;
  /** Completion notification state (spec §4 button; issue 5), null until completed. */
  completion: {
    status: 'pending' | 'delivered' | 'failed' | 'undelivered';
    requestedAt: string;
    deliveredAt: string | null;
    lastError: string | null;
  } | null;
}

export const applicationsQueryKey = ['applications'] as const;

export function useApplications() {
  return useQuery({
    queryKey: applicationsQueryKey,
    queryFn: async () =>
      (await api<{ applications: Application[] }>('GET', '/api/applications')).applications,
  });
}

export function useApplication(applicationId: string | undefined) {
  return useQuery({
    queryKey: ['application', applicationId],
    enabled: Boolean(applicationId),
    queryFn: () => api<Application>('GET', `/api/applications/${applicationId}`),
  });
}

export function useCreateApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<Application>('POST', '/api/applications', {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: applicationsQueryKey }),
  });
}
