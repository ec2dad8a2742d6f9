/**
 * `POST /api/notifications/receipts` (issue 53 item 2, decision 041): the receiver's atomic record of
 * the notifications it processed, which the shipped n8n workflows call instead of keeping seen ids in
 * n8n's workflow static data (written whole after each execution: of messages that arrive together
 * only one id was kept, and a retry was processed twice).
 *
 * - `claim`: the first caller for a `webhook-id` gets `claimed` and processes the message; while that
 *   claim holds, others get `in_progress` (the workflow fails, the portal retries later); once it is
 *   `done`, others get `duplicate` (the workflow drops it). A claim not marked done within its lease
 *   (a failed execution) is claimed again by the next caller: the portal's retry is processed.
 * - `done`: marks a claimed id processed (the workflow's last step).
 *
 * Standard Webhooks with NOTIFY_WEBHOOK_SECRET, the secret the receiver already holds: the request is
 * signed like a notification (its own `webhook-id`), timestamps 5 minutes off are refused (401).
 * No cookie, no session: the signature is the credential.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, errorResponseSchema } from '../../domain/app-error.ts';
import type { AppInstance } from '../app-types.ts';
import { verifySignedRequest } from './webhook-signature.ts';

/** Longest notification `webhook-id` kept, characters. */
const WEBHOOK_ID_MAX = 200;
/** A claim's lease when the caller gives none, seconds (longer than a links workflow's downloads). */
export const DEFAULT_LEASE_SECONDS = 15 * 60;

/** The request body: which notification, and what to record. */
export const receiptRequestSchema = z.object({
  webhookId: z.string().min(1).max(WEBHOOK_ID_MAX),
  action: z.enum(['claim', 'done']),
  /** How long a claim holds, seconds (1 s to 1 day). */
  leaseSeconds: z.number().int().min(1).max(86_400).optional(),
});

/** What the receiver should do with the message. */
export const receiptResponseSchema = z.object({
  outcome: z.enum(['claimed', 'in_progress', 'duplicate', 'done']),
});
type Outcome = z.infer<typeof receiptResponseSchema>['outcome'];

/** The verified body, or a 401 saying what is wrong; 400 when it is not a receipt request. */
function verify(secret: string, request: FastifyRequest): z.infer<typeof receiptRequestSchema> {
  const body = request.body as Buffer;
  verifySignedRequest({
    secret,
    secretName: 'NOTIFY_WEBHOOK_SECRET',
    headers: request.headers,
    body,
    maxIdLength: WEBHOOK_ID_MAX,
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new AppError('validation_failed', 'The body is not JSON.');
  }
  const result = receiptRequestSchema.safeParse(parsed);
  if (!result.success) {
    throw new AppError('validation_failed', result.error.issues[0]?.message ?? 'Not a receipt request.');
  }
  return result.data;
}

export async function notificationReceiptRoutes(app: AppInstance) {
  // The signature covers the exact bytes: this plugin keeps JSON bodies raw.
  app.addContentTypeParser(
    ['application/json', 'application/webhook+json'],
    { parseAs: 'buffer', bodyLimit: 4096 },
    (_request, body, done) => done(null, body),
  );

  app.post(
    '/api/notifications/receipts',
    {
      config: { access: 'public' },
      bodyLimit: 4096,
      schema: {
        summary:
          "The receiver's record of processed notifications (issue 53): claim a webhook-id, mark it done",
        description: [
          'Signed like a notification (Standard Webhooks, NOTIFY_WEBHOOK_SECRET). Body `{"webhookId","action":',
          '"claim"|"done","leaseSeconds"?}`. claim answers `claimed` (process it), `in_progress` (another',
          'execution holds it: fail, the portal retries) or `duplicate` (done before: drop it); a claim not',
          'marked done within its lease (default 900 s) can be claimed again. 503 when NOTIFY_WEBHOOK_SECRET',
          'is not set. README "Receiving it with n8n".',
        ].join(' '),
        tags: ['integration'],
        response: {
          200: receiptResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
    },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const secret = app.deps.env.NOTIFY_WEBHOOK_SECRET;
      if (!secret) {
        throw new AppError(
          'service_unavailable',
          'Receipts are not configured: set NOTIFY_WEBHOOK_SECRET on the server.',
        );
      }
      const { webhookId, action, leaseSeconds = DEFAULT_LEASE_SECONDS } = verify(secret, request);
      const outcome =
        action === 'claim' ? await claim(app, webhookId, leaseSeconds) : await markDone(app, webhookId);
      request.log.info({ webhookId, action, outcome }, 'notification receipt');
      return reply.send({ outcome });
    },
  );
}

/**
 * One statement, so concurrent claims of one id serialize on its primary key: a new id is inserted
 * and claimed; an expired 'processing' claim is taken over; anything else is reported as it stands.
 */
async function claim(app: AppInstance, webhookId: string, leaseSeconds: number): Promise<Outcome> {
  const result = await app.deps.database.pool.query<{ claimed: boolean; state: string }>(
    `with taken as (
       insert into notification_receipts (webhook_id, state, claimed_until)
       values ($1, 'processing', now() + make_interval(secs => $2))
       on conflict (webhook_id) do update
         set claimed_until = excluded.claimed_until, claimed_at = now()
         where notification_receipts.state = 'processing' and notification_receipts.claimed_until < now()
       returning true as claimed, state
     )
     select claimed, state from taken
     union all
     select false, state from notification_receipts where webhook_id = $1 and not exists (select 1 from taken)`,
    [webhookId, leaseSeconds],
  );
  let row = result.rows[0];
  if (row?.claimed) return 'claimed';
  // A claim committed by another transaction after this statement's snapshot: read it now.
  if (!row) {
    const now = await app.deps.database.pool.query<{ claimed: boolean; state: string }>(
      'select false as claimed, state from notification_receipts where webhook_id = $1',
      [webhookId],
    );
    row = now.rows[0];
  }
  return row?.state === 'done' ? 'duplicate' : 'in_progress';
}

/** Mark a claimed id processed; marking an id twice, or one never claimed, records it done too. */
async function markDone(app: AppInstance, webhookId: string): Promise<Outcome> {
  await app.deps.database.pool.query(
    `insert into notification_receipts (webhook_id, state, claimed_until, done_at)
     values ($1, 'done', now(), now())
     on conflict (webhook_id) do update set state = 'done', done_at = coalesce(notification_receipts.done_at, now())`,
    [webhookId],
  );
  return 'done';
}
