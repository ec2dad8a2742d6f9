/**
 * The authorization matrix (authorization-matrix.ts): the public and signed-in routes (health, auth,
 * session, profile, taxonomy) and the provider's own application: applications, sections, documents,
 * completion and the signed document links.
 */
import {
  everyone,
  type MatrixEntry,
  owner,
  ownerWrite,
  providersOnly,
  sections,
  signedIn,
  wellFormedAttestation,
} from './authorization-matrix-callers.ts';

export const providerMatrix: Record<string, MatrixEntry> = {
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
};
