/**
 * Prometheus metrics (issue 54 item 2) from the real app on a real database: the listener on its own
 * loopback port, request counts and latencies by route pattern, the pool, the outbox, the scheduled
 * jobs and the exclusion lists' age, and no PHI, email, identifier or session token anywhere in what
 * a collector reads, after requests that carried all of them.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { signedAttestation } from '../../tests/http-client.ts';
import { createCompletedApplication, FACTORY_SSN } from '../notifications/testing/completed-application.ts';

let app: TestApp;
let metricsUrl: string;

beforeAll(async () => {
  app = await createTestApp({
    METRICS_PORT: '0',
    // A receiver that is not there: the completion stays in the outbox.
    NOTIFY_WEBHOOK_URL: 'http://127.0.0.1:9/completion',
    NOTIFY_WEBHOOK_SECRET: 'whsec_pBPvcKLMACQL4VARJRDbv+AcGGhWm0/Z+vRh9SuUCrQ=',
  });
  expect(app.runtime.metricsPort).toBeGreaterThan(0);
  metricsUrl = `http://127.0.0.1:${app.runtime.metricsPort}/metrics`;
});
afterAll(async () => {
  await app?.close();
});

/** The value of the sample `name{labels}` (labels as written, in order), or undefined. */
function sample(text: string, nameAndLabels: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${nameAndLabels} `));
  return line === undefined ? undefined : Number(line.slice(nameAndLabels.length + 1));
}

describe('GET /metrics on METRICS_PORT', () => {
  it('counts answers by route pattern and reads the pool, outbox, jobs and lists, with nothing a caller sent', async () => {
    // A provider signs up (email, password), completes her application, then sends an SSN to a
    // section (refused or not, the body held it), and asks for a path no route has, with her email.
    const provider = await signUpAndSignIn(app, { email: 'ssn.owner@example.test' });
    const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
    const applicationId = created.body.id;
    await createCompletedApplication({ ...app.runtime.deps, userId: provider.userId, applicationId });
    const completed = await provider.json(
      'POST',
      `/api/applications/${applicationId}/completion`,
      await signedAttestation(provider),
    );
    expect(completed.status, JSON.stringify(completed.body)).toBeLessThan(300);
    const saved = await provider.json(
      'PUT',
      `/api/applications/${applicationId}/sections/personal-information`,
      {
        providerType: 'MD',
        ssn: '987-65-4321',
        npiNumber: '1234567893',
      },
    );
    const unknown = await provider.request(
      'GET',
      `/api/nothing/${encodeURIComponent(provider.email)}?ssn=987654321`,
    );
    await unknown.arrayBuffer();
    expect(unknown.status).toBe(404);
    // An OIG LEIE list applied two days ago.
    await app.runtime.deps.database.pool.query(
      `insert into exclusion_imports (source, kind, status, file_name, encoding, row_count, staged_at, applied_at,
         rows_before, rows_after, changed_rows)
       values ('oig_leie', 'full', 'applied', 'leie.csv', 'utf-8', 0, now() - interval '2 days',
         now() - interval '2 days', 0, 0, 0)`,
    );

    const response = await fetch(metricsUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();

    // Requests, by the route's pattern and status.
    const route = '/api/applications/:applicationId/sections/personal-information';
    expect(
      sample(
        text,
        `credentialing_http_requests_total{method="PUT",route="${route}",status_code="${saved.status}"}`,
      ),
    ).toBe(1);
    expect(
      sample(text, `credentialing_http_request_duration_seconds_count{method="PUT",route="${route}"}`),
    ).toBe(1);
    expect(
      sample(text, `credentialing_http_requests_total{method="GET",route="unmatched",status_code="404"}`),
    ).toBe(1);
    // The pool, the outbox (the completion waits for a receiver that is not there), the jobs that
    // ran at start, the list's age.
    expect(sample(text, 'credentialing_db_pool_clients{state="waiting"}')).toBe(0);
    expect(sample(text, 'credentialing_db_pool_clients{state="total"}')).toBeGreaterThan(0);
    const completions = text
      .split('\n')
      .filter((l) => l.startsWith('credentialing_outbox_messages{outbox="completion_notifications"'))
      .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
    expect(completions).toBe(1);
    await expect
      .poll(async () =>
        sample(
          await (await fetch(metricsUrl)).text(),
          'credentialing_scheduled_job_last_success_timestamp_seconds{job="expired-sessions"}',
        ),
      )
      .toBeGreaterThan(Date.now() / 1000 - 600);
    const age = sample(text, 'credentialing_exclusion_list_age_seconds{source="oig_leie"}');
    expect(age).toBeGreaterThan(2 * 86_400 - 60);
    expect(age).toBeLessThan(2 * 86_400 + 600);
    // The process's own figures (prom-client's defaults).
    expect(text).toContain('credentialing_process_resident_memory_bytes');
    expect(text).toContain('credentialing_nodejs_eventloop_lag_p99_seconds');

    // Nothing a caller sent: no SSN (either), no email, no application id, no session token.
    const token = decodeURIComponent(provider.cookie.split(';')[0]!.split('=').slice(1).join('='));
    expect(token.length).toBeGreaterThan(20);
    for (const secret of [
      '987-65-4321',
      '987654321',
      FACTORY_SSN,
      provider.email,
      encodeURIComponent(provider.email),
      applicationId,
      provider.userId,
      token,
      token.split('.')[0]!,
    ]) {
      expect(text, `metrics mention ${secret}`).not.toContain(secret);
    }
  });

  it('listens on loopback only by default, and answers nothing but GET /metrics', async () => {
    // /proc/net/tcp lists listening sockets (state 0A) by local address: 0100007F is 127.0.0.1.
    const port = app.runtime.metricsPort!.toString(16).toUpperCase().padStart(4, '0');
    const listening = fs
      .readFileSync('/proc/net/tcp', 'utf8')
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields[1]?.endsWith(`:${port}`) && fields[3] === '0A')
      .map((fields) => fields[1]);
    expect(listening).toEqual([`0100007F:${port}`]);
    const base = `http://127.0.0.1:${app.runtime.metricsPort}`;
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${base}/metrics`, { method: 'HEAD' })).status).toBe(200);
  });

  it('is not started without METRICS_PORT, and the app counts nothing then', async () => {
    const plain = await createTestApp();
    try {
      expect(plain.runtime.metricsPort).toBeUndefined();
      expect(plain.runtime.deps.metrics).toBeUndefined();
    } finally {
      await plain.close();
    }
  });
});
