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
 *   Specialists also prepare the committee's meetings and record their decisions as its secretary
 *   (`manage:meeting:any`).
 * - Medical Director: reads the files, decides clean files ('Approve', 'Send to Committee':
 *   `decide:application:any`), and sits on and chairs the committee (`manage:meeting:any`).
 * - Committee Member: reads their meetings and the files on their agendas, unless recused
 *   (`read:meeting:member`; the server checks the membership), joins them and casts their own vote on
 *   each file (`vote:meeting:member`, issue 50 item 2; a Medical Director who sits on a meeting too).
 * - Auditor: reads everything an administrator can read, the audit log and meetings included; writes
 *   nothing.
 * - Administrator: people and roles (`manage:staff:any`), and everything a specialist does; no
 *   decision (issue 32: the medical director and the committee decide).
 */
import { type AccessRole, type StaffRole, staffRoles } from './roles.ts';

/** What every staff role that reads files may read. */
const staffReads = [
  'read:application:any',
  'read:section:any',
  'read:document:any',
  'read:provider:any',
  /** Every committee meeting and its minutes (issue 32 item 5). */
  'read:meeting:any',
] as const;

export const permissionsByRole = {
  user: [
    'read:application:own',
    'create:application:own',
    /** 'Withdraw' a draft cycle (issue 29 item 2). */
    'withdraw:application:own',
    /** 'Request Appeal' of a denial (issue 32 item 6). */
    'appeal:application:own',
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
    /** 'New Meeting', the agenda, recusals, 'Record Decision', 'Close Meeting' (issue 32 item 5). */
    'manage:meeting:any',
    /** Grant and revoke staff roles (issue 32 item 2). */
    'manage:staff:any',
    /** Register and revoke API clients, the machines that read FHIR and rosters (issue 33 item 4). */
    'manage:api_client:any',
    /** The 'Reports' tab: turnaround, backlog, timeliness, expirables, screening, workload (issue 34). */
    'read:report:any',
  ],
  specialist: [...staffReads, 'send:notification:any', 'review:application:any', 'manage:meeting:any'],
  /** 'Approve' of a clean file and 'Send to Committee' (issue 32 item 4): `decide:application:any`. */
  medical_director: [
    ...staffReads,
    'decide:application:any',
    'manage:meeting:any',
    'read:report:any',
    /** Join a meeting they sit on and cast their own vote on its files (issue 50 item 2). */
    'vote:meeting:member',
  ],
  committee: ['read:meeting:member', 'vote:meeting:member'],
  auditor: [...staffReads, 'read:audit:any', 'read:report:any'],
} as const satisfies Record<AccessRole, readonly string[]>;

export type Permission = (typeof permissionsByRole)[AccessRole][number];

/** Every permission of the table, each once. */
export const permissions = [...new Set(Object.values(permissionsByRole).flat())] as Permission[];

/** Whether any of `roles` holds `permission`. */
export function hasPermission(roles: readonly AccessRole[], permission: Permission): boolean {
  return roles.some((role) => (permissionsByRole[role] as readonly string[]).includes(permission));
}

/**
 * Whether `permission` reaches beyond the caller's own data (`:any`, and a committee member's
 * `:member`): such permissions need a second factor (issue 16; issue 32: every staff role; OWASP ASVS
 * 5.0 level 2 multi-factor authentication for privileged access).
 */
export function needsSecondFactor(permission: Permission): boolean {
  return !permission.endsWith(':own');
}

/** Whether someone acting with `roles` must enrol a second factor: every staff role (issue 32 item 1). */
export function rolesNeedSecondFactor(roles: readonly AccessRole[]): boolean {
  return roles.some((role) => role !== 'user');
}

/**
 * The staff roles that hold `permission`, in `staffRoles` order (never `user`): who is told of work
 * that needs it, e.g. the staff who review files (`review:application:any`) of a completed
 * application (issue 51 item 6).
 */
export function staffRolesWith(permission: Permission): StaffRole[] {
  return staffRoles.filter((role) => hasPermission([role], permission));
}
