/** The provider's profile (spec §7 profiles: one row by user id), for the dashboard's welcome line. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { profileResponseSchema } from '../../../domain/api/session.ts';
import { api } from '../../api.ts';
import { PROFILE_READ, takeEarlyRead } from '../../early-reads.ts';
import { PREFETCH_FRESH_MS } from './applications-api.ts';

/** GET /api/profile's body (domain/api/session.ts). */
type ProfileResponse = z.infer<typeof profileResponseSchema>;
export type Profile = NonNullable<ProfileResponse['profile']>;

/**
 * GET /api/profile: the profile, or null when the provider has none (spec §8: not-found is tolerated).
 * The query fails only when the profile could not be loaded (5xx, network). On /dashboard its first
 * fetch takes the read web/early.ts started (decision 033).
 */
export const profileQuery = queryOptions({
  queryKey: ['profile'],
  queryFn: async () =>
    (await (takeEarlyRead<ProfileResponse>(PROFILE_READ) ?? api<ProfileResponse>('GET', PROFILE_READ)))
      .profile,
  staleTime: PREFETCH_FRESH_MS,
});

/** The profile query (`profileQuery`). */
export function useProfile() {
  return useQuery(profileQuery);
}
