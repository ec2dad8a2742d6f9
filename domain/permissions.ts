/**
 * Permissions, named `action:entity:own|any` (style.md habit 6). Providers (role user) get `own`,
 * administrators get `any` read access (spec §6). Nobody writes another provider's application.
 */
import type { Role } from './roles.ts';

export const permissionsByRole = {
  user: [
    'read:application:own',
    'create:application:own',
    /** 'Withdraw' a draft cycle (issue 29 item 2). */
    'withdraw:application:own',
    'write:section:own',
    'read:section:own',
    'write:document:own',
    'read:document:own',
    'send:notification:own',
  ],
  admin: [
    'read:application:any',
    'read:section:any',
    'read:document:any',
    'read:provider:any',
    'read:audit:any',
    'send:notification:any',
    /** Move applications through the credentialing review and record verifications (issue 13). */
    'review:application:any',
  ],
} as const satisfies Record<Role, readonly string[]>;

export type Permission = (typeof permissionsByRole)[Role][number];

export function hasPermission(role: Role, permission: Permission): boolean {
  return (permissionsByRole[role] as readonly string[]).includes(permission);
}

/**
 * Whether `permission` reaches other people's data (`:any`): such permissions need a second factor
 * (issue 16; OWASP ASVS 5.0 level 2 multi-factor authentication for privileged access).
 */
export function needsSecondFactor(permission: Permission): boolean {
  return permission.endsWith(':any');
}

/** Whether `role` holds any permission that needs a second factor (administrators must enrol). */
export function roleNeedsSecondFactor(role: Role): boolean {
  return (permissionsByRole[role] as readonly Permission[]).some(needsSecondFactor);
}
