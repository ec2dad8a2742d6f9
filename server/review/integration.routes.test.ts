/**
 * The workflow integration of the review (issue 13 "Integration"), real PostgreSQL and real HTTP:
 * - outbound: every status change after completion sends a signed `application.status_changed`
 *   event to the completion receiver; a receiver that is down gets it later (outbox, retries); the
 *   completion payload is unchanged (no event for draft -> submitted);
 * - inbound `POST /api/integrations/webhooks`: bad signature 401, stale timestamp 401, a replayed
 *   `webhook-id` applied once, an illegal transition 409, an unknown application 404, a note in the
 *   audit log as the integration actor, and 503 while INBOUND_WEBHOOK_SECRET is unset.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTEGRATION_ACTOR_NAME, type StatusChangedEvent } from '../../domain/api/integration.ts';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { decideAtCommittee } from '../committee/testing/decide.ts';
import { WebhookReceiver, waitUntil } from '../notifications/testing/webhook-receiver.ts';
import { completedApplication as completedReview } from './testing/completed-review-application.ts';
import { verifyEveryItem } from './testing/verify-items.ts';

const NOTIFY_SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const INBOUND_SECRET = `whsec_${randomBytes(32).toString('base64')}`;

let receiver: WebhookReceiver;
let app: TestApp;
let admin: Awaited<ReturnType<typeof signUpAndSignIn>>;

beforeAll(async () => {
  receiver = new WebhookReceiver({ secret: NOTIFY_SECRET });
  await receiver.listen();
  app = await createTestApp({
    NOTIFY_WEBHOOK_URL: receiver.url,
    NOTIFY_WEBHOOK_SECRET: NOTIFY_SECRET,
    NOTIFY_RETRY_BASE_MS: '50',
    NOTIFY_RETRY_MAX_MS: '200',
    NOTIFY_POLL_INTERVAL_MS: '100',
    INBOUND_WEBHOOK_SECRET: INBOUND_SECRET,
  });
  admin = await signUpAndSignIn(app, { firstName: 'Ines' });
  await grantAdmin(app, admin);
}, 60_000);

afterAll(async () => {
  await app?.close();
  await receiver?.close();
});

const completedApplication = () => completedReview(app);

/** The status events the receiver accepted for `applicationId`, in arrival order. */
function eventsOf(applicationId: string): StatusChangedEvent[] {
  return receiver.delivered
    .map((r) => JSON.parse(r.body!.toString('utf8')) as Partial<StatusChangedEvent>)
    .filter((b): b is StatusChangedEvent => b.type === 'application.status_changed')
    .filter((b) => b.data.applicationId === applicationId);
}

/** POST a message signed with `secret` at `at` (default now); `id` is the webhook-id. */
async function inbound(
  message: unknown,
  {
    id = randomUUID() as string,
    secret = INBOUND_SECRET,
    at = new Date(),
    tamper = false,
  }: { id?: string; secret?: string; at?: Date; tamper?: boolean } = {},
) {
  const body = JSON.stringify(message);
  const signature = new Webhook(secret).sign(id, at, body);
  const response = await fetch(`${app.baseUrl}/api/integrations/webhooks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    },
    body: tamper ? body.replace('}', ' }') : body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function auditActions(applicationId: string) {
  const result = await app.runtime.deps.database.pool.query<{
    action: string;
    actor_user_id: string | null;
    details: Record<string, unknown>;
  }>(
    `select action, actor_user_id, details from audit_log
     where details->>'applicationId' = $1 and action like 'review.%' order by id`,
    [applicationId],
  );
  return result.rows;
}

describe('outbound application.status_changed events', () => {
  it('sends one signed event per status change after completion, in order, with actor and time', async () => {
    const { applicationId } = await completedApplication();
    const path = (rest: string) => `/api/admin/applications/${applicationId}/${rest}`;
    expect((await admin.json('POST', path('start-review'), {})).status).toBe(200);
    // Issue 32: a denial is the committee's, recorded at a meeting.
    await verifyEveryItem(admin, applicationId, { verifiedAt: new Date().toISOString().slice(0, 10) });
    await decideAtCommittee(app, admin, applicationId, { decision: 'deny', text: 'Licence revoked' });

    await waitUntil(() => eventsOf(applicationId).length === 2, 10_000, 'two status events');
    const [started, rejected] = eventsOf(applicationId);
    expect(started!.data).toMatchObject({
      applicationId,
      from: 'submitted',
      to: 'under_review',
      actor: { type: 'reviewer', id: admin.userId },
    });
    expect(rejected!.data).toMatchObject({ from: 'under_review', to: 'rejected' });
    expect(Date.parse(rejected!.data.occurredAt)).toBeGreaterThanOrEqual(
      Date.parse(started!.data.occurredAt),
    );
    // Signed with the completion notification's secret, with a stable webhook-id per event.
    const requests = receiver.delivered.filter((r) =>
      r.body!.toString().includes('application.status_changed'),
    );
    expect(requests.every((r) => r.verified)).toBe(true);
    // No PHI: ids, statuses and times only.
    expect(JSON.stringify(rejected)).not.toContain('Licence revoked');
    // The completion itself is announced by the completion notification only (its payload unchanged).
    expect(eventsOf(applicationId).some((e) => e.data.to === 'submitted')).toBe(false);
  });

  it('keeps an event in the outbox while the receiver fails and delivers it once it answers', async () => {
    const { applicationId } = await completedApplication();
    // The completion notification goes first (it may already have been sent); then the receiver fails.
    await waitUntil(
      () => receiver.delivered.some((r) => r.body!.toString().includes(applicationId)),
      10_000,
      'the completion notification',
    );
    receiver.answers = [503, 503];
    expect(
      (await admin.json('POST', `/api/admin/applications/${applicationId}/start-review`, {})).status,
    ).toBe(200);
    await waitUntil(() => eventsOf(applicationId).length === 1, 10_000, 'the event after two 503s');
    const storedEvents = () =>
      app.runtime.deps.database.pool.query<{ id: string; status: string; attempts: number }>(
        'select id, status, attempts from status_events where application_id = $1',
        [applicationId],
      );
    // The receiver records its 200 a moment before the server has read it and marked the row.
    await waitUntil(
      async () => (await storedEvents()).rows[0]?.status === 'delivered',
      10_000,
      'the event marked delivered',
    );
    const stored = await storedEvents();
    expect(stored.rows).toEqual([
      { id: expect.any(String), status: 'delivered', attempts: expect.any(Number) },
    ]);
    // The same event (one webhook-id) was refused twice, then accepted.
    const answers = receiver.requests
      .filter((r) => r.headers['webhook-id'] === stored.rows[0]!.id)
      .map((r) => r.answer);
    expect(answers).toEqual([503, 503, 200]);
    expect(stored.rows[0]!.attempts).toBe(3);
  });
});

describe('POST /api/integrations/webhooks', () => {
  it('refuses a bad signature and a stale timestamp with 401, and changes nothing', async () => {
    const { applicationId } = await completedApplication();
    const message = { type: 'application.transition', data: { applicationId, action: 'start_review' } };
    const forged = await inbound(message, { secret: `whsec_${randomBytes(32).toString('base64')}` });
    expect(forged).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
    expect(String(forged.body.message)).toMatch(/INBOUND_WEBHOOK_SECRET/);
    const tampered = await inbound(message, { tamper: true });
    expect(tampered.status).toBe(401);
    const stale = await inbound(message, { at: new Date(Date.now() - 6 * 60 * 1000) });
    expect(stale.status).toBe(401);
    expect(String(stale.body.message)).toMatch(/5 minutes/);
    const unsigned = await fetch(`${app.baseUrl}/api/integrations/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(message),
    });
    expect(unsigned.status).toBe(401);
    const state = await admin.json<{ applicationStatus: string }>(
      'GET',
      `/api/admin/applications/${applicationId}/review`,
    );
    expect(state.body.applicationStatus).toBe('submitted');
  });

  it('applies a webhook-id once: the replay answers the first answer and adds no audit row', async () => {
    const { applicationId } = await completedApplication();
    const id = `msg_${randomUUID()}`;
    const message = { type: 'application.transition', data: { applicationId, action: 'start_review' } };
    const first = await inbound(message, { id });
    expect(first).toMatchObject({ status: 200, body: { applied: true, applicationStatus: 'under_review' } });
    const replay = await inbound(message, { id });
    expect(replay).toEqual(first);
    const started = (await auditActions(applicationId)).filter((r) => r.action === 'review.started');
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ actor_user_id: null, details: { actor: 'integration' } });
    // The same message under a new id is a new request: now an illegal transition.
    const again = await inbound(message);
    expect(again.status).toBe(409);
  });

  it('moves along the same state machine: illegal 409, unknown 404, approve guarded, reject needs a reason', async () => {
    const { applicationId } = await completedApplication();
    const transition = (action: string, extra: Record<string, string> = {}) =>
      inbound({ type: 'application.transition', data: { applicationId, action, ...extra } });
    expect((await transition('approve')).status).toBe(409); // submitted: start the review first
    expect((await transition('start_review')).status).toBe(200);
    const guarded = await transition('approve');
    expect(guarded.status).toBe(409);
    expect(String(guarded.body.message)).toMatch(/checklist/);
    const noReason = await transition('reject');
    expect(noReason.status).toBe(400);
    const rejected = await transition('reject', { reason: 'Exclusion found on the OIG list' });
    expect(rejected).toMatchObject({ status: 200, body: { applicationStatus: 'rejected' } });
    // Issue 53 item 5: each change the workflow tool made names it in the audit log.
    const changes = (await auditActions(applicationId)).filter((r) =>
      ['review.started', 'review.rejected'].includes(r.action),
    );
    expect(changes.map((r) => r.action).sort()).toEqual(['review.rejected', 'review.started']);
    for (const change of changes) {
      expect(change).toMatchObject({
        actor_user_id: null,
        details: { actor: 'integration', integration: INTEGRATION_ACTOR_NAME },
      });
    }
    const unknown = await inbound({
      type: 'application.transition',
      data: { applicationId: randomUUID(), action: 'start_review' },
    });
    expect(unknown.status).toBe(404);
    const nonsense = await inbound({ type: 'application.delete', data: { applicationId } });
    expect(nonsense.status).toBe(400);
  });

  it('adds a note to the audit log as the named integration actor', async () => {
    const { applicationId } = await completedApplication();
    const noted = await inbound({
      type: 'application.note',
      data: { applicationId, note: 'Primary source checks queued in the workflow tool.' },
    });
    expect(noted).toMatchObject({ status: 200, body: { applied: true, applicationStatus: 'submitted' } });
    const note = (await auditActions(applicationId)).find((r) => r.action === 'review.note_added');
    expect(note).toMatchObject({
      actor_user_id: null,
      details: {
        actor: 'integration',
        integration: INTEGRATION_ACTOR_NAME,
        note: 'Primary source checks queued in the workflow tool.',
      },
    });
    // The review page's timeline shows it.
    const view = await admin.json<{ timeline: { action: string }[] }>(
      'GET',
      `/api/admin/applications/${applicationId}/review`,
    );
    expect(view.body.timeline.map((t) => t.action)).toContain('review.note_added');
  });

  it('answers 400 naming the field to a NUL character in a signed note or reason, and applies nothing', async () => {
    const { applicationId } = await completedApplication();
    const id = `msg_${randomUUID()}`;
    const note = await inbound(
      { type: 'application.note', data: { applicationId, note: 'Checks\u0000 queued' } },
      { id },
    );
    expect(note).toMatchObject({
      status: 400,
      body: {
        code: 'bad_request',
        message: expect.stringMatching(/^data\.note: remove the control character/),
      },
    });
    expect(
      await inbound({ type: 'application.transition', data: { applicationId, action: 'start_review' } }),
    ).toMatchObject({ status: 200 });
    const reason = await inbound({
      type: 'application.transition',
      data: { applicationId, action: 'reject', reason: 'Exclusion\u0000' },
    });
    expect(reason).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^data\.reason:/) } });
    const actions = (await auditActions(applicationId)).map((r) => r.action);
    expect(actions).not.toContain('review.note_added');
    expect(actions).not.toContain('review.rejected');
    // The refused id was not recorded: the corrected message under it is applied.
    const corrected = await inbound(
      { type: 'application.note', data: { applicationId, note: 'Checks queued' } },
      { id },
    );
    expect(corrected).toMatchObject({ status: 200, body: { applied: true } });
  });
});

describe('without INBOUND_WEBHOOK_SECRET', () => {
  it('answers 503 and says what to configure', async () => {
    const bare = await createTestApp({});
    try {
      const response = await fetch(`${bare.baseUrl}/api/integrations/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(503);
      expect(((await response.json()) as { message: string }).message).toMatch(/INBOUND_WEBHOOK_SECRET/);
    } finally {
      await bare.close();
    }
  });
});
