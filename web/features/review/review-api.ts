/**
 * Queries and actions of the review page (issue 13, decision 018): the reviewer's view of one
 * application, one version of its snapshot, the transitions and the checklist outcomes. Shapes are the
 * API contract's (domain/api/review.ts); each view is an audited read on the server, so nothing is
 * refetched behind the reviewer's back on focus.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ReviewSignature } from '../../../domain/api/committee.ts';
import type { NppesCheck } from '../../../domain/api/nppes.ts';
import type {
  AdminReview,
  applicationVersionSchema,
  EvidenceDto,
  RequestInformationBody,
  VerificationItemDto,
  VerificationUpdate,
} from '../../../domain/api/review.ts';
import { api, uploadWithProgress } from '../../api.ts';

export type ApplicationVersion = z.infer<typeof applicationVersionSchema>;
export type { AdminReview, EvidenceDto, NppesCheck, VerificationItemDto };

const base = (applicationId: string) => `/api/admin/applications/${encodeURIComponent(applicationId)}`;
const reviewKey = (applicationId: string) => ['admin', 'review', applicationId] as const;

/** GET /api/admin/applications/:applicationId/review. 404 for an unknown id (not retried). */
/** 'Download File Summary' (issue 33 item 1): the server's tagged PDF of the file; audited there. */
export function fileSummaryUrl(applicationId: string): string {
  return `/api/admin/applications/${encodeURIComponent(applicationId)}/file-summary.pdf`;
}

export function useAdminReview(applicationId: string) {
  return useQuery({
    queryKey: reviewKey(applicationId),
    queryFn: () => api<AdminReview>('GET', `${base(applicationId)}/review`),
    retry: false,
    refetchOnWindowFocus: false,
  });
}

/** GET .../versions/:version: the snapshot and its field-by-field changes from the previous version. */
export function useApplicationVersion(applicationId: string, version: number | undefined) {
  return useQuery({
    queryKey: [...reviewKey(applicationId), 'version', version],
    enabled: version !== undefined,
    queryFn: () => api<ApplicationVersion>('GET', `${base(applicationId)}/versions/${version}`),
    placeholderData: keepPreviousData,
    retry: false,
    refetchOnWindowFocus: false,
    // A version never changes once stored (decision 018).
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * One step of the review; the review (and the admin lists) reload after it. The state machine's
 * transitions, and the routing of issue 32 item 4 ('Send for Decision', 'Send to Committee').
 */
export type Transition =
  | { action: 'start_review' }
  | { action: 'request_information'; body: RequestInformationBody }
  | { action: 'approve'; signature: ReviewSignature }
  | { action: 'send_for_decision' }
  | { action: 'send_to_committee'; note: string };

const transitionPath: Record<Transition['action'], string> = {
  start_review: 'start-review',
  request_information: 'request-information',
  approve: 'approve',
  send_for_decision: 'send-for-decision',
  send_to_committee: 'send-to-committee',
};

function transitionBody(t: Transition): unknown {
  if (t.action === 'request_information') return t.body;
  if (t.action === 'send_to_committee') return { note: t.note };
  if (t.action === 'approve') return t.signature;
  return undefined;
}

/** POST .../start-review | request-information | approve | send-for-decision | send-to-committee. Errors are the server's (409 text). */
export function useTransition(applicationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (t: Transition) =>
      api<unknown>('POST', `${base(applicationId)}/${transitionPath[t.action]}`, transitionBody(t)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}

/** PATCH .../verification-items/:itemId: 'Verify', a discrepancy or a waiver. */
export function useUpdateVerification(applicationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ itemId, update }: { itemId: string; update: VerificationUpdate }) =>
      api<VerificationItemDto>(
        'PATCH',
        `${base(applicationId)}/verification-items/${encodeURIComponent(itemId)}`,
        update,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: reviewKey(applicationId), exact: true }),
  });
}

/**
 * POST .../verification-items/:itemId/evidence with one file (multipart), reporting `onProgress`
 * (percent of the body sent, 0-100). Errors carry the server's message (415 type, 413 size, 409 not
 * under review, 429 too many uploads, 507 storage low).
 */
export function useAttachEvidence(applicationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      itemId,
      file,
      onProgress,
    }: {
      itemId: string;
      file: File;
      onProgress: (p: number) => void;
    }) => {
      const form = new FormData();
      form.append('file', file, file.name);
      return uploadWithProgress<EvidenceDto>(
        `${base(applicationId)}/verification-items/${encodeURIComponent(itemId)}/evidence`,
        form,
        onProgress,
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: reviewKey(applicationId), exact: true }),
  });
}

/** DELETE .../evidence/:evidenceId. */
export function useRemoveEvidence(applicationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (evidenceId: string) =>
      api<void>('DELETE', `${base(applicationId)}/evidence/${encodeURIComponent(evidenceId)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: reviewKey(applicationId), exact: true }),
  });
}

/** POST .../verification-items/:itemId/nppes ('Check NPPES', issue 15). */
export function useCheckNppes(applicationId: string) {
  return useMutation({
    mutationFn: (itemId: string) =>
      api<NppesCheck>(
        'POST',
        `${base(applicationId)}/verification-items/${encodeURIComponent(itemId)}/nppes`,
        {},
      ),
  });
}
