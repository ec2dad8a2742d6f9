/**
 * The authorization matrix (authorization-matrix.ts): the review of one file, from Start Review to
 * 'Send for Decision' and the medical director's 'Approve', the provider's side of it (review,
 * attestation, response, credential update, withdrawal, appeal, letters, confirmations), the cycle
 * actions, the inbound webhook, evidence files and 'Check NPPES'.
 */
import {
  everyone,
  type MatrixEntry,
  noMeeting,
  owner,
  ownerWrite,
  sections,
  staffOnly,
  wellFormedAttestation,
} from './authorization-matrix-callers.ts';

export const reviewMatrix: Record<string, MatrixEntry> = {
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
    request: (ctx) => ({
      path: `/api/admin/applications/${ctx.applicationId}/approve`,
      body: { reviewed: true, code: '000000' },
    }),
  },
  'GET /api/admin/decisions': {
    expected: staffOnly('read:application:any', 200),
    request: () => ({ path: '/api/admin/decisions?list=committee' }),
  },
  'GET /api/admin/applications/:applicationId/review': {
    expected: staffOnly('read:application:any', 200),
    request: (ctx) => ({ path: `/api/admin/applications/${ctx.applicationId}/review` }),
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
  // Issue 49: 'Change Legal Name'. A's application is under review, so no change can be sent (409).
  'GET /api/applications/:applicationId/legal-name': {
    expected: owner(200, 404, 403),
    request: (ctx) => ({ path: `/api/applications/${ctx.applicationId}/legal-name` }),
  },
  'POST /api/applications/:applicationId/legal-name': {
    expected: ownerWrite(409),
    request: (ctx) => ({
      path: `/api/applications/${ctx.applicationId}/legal-name`,
      body: { firstName: 'New', lastName: 'Name', documentId: '00000000-0000-4000-8000-000000000000' },
    }),
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
  // Issue 50 item 8: the appeal's PDFs. A's application is under review, so an upload is refused
  // (409) past authorization, before its body is read; an attachment id that names none is 404 for
  // the owner's removal and for every reader (a committee member without a meeting: 403).
  'POST /api/applications/:applicationId/appeal/attachments': {
    expected: ownerWrite(409),
    request: (ctx) => ({
      path: `/api/applications/${ctx.applicationId}/appeal/attachments`,
      body: ctx.uploadBody(),
    }),
  },
  'DELETE /api/applications/:applicationId/appeal/attachments/:attachmentId': {
    expected: ownerWrite(404),
    request: (ctx) => ({ path: `/api/applications/${ctx.applicationId}/appeal/attachments/${noMeeting}` }),
  },
  'GET /api/applications/:applicationId/appeal/attachments/:attachmentId': {
    expected: owner(404, 404, 404),
    request: (ctx) => ({ path: `/api/applications/${ctx.applicationId}/appeal/attachments/${noMeeting}` }),
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
  // Issue 53 item 2: signed with NOTIFY_WEBHOOK_SECRET, no session; the test app has no secret (503).
  'POST /api/notifications/receipts': {
    expected: everyone(503),
    request: () => ({ path: '/api/notifications/receipts', body: { webhookId: 'msg_x', action: 'claim' } }),
  },
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
};
