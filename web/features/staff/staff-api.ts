/**
 * Data of the 'Staff' tab (issue 32 item 2; contract domain/api/staff.ts): the people list (staff,
 * or a search) and setting a person's roles, which refreshes the list.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StaffList, StaffMember } from '../../../domain/api/staff.ts';
import type { StaffRole } from '../../../domain/roles.ts';
import { api } from '../../api.ts';

const staffKey = ['admin', 'staff'] as const;

/** GET /api/admin/staff: everyone holding a staff role, or whom `search` finds. */
export function useStaffList(search: string, enabled: boolean) {
  return useQuery({
    queryKey: [...staffKey, search],
    enabled,
    queryFn: () =>
      api<StaffList>('GET', `/api/admin/staff${search ? `?search=${encodeURIComponent(search)}` : ''}`),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** PUT /api/admin/staff/:userId/roles with every role the person should hold. */
export function useSetStaffRoles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, roles }: { userId: string; roles: StaffRole[] }) =>
      api<StaffMember>('PUT', `/api/admin/staff/${encodeURIComponent(userId)}/roles`, { roles }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffKey }),
  });
}
