/**
 * `POST /api/notifications/receipts` (issue 53 item 2) over real HTTP on a fresh PostgreSQL database:
 * claims of one webhook-id that arrive together give exactly one `claimed`; distinct ids are all
 * claimed; a done id is a duplicate; a claim whose lease ran out (a failed execution) is claimed again;
 * an unsigned, wrongly signed or stale request is refused.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/harness.ts';
import { createWebhookSigner, webhookKey } from './webhook-signature.ts';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
let app: TestApp;

beforeAll(async () => {
  app = await createTestApp({ NOTIFY_WEBHOOK_SECRET: SECRET });
});
afterAll(async () => {
  await app?.close();
});

/** POST a receipt request signed with `secret` at `timestamp` (Unix seconds). */
async function receipt(
  body: Record<string, unknown>,
  { secret = SECRET, timestamp = Math.floor(Date.now() / 1000) } = {},
): Promise<{ status: number; body: { outcome?: string; message?: string } }> {
  const text = JSON.stringify(body);
  const id = `msg_${randomUUID()}`;
  const signer = createWebhookSigner(webhookKey(secret), id, timestamp);
  signer.update(Buffer.from(text));
  const response = await fetch(`${app.baseUrl}/api/notifications/receipts`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signer.header(),
    },
    body: text,
  });
  return { status: response.status, body: (await response.json()) as { outcome?: string; message?: string } };
}

const claim = (webhookId: string, leaseSeconds?: number) =>
  receipt({ webhookId, action: 'claim', ...(leaseSeconds ? { leaseSeconds } : {}) });

describe('POST /api/notifications/receipts', () => {
  it('claims 8 distinct ids sent at once, each once', async () => {
    const ids = Array.from({ length: 8 }, () => `msg_${randomUUID()}`);
    const answers = await Promise.all(ids.map((id) => claim(id)));
    expect(answers.map((a) => [a.status, a.body.outcome])).toEqual(ids.map(() => [200, 'claimed']));
  });

  it('gives one of 8 simultaneous claims of one id the message; after done, every claim is a duplicate', async () => {
    const id = `msg_${randomUUID()}`;
    const answers = await Promise.all(Array.from({ length: 8 }, () => claim(id)));
    const outcomes = answers.map((a) => a.body.outcome).sort();
    expect(outcomes).toEqual(['claimed', ...Array(7).fill('in_progress')]);
    expect((await receipt({ webhookId: id, action: 'done' })).body).toEqual({ outcome: 'done' });
    const after = await Promise.all(Array.from({ length: 8 }, () => claim(id)));
    expect(after.map((a) => a.body.outcome)).toEqual(Array(8).fill('duplicate'));
  });

  it('lets the retry of a failed execution claim the id once the lease has run out', async () => {
    const id = `msg_${randomUUID()}`;
    expect((await claim(id, 1)).body.outcome).toBe('claimed');
    // The execution fails and never marks it done; the portal's retry comes while the lease holds...
    expect((await claim(id, 1)).body.outcome).toBe('in_progress');
    // ...and again after it: processed.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const retries = await Promise.all(Array.from({ length: 4 }, () => claim(id)));
    expect(retries.map((a) => a.body.outcome).sort()).toEqual([
      'claimed',
      'in_progress',
      'in_progress',
      'in_progress',
    ]);
  });

  it('refuses an unsigned, wrongly signed or stale request', async () => {
    const unsigned = await fetch(`${app.baseUrl}/api/notifications/receipts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ webhookId: 'msg_x', action: 'claim' }),
    });
    expect(unsigned.status).toBe(401);
    // The same words as the inbound webhook (one verifier: webhook-signature.ts verifySignedRequest).
    expect(((await unsigned.json()) as { message: string }).message).toBe(
      'Sign the request: webhook-id, webhook-timestamp and webhook-signature are required.',
    );
    const wrong = await receipt(
      { webhookId: 'msg_x', action: 'claim' },
      { secret: `whsec_${randomBytes(32).toString('base64')}` },
    );
    expect(wrong).toMatchObject({
      status: 401,
      body: { message: expect.stringContaining('NOTIFY_WEBHOOK_SECRET') },
    });
    const stale = await receipt(
      { webhookId: 'msg_x', action: 'claim' },
      { timestamp: Math.floor(Date.now() / 1000) - 600 },
    );
    expect(stale).toMatchObject({
      status: 401,
      body: { message: expect.stringContaining('send the message again with the current time') },
    });
    expect((await receipt({ webhookId: '', action: 'claim' })).status).toBe(400);
  });
});
