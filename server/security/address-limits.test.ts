/**
 * Per-address limits hold across instances (issue 12): two instances on one database, requests
 * alternating between them, are counted together; before, each process counted its own in memory,
 * so two instances let twice as many through.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, createTwoInstances, STRONG_PASSWORD, type TestApp } from '../../tests/harness.ts';
import { AUTH_REQUESTS_PER_ADDRESS, CLIENT_EVENTS } from './rate-limits.ts';

let a: TestApp;
let b: TestApp;

let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ a, b, close } = await createTwoInstances({ AUTH_IP_RATE_LIMIT: 'true' }));
});
afterAll(async () => {
  await close?.();
});

it('counts sign-ups from one address through both instances together', async () => {
  const limit = AUTH_REQUESTS_PER_ADDRESS.paths['/sign-up/email']!;
  const signUp = (app: TestApp, n: number) =>
    new Client(app).request('POST', '/api/auth/sign-up/email', {
      email: `limit${n}.${randomBytes(3).toString('hex')}@example.test`,
      password: STRONG_PASSWORD,
      firstName: 'Alice',
      lastName: 'Provider',
      name: 'Alice Provider',
    });
  for (let n = 0; n < limit; n += 1) {
    const response = await signUp(n % 2 === 0 ? a : b, n);
    expect(response.status, `sign-up ${n + 1}`).toBe(200);
  }
  // The next one is refused on either instance, with the wait in words and in Retry-After.
  for (const app of [a, b]) {
    const refused = await signUp(app, 99);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /^Too many requests from your network\. Try again in \d+ seconds?\.$/,
    );
  }
});

it('counts reports of unknown pages from one address through both instances together', async () => {
  const report = (app: TestApp) =>
    new Client(app).request('POST', '/api/client-events/not-found', { path: '/nowhere' });
  for (let n = 0; n < CLIENT_EVENTS.perAddress; n += 1) {
    expect((await report(n % 2 === 0 ? a : b)).status).toBe(204);
  }
  expect((await report(a)).status).toBe(429);
  expect((await report(b)).status).toBe(429);
});
