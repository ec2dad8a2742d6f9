/** The provider's profile (spec §7 profiles: one row by user id), for the dashboard's welcome line. */
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api.ts';
import type { Me } from '../../app/session.ts';

export type Profile = NonNullable<Me['profile']>;

/**
 * GET /api/profile: the profile, or null when the provider has none (spec §8: not-found is tolerated).
 * The query fails only when the profile could not be loaded (5xx, network).
 */
export function useProfile() {
  return useQuery({
    queryKey: ['profile'],
    queryFn: async () => (await api<{ profile: Profile | null }>('GET', '/api/profile')).profile,
  });
}
