/**
 * `POST /api/integrations/webhooks` (issue 13 "Integration", decision 018): the workflow tool acts
 * back on the review. Standard Webhooks (https://www.standardwebhooks.com) with its own secret
 * INBOUND_WEBHOOK_SECRET: the `standardwebhooks` package checks the signature over the raw body and
 * refuses timestamps more than 5 minutes from now (401). Each `webhook-id` is applied once: its row in
 * `inbound_webhooks` is written in the transaction of the change, so a replay gets the first answer
 * back and changes nothing. Actions go through the reviewer's service functions (same state machine,
 * same guards, same mails and status events), audited with no user and `actor: 'integration'`.
 * No cookie, no session: the signature is the credential (CSRF does not apply to a cookie-less call).
 */
import { eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  INBOUND_WEBHOOK_MAX_BYTES,
  INTEGRATION_ACTOR_NAME,
  type InboundWebhook,
  inboundWebhookResultSchema,
  inboundWebhookSchema,
} from '../../domain/api/integration.ts';
import { AppError, errorResponseSchema } from '../../domain/app-error.ts';
import type { ApplicationStatus } from '../../domain/application-status.ts';
import type { AppInstance } from '../app-types.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Database } from '../db/client.ts';
import { providerApplications } from '../db/schema/core.ts';
import { inboundWebhooks } from '../db/schema/review.ts';
import { assertStorableText } from '../http/unstorable-text.ts';
import { sendReviewMails } from '../mail/review-mail.ts';
import { verifySignedRequest } from '../notifications/webhook-signature.ts';
import { integrationDecision } from './review-decisions.service.ts';
import { startReview } from './review-start.service.ts';
import type { ReviewCaller, TransitionOutcome } from './review-transaction.ts';

/** Longest `webhook-id` kept, characters. */
const WEBHOOK_ID_MAX = 200;

type Result = z.infer<typeof inboundWebhookResultSchema>;

/**
 * The verified message, or a 401 saying what is wrong (never which byte); 400 when the body is not
 * JSON or holds text PostgreSQL cannot store (NUL).
 */
function verify(secret: string, request: FastifyRequest): { id: string; message: unknown } {
  const body = request.body as Buffer;
  const id = verifySignedRequest({
    secret,
    secretName: 'INBOUND_WEBHOOK_SECRET',
    headers: request.headers,
    body,
    maxIdLength: WEBHOOK_ID_MAX,
  });
  let message: unknown;
  try {
    message = JSON.parse(body.toString('utf8'));
  } catch {
    throw new AppError('bad_request', 'The body must be JSON.');
  }
  // The app's NUL guard saw the raw bytes (this route parses its own body): check the parsed text,
  // which a JSON escape (`\u0000`) can carry into a note or a reason (issue 28 item 3).
  assertStorableText(message, 'body');
  return { id, message };
}

/** Apply one verified message in `tx` (the transaction that records its webhook-id). */
async function apply(
  tx: Database,
  message: InboundWebhook,
  caller: ReviewCaller,
  now: Date,
  maxAgeDays: number,
): Promise<{ result: Result; outcome?: TransitionOutcome }> {
  const { applicationId } = message.data;
  if (message.type === 'application.note') {
    const [application] = await tx
      .select({ userId: providerApplications.userId, status: providerApplications.applicationStatus })
      .from(providerApplications)
      .where(eq(providerApplications.id, applicationId));
    if (!application) {
      throw new AppError('not_found', 'No application has this id. Check data.applicationId.');
    }
    await recordAudit(tx, {
      action: 'review.note_added',
      actorUserId: null,
      subjectUserId: application.userId,
      resourceType: 'application',
      resourceId: applicationId,
      ipAddress: caller.actor.ipAddress,
      details: {
        applicationId,
        actor: 'integration',
        integration: INTEGRATION_ACTOR_NAME,
        note: message.data.note,
      },
    });
    return { result: { applied: true, applicationId, applicationStatus: application.status } };
  }
  const { action, reason } = message.data;
  let outcome: TransitionOutcome;
  if (action === 'start_review') outcome = await startReview(tx, caller, applicationId, now);
  else if (action === 'approve') {
    outcome = await integrationDecision(tx, caller, applicationId, { to: 'approved', now, maxAgeDays });
  } else {
    if (!reason) {
      throw new AppError('validation_failed', 'A rejection needs data.reason.', {
        issues: [{ path: ['data', 'reason'], message: 'Enter the reason for the rejection' }],
      });
    }
    outcome = await integrationDecision(tx, caller, applicationId, {
      to: 'rejected',
      reason,
      now,
      maxAgeDays,
    });
  }
  return {
    result: {
      applied: true,
      applicationId,
      applicationStatus: outcome.applicationStatus as ApplicationStatus,
    },
    outcome,
  };
}

export async function integrationRoutes(app: AppInstance) {
  // The signature covers the exact bytes: this plugin keeps JSON bodies raw (other routes parse).
  app.addContentTypeParser(
    ['application/json', 'application/webhook+json'],
    { parseAs: 'buffer', bodyLimit: INBOUND_WEBHOOK_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );

  app.post(
    '/api/integrations/webhooks',
    {
      config: { access: 'public' },
      bodyLimit: INBOUND_WEBHOOK_MAX_BYTES,
      schema: {
        summary: 'Signed inbound webhook of the workflow tool (issue 13): move an application or add a note',
        description: [
          'Standard Webhooks: `webhook-id`, `webhook-timestamp` (Unix seconds, within 5 minutes of the server',
          'time) and `webhook-signature` (`v1,` + base64 HMAC-SHA256 with the key of INBOUND_WEBHOOK_SECRET over',
          '`<webhook-id>.<webhook-timestamp>.<body>`). Bodies: `{"type":"application.transition","data":',
          '{"applicationId","action":"start_review"|"approve"|"reject","reason"?}}` or `{"type":"application.note",',
          '"data":{"applicationId","note"}}`. The same state machine and guards as the reviewer (409 when the',
          'transition is not allowed now, e.g. Approve with pending checklist items). A `webhook-id` already',
          'applied answers its first answer again without applying anything. 503 when INBOUND_WEBHOOK_SECRET is',
          'not set. See the README "Workflow integration".',
        ].join(' '),
        tags: ['integration'],
        headers: z.object({
          'webhook-id': z.string().optional(),
          'webhook-timestamp': z.string().optional(),
          'webhook-signature': z.string().optional(),
        }),
        response: {
          200: inboundWebhookResultSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
          413: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
    },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const secret = app.deps.env.INBOUND_WEBHOOK_SECRET;
      if (!secret) {
        throw new AppError(
          'service_unavailable',
          'The inbound webhook is not configured: set INBOUND_WEBHOOK_SECRET on the server.',
        );
      }
      const { id, message: raw } = verify(secret, request);
      const parsed = inboundWebhookSchema.safeParse(raw);
      if (!parsed.success) {
        throw new AppError(
          'validation_failed',
          parsed.error.issues[0]?.message ?? 'The message is not valid.',
          {
            issues: parsed.error.issues.map((i) => ({
              path: i.path.filter((p): p is string | number => typeof p !== 'symbol'),
              message: i.message,
            })),
          },
        );
      }
      const caller: ReviewCaller = {
        actor: { userId: null, ipAddress: request.ip },
        role: 'integration',
        integration: INTEGRATION_ACTOR_NAME,
      };
      const now = new Date();
      const answer = await app.deps.db.transaction(async (tx) => {
        // A concurrent delivery of the same id waits here for the first one's commit, then replays it.
        const claimed = await tx
          .insert(inboundWebhooks)
          .values({ webhookId: id, status: 200, response: {} })
          .onConflictDoNothing()
          .returning({ webhookId: inboundWebhooks.webhookId });
        if (claimed.length === 0) {
          const [first] = await tx.select().from(inboundWebhooks).where(eq(inboundWebhooks.webhookId, id));
          return { replayed: true as const, result: first!.response as Result };
        }
        // The service functions open a nested transaction (a savepoint) inside this one.
        const applied = await apply(
          tx as unknown as Database,
          parsed.data,
          caller,
          now,
          app.deps.env.VERIFICATION_MAX_AGE_DAYS,
        );
        await tx
          .update(inboundWebhooks)
          .set({ response: applied.result })
          .where(eq(inboundWebhooks.webhookId, id));
        return { replayed: false as const, ...applied };
      });
      request.log.info({ webhookId: id, replayed: answer.replayed }, 'inbound webhook');
      if (!answer.replayed && answer.outcome) {
        void app.deps.statusEvents.kick();
        await sendReviewMails(app.deps.mailer, request.log, app.deps.env.appUrl, answer.outcome.mails);
      }
      return reply.send(answer.result);
    },
  );
}
