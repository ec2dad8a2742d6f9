/**
 * The authorization matrix (authorization-matrix.ts): the admin dashboard's tabs and downloads (lists,
 * audit log, API clients, Staff, assignment, Expiring, reports, notifications and status events, the
 * roster and the file summary, exclusion screening).
 */
import { type MatrixEntry, staffOnly } from './authorization-matrix-callers.ts';

export const adminMatrix: Record<string, MatrixEntry> = {
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
  'POST /api/admin/api-clients/:id/rotate-secret': {
    expected: staffOnly('manage:api_client:any', 404),
    request: () => ({
      path: '/api/admin/api-clients/00000000-0000-4000-8000-000000000000/rotate-secret',
      body: {},
    }),
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
  // Issue 50 item 7: the organization's settings, administrators only.
  'GET /api/admin/settings': {
    expected: staffOnly('manage:staff:any'),
    request: () => ({ path: '/api/admin/settings' }),
  },
  'PUT /api/admin/settings': {
    expected: staffOnly('manage:staff:any'),
    request: () => ({
      path: '/api/admin/settings',
      body: { organizationName: 'Matrix Health', address: '', signerName: '', signerTitle: '' },
    }),
  },
  'GET /api/admin/applications/:applicationId/file-summary.pdf': {
    expected: staffOnly('read:application:any', 200),
    request: (ctx) => ({ path: `/api/admin/applications/${ctx.applicationId}/file-summary.pdf` }),
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
  'POST /api/admin/screening-matches/:id/decision': {
    expected: staffOnly('review:application:any', 404),
    request: () => ({
      path: '/api/admin/screening-matches/00000000-0000-4000-8000-000000000000/decision',
      body: { decision: 'not_same_person', reason: 'matrix' },
    }),
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
};
