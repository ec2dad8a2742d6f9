/**
 * Credential updates after approval (issue 29 item 4), as the provider's screens read them: whether
 * the approved application takes updates, what is saved but not sent, and the latest update (GET
 * /api/applications/:applicationId/credential-update), and 'Submit Update' (POST, same path). In the
 * shell because the dashboard, the section screens and the documents screen all read it, and
 * features never import each other.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CredentialUpdateStatus, SubmitUpdateResult } from '../../domain/api/credential-updates.ts';
import { api } from '../api.ts';

export type { CredentialUpdateStatus, SubmitUpdateResult };

const path = (applicationId: string) =>
  `/api/applications/${encodeURIComponent(applicationId)}/credential-update`;

export const credentialUpdateKey = (applicationId: string) =>
  ['applications', applicationId, 'credential-update'] as const;

/** The application's credential update state; `enabled: false` where it cannot apply (a draft). */
export function useCredentialUpdate(applicationId: string, enabled = true) {
  return useQuery({
    queryKey: credentialUpdateKey(applicationId),
    enabled: enabled && applicationId !== '',
    queryFn: () => api<CredentialUpdateStatus>('GET', path(applicationId)),
    retry: false,
  });
}

/** 'Submit Update': the saved changes become a new version; everything about the application reloads. */
export function useSubmitUpdate(applicationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<SubmitUpdateResult>('POST', path(applicationId)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['applications'] }),
  });
}
