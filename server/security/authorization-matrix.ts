/**
 * The authorization matrix (issue 7; HIPAA 164.312(a)(1) access control): for every registered API
 * route, the status each caller gets on provider A's resources. The test in
 * authorization-matrix.test.ts calls every route as each caller and compares with this table; a route
 * missing here (or an entry with no route) fails it, so a new route cannot skip review.
 *
 * Callers: anonymous; provider A (the owner); provider B (another provider); an admin; an admin who
 * has not set up a second factor yet (issue 16: refused, 403, wherever an admin reads others' data).
 * Spec §6: providers see only their own data; admins read everything and write nothing of a provider's.
 */

import { disclosureQuestions } from '../../domain/attestation.ts';
import { hasPermission, type Permission } from '../../domain/permissions.ts';
import type { AccessRole } from '../../domain/roles.ts';

/** An attestation the completion route's schema accepts (every answer No), for requests that never reach the signature check. */
const wellFormedAttestation = {
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
const owner = (a: number, b = 404, staff = 200) => ({
  anonymous: 401,
  providerB: b,
  ...staffStatuses('read:application:any', staff),
  adminWithout2fa: 403,
  providerA: a,
});
/** A write to provider A's data: only the owner; every staff role is refused (spec §6). */
const ownerWrite = (a: number) => ({
  anonymous: 401,
  providerB: 404,
  ...allStaff(403),
  adminWithout2fa: 403,
  providerA: a,
});
/** A staff route that needs `permission` (issue 32): `status` for its first holder, `repeat` after. */
const staffOnly = (permission: Permission, status = 200, repeat = status) => ({
  anonymous: 401,
  providerB: 403,
  ...staffStatuses(permission, status, repeat),
  adminWithout2fa: 403,
  providerA: 403,
});
const everyone = (status: number) => ({
  anonymous: status,
  providerB: status,
  ...allStaff(status),
  adminWithout2fa: status,
  providerA: status,
});
/** Any signed-in caller (their own account), anonymous 401. */
const signedIn = () => ({ ...everyone(200), anonymous: 401 });
/** A provider's own resource that staff do not have (e.g. their application list). */
const providersOnly = (status: number) => ({
  anonymous: 401,
  providerB: status,
  ...allStaff(403),
  adminWithout2fa: 403,
  providerA: status,
});

const sections = (ctx: MatrixContext) => `/api/applications/${ctx.applicationId}/sections`;
/** A meeting (and agenda item) id that names none (issue 32). */
const noMeeting = '00000000-0000-4000-8000-000000000000';

export const authorizationMatrix: Record<string, MatrixEntry> = {
  // System and auth
  'GET /api/health': { expected: everyone(200), request: () => ({ path: '/api/health' }) },
  'GET /api/ready': { expected: everyone(200), request: () => ({ path: '/api/ready' }) },
  'GET /api/openapi.json': { expected: everyone(200), request: () => ({ path: '/api/openapi.json' }) },
  'POST /api/client-events/not-found': {
    expected: everyone(204),
    request: () => ({ path: '/api/client-events/not-found', body: { path: '/nowhere' } }),
  },
  'GET /api/auth/*': { expected: everyone(200), request: () => ({ path: '/api/auth/get-session' }) },
  'POST /api/auth/*': {
    expected: everyone(401),
    request: () => ({
      path: '/api/auth/sign-in/email',
      body: { email: 'matrix.nobody@example.test', password: 'not the password 123' },
    }),
  },
  'GET /api/me': {
    expected: signedIn(),
    request: () => ({ path: '/api/me' }),
  },
  // Public: signed out is a 200 with null, not a 401 (no failed request in a visitor's console).
  'GET /api/session': { expected: everyone(200), request: () => ({ path: '/api/session' }) },
  'GET /api/profile': {
    expected: signedIn(),
    request: () => ({ path: '/api/profile' }),
  },
  // Issue 31: the NUCC taxonomy code set (public reference data) for any signed-in caller.
  'GET /api/taxonomy': {
    expected: signedIn(),
    request: () => ({ path: '/api/taxonomy' }),
  },

  // Applications
  'GET /api/applications': {
    expected: providersOnly(200),
    request: () => ({ path: '/api/applications' }),
  },
  'POST /api/applications': {
    // Both providers already have a draft: 409 proves the call got past authorization.
    expected: providersOnly(409),
    request: () => ({ path: '/api/applications', body: {} }),
  },
  'GET /api/applications/:applicationId': {
    expected: owner(200),
    request: (ctx) => ({ path: `/api/applications/${ctx.applicationId}` }),
  },

  // Sections (spec §6: owner reads and writes, admin reads)
  'GET /api/applications/:applicationId/sections/personal-information': {
    expected: owner(200),
    request: (ctx) => ({ path: `${sections(ctx)}/personal-information` }),
  },
  // Provider A's application is completed (submitted): the owner's writes are refused with 409 (issue 13 lock).
  'PUT /api/applications/:applicationId/sections/personal-information': {
    expected: ownerWrite(409),
    request: (ctx) => ({
      path: `${sections(ctx)}/personal-information`,
      body: { providerType: 'MD', ssn: '123-45-6789' },
    }),
  },
  'GET /api/applications/:applicationId/sections/:slug': {
    expected: owner(200),
    request: (ctx) => ({ path: `${sections(ctx)}/payors` }),
  },
  'POST /api/applications/:applicationId/sections/:slug': {
    expected: ownerWrite(409),
    request: (ctx) => ({ path: `${sections(ctx)}/payors`, body: { payorName: 'Matrix Health Plan' } }),
  },
  'PUT /api/applications/:applicationId/sections/:slug': {
    expected: ownerWrite(409),
    request: (ctx) => ({
      path: `${sections(ctx)}/education`,
      body: { rows: [{ institutionName: 'Matrix University', degreeType: 'doctorate' }] },
    }),
  },
  'DELETE /api/applications/:applicationId/sections/:slug/:rowId': {
    // Locked before the row is looked up (issue 13): any row id answers 409 to the owner.
    expected: ownerWrite(409),
    request: (ctx) => ({ path: `${sections(ctx)}/payors/00000000-0000-4000-8000-000000000000` }),
  },

  // Documents
  'GET /api/applications/:applicationId/documents': {
    expected: owner(200),
    request: (ctx) => ({ path: `/api/applications/${ctx.applicationId}/documents` }),
  },
  'POST /api/applications/:applicationId/documents': {
    expected: ownerWrite(409),
    request: (ctx) => ({ path: `/api/applications/${ctx.applicationId}/documents`, body: ctx.uploadBody() }),
  },
  'DELETE /api/applications/:applicationId/documents/:documentId': {
    // The completed application's document stays (issue 13 lock): 409 to the owner.
    expected: ownerWrite(409),
    request: (ctx) => ({ path: `/api/applications/${ctx.applicationId}/documents/${ctx.documentId}` }),
  },
  'GET /api/documents/:documentId/download': {
    expected: owner(200),
    request: (ctx) => ({ path: `/api/documents/${ctx.documentId}/download` }),
  },

  // Completion notification (provider A's application is complete and already notified: idempotent 202)
  'POST /api/applications/:applicationId/completion': {
    expected: ownerWrite(202),
    // A well-formed attestation (issue 14): ownership is checked before the signature, and A's
    // completion exists already, so no signature is ever compared here.
    request: (ctx) => ({
      path: `/api/applications/${ctx.applicationId}/completion`,
      body: wellFormedAttestation,
    }),
  },

  // Signed link of a links-mode notification (issue 20): public, the token is the capability. A forged
  // token is refused with 403 whoever asks (a session grants nothing here).
  'GET /api/notification-documents/:documentId/:token': {
    expected: everyone(403),
    request: (ctx) => ({
      path: `/api/notification-documents/${ctx.documentId}/9999999999.${'A'.repeat(43)}`,
    }),
  },

  // Admin
  'GET /api/admin/stats': {
    expected: staffOnly('read:application:any'),
    request: () => ({ path: '/api/admin/stats' }),
  },
  'GET /api/admin/providers': {
    expected: staffOnly('read:provider:any'),
    request: () => ({ path: '/api/admin/providers' }),
  },
  'GET /api/admin/providers/:userId': {
    expected: staffOnly('read:provider:any'),
    request: (ctx) => ({ path: `/api/admin/providers/${ctx.userId}` }),
  },
  'GET /api/admin/documents': {
    expected: staffOnly('read:document:any'),
    request: () => ({ path: '/api/admin/documents' }),
  },
  'GET /api/admin/audit-log': {
    expected: staffOnly('read:audit:any'),
    request: () => ({ path: '/api/admin/audit-log' }),
  },
  // The audit log's actor list and its CSV export (issue 34): administrators and auditors.
  'GET /api/admin/audit-log/actors': {
    expected: staffOnly('read:audit:any'),
    request: () => ({ path: '/api/admin/audit-log/actors' }),
  },
  'GET /api/admin/audit-log/export': {
    expected: staffOnly('read:audit:any', 200),
    request: (ctx) => ({ path: `/api/admin/audit-log/export?subjectUserId=${ctx.userId}` }),
  },
  // API clients (issue 33 item 4): Administrators only. The admin registers one client; the revoke
  // names no client (404 past authorization), so the other rows see it live.
  'GET /api/admin/api-clients': {
    expected: staffOnly('manage:api_client:any'),
    request: () => ({ path: '/api/admin/api-clients' }),
  },
  'POST /api/admin/api-clients': {
    expected: staffOnly('manage:api_client:any', 201),
    request: () => ({
      path: '/api/admin/api-clients',
      body: { name: 'Matrix client', scopes: ['roster.read'] },
    }),
  },
  'POST /api/admin/api-clients/:id/revoke': {
    expected: staffOnly('manage:api_client:any', 404),
    request: () => ({ path: '/api/admin/api-clients/00000000-0000-4000-8000-000000000000/revoke', body: {} }),
  },
  // The 'Staff' tab (issue 32 item 2): administrators only. Provider A's roles set to none, as they
  // are: past authorization, nothing changes.
  'GET /api/admin/staff': {
    expected: staffOnly('manage:staff:any'),
    request: () => ({ path: '/api/admin/staff' }),
  },
  'PUT /api/admin/staff/:userId/roles': {
    expected: staffOnly('manage:staff:any'),
    request: (ctx) => ({ path: `/api/admin/staff/${ctx.userId}/roles`, body: { roles: [] } }),
  },
  // Assignment (issue 32 item 3): staff who review. A person who does not review files cannot be
  // assigned (400): past authorization, nothing changes.
  'GET /api/admin/assignees': {
    expected: staffOnly('review:application:any'),
    request: () => ({ path: '/api/admin/assignees' }),
  },
  'POST /api/admin/applications/:applicationId/assign': {
    expected: staffOnly('review:application:any', 400),
    request: (ctx) => ({
      path: `/api/admin/applications/${ctx.applicationId}/assign`,
      body: { userId: ctx.userId },
    }),
  },
  // The 'Expiring' tab and its CSV export (issue 14).
  'GET /api/admin/expiring-credentials': {
    expected: staffOnly('read:provider:any'),
    request: () => ({ path: '/api/admin/expiring-credentials' }),
  },
  'GET /api/admin/expiring-credentials/export': {
    expected: staffOnly('read:provider:any'),
    request: () => ({ path: '/api/admin/expiring-credentials/export?window=expired' }),
  },
  // The decision reports (issue 34 items 1, 3, 6): administrators, medical directors, auditors.
  'GET /api/admin/reports/turnaround': {
    expected: staffOnly('read:report:any', 200),
    request: () => ({ path: '/api/admin/reports/turnaround?from=2026-01-01&to=2026-03-31' }),
  },
  'GET /api/admin/reports/turnaround.csv': {
    expected: staffOnly('read:report:any', 200),
    request: () => ({ path: '/api/admin/reports/turnaround.csv?from=2026-01-01&to=2026-03-31' }),
  },
  'GET /api/admin/reports/timeliness': {
    expected: staffOnly('read:report:any', 200),
    request: () => ({ path: '/api/admin/reports/timeliness?from=2026-01-01&to=2026-03-31' }),
  },
  'GET /api/admin/reports/timeliness.csv': {
    expected: staffOnly('read:report:any', 200),
    request: () => ({ path: '/api/admin/reports/timeliness.csv?from=2026-01-01&to=2026-03-31' }),
  },
  'GET /api/admin/reports/workload': {
    expected: staffOnly('read:report:any', 200),
    request: () => ({ path: '/api/admin/reports/workload?from=2026-01-01&to=2026-03-31' }),
  },
  'GET /api/admin/reports/workload.csv': {
    expected: staffOnly('read:report:any', 200),
    request: () => ({ path: '/api/admin/reports/workload.csv?from=2026-01-01&to=2026-03-31' }),
  },
  'GET /api/admin/notifications': {
    expected: staffOnly('read:application:any'),
    request: () => ({ path: '/api/admin/notifications' }),
  },
  'POST /api/admin/notifications/:notificationId/resend': {
    expected: staffOnly('send:notification:any'),
    request: (ctx) => ({ path: `/api/admin/notifications/${ctx.notificationId}/resend`, body: {} }),
  },
  'GET /api/admin/status-events': {
    expected: staffOnly('read:application:any'),
    request: () => ({ path: '/api/admin/status-events' }),
  },
  'POST /api/admin/status-events/:eventId/resend': {
    expected: staffOnly('send:notification:any'),
    request: (ctx) => ({ path: `/api/admin/status-events/${ctx.statusEventId}/resend`, body: {} }),
  },

  // Credentialing review (issue 13). Registered in this order, each called once per caller: A's
  // submitted application goes under review (the admin's 200; the specialist after it: 409), then
  // gets an open request on Professional Licenses; 'Approve' is then refused (409, request open), 'Reject' without a reason
  // is a 400 (past authorization, nothing consumed).
  'POST /api/admin/applications/:applicationId/start-review': {
    expected: staffOnly('review:application:any', 200, 409),
    request: (ctx) => ({ path: `/api/admin/applications/${ctx.applicationId}/start-review`, body: {} }),
  },
  'POST /api/admin/applications/:applicationId/request-information': {
    expected: staffOnly('review:application:any', 200, 409),
    request: (ctx) => ({
      path: `/api/admin/applications/${ctx.applicationId}/request-information`,
      body: { message: 'Please update your license.', sections: ['professionalLicenses'] },
    }),
  },
  // Issue 32 item 4: the request is open, so 'Send for Decision' and 'Approve' are refused (409) past
  // authorization; 'Send to Committee' without a note is a 400. The staff 'Reject' route is gone.
  'POST /api/admin/applications/:applicationId/send-for-decision': {
    expected: staffOnly('review:application:any', 409),
    request: (ctx) => ({ path: `/api/admin/applications/${ctx.applicationId}/send-for-decision`, body: {} }),
  },
  'POST /api/admin/applications/:applicationId/send-to-committee': {
    expected: staffOnly('decide:application:any', 400),
    request: (ctx) => ({ path: `/api/admin/applications/${ctx.applicationId}/send-to-committee`, body: {} }),
  },
  'POST /api/admin/applications/:applicationId/approve': {
    expected: staffOnly('decide:application:any', 409),
    request: (ctx) => ({ path: `/api/admin/applications/${ctx.applicationId}/approve`, body: {} }),
  },
  'GET /api/admin/decisions': {
    expected: staffOnly('read:application:any', 200),
    request: () => ({ path: '/api/admin/decisions?list=committee' }),
  },
  // Issue 32 item 5: every staff role reads meetings (a Committee Member only theirs: a meeting that
  // does not exist is a 404 for all); changes need `manage:meeting:any` and reach validation (400) or
  // the unknown meeting (404).
  'GET /api/committee/members': {
    expected: staffOnly('manage:meeting:any'),
    request: () => ({ path: '/api/committee/members' }),
  },
  'GET /api/committee/meetings': {
    expected: { ...staffOnly('read:meeting:any'), committee: 200 },
    request: () => ({ path: '/api/committee/meetings' }),
  },
  'POST /api/committee/meetings': {
    expected: staffOnly('manage:meeting:any', 400),
    request: () => ({ path: '/api/committee/meetings', body: {} }),
  },
  'GET /api/committee/meetings/:meetingId': {
    expected: { ...staffOnly('read:meeting:any', 404), committee: 404 },
    request: () => ({ path: `/api/committee/meetings/${noMeeting}` }),
  },
  'POST /api/committee/meetings/:meetingId/agenda': {
    expected: staffOnly('manage:meeting:any', 404),
    request: (ctx) => ({
      path: `/api/committee/meetings/${noMeeting}/agenda`,
      body: { applicationId: ctx.applicationId },
    }),
  },
  'PUT /api/committee/meetings/:meetingId/agenda': {
    expected: staffOnly('manage:meeting:any', 404),
    request: () => ({ path: `/api/committee/meetings/${noMeeting}/agenda`, body: { itemIds: [] } }),
  },
  'DELETE /api/committee/meetings/:meetingId/agenda/:itemId': {
    expected: staffOnly('manage:meeting:any', 404),
    request: () => ({ path: `/api/committee/meetings/${noMeeting}/agenda/${noMeeting}` }),
  },
  'PUT /api/committee/meetings/:meetingId/agenda/:itemId/recusals': {
    expected: staffOnly('manage:meeting:any', 404),
    request: () => ({
      path: `/api/committee/meetings/${noMeeting}/agenda/${noMeeting}/recusals`,
      body: { memberIds: [] },
    }),
  },
  'POST /api/committee/meetings/:meetingId/agenda/:itemId/decision': {
    expected: staffOnly('manage:meeting:any', 400),
    request: () => ({ path: `/api/committee/meetings/${noMeeting}/agenda/${noMeeting}/decision`, body: {} }),
  },
  'POST /api/committee/meetings/:meetingId/close': {
    expected: staffOnly('manage:meeting:any', 404),
    request: () => ({ path: `/api/committee/meetings/${noMeeting}/close`, body: {} }),
  },
  'GET /api/committee/meetings/:meetingId/files/:applicationId': {
    expected: { ...staffOnly('read:meeting:any', 404), committee: 404 },
    request: (ctx) => ({ path: `/api/committee/meetings/${noMeeting}/files/${ctx.applicationId}` }),
  },
  'GET /api/committee/meetings/:meetingId/minutes.pdf': {
    expected: { ...staffOnly('read:meeting:any', 404), committee: 404 },
    request: () => ({ path: `/api/committee/meetings/${noMeeting}/minutes.pdf` }),
  },
  'GET /api/admin/applications/:applicationId/review': {
    expected: staffOnly('read:application:any', 200),
    request: (ctx) => ({ path: `/api/admin/applications/${ctx.applicationId}/review` }),
  },
  // Issue 33 item 2: the roster (of whoever is credentialed: none here, a header only) and its columns.
  'GET /api/admin/roster.csv': {
    expected: staffOnly('read:section:any', 200),
    request: () => ({ path: '/api/admin/roster.csv' }),
  },
  'GET /api/admin/roster.xlsx': {
    expected: staffOnly('read:section:any', 200),
    request: () => ({ path: '/api/admin/roster.xlsx' }),
  },
  'GET /api/admin/roster/columns': {
    expected: staffOnly('read:section:any', 200),
    request: () => ({ path: '/api/admin/roster/columns' }),
  },
  'PUT /api/admin/roster/columns': {
    expected: staffOnly('read:section:any', 200),
    request: () => ({ path: '/api/admin/roster/columns', body: { columns: ['npi', 'last_name'] } }),
  },
  // Issue 33 item 1: A's application is completed (version 1), so a reader gets the PDF.
  'GET /api/admin/applications/:applicationId/file-summary.pdf': {
    expected: staffOnly('read:application:any', 200),
    request: (ctx) => ({ path: `/api/admin/applications/${ctx.applicationId}/file-summary.pdf` }),
  },
  'GET /api/admin/applications/:applicationId/versions/:version': {
    expected: staffOnly('read:application:any', 200),
    request: (ctx) => ({ path: `/api/admin/applications/${ctx.applicationId}/versions/1` }),
  },
  'PATCH /api/admin/applications/:applicationId/verification-items/:itemId': {
    // An item id of no item: past authorization, 404.
    expected: staffOnly('review:application:any', 404),
    request: (ctx) => ({
      path: `/api/admin/applications/${ctx.applicationId}/verification-items/00000000-0000-4000-8000-000000000000`,
      body: { status: 'pending' },
    }),
  },
  'GET /api/admin/review-queue': {
    expected: staffOnly('read:application:any', 200),
    request: () => ({ path: '/api/admin/review-queue?assigned=me' }),
  },
  // Provider B cannot read A's review nor answer A's requests (404: existence not revealed).
  'GET /api/applications/:applicationId/expiring-credentials': {
    expected: owner(200),
    request: (ctx) => ({ path: `/api/applications/${ctx.applicationId}/expiring-credentials` }),
  },
  'GET /api/applications/:applicationId/review': {
    expected: owner(200),
    request: (ctx) => ({ path: `/api/applications/${ctx.applicationId}/review` }),
  },
  'POST /api/applications/:applicationId/attestation': {
    // A's application is submitted: the owner reaches the signature check, which refuses a name that
    // is not the profile's (400, nothing stored); admins may not attest for a provider (403).
    expected: ownerWrite(400),
    request: (ctx) => ({
      path: `/api/applications/${ctx.applicationId}/attestation`,
      body: wellFormedAttestation,
    }),
  },
  'POST /api/applications/:applicationId/information-requests/:requestId/response': {
    // A request id that is not A's open request: 404 for the owner too; admins may not respond (403).
    expected: ownerWrite(404),
    request: (ctx) => ({
      path: `/api/applications/${ctx.applicationId}/information-requests/00000000-0000-4000-8000-000000000000/response`,
      body: {},
    }),
  },
  // Issue 29. A's application is under review: no credential update, withdrawal, recredentialing or
  // confirmation applies to it (409 past authorization, nothing changed); 'Close Without Decision'
  // without a reason is a 400 (past authorization, the application stays as it is).
  'GET /api/applications/:applicationId/credential-update': {
    expected: owner(200),
    request: (ctx) => ({ path: `/api/applications/${ctx.applicationId}/credential-update` }),
  },
  'POST /api/applications/:applicationId/credential-update': {
    expected: ownerWrite(409),
    request: (ctx) => ({ path: `/api/applications/${ctx.applicationId}/credential-update`, body: {} }),
  },
  'GET /api/admin/applications/:applicationId/credential-update': {
    expected: staffOnly('read:application:any', 200),
    request: (ctx) => ({ path: `/api/admin/applications/${ctx.applicationId}/credential-update` }),
  },
  'POST /api/admin/applications/:applicationId/credential-update/complete': {
    expected: staffOnly('review:application:any', 409),
    request: (ctx) => ({
      path: `/api/admin/applications/${ctx.applicationId}/credential-update/complete`,
      body: {},
    }),
  },
  'POST /api/applications/:applicationId/withdraw': {
    expected: ownerWrite(409),
    request: (ctx) => ({ path: `/api/applications/${ctx.applicationId}/withdraw`, body: {} }),
  },
  // Issue 32 item 6: A's application is under review, so its owner's 'Request Appeal' is refused
  // (409) past authorization; staff never appeal for a provider (403). A letter id that names none:
  // the owner and staff who read files reach the 404.
  'POST /api/applications/:applicationId/appeal': {
    expected: ownerWrite(409),
    request: (ctx) => ({ path: `/api/applications/${ctx.applicationId}/appeal`, body: { statement: 'x' } }),
  },
  'GET /api/applications/:applicationId/letters/:letterId': {
    expected: owner(404, 404, 404),
    request: (ctx) => ({ path: `/api/applications/${ctx.applicationId}/letters/${noMeeting}` }),
  },
  'POST /api/admin/applications/:applicationId/close': {
    expected: staffOnly('review:application:any', 400),
    request: (ctx) => ({ path: `/api/admin/applications/${ctx.applicationId}/close`, body: {} }),
  },
  'POST /api/admin/applications/:applicationId/start-recredentialing': {
    expected: staffOnly('review:application:any', 409),
    request: (ctx) => ({
      path: `/api/admin/applications/${ctx.applicationId}/start-recredentialing`,
      body: {},
    }),
  },
  'POST /api/applications/:applicationId/sections/:slug/confirm': {
    expected: ownerWrite(409),
    request: (ctx) => ({ path: `${sections(ctx)}/education/confirm`, body: {} }),
  },
  // The workflow tool's inbound webhook (issue 13): no session counts, only a Standard Webhooks
  // signature; a session cookie without one is 401 for everyone (signature tests:
  // server/review/integration.routes.test.ts).
  'POST /api/integrations/webhooks': {
    expected: everyone(401),
    request: (ctx) => ({
      path: '/api/integrations/webhooks',
      body: { type: 'application.note', data: { applicationId: ctx.applicationId, note: 'unsigned' } },
    }),
  },
  // Evidence files (issue 13): administrators only; ids of nothing are 404 past authorization.
  'POST /api/admin/applications/:applicationId/verification-items/:itemId/evidence': {
    expected: staffOnly('review:application:any', 404),
    request: (ctx) => ({
      path: `/api/admin/applications/${ctx.applicationId}/verification-items/00000000-0000-4000-8000-000000000000/evidence`,
      body: ctx.uploadBody(),
    }),
  },
  'GET /api/admin/applications/:applicationId/evidence/:evidenceId/download': {
    expected: staffOnly('read:application:any', 404),
    request: (ctx) => ({
      path: `/api/admin/applications/${ctx.applicationId}/evidence/00000000-0000-4000-8000-000000000000/download`,
    }),
  },
  'DELETE /api/admin/applications/:applicationId/evidence/:evidenceId': {
    expected: staffOnly('review:application:any', 404),
    request: (ctx) => ({
      path: `/api/admin/applications/${ctx.applicationId}/evidence/00000000-0000-4000-8000-000000000000`,
    }),
  },
  // 'Check NPPES' (issue 15): administrators only; an item id of nothing is 404 past authorization.
  'POST /api/admin/applications/:applicationId/verification-items/:itemId/nppes': {
    expected: staffOnly('review:application:any', 404),
    request: (ctx) => ({
      path: `/api/admin/applications/${ctx.applicationId}/verification-items/00000000-0000-4000-8000-000000000000/nppes`,
      body: {},
    }),
  },
  // Exclusion screening (issue 30): administrators only. The matrix stages and applies nothing (an
  // empty body is refused past authorization; the ids name nothing) so the other rows see no list.
  'GET /api/admin/exclusions': {
    expected: staffOnly('read:application:any', 200),
    request: () => ({ path: '/api/admin/exclusions' }),
  },
  'POST /api/admin/exclusions/imports': {
    expected: staffOnly('review:application:any', 400),
    request: () => ({ path: '/api/admin/exclusions/imports', body: {} }),
  },
  'POST /api/admin/exclusions/imports/:id/apply': {
    expected: staffOnly('review:application:any', 404),
    request: () => ({ path: '/api/admin/exclusions/imports/2147483000/apply', body: {} }),
  },
  'DELETE /api/admin/exclusions/imports/:id': {
    expected: staffOnly('review:application:any', 404),
    request: () => ({ path: '/api/admin/exclusions/imports/2147483000' }),
  },
  'GET /api/admin/screening-matches': {
    expected: staffOnly('read:application:any', 200),
    request: () => ({ path: '/api/admin/screening-matches' }),
  },
  // The pipeline reports (issue 34 items 2, 4, 5): administrators, the medical director, auditors.
  'GET /api/admin/reports/backlog': {
    expected: staffOnly('read:report:any', 200),
    request: () => ({ path: '/api/admin/reports/backlog' }),
  },
  'GET /api/admin/reports/backlog.csv': {
    expected: staffOnly('read:report:any', 200),
    request: () => ({ path: '/api/admin/reports/backlog.csv' }),
  },
  'GET /api/admin/reports/expirables': {
    expected: staffOnly('read:report:any', 200),
    request: () => ({ path: '/api/admin/reports/expirables' }),
  },
  'GET /api/admin/reports/expirables.csv': {
    expected: staffOnly('read:report:any', 200),
    request: () => ({ path: '/api/admin/reports/expirables.csv' }),
  },
  'GET /api/admin/reports/screening': {
    expected: staffOnly('read:report:any', 200),
    request: () => ({ path: '/api/admin/reports/screening' }),
  },
  'GET /api/admin/reports/screening.csv': {
    expected: staffOnly('read:report:any', 200),
    request: () => ({ path: '/api/admin/reports/screening.csv' }),
  },
  'POST /api/admin/screening-matches/:id/decision': {
    expected: staffOnly('review:application:any', 404),
    request: () => ({
      path: '/api/admin/screening-matches/00000000-0000-4000-8000-000000000000/decision',
      body: { decision: 'not_same_person', reason: 'matrix' },
    }),
  },
};
