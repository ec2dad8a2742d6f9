/**
 * Granting and revoking staff roles (issue 32 items 1 and 2, domain/roles.ts): the Administrator
 * role is `user_roles.role = 'admin'` (spec §6), the others are rows of `staff_roles`. Used by the
 * 'Staff' tab (server/staff/staff.routes.ts) and by `npm run admin -- grant|revoke EMAIL --role ROLE`
 * (server/cli/admin.ts). Every change is audited ('auth.role_changed', details: the role, granted or
 * revoked, and from where) and ends what running servers remember of the person's sessions, so it
 * applies from their next request (decision 015).
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import {
  OWN_ROLES_MESSAGE,
  rolesAnnouncedOnGrant,
  STAFF_LIST_LIMIT,
  STAFF_SEARCH_MAX,
  type StaffList,
} from '../../domain/api/staff.ts';
import { AppError } from '../../domain/app-error.ts';
import {
  type GrantedStaffRole,
  grantedStaffRoles,
  type StaffRole,
  staffRoleLabel,
  staffRoles,
} from '../../domain/roles.ts';
import { normalizeSearch, profileMatches } from '../admin/admin-list-query.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { notifySessionsRevoked } from '../auth/session-revocations.ts';
import type { Database } from '../db/client.ts';
import { user } from '../db/schema/auth.ts';
import { profiles, staffRoleGrants, userRoles } from '../db/schema/core.ts';
import type { Mailer } from '../mail/mailer.ts';

/** The message of the 409 when a change would leave nobody with the Administrator role. */
export const LAST_ADMINISTRATOR_MESSAGE =
  'This is the last administrator. Give the Administrator role to someone else first, then remove it here.';

/** What one change did: the roles it actually granted and revoked (a role already held is not granted again). */
export interface StaffRoleChange {
  granted: StaffRole[];
  revoked: StaffRole[];
}

/**
 * Grant `grant` and revoke `revoke` for `userId`, in one transaction.
 * @param options.keepAnAdministrator refuse (409, LAST_ADMINISTRATOR_MESSAGE) a change that removes
 *   the last administrator; the 'Staff' tab sets it, the operator's CLI does not (it can always
 *   grant the role again)
 * @param options.actorUserId who made the change (null: the command line), for `granted_by` and the audit
 * @param options.via where it was made: 'staff_tab' or 'cli'
 * @throws AppError conflict when `keepAnAdministrator` holds and the change would break it; forbidden
 *   (403, OWN_ROLES_MESSAGE) when the 'Staff' tab's caller changes their own roles (issue 50 item 5)
 */
export async function changeStaffRoles(
  db: Database,
  userId: string,
  change: { grant: readonly StaffRole[]; revoke: readonly StaffRole[] },
  options: {
    keepAnAdministrator: boolean;
    actorUserId: string | null;
    via: 'staff_tab' | 'cli';
    ipAddress?: string;
  },
): Promise<StaffRoleChange> {
  if (options.via === 'staff_tab' && options.actorUserId === userId) {
    throw new AppError('forbidden', OWN_ROLES_MESSAGE);
  }
  return db.transaction(async (tx) => {
    const done: StaffRoleChange = { granted: [], revoked: [] };
    if (change.revoke.includes('admin')) {
      // Every administrator row locked, so two removals at once cannot each see the other as the
      // one who stays: the second waits and counts again.
      const admins = await tx
        .select({ userId: userRoles.userId })
        .from(userRoles)
        .where(eq(userRoles.role, 'admin'))
        .for('update');
      const isAdmin = admins.some((a) => a.userId === userId);
      if (isAdmin && admins.length === 1 && options.keepAnAdministrator) {
        throw new AppError('conflict', LAST_ADMINISTRATOR_MESSAGE);
      }
      if (isAdmin) {
        await tx.update(userRoles).set({ role: 'user' }).where(eq(userRoles.userId, userId));
        done.revoked.push('admin');
      }
    }
    if (change.grant.includes('admin')) {
      const [before] = await tx
        .select({ role: userRoles.role })
        .from(userRoles)
        .where(eq(userRoles.userId, userId))
        .for('update');
      if (before?.role !== 'admin') {
        await tx
          .insert(userRoles)
          .values({ userId, role: 'admin' })
          .onConflictDoUpdate({ target: userRoles.userId, set: { role: 'admin' } });
        done.granted.push('admin');
      }
    }
    const grant = change.grant.filter(isGranted);
    if (grant.length > 0) {
      const rows = await tx
        .insert(staffRoleGrants)
        .values(grant.map((role) => ({ userId, role, grantedBy: options.actorUserId })))
        .onConflictDoNothing()
        .returning({ role: staffRoleGrants.role });
      done.granted.push(...rows.map((r) => r.role));
    }
    const revoke = change.revoke.filter(isGranted);
    if (revoke.length > 0) {
      const rows = await tx
        .delete(staffRoleGrants)
        .where(and(eq(staffRoleGrants.userId, userId), inArray(staffRoleGrants.role, revoke)))
        .returning({ role: staffRoleGrants.role });
      done.revoked.push(...rows.map((r) => r.role));
    }
    for (const [roles, kind] of [
      [done.granted, 'granted'],
      [done.revoked, 'revoked'],
    ] as const) {
      for (const role of roles) {
        await recordAudit(tx, {
          action: 'auth.role_changed',
          actorUserId: options.actorUserId,
          subjectUserId: userId,
          ipAddress: options.ipAddress,
          details: { role, change: kind, via: options.via },
        });
      }
    }
    if (done.granted.length + done.revoked.length > 0) await notifySessionsRevoked(tx);
    return done;
  });
}

/**
 * After a change committed: a grant of Medical Director or Committee Member (the roles that decide
 * files) is emailed to every administrator (issue 50 item 5), naming who was granted what, by whom
 * (or by the operator's command line) and when. A failed send is logged, never undoes the change.
 * @returns how many administrators were emailed
 */
export async function announceRoleGrants(
  deps: { db: Database; mailer: Mailer; logger: Pick<Logger, 'error'>; appUrl: string },
  change: StaffRoleChange,
  input: { userId: string; actorUserId: string | null; now: Date },
): Promise<number> {
  const announced = change.granted.filter((role) =>
    (rolesAnnouncedOnGrant as readonly string[]).includes(role),
  );
  if (announced.length === 0) return 0;
  const names = await deps.db
    .select({ id: user.id, name: user.name, email: user.email })
    .from(user)
    .where(inArray(user.id, [input.userId, ...(input.actorUserId ? [input.actorUserId] : [])]));
  const person = names.find((n) => n.id === input.userId);
  const actor = input.actorUserId ? names.find((n) => n.id === input.actorUserId) : undefined;
  const admins = await deps.db
    .select({ email: user.email })
    .from(userRoles)
    .innerJoin(user, eq(user.id, userRoles.userId))
    .where(eq(userRoles.role, 'admin'));
  const roles = announced.map((role) => staffRoleLabel[role]).join(' and ');
  const by = actor ? `${actor.name || actor.email}` : 'the operator (npm run admin)';
  const text = `${person?.name || person?.email || 'A user'} (${person?.email ?? 'no email'}) was granted ${roles} by ${by} on ${input.now.toISOString().slice(0, 16).replace('T', ' ')} UTC.\n\nThese roles decide credentialing files. If this was not expected, review the grant on the Staff tab: ${deps.appUrl}/admin?tab=staff\n`;
  let sent = 0;
  for (const admin of admins) {
    try {
      await deps.mailer.send({ to: admin.email, subject: `Staff role granted: ${roles}`, text });
      sent += 1;
    } catch (error) {
      deps.logger.error({ reason: (error as Error).message }, 'staff roles: a grant notice failed');
    }
  }
  return sent;
}

function isGranted(role: StaffRole): role is GrantedStaffRole {
  return (grantedStaffRoles as readonly string[]).includes(role);
}

/** The staff roles `userId` holds, in `staffRoles` order (one round trip). */
export async function staffRolesOf(db: Pick<Database, 'execute'>, userId: string): Promise<StaffRole[]> {
  const { rows } = await db.execute<{ role: StaffRole }>(sql`
    select 'admin' as role from ${userRoles} where ${userRoles.userId} = ${userId} and ${userRoles.role} = 'admin'
    union all
    select ${staffRoleGrants.role}::text from ${staffRoleGrants} where ${staffRoleGrants.userId} = ${userId}`);
  const held = new Set(rows.map((r) => r.role));
  return staffRoles.filter((role) => held.has(role));
}

/** The name and email of `userId` (the profile's, else the account's), or null for no such user. */
export async function findPerson(
  db: Database,
  userId: string,
): Promise<{ userId: string; name: string; email: string } | null> {
  const { rows } = await db.execute<{ user_id: string; name: string; email: string }>(sql`
    select u.id as user_id,
           coalesce(nullif(trim(p.first_name || ' ' || p.last_name), ''), u.name) as name, u.email
    from ${user} u left join ${profiles} p on p.user_id = u.id
    where u.id = ${userId}`);
  const row = rows[0];
  return row ? { userId: row.user_id, name: row.name, email: row.email } : null;
}

/**
 * The 'Staff' tab's list (domain/api/staff.ts): without `search`, everyone holding a staff role; with
 * it, the people whose name or email contains it (the admin search's trigram expression), each with
 * their roles. Sorted by name; at most STAFF_LIST_LIMIT, `more` when others match.
 */
export async function listStaff(db: Database, search: string | undefined): Promise<StaffList> {
  const term = normalizeSearch(search).slice(0, STAFF_SEARCH_MAX);
  const filter = term
    ? profileMatches(term)
    : sql`(exists (select 1 from ${userRoles} r where r.user_id = ${profiles.userId} and r.role = 'admin')
           or exists (select 1 from ${staffRoleGrants} g where g.user_id = ${profiles.userId}))`;
  const { rows } = await db.execute<{ user_id: string; name: string; email: string; roles: string[] }>(sql`
    select ${profiles.userId} as user_id,
           trim(${profiles.firstName} || ' ' || ${profiles.lastName}) as name, ${profiles.email} as email,
           array(
             select 'admin' from ${userRoles} r where r.user_id = ${profiles.userId} and r.role = 'admin'
             union all
             select g.role::text from ${staffRoleGrants} g where g.user_id = ${profiles.userId}
           ) as roles
    from ${profiles}
    where ${filter}
    order by lower(${profiles.firstName} || ' ' || ${profiles.lastName}), ${profiles.email}, ${profiles.userId}
    limit ${STAFF_LIST_LIMIT + 1}`);
  return {
    people: rows.slice(0, STAFF_LIST_LIMIT).map((row) => ({
      userId: row.user_id,
      name: row.name,
      email: row.email,
      roles: staffRoles.filter((role) => row.roles.includes(role)),
    })),
    more: rows.length > STAFF_LIST_LIMIT,
  };
}
