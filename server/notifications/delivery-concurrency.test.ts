/**
 * Head-of-line blocking (issue 19 item 5): notifications to a receiver that hangs on some requests
 * must not hold the others until NOTIFY_TIMEOUT_MS. The app runs on a fresh PostgreSQL database and
 * sends to a real receiver on 127.0.0.1 whose answers the test scripts.
 */

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { signedAttestation } from '../../tests/http-client.ts';
import { createCompletedApplication } from './testing/completed-application.ts';
import { WebhookReceiver, waitUntil } from './testing/webhook-receiver.ts';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const POLL_INTERVAL_MS = 200;
const RETRY_MAX_MS = 200;
/** Scheduling, the claim and the request on a busy 2-core machine. */
const MARGIN_MS = 2000;

let receiver: WebhookReceiver;
let app: TestApp;

beforeAll(async () => {
  receiver = new WebhookReceiver({ secret: SECRET });
  await receiver.listen();
  app = await createTestApp({
    NOTIFY_WEBHOOK_URL: receiver.url,
    NOTIFY_WEBHOOK_SECRET: SECRET,
    // A hanging request holds its slot this long: far longer than the test may take.
    NOTIFY_TIMEOUT_MS: '30000',
    NOTIFY_RETRY_BASE_MS: '100',
    NOTIFY_RETRY_MAX_MS: String(RETRY_MAX_MS),
    NOTIFY_POLL_INTERVAL_MS: String(POLL_INTERVAL_MS),
    NOTIFY_MAX_ATTEMPTS: '5',
  });
});
afterAll(async () => {
  await app?.close();
  await receiver?.close();
});

async function providerWithCompleteApplication() {
  const provider = await signUpAndSignIn(app);
  const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
  await createCompletedApplication({
    ...app.runtime.deps,
    userId: provider.userId,
    applicationId: created.body.id,
  });
  return { provider, applicationId: created.body.id };
}

const requestsFor = (applicationId: string) =>
  receiver.requests.filter((r) => r.body?.toString().includes(applicationId));

it('delivers a due notification within one poll while earlier requests to the receiver hang', async () => {
  const ann = await providerWithCompleteApplication();
  const ben = await providerWithCompleteApplication();
  const cal = await providerWithCompleteApplication();
  // The receiver hangs on the first two requests, refuses the third once (503), then accepts.
  receiver.answers = ['hang', 'hang', 503];

  // First, Ann and Ben complete: each attempt hangs (their requests wait on it, not awaited here).
  const hanging = [];
  for (const { provider, applicationId } of [ann, ben]) {
    const attestation = await signedAttestation(provider);
    hanging.push(
      provider.json('POST', `/api/applications/${applicationId}/completion`, attestation).catch(() => {}),
    );
    await waitUntil(() => requestsFor(applicationId).length === 1, 10_000, 'the hanging request');
  }

  // Second, Cal completes: the receiver answers 503, so the retry is the worker's to claim.
  const completed = await cal.provider.json<{ status: string }>(
    'POST',
    `/api/applications/${cal.applicationId}/completion`,
    await signedAttestation(cal.provider),
  );
  expect(completed.status).toBe(202);
  expect(completed.body.status).toBe('pending');
  const queuedAt = Date.now();

  // Third, the worker delivers Cal's notification after its backoff and one poll, not after the
  // hanging attempts time out.
  await waitUntil(
    () => requestsFor(cal.applicationId).some((r) => r.answer === 200 && r.verified),
    RETRY_MAX_MS + POLL_INTERVAL_MS + MARGIN_MS,
    "Cal's notification to be delivered",
  );
  const waitedMs = Date.now() - queuedAt;
  expect(waitedMs).toBeLessThan(RETRY_MAX_MS + POLL_INTERVAL_MS + MARGIN_MS);
  // Ann's and Ben's attempts still hang: nothing was delivered for them.
  for (const { applicationId } of [ann, ben]) {
    expect(requestsFor(applicationId).map((r) => r.answer)).toEqual(['hang']);
  }

  // The hanging attempts end when the app stops (recorded as interrupted).
  await app.close();
  await Promise.all(hanging);
});
