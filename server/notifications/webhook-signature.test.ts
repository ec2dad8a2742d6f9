import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { createWebhookSigner, webhookKey } from './webhook-signature.ts';

describe('Standard Webhooks signing, chunk by chunk', () => {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;

  it('matches the standardwebhooks package on the whole body', () => {
    const body = JSON.stringify({ applicationId: 'a', note: 'é — ✓', list: [1, 2, 3] });
    const timestamp = Math.floor(Date.now() / 1000);
    const signer = createWebhookSigner(webhookKey(secret), 'msg_1', timestamp);
    const bytes = Buffer.from(body);
    // Split inside a multi-byte character on purpose: the HMAC is over bytes, not characters.
    signer.update(bytes.subarray(0, 37));
    signer.update(bytes.subarray(37));
    const header = signer.header();
    expect(header).toBe(new Webhook(secret).sign('msg_1', new Date(timestamp * 1000), body));
    expect(
      new Webhook(secret).verify(body, {
        'webhook-id': 'msg_1',
        'webhook-timestamp': String(timestamp),
        'webhook-signature': header,
      }),
    ).toMatchObject({ applicationId: 'a' });
  });

  it('differs for another id, timestamp or body', () => {
    const key = webhookKey(secret);
    const sign = (id: string, ts: number, body: string) => {
      const s = createWebhookSigner(key, id, ts);
      s.update(Buffer.from(body));
      return s.header();
    };
    const base = sign('a', 1, '{}');
    expect(sign('b', 1, '{}')).not.toBe(base);
    expect(sign('a', 2, '{}')).not.toBe(base);
    expect(sign('a', 1, '{ }')).not.toBe(base);
  });

  it('refuses an empty secret', () => {
    expect(() => webhookKey('whsec_')).toThrow('empty');
  });
});
