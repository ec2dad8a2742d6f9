/**
 * The shipped n8n workflow (issue 20 item 3; integrations/n8n/). Its Code node's logic,
 * verify-completion.js, is run as plain JavaScript against real messages: the portal completes an
 * application and sends the signed notification to the local test receiver, whose captured headers
 * and raw body are then checked the way n8n would (valid, tampered, stale timestamp, duplicate id).
 * The Code node's exact code, as embedded in credentialing-completion.json, is also run with n8n's
 * Code node globals ($input, $env, $getWorkflowStaticData, this.helpers, a `require` that only allows
 * 'crypto' as NODE_FUNCTION_ALLOW_BUILTIN=crypto does). n8n itself is not installed here.
 */

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildWorkflow,
  codeNodeSource,
  workflowIsCurrent,
  workflowPath,
} from '../../integrations/n8n/build-workflow.ts';
import { createTestApp, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { signedAttestation } from '../../tests/http-client.ts';
import { createCompletedApplication, FACTORY_SSN } from './testing/completed-application.ts';
import { WebhookReceiver } from './testing/webhook-receiver.ts';
import { createWebhookSigner, webhookKey } from './webhook-signature.ts';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const require = createRequire(import.meta.url);

interface Verified {
  duplicate: boolean;
  webhookId: string;
  payload: { applicationId: string; applicantInfo: { personalInformation: { ssn: string } } } | null;
}
const { verifyCompletion, TOLERANCE_SECONDS } = require('../../integrations/n8n/verify-completion.js') as {
  verifyCompletion(message: {
    rawBody: Buffer;
    headers: Record<string, string | undefined>;
    secret: string | undefined;
    nowSeconds: number;
    store: Record<string, unknown>;
  }): Verified;
  TOLERANCE_SECONDS: number;
};

/** A message as the receiver got it. */
interface Message {
  headers: Record<string, string>;
  rawBody: Buffer;
}

let receiver: WebhookReceiver;
let app: TestApp;
let message: Message;
let applicationId: string;

beforeAll(async () => {
  receiver = new WebhookReceiver({ secret: SECRET });
  await receiver.listen();
  app = await createTestApp({ NOTIFY_WEBHOOK_URL: receiver.url, NOTIFY_WEBHOOK_SECRET: SECRET });
  // First, a provider completes an application: the portal signs and sends the real message.
  const provider = await signUpAndSignIn(app);
  const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
  applicationId = created.body.id;
  await createCompletedApplication({ ...app.runtime.deps, userId: provider.userId, applicationId });
  const answer = await provider.json(
    'POST',
    `/api/applications/${applicationId}/completion`,
    await signedAttestation(provider),
  );
  expect(answer.status).toBe(200);
  const request = receiver.requests.at(-1)!;
  message = {
    headers: Object.fromEntries(
      ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-type'].map((name) => [
        name,
        String(request.headers[name]),
      ]),
    ),
    rawBody: request.body!,
  };
});
afterAll(async () => {
  await app?.close();
  await receiver?.close();
});

const nowOf = (m: Message) => Number(m.headers['webhook-timestamp']);

/** The same body signed by the portal's signer at another time (what a replay or a slow clock looks like). */
function signedAt(m: Message, timestamp: number): Message {
  const signer = createWebhookSigner(webhookKey(SECRET), m.headers['webhook-id']!, timestamp);
  signer.update(m.rawBody);
  return {
    rawBody: m.rawBody,
    headers: { ...m.headers, 'webhook-timestamp': String(timestamp), 'webhook-signature': signer.header() },
  };
}

describe('verify-completion.js (the Code node logic) against real signed messages', () => {
  it('accepts a valid message once, then reports its webhook-id as a duplicate', () => {
    const store: Record<string, unknown> = {};
    const first = verifyCompletion({ ...message, secret: SECRET, nowSeconds: nowOf(message), store });
    expect(first.duplicate).toBe(false);
    expect(first.webhookId).toBe(message.headers['webhook-id']);
    expect(first.payload?.applicationId).toBe(applicationId);
    expect(first.payload?.applicantInfo.personalInformation.ssn).toBe(FACTORY_SSN);
    // The portal's retry of the same message (same id, new timestamp and signature) is a duplicate.
    const retry = signedAt(message, nowOf(message) + 60);
    const second = verifyCompletion({ ...retry, secret: SECRET, nowSeconds: nowOf(retry), store });
    expect(second).toEqual({ duplicate: true, webhookId: first.webhookId, payload: null });
  });

  it('refuses a tampered body, id or signature, and a wrong secret', () => {
    const now = nowOf(message);
    const tamperedBody = Buffer.from(message.rawBody);
    const at = tamperedBody.indexOf(Buffer.from(FACTORY_SSN));
    tamperedBody[at] = tamperedBody[at] === 0x31 ? 0x32 : 0x31;
    const cases: [string, Message, string][] = [
      ['body', { ...message, rawBody: tamperedBody }, SECRET],
      ['id', { ...message, headers: { ...message.headers, 'webhook-id': crypto.randomUUID() } }, SECRET],
      [
        'signature',
        { ...message, headers: { ...message.headers, 'webhook-signature': `v1,${'A'.repeat(44)}` } },
        SECRET,
      ],
      ['secret', message, `whsec_${randomBytes(32).toString('base64')}`],
    ];
    for (const [what, m, secret] of cases) {
      expect(() => verifyCompletion({ ...m, secret, nowSeconds: now, store: {} }), what).toThrow(
        'webhook-signature does not match the body',
      );
    }
    expect(() => verifyCompletion({ ...message, secret: undefined, nowSeconds: now, store: {} })).toThrow(
      'NOTIFY_WEBHOOK_SECRET is not set',
    );
    const unsigned = { ...message, headers: { ...message.headers, 'webhook-signature': '' } };
    expect(() => verifyCompletion({ ...unsigned, secret: SECRET, nowSeconds: now, store: {} })).toThrow(
      'Not a signed notification',
    );
  });

  it('refuses a validly signed message whose timestamp is outside the 5-minute window', () => {
    const now = nowOf(message);
    const stale = signedAt(message, now - TOLERANCE_SECONDS - 1);
    expect(() => verifyCompletion({ ...stale, secret: SECRET, nowSeconds: now, store: {} })).toThrow(
      'refused as a replay',
    );
    const future = signedAt(message, now + TOLERANCE_SECONDS + 1);
    expect(() => verifyCompletion({ ...future, secret: SECRET, nowSeconds: now, store: {} })).toThrow(
      'refused as a replay',
    );
    // At the edge of the window it is still accepted.
    const edge = signedAt(message, now - TOLERANCE_SECONDS);
    expect(verifyCompletion({ ...edge, secret: SECRET, nowSeconds: now, store: {} }).duplicate).toBe(false);
  });
});

/**
 * Run the Code node's code as n8n's Code node ("Run Once for All Items") does: an async function body
 * with n8n's globals. `require` allows only 'crypto' (NODE_FUNCTION_ALLOW_BUILTIN=crypto).
 */
async function runCodeNode(code: string, m: Message, staticData: Record<string, unknown>, secret = SECRET) {
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
    ...args: string[]
  ) => (...values: unknown[]) => Promise<{ json: Verified }[]>;
  const run = new AsyncFunction('$input', '$env', '$getWorkflowStaticData', 'require', code);
  const item = { json: { headers: m.headers, params: {}, query: {}, body: {} } };
  const restrictedRequire = (name: string) => {
    if (name !== 'crypto') throw new Error(`Cannot find module '${name}' (not allowed)`);
    return require('node:crypto');
  };
  return run.call(
    {
      helpers: {
        getBinaryDataBuffer: async (index: number, property: string) =>
          index === 0 && property === 'data' ? m.rawBody : undefined,
      },
    },
    { first: () => item, all: () => [item] },
    { NOTIFY_WEBHOOK_SECRET: secret },
    (scope: string) => (scope === 'global' ? staticData : {}),
    restrictedRequire,
  );
}

describe('integrations/n8n/credentialing-completion.json', () => {
  const workflow = JSON.parse(fs.readFileSync(workflowPath, 'utf8'));
  const codeNode = workflow.nodes.find((n: { type: string }) => n.type === 'n8n-nodes-base.code');

  it('is what build-workflow.ts builds from verify-completion.js (one source of truth)', () => {
    expect(workflowIsCurrent()).toBe(true);
    expect(codeNode.parameters.jsCode).toBe(codeNodeSource());
    expect(
      codeNode.parameters.jsCode.startsWith(
        fs.readFileSync(require.resolve('../../integrations/n8n/verify-completion.js'), 'utf8'),
      ),
    ).toBe(true);
    expect(workflow).toEqual(buildWorkflow());
  });

  it('wires a Raw Body webhook to the Code node, then a placeholder step', () => {
    const webhook = workflow.nodes.find((n: { type: string }) => n.type === 'n8n-nodes-base.webhook');
    expect(webhook.parameters).toMatchObject({ httpMethod: 'POST', options: { rawBody: true } });
    expect(workflow.nodes.map((n: { type: string }) => n.type)).toEqual([
      'n8n-nodes-base.webhook',
      'n8n-nodes-base.code',
      'n8n-nodes-base.noOp',
    ]);
    expect(workflow.connections[webhook.name].main[0][0].node).toBe(codeNode.name);
    expect(workflow.connections[codeNode.name].main[0][0].node).toBe('Your processing here');
    expect(workflow.settings.saveDataSuccessExecution).toBe('none');
  });

  it('runs as the Code node: passes the message on once, drops the duplicate, throws on a bad one', async () => {
    const staticData: Record<string, unknown> = {};
    const code = codeNode.parameters.jsCode as string;
    const fresh = signedAt(message, Math.floor(Date.now() / 1000));
    const out = await runCodeNode(code, fresh, staticData);
    expect(out).toHaveLength(1);
    expect(out[0]!.json).toMatchObject({ webhookId: message.headers['webhook-id'] });
    expect((out[0]!.json as unknown as { payload: { applicationId: string } }).payload.applicationId).toBe(
      applicationId,
    );
    expect(await runCodeNode(code, fresh, staticData)).toEqual([]);
    await expect(runCodeNode(code, fresh, {}, `whsec_${randomBytes(32).toString('base64')}`)).rejects.toThrow(
      'webhook-signature does not match',
    );
    // Signed 10 minutes ago: outside the window.
    const stale = signedAt(message, Math.floor(Date.now() / 1000) - 600);
    await expect(runCodeNode(code, stale, {})).rejects.toThrow('refused as a replay');
  });
});
