/**
 * Completion notifications' delivery over real HTTP, to a real receiver on 127.0.0.1: retries of a
 * 503, the receiver's Retry-After, a receiver that is down and back, a 400 given up at once and the
 * administrator's re-send (a new message naming the first), a payload over NOTIFY_MAX_PAYLOAD_BYTES,
 * no endpoint configured until a restart, and the retry budget (NOTIFY_MAX_ATTEMPTS).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AdminNotification } from '../../domain/api/notifications.ts';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import type { Actor } from '../auth/actor.ts';
import { loadEnv } from '../env.ts';
import { createRuntime } from '../runtime.ts';
import { resendNotification } from './completion.service.ts';
import {
  type AttemptRow,
  completionSuite,
  fastRetries,
  payloadSchema,
  SECRET,
} from './testing/completion-suite.ts';
import { validateJsonSchema } from './testing/json-schema.ts';
import { WebhookReceiver, waitUntil } from './testing/webhook-receiver.ts';

let receiver: WebhookReceiver;
let app: TestApp;

beforeAll(async () => {
  receiver = new WebhookReceiver({ secret: SECRET });
  await receiver.listen();
  app = await createTestApp({ NOTIFY_WEBHOOK_URL: receiver.url, ...fastRetries });
});
afterAll(async () => {
  await app?.close();
  await receiver?.close();
});
beforeEach(() => {
  receiver.answers = [];
});

const { providerWithCompleteApplication, complete, attemptsOf, notificationOf, requestsFor } =
  completionSuite(() => ({ app, receiver }));

describe('POST /api/applications/:applicationId/completion', () => {
  it('retries 503 twice, then delivers once: three attempts recorded', async () => {
    const { provider, applicationId } = await providerWithCompleteApplication();
    receiver.answers = [503, 503];
    const response = await complete(provider, applicationId);
    // The user is told the truth: not delivered yet, queued.
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ status: 'pending', lastError: 'The receiver answered HTTP 503' });

    await waitUntil(
      async () => (await notificationOf(app, applicationId))?.status === 'delivered',
      15_000,
      'delivery',
    );
    const requests = requestsFor(applicationId);
    expect(requests.map((r) => r.answer)).toEqual([503, 503, 200]);
    expect(requests.every((r) => r.verified)).toBe(true);
    // The same webhook-id every time, so the receiver can de-duplicate.
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const attempts = await attemptsOf(app, applicationId);
    expect(attempts.map((a) => a.http_status)).toEqual([503, 503, 200]);
    expect(attempts.map((a) => a.error)).toEqual([
      'The receiver answered HTTP 503',
      'The receiver answered HTTP 503',
      null,
    ]);
    // Issue 53 item 5: queued at completion, delivered when the receiver took it, once each.
    const audit = await app.runtime.deps.database.pool.query<{
      action: string;
      details: Record<string, unknown>;
    }>(
      `select action, details from audit_log
       where resource_type = 'completion_notification' and details->>'applicationId' = $1 order by id`,
      [applicationId],
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['notification.queued', 'notification.delivered']);
    expect(audit.rows[0]!.details).toMatchObject({ status: 'pending' });
    expect(audit.rows[1]!.details).toMatchObject({
      webhookId: requests[0]!.headers['webhook-id'],
      attempts: 3,
      httpStatus: 200,
    });
  });

  it("waits as long as the receiver's Retry-After says", async () => {
    const { provider, applicationId } = await providerWithCompleteApplication();
    receiver.answers = [{ status: 429, headers: { 'retry-after': '1' } }];
    const response = await complete(provider, applicationId);
    expect(response.body.status).toBe('pending');
    await waitUntil(
      async () => (await notificationOf(app, applicationId))?.status === 'delivered',
      15_000,
      'delivery',
    );
    const attempts = await attemptsOf(app, applicationId);
    expect(attempts.map((a) => a.http_status)).toEqual([429, 200]);
    // Full jitter alone would retry within NOTIFY_RETRY_BASE_MS (100 ms).
    expect(attempts[1]!.attempted_at.getTime() - attempts[0]!.attempted_at.getTime()).toBeGreaterThanOrEqual(
      950,
    );
  });

  it('keeps the notification while the receiver is down and delivers when it is back', async () => {
    const { provider, applicationId } = await providerWithCompleteApplication();
    await receiver.close();
    try {
      const response = await complete(provider, applicationId);
      expect(response.status).toBe(202);
      expect(response.body).toMatchObject({
        status: 'pending',
        lastError: 'Could not reach the receiver (ECONNREFUSED)',
      });
      // Retries keep failing while it is down; nothing is lost.
      await waitUntil(async () => (await attemptsOf(app, applicationId)).length >= 2, 10_000, 'a retry');
      expect((await notificationOf(app, applicationId))?.status).toBe('pending');
    } finally {
      await receiver.listen();
    }
    await waitUntil(
      async () => (await notificationOf(app, applicationId))?.status === 'delivered',
      15_000,
      'delivery',
    );
    expect(requestsFor(applicationId).filter((r) => r.verified && r.answer === 200)).toHaveLength(1);
    const attempts = await attemptsOf(app, applicationId);
    expect(attempts.at(-1)).toMatchObject({ http_status: 200, error: null });
    expect(
      attempts.slice(0, -1).every((a) => a.error === 'Could not reach the receiver (ECONNREFUSED)'),
    ).toBe(true);
  });

  it('gives up at once on 400 (no retry) and an admin can re-send it', async () => {
    const { provider, applicationId } = await providerWithCompleteApplication();
    receiver.answers = [400];
    const response = await complete(provider, applicationId);
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ status: 'failed', lastError: 'The receiver answered HTTP 400' });
    // The worker looks for due notifications, as every poll does, and finds nothing to send again.
    await app.runtime.deps.completionDelivery.kick();
    expect(await attemptsOf(app, applicationId)).toHaveLength(1);
    expect(requestsFor(applicationId)).toHaveLength(1);

    // A provider clicking again does not bypass the refusal.
    expect((await complete(provider, applicationId)).body.status).toBe('failed');
    expect(requestsFor(applicationId)).toHaveLength(1);

    // The admin sees it with its attempts.
    const admin = await signUpAndSignIn(app);
    await grantAdmin(app, admin);
    const notification = await notificationOf(app, applicationId);
    const failedList = await admin.json<{
      notifications: { id: string; status: string; attemptLog: AttemptRow[] }[];
    }>('GET', '/api/admin/notifications?status=failed');
    expect(failedList.status).toBe(200);
    const listed = failedList.body.notifications.find((n) => n.id === notification!.id);
    expect(listed).toMatchObject({
      status: 'failed',
      applicationId,
      userId: provider.userId,
      providerEmail: provider.email,
      lastError: 'The receiver answered HTTP 400',
      attemptLog: [{ httpStatus: 400, error: 'The receiver answered HTTP 400' }],
    });
    expect(failedList.body.notifications.every((n) => n.status === 'failed')).toBe(true);
    expect((await provider.json('GET', '/api/admin/notifications')).status).toBe(403);
    expect((await admin.json('GET', '/api/admin/notifications?limit=0')).status).toBe(400);

    // Re-send (issue 28 item 7): a new message, or a receiver that drops seen ids (the shipped n8n
    // workflow) drops it. A new webhook-id, the payload naming the first message; its retry (503
    // then 200) keeps the new id, as Standard Webhooks requires. Audited.
    receiver.answers = [503, 200];
    const resent = await admin.json<{
      id: string;
      webhookId: string;
      status: string;
      attempts: number;
      attemptLog: unknown[];
    }>('POST', `/api/admin/notifications/${notification!.id}/resend`, {});
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ id: notification!.id, status: 'pending', attempts: 1 });
    await waitUntil(
      async () => (await notificationOf(app, applicationId))?.status === 'delivered',
      10_000,
      'the re-send delivered',
    );
    const sent = requestsFor(applicationId);
    expect(sent.map((r) => r.answer)).toEqual([400, 503, 200]);
    expect(sent.every((r) => r.verified)).toBe(true);
    const [first, ...again] = sent.map((r) => r.headers['webhook-id']);
    expect(first).toBe(notification!.id);
    expect(again).toEqual([resent.body.webhookId, resent.body.webhookId]);
    expect(resent.body.webhookId).not.toBe(notification!.id);
    const bodies = sent.map((r) => JSON.parse(r.body!.toString('utf8')) as Record<string, unknown>);
    expect(bodies.map((b) => b.resendOf)).toEqual([null, notification!.id, notification!.id]);
    for (const body of bodies) expect(validateJsonSchema(body, payloadSchema)).toEqual([]);
    // A second re-send is another new message, still naming the first.
    receiver.answers = [200];
    const again2 = await admin.json<{ webhookId: string; status: string }>(
      'POST',
      `/api/admin/notifications/${notification!.id}/resend`,
      {},
    );
    expect(again2.body.status).toBe('delivered');
    expect(new Set([notification!.id, resent.body.webhookId, again2.body.webhookId]).size).toBe(3);
    const last = requestsFor(applicationId).at(-1)!;
    expect(last.headers['webhook-id']).toBe(again2.body.webhookId);
    // Issue 53 item 4: each send with its own id, attempts and result; the first delivery's time kept.
    const listed2 = await admin.json<{ notifications: AdminNotification[] }>(
      'GET',
      '/api/admin/notifications',
    );
    const card = listed2.body.notifications.find((n) => n.id === notification!.id)!;
    expect(
      card.sends.map((send) => ({
        webhookId: send.webhookId,
        resend: send.resend,
        result: send.result,
        answers: send.attempts.map((a) => a.httpStatus),
        delivered: send.deliveredAt !== null,
      })),
    ).toEqual([
      {
        webhookId: notification!.id,
        resend: false,
        result: 'not_delivered',
        answers: [400],
        delivered: false,
      },
      {
        webhookId: resent.body.webhookId,
        resend: true,
        result: 'delivered',
        answers: [503, 200],
        delivered: true,
      },
      {
        webhookId: again2.body.webhookId,
        resend: true,
        result: 'delivered',
        answers: [200],
        delivered: true,
      },
    ]);
    expect(card.attempts).toBe(card.sends.at(-1)!.attempts.length);
    expect(card.attemptLog).toHaveLength(4);
    expect(Date.parse(card.sends[1]!.deliveredAt!)).toBeLessThan(Date.parse(card.sends[2]!.deliveredAt!));
    expect(JSON.parse(last.body!.toString('utf8')).resendOf).toBe(notification!.id);
    const audit = await app.runtime.deps.database.pool.query(
      `select actor_user_id, details->>'webhookId' as webhook_id, details->>'resendOf' as resend_of
       from audit_log where action = 'notification.resend' and resource_id = $1 order by id`,
      [notification!.id],
    );
    expect(audit.rows).toEqual([
      { actor_user_id: admin.userId, webhook_id: resent.body.webhookId, resend_of: notification!.id },
      { actor_user_id: admin.userId, webhook_id: again2.body.webhookId, resend_of: notification!.id },
    ]);
    expect(
      (await provider.json('POST', `/api/admin/notifications/${notification!.id}/resend`, {})).status,
    ).toBe(403);
    expect((await admin.json('POST', '/api/admin/notifications/not-an-id/resend', {})).status).toBe(404);
  });

  it("claims a re-send's first attempt with the re-send, so the worker's poll cannot take it in between", async () => {
    const { provider, applicationId } = await providerWithCompleteApplication();
    receiver.answers = [400];
    expect((await complete(provider, applicationId)).body.status).toBe('failed');
    const notification = await notificationOf(app, applicationId);
    const { db, completionDelivery } = app.runtime.deps;
    const admin: Actor = {
      userId: provider.userId,
      email: provider.email,
      role: 'admin',
      roles: ['admin'],
      sessionId: 'resend-race',
      sessionExpiresAt: new Date(Date.now() + 60_000),
      emailVerified: true,
      twoFactorEnabled: true,
      ipAddress: '127.0.0.1',
    };
    receiver.answers = [200];
    const claim = await resendNotification(db, completionDelivery, admin, notification!.id);
    expect(claim?.notification.id).toBe(notification!.id);
    // The worker looks now (a poll landing between the re-send and its attempt): the row is leased.
    await completionDelivery.kick();
    expect(requestsFor(applicationId)).toHaveLength(1);
    expect(await attemptsOf(app, applicationId)).toHaveLength(2);
    const row = await completionDelivery.runClaim(claim!);
    expect(row?.status).toBe('delivered');
    expect(requestsFor(applicationId).map((r) => r.answer)).toEqual([400, 200]);
  });
});

describe('limits and configuration', () => {
  it('fails with a clear message when the payload is larger than NOTIFY_MAX_PAYLOAD_BYTES', async () => {
    const small = await createTestApp({
      NOTIFY_WEBHOOK_URL: receiver.url,
      ...fastRetries,
      NOTIFY_MAX_PAYLOAD_BYTES: '50000',
    });
    try {
      const { provider, applicationId } = await providerWithCompleteApplication(small, [60_000]);
      const response = await complete(provider, applicationId);
      expect(response.status).toBe(202);
      expect(response.body.status).toBe('failed');
      expect(response.body.lastError).toMatch(
        /^payload too large: more than 50000 bytes \(NOTIFY_MAX_PAYLOAD_BYTES\)/,
      );
      // The worker looks for due notifications and has nothing to send: the failure is final.
      await small.runtime.deps.completionDelivery.kick();
      expect(requestsFor(applicationId)).toHaveLength(0);
      const attempts = await attemptsOf(small, applicationId);
      expect(attempts).toHaveLength(1);
      expect(attempts[0]).toMatchObject({ http_status: null, error: response.body.lastError });
    } finally {
      await small.close();
    }
  });

  it('records completions as undelivered without an endpoint, and sends them once one is configured', async () => {
    const bare = await createTestApp({});
    let restarted: Awaited<ReturnType<typeof createRuntime>> | undefined;
    try {
      const { provider, applicationId } = await providerWithCompleteApplication(bare);
      const response = await complete(provider, applicationId);
      expect(response.status).toBe(202);
      expect(response.body).toMatchObject({ status: 'undelivered', lastError: 'no endpoint configured' });
      const admin = await signUpAndSignIn(bare);
      await grantAdmin(bare, admin);
      const list = await admin.json<{ notifications: { status: string; applicationId: string }[] }>(
        'GET',
        '/api/admin/notifications',
      );
      expect(list.body.notifications).toEqual([
        expect.objectContaining({
          applicationId,
          status: 'undelivered',
          lastError: 'no endpoint configured',
        }),
      ]);

      // The server restarts with an endpoint: the recorded completion is sent.
      await bare.runtime.close();
      restarted = await createRuntime({
        env: loadEnv({
          NODE_ENV: 'test',
          DATABASE_URL: bare.databaseUrl,
          DATA_DIR: bare.dataDir,
          LOG_LEVEL: 'silent',
          NOTIFY_WEBHOOK_URL: receiver.url,
          ...fastRetries,
        }),
        serveWeb: false,
      });
      // The row turns 'delivered' once the server has read the receiver's 200, a moment after the
      // receiver answered: wait for the row, not the request (CI once read it in between).
      const statusOf = async () =>
        (
          await restarted!.deps.database.pool.query<{ status: string }>(
            'select status from completion_notifications where application_id = $1',
            [applicationId],
          )
        ).rows[0]?.status;
      await waitUntil(async () => (await statusOf()) === 'delivered', 10_000, 'delivery');
      expect(requestsFor(applicationId).filter((r) => r.verified && r.answer === 200)).toHaveLength(1);
    } finally {
      await restarted?.close();
      await bare.close();
    }
  });
});

describe('retry budget', () => {
  it('marks the notification failed after NOTIFY_MAX_ATTEMPTS retryable failures', async () => {
    const { provider, applicationId } = await providerWithCompleteApplication();
    receiver.answers = [500, 502, 503, 504, 500];
    expect((await complete(provider, applicationId)).body.status).toBe('pending');
    await waitUntil(
      async () => (await notificationOf(app, applicationId))?.status === 'failed',
      20_000,
      'failure',
    );
    const notification = await notificationOf(app, applicationId);
    expect(notification).toMatchObject({
      attempts: 5,
      last_error: 'Gave up after 5 attempts. Last error: The receiver answered HTTP 500',
    });
    expect((await attemptsOf(app, applicationId)).map((a) => a.http_status)).toEqual([
      500, 502, 503, 504, 500,
    ]);
    // The worker looks for due notifications and sends no sixth attempt.
    await app.runtime.deps.completionDelivery.kick();
    expect(await attemptsOf(app, applicationId)).toHaveLength(5);
    expect(requestsFor(applicationId)).toHaveLength(5);
  });
});
