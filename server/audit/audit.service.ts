/**
 * Writes audit events (HIPAA 164.312(b)). Callers pass identifiers only, never PHI.
 */
import type { Queryable } from '../db/client.ts';
import { auditLog } from '../db/schema/audit.ts';

/** Known audit actions. Extend here so the log stays a small, queryable vocabulary. */
export const auditActions = [
  'auth.sign_up',
  'auth.sign_in',
  'auth.sign_in_failed',
  'auth.sign_out',
  'auth.password_reset_requested',
  'auth.password_reset',
  'auth.password_changed',
  'auth.name_changed',
  'auth.email_verified',
  'auth.role_changed',
  'admin.view_provider',
  'document.upload',
  'document.download',
  'document.delete',
  'notification.sent',
  'notification.resend',
] as const;
export type AuditAction = (typeof auditActions)[number];

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
