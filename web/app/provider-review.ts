/**
 * The provider's view of the review of one application (issue 13; GET
 * /api/applications/:applicationId/review, domain/api/review.ts `providerReviewSchema`), shared by the
 * dashboard (banner, decision), the section screens and the documents screen (what is read-only).
 * It lives in the shell because several features read it and features never import each other.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProviderReview } from '../../domain/api/review.ts';
import { applicationLockMessage } from '../../domain/review/lock-messages.ts';
import type { SectionKey } from '../../domain/sections/registry.ts';
import { api } from '../api.ts';
import { providerReviewRead, takeEarlyRead } from '../early-reads.ts';

export type { ProviderReview };

export const providerReviewKey = (applicationId: string) =>
  ['applications', applicationId, 'review'] as const;

/** The review state of `applicationId`; `enabled: false` for a draft whose state is known already. */
export function useProviderReview(applicationId: string, enabled = true) {
  return useQuery({
    queryKey: providerReviewKey(applicationId),
    enabled: enabled && applicationId !== '',
    // On /dashboard, web/early.ts may have started it once the applications answered.
    queryFn: () => {
      const path = providerReviewRead(applicationId);
      return takeEarlyRead<ProviderReview>(path) ?? api<ProviderReview>('GET', path);
    },
    retry: false,
  });
}

/** Whether a section screen may be edited now, and what it tells the provider. */
export type SectionLock =
  /** Not known yet: the screen shows its data with the controls disabled and no message. */
  | { kind: 'loading' }
  /** A draft (or the state could not be read: the server still refuses a locked write). */
  | { kind: 'editable' }
  /** Opened again by an information request: editable, with the credentialing team's message. */
  | { kind: 'requested'; message: string }
  | { kind: 'locked'; message: string };

/**
 * The lock of `section` (decision 018 "Locks", the server's rule in server/applications/review-lock.ts):
 * editable while a draft; from `submitted` on read-only except the sections of the open request.
 */
export function useSectionLock(applicationId: string, section: SectionKey): SectionLock {
  const query = useProviderReview(applicationId);
  if (query.isPending) return { kind: 'loading' };
  if (!query.data) return { kind: 'editable' };
  const review = query.data;
  if (review.applicationStatus === 'draft') return { kind: 'editable' };
  const request = review.openRequest;
  if (review.applicationStatus === 'under_review' && request?.sections.includes(section)) {
    return { kind: 'requested', message: request.message };
  }
  return {
    kind: 'locked',
    message: applicationLockMessage(
      review.applicationStatus,
      review.submittedAt ? new Date(review.submittedAt) : null,
    ),
  };
}

/** POST .../information-requests/:requestId/response ('Submit Response', an optional reply). */
export function useSubmitResponse(applicationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ requestId, reply }: { requestId: string; reply: string }) =>
      api<{ applicationStatus: string }>(
        'POST',
        `/api/applications/${encodeURIComponent(applicationId)}/information-requests/${encodeURIComponent(requestId)}/response`,
        reply.trim() ? { reply } : {},
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['applications'] }),
  });
}

/** POST .../appeal ('Request Appeal' of a denial, issue 32 item 6) with the provider's statement. */
export function useRequestAppeal(applicationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (statement: string) =>
      api<null>('POST', `/api/applications/${encodeURIComponent(applicationId)}/appeal`, { statement }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['applications'] }),
  });
}

/** Where a decision letter downloads from (issue 32 item 6): the provider's and staff's alike. */
export function letterUrl(applicationId: string, letterId: string): string {
  return `/api/applications/${encodeURIComponent(applicationId)}/letters/${encodeURIComponent(letterId)}`;
}
