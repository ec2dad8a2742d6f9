/**
 * Append-only audit log (HIPAA 164.312(b) audit controls; issues 6 and 7). Rows say who did what to
 * whose record, when and from where; they never hold PHI itself. A trigger in the migrations refuses
 * UPDATE and DELETE.
 */
import { bigserial, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    /** User who acted; null for anonymous events (e.g. a failed sign-in). */
    actorUserId: text('actor_user_id'),
    /** e.g. 'auth.sign_in', 'admin.view_provider', 'document.download'. */
    action: text('action').notNull(),
    /** Provider whose record was touched, when there is one. */
    subjectUserId: text('subject_user_id'),
    resourceType: text('resource_type'),
    resourceId: text('resource_id'),
    ipAddress: text('ip_address'),
    /** Non-PHI context (outcome, reason codes). */
    details: jsonb('details').$type<Record<string, string | number | boolean | null>>(),
  },
  (t) => [
    index('audit_log_occurred_at_idx').on(t.occurredAt.desc()),
    index('audit_log_subject_idx').on(t.subjectUserId, t.occurredAt.desc()),
    index('audit_log_actor_idx').on(t.actorUserId, t.occurredAt.desc()),
    /** The 'Audit Log' tab's action filter and its export, newest first (issue 34). */
    index('audit_log_action_idx').on(t.action, t.occurredAt.desc(), t.id.desc()),
  ],
);
