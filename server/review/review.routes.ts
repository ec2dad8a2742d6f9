/**
 * The credentialing review's API (issue 13, docs/decisions/018-review-workflow.md). Schemas:
 * domain/api/review.ts. Handlers: authenticate -> validate -> authorize -> service -> present.
 *
 * Administrators (`review:application:any`, which needs a second factor), under /api/admin:
 * - POST /api/admin/applications/:applicationId/start-review   submitted -> under_review, assigns the caller
 * - POST /api/admin/applications/:applicationId/request-information { message, sections }
 * ('Approve' of a clean file is server/committee's since issue 32; a denial is the committee's.)
 * - GET  /api/admin/applications/:applicationId/review         status, versions, checklist, requests, timeline
 * - GET  /api/admin/applications/:applicationId/versions/:version  one snapshot and its changes
 * - PATCH /api/admin/applications/:applicationId/verification-items/:itemId
 * - GET  /api/admin/review-queue?status=&assigned=me&page=
 * Providers (the owner; another provider gets 404):
 * - GET  /api/applications/:applicationId/review
 * - POST /api/applications/:applicationId/information-requests/:requestId/response { reply? }
 *
 * Refusals: 409 with the state machine's message (domain/review/review-workflow.ts), 404 for an
 * unknown or another provider's application. Emails leave after the commit (mail/review-mail.ts).
 */

import type { FastifyRequest } from 'fastify';
import { nppesCheckSchema } from '../../domain/api/nppes.ts';
import {
  adminReviewSchema,
  applicationVersionSchema,
  informationRequestParamsSchema,
  informationResponseBodySchema,
  providerReviewSchema,
  requestInformationBodySchema,
  reviewParamsSchema,
  reviewQueueQuerySchema,
  reviewQueueSchema,
  transitionResultSchema,
  verificationItemParamsSchema,
  verificationItemSchema,
  verificationUpdateSchema,
  versionParamsSchema,
} from '../../domain/api/review.ts';
import { errorResponseSchema, errorResponses } from '../../domain/app-error.ts';
import { attestationInputSchema, attestationRecordSchema } from '../../domain/attestation.ts';
import type { Permission } from '../../domain/permissions.ts';
import { sendRememberedAnswer } from '../admin/list-cache.ts';
import type { AppInstance } from '../app-types.ts';
import { reattest } from '../attestations/attestation.service.ts';
import { createReattestationLimit } from '../attestations/reattestation-limit.ts';
import { requireActor, requirePermission, staffRoutePermission } from '../auth/actor.ts';
import { recordFileView, requireFileReader, requireFileReaderRole } from '../auth/file-readers.ts';
import { decisionClockLimitsOf } from '../env.ts';
import { sendReviewMails } from '../mail/review-mail.ts';
import { requestInformation, submitResponse } from './information-requests.service.ts';
import { checkNppes } from './nppes-check.service.ts';
import { reviewQueue } from './review-queue.service.ts';
import { getAdminReview, getProviderReview, getVersion } from './review-reads.service.ts';
import { startReview } from './review-start.service.ts';
import type { TransitionOutcome } from './review-transaction.ts';
import { updateVerificationItem } from './verification-items.service.ts';

/**
 * The permission each staff review route needs (issue 32, domain/permissions.ts): reading the queue
 * and a file `read:application:any`; every step of the review `review:application:any`.
 */
function reviewRoutePermission(request: FastifyRequest): Permission {
  return staffRoutePermission(request, 'review:application:any');
}

/** The staff review routes: each needs `reviewRoutePermission` (checked on request). */
export async function reviewAdminRoutes(app: AppInstance) {
  // Before validation, so an anonymous caller gets 401 and a provider 403 whatever they send.
  app.addHook('onRequest', async (request) => {
    // Issue 50 item 6: a committee member reads a file on their meeting's agenda (checked per file).
    if (request.method === 'GET' && request.routeOptions.config?.committeeReads)
      await requireFileReaderRole(request);
    else await requirePermission(request, reviewRoutePermission(request));
  });

  const reviewer = async (request: FastifyRequest) => ({
    actor: await requirePermission(request, reviewRoutePermission(request)),
    role: 'reviewer' as const,
  });
  const finish = async (outcome: TransitionOutcome, log: AppInstance['log']) => {
    // The status event is in the outbox already (committed with the change): send it now.
    void app.deps.statusEvents.kick();
    await sendReviewMails(app.deps.mailer, log, app.deps.env.appUrl, outcome.mails);
    return { applicationStatus: outcome.applicationStatus };
  };
  const transition = { 200: transitionResultSchema, ...errorResponses };

  app.post(
    '/api/admin/applications/:applicationId/start-review',
    {
      config: { access: 'admin', fileDuty: { duty: 'start_review', file: 'application' } },
      schema: {
        summary:
          "'Start Review': submitted -> under_review, assigned to the caller, checklist generated (issue 13)",
        tags: ['review'],
        params: reviewParamsSchema,
        response: transition,
      },
    },
    async (request) => {
      const caller = await reviewer(request);
      const outcome = await startReview(app.deps.db, caller, request.params.applicationId, new Date());
      request.log.info({ applicationId: request.params.applicationId }, 'review started');
      return finish(outcome, request.log);
    },
  );

  app.post(
    '/api/admin/applications/:applicationId/request-information',
    {
      config: { access: 'admin', fileDuty: { duty: 'request_information', file: 'application' } },
      schema: {
        summary: "'Request Information': a message and the sections the provider may edit again (issue 13)",
        description:
          '`sections`: section keys of the registry (1 to 11). At most one open request per application.',
        tags: ['review'],
        params: reviewParamsSchema,
        body: requestInformationBodySchema,
        response: {
          200: transitionResultSchema.extend({ requestId: informationRequestParamsSchema.shape.requestId }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const caller = await reviewer(request);
      const outcome = await requestInformation(
        app.deps.db,
        caller,
        request.params.applicationId,
        request.body,
        new Date(),
      );
      return { ...(await finish(outcome, request.log)), requestId: outcome.requestId };
    },
  );

  app.get(
    '/api/admin/applications/:applicationId/review',
    {
      config: { access: 'admin', committeeReads: true },
      schema: {
        summary: "The reviewer's view: status, reviewer, versions, checklist, requests, timeline (issue 13)",
        tags: ['review'],
        params: reviewParamsSchema,
        response: { 200: adminReviewSchema, ...errorResponses },
      },
    },
    async (request) => {
      const actor = await requireFileReader(request, request.params.applicationId, 'review');
      // Issue 51 item 5: every staff read of the file is in the audit log, written alongside the read;
      // the page is answered only when both succeeded.
      const [review] = await Promise.all([
        getAdminReview(
          app.deps.db,
          request.params.applicationId,
          {
            cipher: app.deps.cipher,
            validDays: app.deps.env.ATTESTATION_VALID_DAYS,
            verificationMaxAgeDays: app.deps.env.VERIFICATION_MAX_AGE_DAYS,
            now: new Date(),
          },
          actor.roles,
          actor.userId,
        ),
        recordFileView(app.deps.db, actor, request.params.applicationId, { what: 'review' }),
      ]);
      return review;
    },
  );

  app.get(
    '/api/admin/applications/:applicationId/versions/:version',
    {
      config: { access: 'admin', committeeReads: true },
      schema: {
        summary: 'One frozen snapshot of the application and its field-by-field changes (issue 13)',
        tags: ['review'],
        params: versionParamsSchema,
        response: { 200: applicationVersionSchema, ...errorResponses },
      },
    },
    async (request) => {
      const actor = await requireFileReader(request, request.params.applicationId, 'version');
      const version = await getVersion(app.deps.db, request.params.applicationId, request.params.version);
      await recordFileView(app.deps.db, actor, request.params.applicationId, {
        what: 'version',
        version: request.params.version,
      });
      return version;
    },
  );

  app.patch(
    '/api/admin/applications/:applicationId/verification-items/:itemId',
    {
      config: { access: 'admin', fileDuty: { duty: 'verify', file: 'application' } },
      schema: {
        summary: "Record one checklist item: 'Verify', discrepancy, waive or back to pending (issue 13)",
        description: '`source` and `verifiedAt` are required to verify; `waiverReason` to waive.',
        tags: ['review'],
        params: verificationItemParamsSchema,
        body: verificationUpdateSchema,
        response: { 200: verificationItemSchema, ...errorResponses },
      },
    },
    async (request) => {
      const caller = await reviewer(request);
      return updateVerificationItem(
        app.deps.db,
        caller,
        request.params.applicationId,
        request.params.itemId,
        request.body,
        new Date(),
      );
    },
  );

  app.post(
    '/api/admin/applications/:applicationId/verification-items/:itemId/nppes',
    {
      config: { access: 'admin', fileDuty: { duty: 'verify', file: 'application' } },
      schema: {
        summary: "'Check NPPES' on the NPI item: the NPI Registry's record and its mismatches (issue 15)",
        description:
          "Looks the NPI of the newest snapshot up in the NPPES NPI Registry API 2.1 (NPPES_API_URL; 5 s per attempt body included, one retry, no redirect followed, at most 1 MB read, records cached a day) and keeps the raw record on the item. 404 when NPPES has no such NPI; 502 when NPPES answers with its own error, an error page, a redirect, more than 1 MB or another NPI's record (issue 30 item 6); 503 when NPPES is unreachable.",
        tags: ['review'],
        params: verificationItemParamsSchema,
        response: {
          200: nppesCheckSchema,
          ...errorResponses,
          502: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
    },
    async (request) => {
      const caller = await reviewer(request);
      return checkNppes(
        app.deps.db,
        app.deps.nppes,
        caller,
        request.params.applicationId,
        request.params.itemId,
        new Date(),
      );
    },
  );

  app.get(
    '/api/admin/review-queue',
    {
      config: { access: 'admin' },
      schema: {
        summary:
          "'Review Queue': submitted and under-review applications, oldest submission first (issue 13)",
        tags: ['review'],
        querystring: reviewQueueQuerySchema,
        response: { 200: reviewQueueSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { actor } = await reviewer(request);
      const { status, assigned, page } = request.query;
      // Remembered until a write changes the queue or the clock moves a day in it; 'assigned to me'
      // is each reviewer's own.
      const key = `${status ?? 'all'}\u0000${assigned === 'me' ? actor.userId : ''}\u0000${page}`;
      return sendRememberedAnswer(reply, app.deps.db, 'reviewQueue', key, async () => {
        const { queue, validUntil } = await reviewQueue(
          app.deps.db,
          actor,
          request.query,
          new Date(),
          decisionClockLimitsOf(app.deps.env),
        );
        return { body: queue, validUntil };
      });
    },
  );
}

/** The provider's side of the review: their application's review state and their responses. */
export async function reviewProviderRoutes(app: AppInstance) {
  const reattestationLimit = createReattestationLimit(app.deps.database.pool);
  app.get(
    '/api/applications/:applicationId/review',
    {
      config: { access: 'signed-in' },
      schema: {
        summary:
          'The review as the provider sees it: status, dates, rejection reason, open request (issue 13)',
        description: 'The owner, or an administrator (read:application:any); another provider gets 404.',
        tags: ['review'],
        params: reviewParamsSchema,
        response: { 200: providerReviewSchema, ...errorResponses },
      },
    },
    async (request) => {
      const actor = await requireActor(request);
      return getProviderReview(app.deps.db, actor, request.params.applicationId, {
        validDays: app.deps.env.ATTESTATION_VALID_DAYS,
        now: new Date(),
      });
    },
  );

  app.post(
    '/api/applications/:applicationId/information-requests/:requestId/response',
    {
      config: { access: 'provider' },
      schema: {
        summary: "'Submit Response' to the open information request; stores a new version (issue 13)",
        tags: ['review'],
        params: informationRequestParamsSchema,
        body: informationResponseBodySchema,
        response: {
          200: transitionResultSchema.extend({ version: versionParamsSchema.shape.version }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const actor = await requirePermission(request, 'write:section:own');
      const outcome = await submitResponse(
        app.deps.db,
        actor,
        request.params.applicationId,
        request.params.requestId,
        request.body.reply,
        new Date(),
      );
      await sendReviewMails(app.deps.mailer, request.log, app.deps.env.appUrl, outcome.mails);
      return { applicationStatus: outcome.applicationStatus, version: outcome.version };
    },
  );

  app.post(
    '/api/applications/:applicationId/attestation',
    {
      config: { access: 'provider' },
      schema: {
        summary: 'Attest again while the credentialing team reviews the application (issue 14)',
        description:
          "The same attestation as at completion (domain/attestation.ts); the typed name must be the profile's. " +
          'Stored as a re-attestation of the newest snapshot. 409 unless the application is submitted or under review, ' +
          'and while its latest attestation is not yet older than ATTESTATION_VALID_DAYS (the message names the day it is due). ' +
          '429 after 10 attempts an hour per provider (Retry-After).',
        tags: ['review'],
        params: reviewParamsSchema,
        body: attestationInputSchema,
        response: { 201: attestationRecordSchema, ...errorResponses, 429: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const actor = await requirePermission(request, 'send:notification:own');
      await reattestationLimit.beforeAttempt(actor.userId);
      const record = await reattest(
        app.deps.db,
        app.deps.cipher,
        actor,
        request.params.applicationId,
        request.body,
        request.headers['user-agent'] ?? null,
        { validDays: app.deps.env.ATTESTATION_VALID_DAYS, now: new Date() },
      );
      return reply.status(201).send(record);
    },
  );
}
