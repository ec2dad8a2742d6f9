/**
 * Nothing is lost when the server dies: the real server (server/main.ts in a child process) is killed
 * with SIGKILL while the first delivery attempt is in flight, then started again on the same database
 * and data directory; the notification is delivered after the restart.
 */

import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, createTestApp, signUpAndSignIn, TEST_ORIGIN, type TestApp } from '../../tests/harness.ts';
import { signedAttestation } from '../../tests/http-client.ts';
import { spawnServer, waitReady } from '../../tests/server-process.ts';
import { createCompletedApplication } from './testing/completed-application.ts';
import { WebhookReceiver, waitUntil } from './testing/webhook-receiver.ts';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const notifyEnv = {
  NOTIFY_WEBHOOK_SECRET: SECRET,
  NOTIFY_TIMEOUT_MS: '1500',
  NOTIFY_RETRY_BASE_MS: '100',
  NOTIFY_RETRY_MAX_MS: '1000',
  NOTIFY_POLL_INTERVAL_MS: '200',
};

let receiver: WebhookReceiver;
let app: TestApp;
const children: ChildProcess[] = [];

beforeAll(async () => {
  receiver = new WebhookReceiver({ secret: SECRET });
  await receiver.listen();
  app = await createTestApp({ NOTIFY_WEBHOOK_URL: receiver.url, ...notifyEnv });
});
afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await app?.close();
  await receiver?.close();
});

/** Start server/main.ts on the test database and data directory; resolves when it is ready. */
async function startServer(): Promise<{ child: ChildProcess; baseUrl: string }> {
  const server = await spawnServer('restart', {
    APP_URL: TEST_ORIGIN,
    DATABASE_URL: app.databaseUrl,
    DATA_DIR: app.dataDir,
    AUTH_IP_RATE_LIMIT: 'false',
    NOTIFY_WEBHOOK_URL: receiver.url,
    ...notifyEnv,
  });
  children.push(server.child);
  await waitReady(server, 30_000);
  return server;
}

it('delivers after a SIGKILL in the middle of the first attempt and a restart', {
  timeout: 90_000,
}, async () => {
  // First, Alice's application is complete (prepared in-process on the test database).
  const alice = await signUpAndSignIn(app);
  const created = await alice.json<{ id: string }>('POST', '/api/applications', {});
  const applicationId = created.body.id;
  await createCompletedApplication({ ...app.runtime.deps, userId: alice.userId, applicationId });
  await app.runtime.close();
  // The test keeps its own pool to look at the database (the runtime's pool is closed).
  const { default: pg } = await import('pg');
  const db = new pg.Pool({ connectionString: app.databaseUrl, max: 2 });
  try {
    const state = async () =>
      (
        await db.query<{ id: string; status: string }>(
          'select id, status from completion_notifications where application_id = $1',
          [applicationId],
        )
      ).rows[0];

    // Second, the real server runs; the receiver will hold the first request without answering.
    const first = await startServer();
    receiver.answers = ['hang'];
    const client = Object.assign(new Client({ ...app, baseUrl: first.baseUrl }), { cookie: alice.cookie });
    const attestation = await signedAttestation(client);
    const click = client
      .json('POST', `/api/applications/${applicationId}/completion`, attestation)
      .catch((error: Error) => error);

    // Third, while the body is at the receiver and no answer has come, the server is killed.
    await waitUntil(() => receiver.requests.length >= 1, 15_000, 'the first attempt to reach the receiver');
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    expect(await click).toBeInstanceOf(Error);
    expect((await state())?.status).toBe('pending');

    // Fourth, the server starts again: once the dead attempt's lease ends, the worker delivers.
    await startServer();
    await waitUntil(async () => (await state())?.status === 'delivered', 30_000, `delivery after restart`);
    const delivered = receiver.delivered.filter((r) => r.body?.toString().includes(applicationId));
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.headers['webhook-id']).toBe((await state())!.id);
    const attempts = await db.query<{ http_status: number | null; error: string | null }>(
      `select a.http_status, a.error from notification_attempts a
       join completion_notifications n on n.id = a.notification_id
       where n.application_id = $1 order by a.attempted_at, a.id`,
      [applicationId],
    );
    // The killed attempt stays on record as interrupted.
    expect(attempts.rows).toEqual([
      { http_status: null, error: 'interrupted: the server stopped during the attempt' },
      { http_status: 200, error: null },
    ]);
  } finally {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.all(
      children.map((c) =>
        c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once('exit', r)) : undefined,
      ),
    );
    await db.end();
  }
});
