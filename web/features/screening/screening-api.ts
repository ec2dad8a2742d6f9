/**
 * Queries and actions of exclusion screening for administrators (issue 30 items 1, 2, 4, 5): the
 * sources and staged imports ('Exclusions' tab), 'Import' (upload with progress), 'Apply' and
 * 'Discard', and the 'Screening Matches' queue with its decisions. Shapes are the API contract's
 * (domain/api/screening.ts); the answers are parsed with its schemas, the ones the server serialises
 * with. Every function throws (through the query's or mutation's `error`) an ApiError carrying the
 * server's message when the server refuses or cannot be reached.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type ApplyImportBody,
  applyImportResultSchema,
  type ExclusionsOverview,
  exclusionsOverviewSchema,
  type FindingDecisionBody,
  type ScreeningFinding,
  type StagedImport,
  screeningQueueSchema,
  stagedImportSchema,
} from '../../../domain/api/screening.ts';
import { api, uploadWithProgress } from '../../api.ts';
import '../../zod-config.ts';

export type {
  ApplyImportResult,
  ExclusionSourceStatus,
  ScreeningFinding,
  StagedImport,
} from '../../../domain/api/screening.ts';

const overviewKey = ['admin', 'exclusions'] as const;
const queueKey = ['admin', 'screening-matches'] as const;
const importPath = (importId: number) => `/api/admin/exclusions/imports/${encodeURIComponent(importId)}`;

/**
 * GET /api/admin/exclusions: every source (list size, last import, staleness) and the staged imports
 * not yet applied. Read fresh each time the tab opens: imports and the monthly job change it.
 */
export function useExclusionsOverview(enabled: boolean) {
  return useQuery({
    queryKey: overviewKey,
    enabled,
    queryFn: async (): Promise<ExclusionsOverview> =>
      exclusionsOverviewSchema.parse(await api<unknown>('GET', '/api/admin/exclusions')),
    staleTime: 0,
    refetchOnMount: 'always',
  });
}

/**
 * 'Import File': POST /api/admin/exclusions/imports with the file as multipart `file`, reporting upload
 * progress (0-100). Resolves with the staged import (nothing is applied yet), which is added to the
 * cached overview at once and read again from the server.
 */
export function useStageImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ file, onProgress }: { file: File; onProgress: (percent: number) => void }) => {
      const form = new FormData();
      form.append('file', file, file.name);
      return stagedImportSchema.parse(
        await uploadWithProgress<unknown>('/api/admin/exclusions/imports', form, onProgress),
      );
    },
    onSuccess: (staged: StagedImport) =>
      queryClient.setQueryData<ExclusionsOverview>(overviewKey, (overview) =>
        overview
          ? { ...overview, staged: [staged, ...overview.staged.filter((s) => s.id !== staged.id)] }
          : overview,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: overviewKey }),
  });
}

/**
 * 'Apply': POST .../imports/:id/apply, with the reason when the staged import `needsReason`. Resolves
 * with what changed and what the screening after it found. Everything of the admin's is read again
 * (sources, queue, review pages, audit log): an apply screens every credentialed provider.
 */
export function useApplyImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ importId, body }: { importId: number; body: ApplyImportBody }) =>
      applyImportResultSchema.parse(await api<unknown>('POST', `${importPath(importId)}/apply`, body)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}

/** 'Discard': DELETE .../imports/:id; the source's list is unchanged. */
export function useDiscardImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (importId: number) => api<void>('DELETE', importPath(importId)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: overviewKey }),
  });
}

/**
 * GET /api/admin/screening-matches: the open possible matches and the pending changes, each with the
 * provider's and the list row's fields side by side.
 */
export function useScreeningQueue(enabled: boolean) {
  return useQuery({
    queryKey: queueKey,
    enabled,
    queryFn: async (): Promise<ScreeningFinding[]> =>
      screeningQueueSchema.parse(await api<unknown>('GET', '/api/admin/screening-matches')).findings,
    staleTime: 0,
    refetchOnMount: 'always',
  });
}

/**
 * 'Confirm Match', 'Not the Same Person' or 'Accept Change': POST .../:id/decision {decision, reason}.
 * On success the finding leaves the cached queue at once. Whatever the outcome (a 409 when another
 * administrator decided first) the queue, review pages and audit log are read again.
 */
export function useFindingDecision() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ findingId, body }: { findingId: string; body: FindingDecisionBody }) =>
      api<unknown>('POST', `/api/admin/screening-matches/${encodeURIComponent(findingId)}/decision`, body),
    onSuccess: (_answer, { findingId }) =>
      queryClient.setQueryData<ScreeningFinding[]>(queueKey, (findings) =>
        findings?.filter((f) => f.id !== findingId),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
