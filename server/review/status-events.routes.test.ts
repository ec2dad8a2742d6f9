/**
 * The administrators' view of `application.status_changed` events (issue 28 item 8) over real HTTP
 * on a fresh PostgreSQL database, with a real receiver on 127.0.0.1 that verifies every signature:
 * a refused event is listed with its state, attempts and error; a re-send is a new message (new
 * `webhook-id`, `resendOf` naming the first) whose retries keep its id; access is the admins'.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusChangedEventSchema } from '../../domain/api/integration.ts';
import type { AdminStatusEvent } from '../../domain/api/notifications.ts';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import {
  type ReceivedRequest,
  WebhookReceiver,
  waitUntil,
} from '../notifications/testing/webhook-receiver.ts';
import { completedApplication } from './testing/completed-review-application.ts';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

let receiver: WebhookReceiver;
let app: TestApp;
let admin: Awaited<ReturnType<typeof signUpAndSignIn>>;

beforeAll(async () => {
  receiver = new WebhookReceiver({ secret: SECRET });
  await receiver.listen();
  app = await createTestApp({
    NOTIFY_WEBHOOK_URL: receiver.url,
    NOTIFY_WEBHOOK_SECRET: SECRET,
    NOTIFY_RETRY_BASE_MS: '50',
    NOTIFY_RETRY_MAX_MS: '200',
    NOTIFY_POLL_INTERVAL_MS: '100',
  });
  admin = await signUpAndSignIn(app, { firstName: 'Ines', lastName: 'Admin' });
  await grantAdmin(app, admin);
}, 60_000);

afterAll(async () => {
  await app?.close();
  await receiver?.close();
});

/** The status event messages the receiver got for `applicationId`, in arrival order. */
function eventRequestsOf(applicationId: string): ReceivedRequest[] {
  return receiver.requests.filter((r) => {
    const body = JSON.parse(r.body!.toString('utf8')) as { type?: string; data?: { applicationId?: string } };
    return body.type === 'application.status_changed' && body.data?.applicationId === applicationId;
  });
}

async function listed(query = '') {
  return admin.json<{ statusEvents: AdminStatusEvent[] }>('GET', `/api/admin/status-events${query}`);
}

describe('GET /api/admin/status-events and POST .../resend', () => {
  it('lists a refused event with its state and attempts, and re-sends it as a new message', async () => {
    // First, a provider completes an application; the receiver refuses the review's first event.
    const { provider, applicationId } = await completedApplication(app);
    receiver.answers = [400];
    expect(
      (await admin.json('POST', `/api/admin/applications/${applicationId}/start-review`, {})).status,
    ).toBe(200);
    await waitUntil(
      async () =>
        (await listed('?status=failed')).body.statusEvents.some((e) => e.applicationId === applicationId),
      10_000,
      'the event failed',
    );

    // The admin sees it under 'failed', with who, what, the attempts and the error.
    const failed = await listed('?status=failed');
    expect(failed.status).toBe(200);
    expect(failed.body.statusEvents.every((e) => e.status === 'failed')).toBe(true);
    const event = failed.body.statusEvents.find((e) => e.applicationId === applicationId)!;
    expect(event).toMatchObject({
      applicationId,
      providerEmail: provider.email,
      from: 'submitted',
      to: 'under_review',
      actorType: 'reviewer',
      status: 'failed',
      attempts: 1,
      nextAttemptAt: null,
      lastError: 'The receiver answered HTTP 400',
      deliveredAt: null,
    });
    expect(event.webhookId).toBe(event.id);
    // Issue 53 item 4: the same attempt log as a completion notification.
    expect(event.attemptLog).toMatchObject([{ httpStatus: 400, error: 'The receiver answered HTTP 400' }]);
    expect(event.attemptLog[0]!.durationMs).toBeGreaterThanOrEqual(0);
    expect((await listed()).body.statusEvents.map((e) => e.id)).toContain(event.id);
    expect((await listed('?status=delivered')).body.statusEvents.map((e) => e.id)).not.toContain(event.id);

    // Re-send: a new webhook-id, the body naming the first message; its retry (503, then 200) keeps
    // the new id (Standard Webhooks), so a receiver that drops seen ids processes it once.
    receiver.answers = [503, 200];
    const resent = await admin.json<AdminStatusEvent>(
      'POST',
      `/api/admin/status-events/${event.id}/resend`,
      {},
    );
    expect(resent.status).toBe(200);
    expect(resent.body.id).toBe(event.id);
    expect(resent.body.webhookId).not.toBe(event.id);
    await waitUntil(
      async () => (await listed('?status=delivered')).body.statusEvents.some((e) => e.id === event.id),
      10_000,
      'the re-sent event delivered',
    );
    const requests = eventRequestsOf(applicationId);
    expect(requests.map((r) => r.answer)).toEqual([400, 503, 200]);
    expect(requests.every((r) => r.verified)).toBe(true);
    expect(requests.map((r) => r.headers['webhook-id'])).toEqual([
      event.id,
      resent.body.webhookId,
      resent.body.webhookId,
    ]);
    const bodies = requests.map((r) => statusChangedEventSchema.parse(JSON.parse(r.body!.toString('utf8'))));
    expect(bodies.map((b) => b.resendOf)).toEqual([null, event.id, event.id]);
    expect(new Set(bodies.map((b) => JSON.stringify(b.data))).size).toBe(1);
    const [after] = (await listed('?status=delivered')).body.statusEvents.filter((e) => e.id === event.id);
    expect(after).toMatchObject({
      status: 'delivered',
      attempts: 2,
      lastError: null,
      webhookId: resent.body.webhookId,
    });
    expect(
      after!.sends.map((send) => ({
        webhookId: send.webhookId,
        resend: send.resend,
        result: send.result,
        answers: send.attempts.map((a) => a.httpStatus),
      })),
    ).toEqual([
      { webhookId: event.id, resend: false, result: 'not_delivered', answers: [400] },
      { webhookId: resent.body.webhookId, resend: true, result: 'delivered', answers: [503, 200] },
    ]);

    // Audited with both ids.
    const audit = await app.runtime.deps.database.pool.query(
      `select actor_user_id, subject_user_id, details->>'webhookId' as webhook_id, details->>'resendOf' as resend_of
       from audit_log where action = 'status_event.resend' and resource_id = $1`,
      [event.id],
    );
    expect(audit.rows).toEqual([
      {
        actor_user_id: admin.userId,
        subject_user_id: provider.userId,
        webhook_id: resent.body.webhookId,
        resend_of: event.id,
      },
    ]);
  });

  it('is the administrators’ only, and answers bad input with a message', async () => {
    const provider = await signUpAndSignIn(app);
    expect((await provider.json('GET', '/api/admin/status-events')).status).toBe(403);
    expect((await provider.json('POST', `/api/admin/status-events/${randomUUID()}/resend`, {})).status).toBe(
      403,
    );
    const badStatus = await admin.json<{ message: string }>('GET', '/api/admin/status-events?status=lost');
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.message).toContain('status must be pending, delivered or failed');
    expect((await admin.json('GET', '/api/admin/status-events?limit=0')).status).toBe(400);
    for (const id of ['not-an-id', randomUUID()]) {
      const missing = await admin.json<{ message: string }>(
        'POST',
        `/api/admin/status-events/${id}/resend`,
        {},
      );
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe('Status event not found. Reload the list and try again.');
    }
  });
});
