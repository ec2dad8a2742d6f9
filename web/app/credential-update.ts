/**
 * Credential updates after approval (issue 29 item 4), as the provider's screens read them: whether
 * the approved application takes updates, what is saved but not sent, and the latest update (GET
 * /api/applications/:applicationId/credential-update), 'Submit Update' (POST, same path), and the
 * update mode of a section or documents screen (`?update=1`). In the shell because the dashboard,
 * the section screens and the documents screen all read it, and features never import each other.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import type { CredentialUpdateStatus, SubmitUpdateResult } from '../../domain/api/credential-updates.ts';
import { isCredentialUpdateSection } from '../../domain/credentials/credential-updates.ts';
import type { SectionKey } from '../../domain/sections/registry.ts';
import { api } from '../api.ts';
import { credentialUpdateRead, takeEarlyRead } from '../early-reads.ts';
import { type SectionLock, useSectionLock } from './provider-review.ts';

export type { CredentialUpdateStatus, SubmitUpdateResult };

export const credentialUpdateKey = (applicationId: string) =>
  ['applications', applicationId, 'credential-update'] as const;

/** The application's credential update state; `enabled: false` where it cannot apply (a draft). */
export function useCredentialUpdate(applicationId: string, enabled = true) {
  return useQuery({
    queryKey: credentialUpdateKey(applicationId),
    enabled: enabled && applicationId !== '',
    // On /dashboard, web/early.ts may have started it once the applications answered.
    queryFn: () => {
      const path = credentialUpdateRead(applicationId);
      return takeEarlyRead<CredentialUpdateStatus>(path) ?? api<CredentialUpdateStatus>('GET', path);
    },
    retry: false,
  });
}

/** 'Submit Update': the saved changes become a new version; everything about the application reloads. */
export function useSubmitUpdate(applicationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<SubmitUpdateResult>('POST', credentialUpdateRead(applicationId)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['applications'] }),
  });
}

/** The search parameter of a screen opened in update mode ('Update Credential', issue 29 item 4). */
export const UPDATE_MODE_PARAM = 'update';

/** `screenPath` opened in update mode: `/professional-licenses/<id>?update=1`. */
export function credentialUpdateHref(screenPath: string): string {
  return `${screenPath}?${UPDATE_MODE_PARAM}=1`;
}

/** A screen that may take a credential update: whether update mode is on, and how to turn it on. */
export interface CredentialUpdateMode {
  /** `?update=1` is in the URL: the screen is editable, with the explanation and 'Submit Update'. */
  active: boolean;
  /** Turns update mode on (replaces the history entry: Back still leaves the screen). */
  start: () => void;
}

/**
 * What the provider may do on the screen of `section` (a section key, or `documents`), and whether it
 * is in credential update mode (issue 29 item 4, follow-up: the documents screen too). The lock is
 * useSectionLock's, except on a screen of the approved application whose credential is current
 * (domain `credentialUpdateSections`): there `updateMode` is set instead of the read-only dead end,
 * and with `?update=1` the lock is `editable`, as the server's lock (review-lock.ts) allows the same.
 * While it is not known yet whether updates are open, the lock is `loading` and `updateMode` null, so
 * no read-only notice flashes first. For documents, update mode allows uploads only: the server
 * refuses removals, and the screen must not offer them.
 * @returns `updateMode` null wherever a credential update does not apply (the lock stands)
 */
export function useSectionEditing(
  applicationId: string,
  section: SectionKey,
): { lock: SectionLock; updateMode: CredentialUpdateMode | null } {
  const sectionLock = useSectionLock(applicationId, section);
  const [params, setParams] = useSearchParams();
  const applies = sectionLock.kind === 'locked' && isCredentialUpdateSection(section);
  const status = useCredentialUpdate(applicationId, applies);
  if (applies && status.isPending) return { lock: { kind: 'loading' }, updateMode: null };
  if (!applies || !status.data?.allowed) return { lock: sectionLock, updateMode: null };
  const active = params.get(UPDATE_MODE_PARAM) === '1';
  return {
    lock: active ? { kind: 'editable' } : sectionLock,
    updateMode: { active, start: () => setParams({ [UPDATE_MODE_PARAM]: '1' }, { replace: true }) },
  };
}
