/**
 * Roles. Spec §6: `user_roles` holds one role per person, `user` (a provider) or `admin`; a failed or
 * empty lookup means `user`. Issue 32 adds the staff roles a credentialing organization separates
 * duties by, granted in `staff_roles` (several per person): a person acts with every staff role they
 * hold, and as a provider (`user`) only when they hold none. `admin` is the Administrator.
 */

/** The values of `user_roles.role` (spec §6). */
export const roles = ['user', 'admin'] as const;
export type Role = (typeof roles)[number];

/** Staff roles granted besides `admin` (issue 32 item 1), the values of `staff_roles.role`. */
export const grantedStaffRoles = ['specialist', 'medical_director', 'committee', 'auditor'] as const;
export type GrantedStaffRole = (typeof grantedStaffRoles)[number];

/** Every staff role, in the order screens list them. */
export const staffRoles = ['admin', ...grantedStaffRoles] as const;
export type StaffRole = (typeof staffRoles)[number];

/** A role permissions are given to: a provider's `user` or a staff role. */
export type AccessRole = 'user' | StaffRole;

/** What people call each staff role (issue 32 item 1). */
export const staffRoleLabel: Record<StaffRole, string> = {
  admin: 'Administrator',
  specialist: 'Credentialing Specialist',
  medical_director: 'Medical Director',
  committee: 'Committee Member',
  auditor: 'Auditor',
};

/** The role's name on the command line, `npm run admin -- grant EMAIL --role NAME` (issue 32 item 2). */
export const staffRoleCliName: Record<StaffRole, string> = {
  admin: 'administrator',
  specialist: 'specialist',
  medical_director: 'medical-director',
  committee: 'committee',
  auditor: 'auditor',
};

/** The staff role a command-line name stands for, or undefined. */
export function staffRoleOfCliName(name: string): StaffRole | undefined {
  return staffRoles.find((role) => staffRoleCliName[role] === name);
}

/**
 * The roles a person acts with: `admin` from `user_roles` and the granted staff roles, in
 * `staffRoles` order; `['user']` (a provider) when they hold none.
 */
export function accessRoles(role: Role, granted: readonly GrantedStaffRole[]): AccessRole[] {
  const held = staffRoles.filter((r) => (r === 'admin' ? role === 'admin' : granted.includes(r)));
  return held.length > 0 ? held : ['user'];
}

/** Whether the roles are a staff member's (any staff role), not a provider's. */
export function isStaff(roles: readonly AccessRole[]): boolean {
  return roles.some((role) => role !== 'user');
}
