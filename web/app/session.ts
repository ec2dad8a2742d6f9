/**
 * Authentication state for the web app: `useSession()` reads /api/session, which answers `null` when
 * signed out (a 200, so a visitor's check leaves no failed request in the browser console).
 * The session itself is an HttpOnly cookie the browser sends; no token is kept in browser storage.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { meResponseSchema, SessionResponse } from '../../domain/api/session.ts';
import { api } from '../api.ts';
import { SESSION_READ, takeEarlyRead } from '../early-reads.ts';
import { useHydrated } from './hydration.ts';

/** The signed-in caller, as GET /api/me and /api/session answer (domain/api/session.ts). */
export type Me = z.infer<typeof meResponseSchema>;

export const meQueryKey = ['me'] as const;

/**
 * The session check as a query; main.tsx fetches it with the app, before the first page's code
 * loads, and its first fetch takes the answer of the check web/early.ts started earlier still.
 */
export const sessionQuery = queryOptions({
  queryKey: meQueryKey,
  queryFn: () => takeEarlyRead<SessionResponse>(SESSION_READ) ?? api<SessionResponse>('GET', SESSION_READ),
  staleTime: 30_000,
  retry: 1,
});

export function useSession() {
  return useQuery(sessionQuery);
}

/**
 * The caller for a page the build prerendered signed out (`/`, `/auth`; decision 033): undefined
 * while React hydrates that HTML (the server snapshot), so hydration renders what was prerendered
 * even when the session check has already answered; then, at once, `useSession()`'s answer.
 */
export function usePrerenderedPageSession(): SessionResponse | undefined {
  const hydrated = useHydrated();
  const { data } = useSession();
  return hydrated ? data : undefined;
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<unknown>('POST', '/api/auth/sign-out', {}),
    onSuccess: () => {
      queryClient.setQueryData(meQueryKey, null);
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'me' });
    },
  });
}
