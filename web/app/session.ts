/**
 * Authentication state for the web app: `useSession()` reads /api/session, which answers `null` when
 * signed out (a 200, so a visitor's check leaves no failed request in the browser console).
 * The session itself is an HttpOnly cookie the browser sends; no token is kept in browser storage.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Role } from '../../domain/roles.ts';
import { api } from '../api.ts';

export interface Me {
  user: { id: string; email: string; emailVerified: boolean };
  profile: { firstName: string; lastName: string; email: string; createdAt: string } | null;
  role: Role;
  sessionExpiresAt: string;
  idleTimeoutSeconds: number;
}

export const meQueryKey = ['me'] as const;

export function useSession() {
  return useQuery({
    queryKey: meQueryKey,
    queryFn: () => api<Me | null>('GET', '/api/session'),
    staleTime: 30_000,
    retry: 1,
  });
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
