/**
 * API contract of the 'Staff' tab (issue 32 item 2): GET /api/admin/staff lists people with their
 * staff roles (everyone who holds one, or the people a search finds); PUT
 * /api/admin/staff/:userId/roles sets a person's staff roles. Administrators only
 * (`manage:staff:any`). Validated and serialised by server/staff/staff.routes.ts; typed on the web
 * by web/features/staff/.
 */
import { z } from 'zod';
import { staffRoles } from '../roles.ts';

/** Longest search term read (characters); longer input is cut, never refused. */
export const STAFF_SEARCH_MAX = 100;
/** Most people one answer lists. */
export const STAFF_LIST_LIMIT = 50;

export const staffQuerySchema = z.object({
  /** Part of a name or an email; empty: everyone who holds a staff role. */
  search: z.string().max(500, 'Search with at most 500 characters').optional(),
});

export const staffMemberSchema = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  /** The staff roles held, in domain/roles.ts `staffRoles` order; empty for a provider. */
  roles: z.array(z.enum(staffRoles)),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;

export const staffListSchema = z.object({
  people: z.array(staffMemberSchema),
  /** True when more people match than STAFF_LIST_LIMIT: the search should be narrower. */
  more: z.boolean(),
});
export type StaffList = z.infer<typeof staffListSchema>;

export const staffParamsSchema = z.object({ userId: z.string().min(1).max(100) });

/** PUT body: every staff role the person should hold after the change (none: a provider again). */
export const staffRolesBodySchema = z.object({
  roles: z
    .array(z.enum(staffRoles, { error: `Choose roles among: ${staffRoles.join(', ')}` }))
    .max(staffRoles.length)
    .refine((roles) => new Set(roles).size === roles.length, 'Name each role once'),
});
export type StaffRolesBody = z.infer<typeof staffRolesBodySchema>;

/**
 * The 403 of a change to one's own roles on the 'Staff' tab (issue 50 item 5: roles are granted by
 * someone else; the operator's `npm run admin` is the bootstrap path, audited as 'cli').
 */
export const OWN_ROLES_MESSAGE =
  'You cannot change your own roles: another administrator changes them on this tab (or the operator, with npm run admin).';

/** Roles whose grant every administrator is told of by email (issue 50 item 5: they decide files). */
export const rolesAnnouncedOnGrant = ['medical_director', 'committee'] as const;
