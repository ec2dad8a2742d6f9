/**
 * Who among the staff is told of work waiting for a permission (issue 51 item 6: a completed
 * application, to the staff who review files; issue 50 item 9: a clean file, to each medical
 * director). The roles come from the one permission table (domain/permissions.ts `staffRolesWith`):
 * an administrator's from `user_roles`, the granted ones from `staff_roles`.
 */
import { and, asc, inArray, ne, or, sql } from 'drizzle-orm';
import { type Permission, staffRolesWith } from '../../domain/permissions.ts';
import { grantedStaffRoles } from '../../domain/roles.ts';
import type { Queryable } from '../db/client.ts';
import { user } from '../db/schema/auth.ts';
import { staffRoleGrants, userRoles } from '../db/schema/core.ts';

/** At most this many people are mailed about one event (a bound, not a rule). */
export const STAFF_RECIPIENTS_LIMIT = 100;

/** One staff member to tell: their user id and address. */
export interface StaffRecipient {
  userId: string;
  email: string;
}

/**
 * Every staff member holding `permission` through one of their roles, each once, ordered by
 * address; never `exceptUserId` (the provider of the file: staff who are also providers are not
 * told about their own file). At most STAFF_RECIPIENTS_LIMIT.
 */
export async function staffWithPermission(
  db: Queryable,
  permission: Permission,
  exceptUserId: string,
): Promise<StaffRecipient[]> {
  const roles = staffRolesWith(permission);
  const granted = grantedStaffRoles.filter((role) => roles.includes(role));
  const held = [
    ...(roles.includes('admin')
      ? [
          sql`exists (select 1 from ${userRoles} where ${userRoles.userId} = ${user.id} and ${userRoles.role} = 'admin')`,
        ]
      : []),
    ...(granted.length > 0
      ? [
          sql`exists (select 1 from ${staffRoleGrants} where ${staffRoleGrants.userId} = ${user.id} and ${inArray(staffRoleGrants.role, granted)})`,
        ]
      : []),
  ];
  if (held.length === 0) return [];
  return db
    .select({ userId: user.id, email: user.email })
    .from(user)
    .where(and(or(...held), ne(user.id, exceptUserId)))
    .orderBy(asc(user.email))
    .limit(STAFF_RECIPIENTS_LIMIT);
}
