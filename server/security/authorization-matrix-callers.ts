/**
 * The callers of the authorization matrix (authorization-matrix.ts) and the statuses they expect,
 * written once: `owner` (provider A's resource), `ownerWrite`, `staffOnly(permission)` (issue 32: read
 * from domain/permissions.ts, so a role's row follows the permission table), `everyone`, `signedIn`,
 * `providersOnly`; the context a request uses (provider A's resources) and the shape of an entry.
 */

import { disclosureQuestions } from '../../domain/attestation.ts';
import { hasPermission, type Permission } from '../../domain/permissions.ts';
import type { AccessRole } from '../../domain/roles.ts';

/** An attestation the completion route's schema accepts (every answer No), for requests that never reach the signature check. */
export const wellFormedAttestation = {
  answers: Object.fromEntries(disclosureQuestions.map((q) => [q.id, { answer: 'no' }])),
  signature: 'Matrix Caller',
};

/**
 * The callers, in the order each route is called. Staff callers (issue 32) hold one role each, with
 * a second factor set up; `admin` comes first among them, so a route that changes state answers it
 * first and the staff callers after it see the changed state.
 */
export const callers = [
  'anonymous',
  'providerB',
  'admin',
  'adminWithout2fa',
  'specialist',
  'medicalDirector',
  'committee',
  'auditor',
  'providerA',
] as const;
export type Caller = (typeof callers)[number];

/** The staff callers and the one role each acts with (domain/roles.ts). */
export const staffCallerRoles = {
  admin: 'admin',
  specialist: 'specialist',
  medicalDirector: 'medical_director',
  committee: 'committee',
  auditor: 'auditor',
} as const satisfies Partial<Record<Caller, AccessRole>>;
type StaffCaller = keyof typeof staffCallerRoles;
const staffCallers = Object.keys(staffCallerRoles) as StaffCaller[];

/** What a matrix request may use: provider A's resources, made fresh where a call consumes them. */
export interface MatrixContext {
  applicationId: string;
  userId: string;
  notificationId: string;
  /** A status_events row of A's application (issue 28: the admin re-sends it). */
  statusEventId: string;
  /** A new payor row of A's application (for DELETE). */
  freshPayorId(): Promise<string>;
  /** A new document of A's application (for DELETE). */
  freshDocumentId(): Promise<string>;
  documentId: string;
  /** A multipart body uploading a small PDF. */
  uploadBody(): FormData;
}

export interface MatrixRequest {
  path: string;
  body?: unknown;
}

export interface MatrixEntry {
  expected: Record<Caller, number>;
  request(ctx: MatrixContext): MatrixRequest | Promise<MatrixRequest>;
}

/**
 * The staff callers' statuses on a route that needs `permission`: 403 without it; with it `status`
 * for the first holder in `callers` order and `repeat` for the later ones (a route that changes
 * state, e.g. 'Start Review': the first holder's 200 makes the next one's 409).
 */
function staffStatuses(permission: Permission, status: number, repeat = status): Record<StaffCaller, number> {
  let holders = 0;
  return Object.fromEntries(
    staffCallers.map((caller) => {
      if (!hasPermission([staffCallerRoles[caller]], permission)) return [caller, 403];
      holders += 1;
      return [caller, holders === 1 ? status : repeat];
    }),
  ) as Record<StaffCaller, number>;
}

/** Every staff caller answered `status` (their own account, a public route). */
const allStaff = (status: number) =>
  Object.fromEntries(staffCallers.map((caller) => [caller, status])) as Record<StaffCaller, number>;

/** Provider A's resource: the owner `a`, provider B `b`, staff who read files `staff`. */
export const owner = (a: number, b = 404, staff = 200) => ({
  anonymous: 401,
  providerB: b,
  ...staffStatuses('read:application:any', staff),
  adminWithout2fa: 403,
  providerA: a,
});
/** A write to provider A's data: only the owner; every staff role is refused (spec §6). */
export const ownerWrite = (a: number) => ({
  anonymous: 401,
  providerB: 404,
  ...allStaff(403),
  adminWithout2fa: 403,
  providerA: a,
});
/** A staff route that needs `permission` (issue 32): `status` for its first holder, `repeat` after. */
export const staffOnly = (permission: Permission, status = 200, repeat = status) => ({
  anonymous: 401,
  providerB: 403,
  ...staffStatuses(permission, status, repeat),
  adminWithout2fa: 403,
  providerA: 403,
});
export const everyone = (status: number) => ({
  anonymous: status,
  providerB: status,
  ...allStaff(status),
  adminWithout2fa: status,
  providerA: status,
});
/** Any signed-in caller (their own account), anonymous 401. */
export const signedIn = () => ({ ...everyone(200), anonymous: 401 });
/** A provider's own resource that staff do not have (e.g. their application list). */
export const providersOnly = (status: number) => ({
  anonymous: 401,
  providerB: status,
  ...allStaff(403),
  adminWithout2fa: 403,
  providerA: status,
});

export const sections = (ctx: MatrixContext) => `/api/applications/${ctx.applicationId}/sections`;
/** A meeting (and agenda item) id that names none (issue 32). */
export const noMeeting = '00000000-0000-4000-8000-000000000000';
