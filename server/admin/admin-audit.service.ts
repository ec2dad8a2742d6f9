/**
 * The audit log as admins read it (issue 6; HIPAA 164.312(b)): events newest first, filtered by
 * action and/or subject user, with the people named. Writing events is server/audit/audit.service.ts.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { AuditPerson } from '../../domain/api/admin.ts';
import type { Queryable } from '../db/client.ts';
import { auditLog } from '../db/schema/audit.ts';
import { user } from '../db/schema/auth.ts';
import { countRows, offsetOf, type Page, type PageRequest } from './admin-list-query.ts';

/** One audit event as loaded; the route presents it as `auditEventSchema` (domain/api/admin.ts). */
export interface AuditEventItem {
  id: number;
  occurredAt: Date;
  action: string;
  /** Null for anonymous events (a failed sign-in) and CLI changes; `deleted` when the account is gone. */
  actor: AuditPerson | null;
  subject: AuditPerson | null;
  resourceType: string | null;
  resourceId: string | null;
  ipAddress: string | null;
  details: Record<string, string | number | boolean | null> | null;
}

/**
 * Audit events newest first, optionally of one action and/or about one user (the indexes on
 * occurred_at and on (subject_user_id, occurred_at) serve both).
 */
export async function listAuditEvents(
  db: Queryable,
  { action, subjectUserId, ...paging }: PageRequest & { action?: string; subjectUserId?: string },
): Promise<Page<AuditEventItem>> {
  const filters: SQL[] = [];
  if (action) filters.push(sql`${auditLog.action} = ${action}`);
  if (subjectUserId) filters.push(sql`${auditLog.subjectUserId} = ${subjectUserId}`);
  const where = filters.length > 0 ? sql`where ${sql.join(filters, sql` and `)}` : sql``;
  const pageQuery = db.execute<{
    id: number;
    occurred_at: Date;
    action: string;
    actor_user_id: string | null;
    actor_name: string | null;
    actor_email: string | null;
    subject_user_id: string | null;
    subject_name: string | null;
    subject_email: string | null;
    resource_type: string | null;
    resource_id: string | null;
    ip_address: string | null;
    details: Record<string, string | number | boolean | null> | null;
  }>(sql`
    select l.id, l.occurred_at, l.action, l.actor_user_id, au.name as actor_name, au.email as actor_email,
           l.subject_user_id, su.name as subject_name, su.email as subject_email,
           l.resource_type, l.resource_id, l.ip_address, l.details
    from (
      select * from ${auditLog} ${where}
      order by ${auditLog.occurredAt} desc nulls last, ${auditLog.id} desc
      limit ${paging.pageSize} offset ${offsetOf(paging)}
    ) l
    left join ${user} au on au.id = l.actor_user_id
    left join ${user} su on su.id = l.subject_user_id
    order by l.occurred_at desc nulls last, l.id desc
  `);
  const person = (id: string | null, name: string | null, email: string | null): AuditPerson | null =>
    id ? { userId: id, name: name ?? '', email: email ?? '' } : null;
  // Capped like a search: the log only grows, and "10,000+ events" is all a pager needs.
  const [result, count] = await Promise.all([pageQuery, countRows(db, sql`from ${auditLog} ${where}`, true)]);
  return {
    items: result.rows.map((row) => ({
      id: Number(row.id),
      occurredAt: new Date(row.occurred_at),
      action: row.action,
      actor: person(row.actor_user_id, row.actor_name, row.actor_email),
      subject: person(row.subject_user_id, row.subject_name, row.subject_email),
      resourceType: row.resource_type,
      resourceId: row.resource_id,
      ipAddress: row.ip_address,
      details: row.details,
    })),
    ...count,
    ...paging,
  };
}
