/**
 * 'Change Legal Name' of a credentialed provider (issue 49 item 1): the provider's credential (from GET
 * /api/applications), the name change's state (GET /api/applications/:id/legal-name) and 'Send Name
 * Change' (POST, same path), which the server sends as a credential update.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApplicationList } from '../../../domain/api/applications.ts';
import type {
  LegalNameChangeBody,
  LegalNameStatus,
  SubmitUpdateResult,
} from '../../../domain/api/credential-updates.ts';
import { api } from '../../api.ts';

/** The provider's credential, for the card (only a provider's account page asks). */
export function useAccountCredential(enabled: boolean) {
  return useQuery({
    queryKey: ['applications', 'account-credential'],
    enabled,
    queryFn: async () => (await api<ApplicationList>('GET', '/api/applications')).credential,
  });
}

const legalNameKey = (applicationId: string) => ['applications', applicationId, 'legal-name'] as const;

/** The name on the credential, a change waiting, and the documents a change can cite. */
export function useLegalNameStatus(applicationId: string | null) {
  return useQuery({
    queryKey: legalNameKey(applicationId ?? ''),
    enabled: applicationId !== null,
    queryFn: () => api<LegalNameStatus>('GET', `/api/applications/${applicationId}/legal-name`),
  });
}

/** 'Send Name Change': sent as a credential update; everything about the applications reloads. */
export function useSendLegalNameChange(applicationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LegalNameChangeBody) =>
      api<SubmitUpdateResult>('POST', `/api/applications/${applicationId}/legal-name`, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['applications'] }),
  });
}
