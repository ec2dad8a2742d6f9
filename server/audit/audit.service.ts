/**
 * Writes audit events (HIPAA 164.312(b)). Callers pass identifiers only, never PHI.
 */
import { type AuditAction, auditActions } from '../../domain/audit-actions.ts';
import type { Queryable } from '../db/client.ts';
import { auditLog } from '../db/schema/audit.ts';

/** The known actions (domain/audit-actions.ts), re-exported for the server's callers. */
export { type AuditAction, auditActions };

export interface AuditEvent {
  action: AuditAction;
  actorUserId?: string | null;
  subjectUserId?: string | null;
  resourceType?: string | null;
  resourceId?: string | null;
  ipAddress?: string | null;
  details?: Record<string, string | number | boolean | null>;
}

/** Append one event. Throws on database failure: an access that cannot be audited should fail. */
export async function recordAudit(db: Queryable, event: AuditEvent): Promise<void> {
  await db.insert(auditLog).values({
    action: event.action,
    actorUserId: event.actorUserId ?? null,
    subjectUserId: event.subjectUserId ?? null,
    resourceType: event.resourceType ?? null,
    resourceId: event.resourceId ?? null,
    ipAddress: event.ipAddress ?? null,
    details: event.details ?? null,
  });
}
