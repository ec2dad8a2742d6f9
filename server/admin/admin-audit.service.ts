/**
 * The audit log as admins read it (issue 6; HIPAA 164.312(b)): events newest first, filtered by
 * action, subject user, actor and a range of UTC days (issue 34), with the people named; the same
 * filter as keyset batches for the CSV export. Writing events is server/audit/audit.service.ts.
 *
 * Indexes (server/db/schema/audit.ts): occurred_at; (subject_user_id, occurred_at);
 * (actor_user_id, occurred_at); (action, occurred_at, id) since issue 34. Every filter is an
 * equality on one of them plus the time range, read in time order.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { AuditLogFilter, AuditPerson } from '../../domain/api/admin.ts';
import type { Queryable } from '../db/client.ts';
import { auditLog } from '../db/schema/audit.ts';
import { user } from '../db/schema/auth.ts';
import { staffRoleGrants, userRoles } from '../db/schema/core.ts';
import { countRows, offsetOf, type Page, type PageRequest } from './admin-list-query.ts';

/** Rows per keyset batch of the CSV export: one short query each, never the whole log in memory. */
export const AUDIT_EXPORT_BATCH_ROWS = 2_000;

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

type AuditRow = {
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
};

/** The day after `day` (`YYYY-MM-DD`), as `YYYY-MM-DD`. */
function nextDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

/**
 * The filter as SQL conditions on audit_log. `from`/`to` are UTC calendar days, both inclusive:
 * occurred_at >= from 00:00 UTC and < the day after `to`, 00:00 UTC.
 */
function filterConditions(filter: AuditLogFilter): SQL[] {
  const conditions: SQL[] = [];
  if (filter.action) conditions.push(sql`${auditLog.action} = ${filter.action}`);
  if (filter.subjectUserId) conditions.push(sql`${auditLog.subjectUserId} = ${filter.subjectUserId}`);
  if (filter.actorUserId) conditions.push(sql`${auditLog.actorUserId} = ${filter.actorUserId}`);
  if (filter.from) conditions.push(sql`${auditLog.occurredAt} >= ${`${filter.from}T00:00:00Z`}::timestamptz`);
  if (filter.to)
    conditions.push(sql`${auditLog.occurredAt} < ${`${nextDay(filter.to)}T00:00:00Z`}::timestamptz`);
  return conditions;
}

const whereOf = (conditions: SQL[]): SQL =>
  conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;

/** `limit` events of `where` newest first (after skipping `offset`), with the people joined to those rows only. */
async function readEvents(
  db: Queryable,
  where: SQL,
  limit: number,
  offset: number,
): Promise<AuditEventItem[]> {
  const result = await db.execute<AuditRow>(sql`
    select l.id, l.occurred_at, l.action, l.actor_user_id, au.name as actor_name, au.email as actor_email,
           l.subject_user_id, su.name as subject_name, su.email as subject_email,
           l.resource_type, l.resource_id, l.ip_address, l.details
    from (
      select * from ${auditLog} ${where}
      order by ${auditLog.occurredAt} desc nulls last, ${auditLog.id} desc nulls last
      limit ${limit} offset ${offset}
    ) l
    left join ${user} au on au.id = l.actor_user_id
    left join ${user} su on su.id = l.subject_user_id
    order by l.occurred_at desc nulls last, l.id desc nulls last
  `);
  const person = (id: string | null, name: string | null, email: string | null): AuditPerson | null =>
    id ? { userId: id, name: name ?? '', email: email ?? '' } : null;
  return result.rows.map((row) => ({
    id: Number(row.id),
    occurredAt: new Date(row.occurred_at),
    action: row.action,
    actor: person(row.actor_user_id, row.actor_name, row.actor_email),
    subject: person(row.subject_user_id, row.subject_name, row.subject_email),
    resourceType: row.resource_type,
    resourceId: row.resource_id,
    ipAddress: row.ip_address,
    details: row.details,
  }));
}

/**
 * One page of audit events newest first (by time, then id), of `filter` (see `AuditLogFilter`).
 * The total is capped like a search: the log only grows, and "10,000+ events" is all a pager needs.
 */
export async function listAuditEvents(
  db: Queryable,
  { action, subjectUserId, actorUserId, from, to, ...paging }: PageRequest & AuditLogFilter,
): Promise<Page<AuditEventItem>> {
  const where = whereOf(filterConditions({ action, subjectUserId, actorUserId, from, to }));
  const [items, count] = await Promise.all([
    readEvents(db, where, paging.pageSize, offsetOf(paging)),
    countRows(db, sql`from ${auditLog} ${where}`, true),
  ]);
  return { items, ...count, ...paging };
}

/**
 * Every event of `filter`, newest first (by time, then id), as batches of at most `batchRows`: keyset
 * reads after the last event of the previous batch (its own (occurred_at, id), read in the database,
 * so the cursor keeps PostgreSQL's microseconds). For the CSV export. Events written while the
 * export runs are newer than the cursor and are not included.
 */
export async function* auditEventBatches(
  db: Queryable,
  filter: AuditLogFilter,
  batchRows = AUDIT_EXPORT_BATCH_ROWS,
): AsyncGenerator<AuditEventItem[]> {
  const conditions = filterConditions(filter);
  let afterId: number | undefined;
  for (;;) {
    const keyset =
      afterId === undefined
        ? []
        : [
            sql`(${auditLog.occurredAt}, ${auditLog.id}) < (select k.occurred_at, k.id from ${auditLog} k where k.id = ${afterId})`,
          ];
    const rows = await readEvents(db, whereOf([...conditions, ...keyset]), batchRows, 0);
    if (rows.length > 0) yield rows;
    if (rows.length < batchRows) return;
    afterId = rows.at(-1)!.id;
  }
}

/**
 * The people `filter` names by id (subject and actor), from the account table; null where the filter
 * names nobody or the account is gone.
 */
export async function filterPeopleOf(
  db: Queryable,
  filter: Pick<AuditLogFilter, 'subjectUserId' | 'actorUserId'>,
): Promise<{ subject: AuditPerson | null; actor: AuditPerson | null }> {
  const ids = [filter.subjectUserId, filter.actorUserId].filter((id): id is string => Boolean(id));
  if (ids.length === 0) return { subject: null, actor: null };
  const { rows } = await db.execute<{ id: string; name: string; email: string }>(
    sql`select ${user.id} as id, ${user.name} as name, ${user.email} as email from ${user}
        where ${user.id} in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
  );
  const find = (id: string | undefined): AuditPerson | null => {
    const row = id ? rows.find((r) => r.id === id) : undefined;
    return row ? { userId: row.id, name: row.name, email: row.email } : null;
  };
  return { subject: find(filter.subjectUserId), actor: find(filter.actorUserId) };
}

/**
 * The people the actor filter offers: everyone who holds a staff role now (the admin role or a staff
 * grant, domain/roles.ts), by name, then email. Providers act too (on their own records): they are
 * found through the subject filter.
 */
export async function listAuditActors(db: Queryable): Promise<AuditPerson[]> {
  const { rows } = await db.execute<{ id: string; name: string; email: string }>(sql`
    select u.id, u.name, u.email from ${user} u
    where exists (select 1 from ${userRoles} r where r.user_id = u.id and r.role = 'admin')
       or exists (select 1 from ${staffRoleGrants} g where g.user_id = u.id)
    order by lower(u.name), u.email, u.id
  `);
  return rows.map((row) => ({ userId: row.id, name: row.name, email: row.email }));
}
