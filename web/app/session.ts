/**
 * Authentication state for the web app: `useSession()` reads /api/session, which answers `null` when
 * signed out (a 200, so a visitor's check leaves no failed request in the browser console).
 * The session itself is an HttpOnly cookie the browser sends; no token is kept in browser storage.
 */
import {
  type Query,
  type QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { z } from 'zod';
import type { meResponseSchema, SessionResponse } from '../../domain/api/session.ts';
import { api } from '../api.ts';
import { SESSION_READ, takeEarlyRead } from '../early-reads.ts';
import { dismissAllToasts } from '../notify.ts';
import { useHydrated } from './hydration.ts';
import { forgetOpenSession } from './session-end.ts';

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
 * while React hydrates that HTML, so hydration renders what was prerendered even when the session
 * check has already answered; then `useSession()`'s answer. The query is not subscribed to until
 * then: its answer arriving mid-hydration would otherwise re-render the page synchronously, in one
 * long task, right after hydrating it.
 */
export function usePrerenderedPageSession(): SessionResponse | undefined {
  const hydrated = useHydrated();
  const { data } = useQuery({ ...sessionQuery, subscribed: hydrated });
  return hydrated ? data : undefined;
}

/**
 * POST /api/auth/sign-out, then: the toasts go, the session is null at once (the guards send the page
 * to /auth), and every other query (the signed-out caller's data, PHI) leaves the cache as soon as
 * nothing shows it. A query still shown is not removed while its page is on screen: its observer
 * would make it again, empty, and read it signed out (a 401 for each of the dashboard's reads, once).
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<unknown>('POST', '/api/auth/sign-out', {}),
    onSuccess: () => {
      // Signed out on purpose: the sign-in page gives no reason (issue 51 item 6).
      forgetOpenSession();
      dismissAllToasts();
      queryClient.setQueryData(meQueryKey, null);
      removeOnceUnobserved(queryClient, (query) => query.queryKey[0] !== 'me');
    },
  });
}

/** Removes the queries matching `predicate` now, or those still observed once their last observer leaves. */
export function removeOnceUnobserved(queryClient: QueryClient, predicate: (query: Query) => boolean): void {
  const cache = queryClient.getQueryCache();
  const pending = new Set(cache.findAll({ predicate }));
  const removeUnobserved = () => {
    for (const query of pending) {
      if (query.getObserversCount() > 0) continue;
      cache.remove(query);
      pending.delete(query);
    }
    if (pending.size === 0) unsubscribe();
  };
  const unsubscribe = cache.subscribe((event) => {
    if (event.type === 'observerRemoved') removeUnobserved();
  });
  removeUnobserved();
}
