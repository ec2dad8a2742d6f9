/**
 * What the completion suites share (notifications.routes.test.ts, completion-delivery.test.ts): the
 * receiver's secret and fast retries, the payload's JSON Schema, and the helpers a suite uses on its
 * app and receiver: a provider with a draft at 100%, 'Complete', the notification and its attempts,
 * the requests the receiver got for an application.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { type Client, signUpAndSignIn, type TestApp } from '../../../tests/harness.ts';
import { signedAttestation } from '../../../tests/http-client.ts';
import { createCompletedApplication } from './completed-application.ts';
import type { JsonSchema } from './json-schema.ts';
import type { ReceivedRequest, WebhookReceiver } from './webhook-receiver.ts';

/** The receiver's Standard Webhooks secret (NOTIFY_WEBHOOK_SECRET). */
export const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
/** docs/completion-payload.schema.json, which every payload sent must match. */
export const payloadSchema = JSON.parse(
  fs.readFileSync(new URL('../../../docs/completion-payload.schema.json', import.meta.url), 'utf8'),
) as JsonSchema;

export /** Fast retries so fault tests finish in seconds. */
const fastRetries = {
  NOTIFY_WEBHOOK_SECRET: SECRET,
  NOTIFY_TIMEOUT_MS: '3000',
  NOTIFY_RETRY_BASE_MS: '100',
  NOTIFY_RETRY_MAX_MS: '2000',
  NOTIFY_POLL_INTERVAL_MS: '100',
  NOTIFY_MAX_ATTEMPTS: '5',
};

/** The completion as the route answers it. */
export interface CompletionState {
  status: string;
  requestedAt: string;
  deliveredAt: string | null;
  lastError: string | null;
}

/** One delivery attempt as notification_attempts keeps it. */
export interface AttemptRow {
  http_status: number | null;
  duration_ms: number | null;
  error: string | null;
  attempted_at: Date;
}

/**
 * The helpers of a completion suite over `suite()`'s app and receiver (read when a helper runs, so
 * after the suite's beforeAll started them).
 */
export function completionSuite(suite: () => { app: TestApp; receiver: WebhookReceiver }) {
  /** Sign up a provider and give them a draft at 100% (documents: sizes in bytes). */
  async function providerWithCompleteApplication(target: TestApp = suite().app, documentSizes?: number[]) {
    const provider = await signUpAndSignIn(target);
    const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
    const filled = await createCompletedApplication({
      ...target.runtime.deps,
      userId: provider.userId,
      applicationId: created.body.id,
      documentSizes,
    });
    return { provider, ...filled };
  }

  async function complete(client: Client, applicationId: string) {
    return client.json<CompletionState>(
      'POST',
      `/api/applications/${applicationId}/completion`,
      await signedAttestation(client),
    );
  }

  async function attemptsOf(target: TestApp, applicationId: string): Promise<AttemptRow[]> {
    const result = await target.runtime.deps.database.pool.query<AttemptRow>(
      `select a.http_status, a.duration_ms, a.error, a.attempted_at from notification_attempts a
       join completion_notifications n on n.id = a.notification_id
       where n.application_id = $1 order by a.attempted_at, a.id`,
      [applicationId],
    );
    return result.rows;
  }

  async function notificationOf(target: TestApp, applicationId: string) {
    const result = await target.runtime.deps.database.pool.query<{
      id: string;
      status: string;
      attempts: number;
      last_error: string | null;
    }>('select id, status, attempts, last_error from completion_notifications where application_id = $1', [
      applicationId,
    ]);
    return result.rows[0];
  }

  function requestsFor(applicationId: string): ReceivedRequest[] {
    return suite().receiver.requests.filter((r) => r.body?.toString().includes(applicationId));
  }

  return { providerWithCompleteApplication, complete, attemptsOf, notificationOf, requestsFor };
}
