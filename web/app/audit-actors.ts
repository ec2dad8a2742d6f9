/**
 * Everyone who holds a staff role, for the filters that pick a person: the audit log's 'Actor'
 * (web/features/admin) and the reports' specialist (web/features/reports). One query and one cache
 * entry for both: GET /api/admin/audit-log/actors (`read:audit:any`), shaped by the API contract.
 */
import { useQuery } from '@tanstack/react-query';
import type { AuditActorList } from '../../domain/api/admin.ts';
import { api } from '../api.ts';

/**
 * The staff list, fetched only while `enabled` (the reader may see the audit log and the filter is
 * on screen).
 * @throws ApiError (through the query's `error`) when the server refuses or cannot be reached
 */
export function useAuditActors(enabled: boolean) {
  return useQuery({
    queryKey: ['admin', 'audit-log-actors'],
    enabled,
    queryFn: () => api<AuditActorList>('GET', '/api/admin/audit-log/actors'),
  });
}
