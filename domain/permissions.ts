/**
 * Permissions, named `action:entity:own|any` (style.md habit 6), and the one table of who holds
 * which (issue 32 item 1). Providers (`user`) get `own`; staff get `any` on other people's data
 * (spec §6: administrators read everything and write nothing of a provider's). The server checks the
 * table on every route (server/auth/actor.ts `requirePermission`); the web shows a tab or a button
 * only to roles that hold its permission, from the same table.
 *
 * Staff duties (issue 32; NCQA CR 2 separates preparing a file from deciding it):
 * - Credentialing Specialist: the review queue, Start Review, Request Information, verify,
 *   discrepancy, waive, screening, credential updates: `review:application:any`; no decision.
 * - Medical Director: reads the files and decides them (`decide:application:any`).
 * - Committee Member: reads the files on the agendas of their meetings (meetings are not built yet:
 *   no permission today).
 * - Auditor: reads everything an administrator can read, the audit log included; writes nothing.
 * - Administrator: people and roles (`manage:staff:any`), and everything a specialist does. Until
 *   'Send for Decision' routes files to the medical director and the committee (issue 32 item 4),
 *   administrators also decide, as they did before staff roles.
 */
import type { AccessRole } from './roles.ts';

/** What every staff role that reads files may read. */
const staffReads = [
  'read:application:any',
  'read:section:any',
  'read:document:any',
  'read:provider:any',
] as const;

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
    ...staffReads,
    'read:audit:any',
    'send:notification:any',
    /** Move applications through the credentialing review and record verifications (issue 13). */
    'review:application:any',
    /** 'Approve' and 'Reject' (issue 13; issue 32: the medical director's and the committee's). */
    'decide:application:any',
    /** Grant and revoke staff roles (issue 32 item 2). */
    'manage:staff:any',
  ],
  specialist: [...staffReads, 'send:notification:any', 'review:application:any'],
  medical_director: [...staffReads, 'decide:application:any'],
  committee: [],
  auditor: [...staffReads, 'read:audit:any'],
} as const satisfies Record<AccessRole, readonly string[]>;

export type Permission = (typeof permissionsByRole)[AccessRole][number];

/** Every permission of the table, each once. */
export const permissions = [...new Set(Object.values(permissionsByRole).flat())] as Permission[];

/** Whether any of `roles` holds `permission`. */
export function hasPermission(roles: readonly AccessRole[], permission: Permission): boolean {
  return roles.some((role) => (permissionsByRole[role] as readonly string[]).includes(permission));
}

/**
 * Whether `permission` reaches other people's data (`:any`): such permissions need a second factor
 * (issue 16; OWASP ASVS 5.0 level 2 multi-factor authentication for privileged access).
 */
export function needsSecondFactor(permission: Permission): boolean {
  return permission.endsWith(':any');
}

/** Whether someone acting with `roles` must enrol a second factor: every staff role (issue 32 item 1). */
export function rolesNeedSecondFactor(roles: readonly AccessRole[]): boolean {
  return roles.some((role) => role !== 'user');
}
