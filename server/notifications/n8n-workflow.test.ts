/**
 * The shipped n8n workflows (integrations/n8n/; issue 20 item 3, issue 28 item 9). Their Code nodes'
 * logic is plain JavaScript, run here against this server's real messages and endpoints:
 *
 * - verify-completion.js: the portal completes an application and sends the signed notification to
 *   the local test receiver, whose captured headers and raw body are then checked the way n8n would
 *   (valid, tampered, stale timestamp, duplicate id).
 * - download-documents.js (links mode): the real signed links of that message are downloaded from the
 *   real app and checked against each document's sha256 (an altered checksum, an expired link refused).
 * - sign-inbound.js: a message signed with Node's crypto is accepted by the real
 *   `POST /api/integrations/webhooks`, and the same headers over a tampered body are refused.
 *
 * Each Code node's exact code, as embedded in the JSON, is also run with n8n's Code node globals
 * ($input, $env, $getWorkflowStaticData, this.helpers.httpRequest / prepareBinaryData /
 * getBinaryDataBuffer, a `require` that only allows 'crypto' as NODE_FUNCTION_ALLOW_BUILTIN=crypto
 * does; testing/n8n-code-node.ts). The workflows' structure (nodes, connections, webhook answer
 * mode, settings) is checked in n8n-workflow-structure.test.ts; the workflows inside a real n8n in
 * real-n8n.test.ts (RUN_N8N=1, n8n installed by `npm run n8n:install`). These run on every CI run.
 */

import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboundWebhookSchema } from '../../domain/api/integration.ts';
import {
  buildWorkflow,
  codeNodeSource,
  inboundWorkflowPath,
  linksWorkflowPath,
  workflowIsCurrent,
  workflowPath,
} from '../../integrations/n8n/build-workflow.ts';
import { createTestApp, signUpAndSignIn, TEST_ORIGIN, type TestApp } from '../../tests/harness.ts';
import { signedAttestation } from '../../tests/http-client.ts';
import {
  createCompletedApplication,
  FACTORY_SSN,
  type FactoryDocument,
} from './testing/completed-application.ts';
import { codeNodeRunner, type N8nItem, readWorkflow } from './testing/n8n-code-node.ts';
import { WebhookReceiver } from './testing/webhook-receiver.ts';
import { createWebhookSigner, webhookKey } from './webhook-signature.ts';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const INBOUND_SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const require = createRequire(import.meta.url);

interface Verified {
  webhookId: string;
  payload: { applicationId: string; applicantInfo: { personalInformation: { ssn: string } } };
}
const { verifyCompletion, TOLERANCE_SECONDS } = require('../../integrations/n8n/verify-completion.js') as {
  verifyCompletion(message: {
    rawBody: Buffer;
    headers: Record<string, string | undefined>;
    secret: string | undefined;
    nowSeconds: number;
  }): Verified;
  TOLERANCE_SECONDS: number;
};

interface SentDocument {
  id: string;
  sha256: string;
  file_size: number;
  filename: string;
  mime_type: string;
  downloadUrl?: string;
  base64Content: string | null;
}
const { downloadDocuments, bytesOf } = require('../../integrations/n8n/download-documents.js') as {
  downloadDocuments(input: {
    payload: unknown;
    download: (url: string) => Promise<{ status: number; body: unknown }>;
  }): Promise<{ document: SentDocument; bytes: Buffer }[]>;
  bytesOf(body: unknown): Buffer;
};
const { signInboundRequest } = require('../../integrations/n8n/sign-inbound.js') as {
  signInboundRequest(input: {
    message: unknown;
    secret: string | undefined;
    id: string;
    nowSeconds: number;
  }): { body: string; headers: Record<string, string> };
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
let storedDocuments: FactoryDocument[];

beforeAll(async () => {
  receiver = new WebhookReceiver({ secret: SECRET });
  await receiver.listen();
  // Links mode (the links workflow's downloads need real links; the rest of the message is the same),
  // and the inbound endpoint on.
  app = await createTestApp({
    NOTIFY_WEBHOOK_URL: receiver.url,
    NOTIFY_WEBHOOK_SECRET: SECRET,
    NOTIFY_DOCUMENTS: 'links',
    INBOUND_WEBHOOK_SECRET: INBOUND_SECRET,
  });
  // First, a provider completes an application with two documents: the portal signs and sends the
  // real message.
  const provider = await signUpAndSignIn(app);
  const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
  applicationId = created.body.id;
  const filled = await createCompletedApplication({
    ...app.runtime.deps,
    userId: provider.userId,
    applicationId,
    documentSizes: [40_000, 123_457],
  });
  storedDocuments = filled.documents;
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
  it('accepts a valid message and its retry (duplicates are the portal receipt of the Code nodes, below)', () => {
    const first = verifyCompletion({ ...message, secret: SECRET, nowSeconds: nowOf(message) });
    expect(first.webhookId).toBe(message.headers['webhook-id']);
    expect(first.payload.applicationId).toBe(applicationId);
    expect(first.payload.applicantInfo.personalInformation.ssn).toBe(FACTORY_SSN);
    // The portal's retry of the same message (same id, new timestamp and signature) verifies too.
    const retry = signedAt(message, nowOf(message) + 60);
    expect(verifyCompletion({ ...retry, secret: SECRET, nowSeconds: nowOf(retry) })).toEqual(first);
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
      expect(() => verifyCompletion({ ...m, secret, nowSeconds: now }), what).toThrow(
        'webhook-signature does not match the body',
      );
    }
    expect(() => verifyCompletion({ ...message, secret: undefined, nowSeconds: now })).toThrow(
      'NOTIFY_WEBHOOK_SECRET is not set',
    );
    const unsigned = { ...message, headers: { ...message.headers, 'webhook-signature': '' } };
    expect(() => verifyCompletion({ ...unsigned, secret: SECRET, nowSeconds: now })).toThrow(
      'Not a signed notification',
    );
  });

  it('refuses a validly signed message whose timestamp is outside the 5-minute window', () => {
    const now = nowOf(message);
    const stale = signedAt(message, now - TOLERANCE_SECONDS - 1);
    expect(() => verifyCompletion({ ...stale, secret: SECRET, nowSeconds: now })).toThrow(
      'refused as a replay',
    );
    const future = signedAt(message, now + TOLERANCE_SECONDS + 1);
    expect(() => verifyCompletion({ ...future, secret: SECRET, nowSeconds: now })).toThrow(
      'refused as a replay',
    );
    // At the edge of the window it is still accepted.
    const edge = signedAt(message, now - TOLERANCE_SECONDS);
    expect(verifyCompletion({ ...edge, secret: SECRET, nowSeconds: now }).webhookId).toBe(
      edge.headers['webhook-id'],
    );
  });
});

/** The test app at APP_URL: links name APP_URL (TEST_ORIGIN), the app listens on a free port. */
function portalFetch(url: string, init?: RequestInit) {
  return fetch(url.startsWith(TEST_ORIGIN) ? app.baseUrl + url.slice(TEST_ORIGIN.length) : url, init);
}

const runCode = codeNodeRunner(portalFetch);

/** The Webhook node's item (Raw Body on: the bytes are its binary property `data`). */
function webhookItem(m: Message): N8nItem {
  return { json: { headers: m.headers, params: {}, query: {}, body: {} } };
}

/** n8n's environment as the README's table sets it: the portal (receipts) reached at APP_URL. */
const n8nEnv = (secret = SECRET) => ({ NOTIFY_WEBHOOK_SECRET: secret, PORTAL_URL: TEST_ORIGIN });

/** The same body under a new webhook-id, signed now (a message of its own for the receipts). */
function asNewMessage(m: Message): Message {
  return signedAt(
    { ...m, headers: { ...m.headers, 'webhook-id': `msg_${randomUUID()}` } },
    Math.floor(Date.now() / 1000),
  );
}

/** The Verify signature node, as in credentialing-completion.json. */
async function runCodeNode(code: string, m: Message, secret = SECRET) {
  return (await runCode(code, {
    items: [webhookItem(m)],
    env: n8nEnv(secret),
    rawBody: m.rawBody,
  })) as unknown as { json: Verified }[];
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

  it('wires a Raw Body webhook to the Code node, then a placeholder step, then Record as processed', () => {
    const webhook = workflow.nodes.find((n: { type: string }) => n.type === 'n8n-nodes-base.webhook');
    expect(webhook.parameters).toMatchObject({ httpMethod: 'POST', options: { rawBody: true } });
    expect(workflow.nodes.map((n: { type: string }) => n.type)).toEqual([
      'n8n-nodes-base.webhook',
      'n8n-nodes-base.code',
      'n8n-nodes-base.noOp',
      'n8n-nodes-base.code',
    ]);
    expect(workflow.connections[webhook.name].main[0][0].node).toBe(codeNode.name);
    expect(workflow.connections[codeNode.name].main[0][0].node).toBe('Your processing here');
    expect(workflow.connections['Your processing here'].main[0][0].node).toBe('Record as processed');
    expect(workflow.settings.saveDataSuccessExecution).toBe('none');
  });

  it('runs as the Code nodes: passes the message on once, fails a copy while it runs, drops it once recorded, throws on a bad one', async () => {
    const code = codeNode.parameters.jsCode as string;
    const fresh = asNewMessage(message);
    const out = await runCodeNode(code, fresh);
    expect(out).toHaveLength(1);
    expect(out[0]!.json).toMatchObject({ webhookId: fresh.headers['webhook-id'] });
    expect((out[0]!.json as unknown as { payload: { applicationId: string } }).payload.applicationId).toBe(
      applicationId,
    );
    // A copy that arrives while this execution runs fails (inline: a 500 the portal retries).
    await expect(runCodeNode(code, fresh)).rejects.toThrow(
      'Another execution is processing this webhook-id now',
    );
    // The last node records it; from then on a copy is dropped.
    const record = workflow.nodes.find((n: { name: string }) => n.name === 'Record as processed');
    const recorded = await runCode(record.parameters.jsCode, {
      items: out as unknown as N8nItem[],
      env: n8nEnv(),
      nodes: { 'Verify signature': out as unknown as N8nItem[] },
    });
    expect(recorded).toEqual(out);
    expect(await runCodeNode(code, fresh)).toEqual([]);
    await expect(
      runCodeNode(code, asNewMessage(message), `whsec_${randomBytes(32).toString('base64')}`),
    ).rejects.toThrow('webhook-signature does not match');
    // Signed 10 minutes ago: outside the window.
    const stale = signedAt(message, Math.floor(Date.now() / 1000) - 600);
    await expect(runCodeNode(code, stale)).rejects.toThrow('refused as a replay');
  });
});

/** The documents of the real links-mode message, as sent. */
function sentDocuments(): SentDocument[] {
  return (JSON.parse(message.rawBody.toString('utf8')) as { documents: SentDocument[] }).documents;
}

/** A GET of a link with no cookie, as the Code node makes it. */
async function download(url: string) {
  const response = await portalFetch(url);
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const storedOf = (id: string) => storedDocuments.find((d) => d.id === id)!;

describe('download-documents.js (the links workflow logic) against real signed links', () => {
  it('downloads every document of the real message and checks it against its sha256 and size', async () => {
    const payload = JSON.parse(message.rawBody.toString('utf8'));
    expect(sentDocuments().every((d) => d.downloadUrl && d.base64Content === null)).toBe(true);
    const downloaded = await downloadDocuments({ payload, download });
    expect(downloaded.map((d) => d.document.id)).toEqual(sentDocuments().map((d) => d.id));
    expect(downloaded).toHaveLength(storedDocuments.length);
    for (const { document, bytes } of downloaded) {
      expect(bytes.length).toBe(storedOf(document.id).size);
      expect(sha256(bytes)).toBe(storedOf(document.id).sha256);
    }
    // The portal audited each fetch, with the fetching address.
    const audits = await app.runtime.deps.database.pool.query<{ resource_id: string; ip_address: string }>(
      `select resource_id, ip_address from audit_log where action = 'notification.document_fetched'`,
    );
    for (const stored of storedDocuments) {
      expect(audits.rows).toContainEqual({ resource_id: stored.id, ip_address: '127.0.0.1' });
    }
  });

  it('refuses bytes that do not match the sha256, and says why a refused link was refused', async () => {
    const payload = JSON.parse(message.rawBody.toString('utf8'));
    const [first] = payload.documents as SentDocument[];
    first!.sha256 = sha256(Buffer.from('something else'));
    const { size, sha256: actual } = storedOf(first!.id);
    await expect(downloadDocuments({ payload, download })).rejects.toThrow(
      `Document ${first!.id} - ${size} bytes with SHA-256 ${actual}, expected ${size} bytes with ${first!.sha256}`,
    );
    // A link past its expiry (signed by the portal for this document): the portal's 403 and its message.
    const expired = JSON.parse(message.rawBody.toString('utf8'));
    const links = app.runtime.deps.completionDelivery.documentLinks;
    expired.documents[1].downloadUrl = links.mint(expired.documents[1].id, Math.floor(Date.now() / 1000) - 1);
    await expect(downloadDocuments({ payload: expired, download })).rejects.toThrow(
      `Document ${expired.documents[1].id} - the portal answered HTTP 403 (This download link is not valid or has expired. An administrator can send the notification again for new links.)`,
    );
  });

  it('checks inline documents the same way, and passes a message without documents', async () => {
    const [sent] = sentDocuments();
    const bytes = (await download(sent!.downloadUrl!)).body;
    const inline = {
      documents: [{ ...sent, downloadUrl: undefined, base64Content: bytes.toString('base64') }],
    };
    const [checked] = await downloadDocuments({ payload: inline, download });
    expect(sha256(checked!.bytes)).toBe(sent!.sha256);
    const unreadable = { documents: [{ ...sent, downloadUrl: undefined, base64Content: null }] };
    await expect(downloadDocuments({ payload: unreadable, download })).rejects.toThrow(
      `Document ${sent!.id} came without downloadUrl or base64Content`,
    );
    // An application.status_changed event has no documents.
    expect(await downloadDocuments({ payload: { type: 'application.status_changed' }, download })).toEqual(
      [],
    );
  });

  it('reads the bytes in every form the task runner may hand them over', () => {
    const bytes = randomBytes(64);
    const arrayBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
    for (const form of [
      bytes,
      arrayBuffer,
      new Uint8Array(bytes),
      { type: 'Buffer', data: [...bytes] },
      { type: 'Buffer', base64: bytes.toString('base64') },
    ]) {
      expect(bytesOf(form).equals(bytes)).toBe(true);
    }
    expect(() => bytesOf('%PDF-1.7')).toThrow('The download did not answer bytes');
  });
});

describe('sign-inbound.js (the inbound example logic) against the real POST /api/integrations/webhooks', () => {
  const note = () => ({
    type: 'application.note',
    data: { applicationId, note: `Primary source checks queued ${randomBytes(4).toString('hex')}.` },
  });
  const send = (request: { body: string; headers: Record<string, string> }) =>
    fetch(`${app.baseUrl}/api/integrations/webhooks`, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
    });

  it('signs a message the portal accepts, and the portal refuses the same signature over a tampered body', async () => {
    const request = signInboundRequest({
      message: note(),
      secret: INBOUND_SECRET,
      id: crypto.randomUUID(),
      nowSeconds: Math.floor(Date.now() / 1000),
    });
    const accepted = await send(request);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ applied: true, applicationId });

    const tampered = await send({
      headers: { ...request.headers, 'webhook-id': crypto.randomUUID() },
      body: request.body,
    });
    expect(tampered.status).toBe(401);
    const altered = await send({ ...request, body: request.body.replace('queued', 'skipped') });
    expect(altered.status).toBe(401);
    expect(await altered.json()).toMatchObject({
      message: 'The webhook-signature does not match the body: sign it with INBOUND_WEBHOOK_SECRET.',
    });
    expect(() => signInboundRequest({ message: note(), secret: undefined, id: 'x', nowSeconds: 0 })).toThrow(
      'INBOUND_WEBHOOK_SECRET is not set in n8n',
    );
  });
});

describe('the links workflow, its Code nodes run as n8n runs them', () => {
  const workflow = () => readWorkflow(linksWorkflowPath);
  const code = (name: string) => workflow().nodes.find((n) => n.name === name)!.parameters.jsCode!;

  it('passes one item on with every document as a checked binary property and no links; a duplicate stops at Verify', async () => {
    const fresh = asNewMessage(message);
    const verified = await runCode(code('Verify signature'), {
      items: [webhookItem(fresh)],
      env: n8nEnv(),
      rawBody: fresh.rawBody,
    });
    expect(verified).toHaveLength(1);
    const [out, ...rest] = await runCode(code('Download and check documents'), { items: verified, env: {} });
    expect(rest).toEqual([]);
    const json = out!.json as {
      webhookId: string;
      payload: { applicationId: string; documents: Record<string, unknown>[] };
      documents: { binaryProperty: string; id: string; sha256: string; fileSize: number }[];
    };
    expect(json.webhookId).toBe(fresh.headers['webhook-id']);
    expect(json.payload.applicationId).toBe(applicationId);
    expect(json.payload.documents.some((d) => 'downloadUrl' in d)).toBe(false);
    expect(json.documents).toEqual(
      sentDocuments().map((d, index) => ({
        binaryProperty: `document_${index}`,
        id: d.id,
        sha256: storedOf(d.id).sha256,
        fileSize: storedOf(d.id).size,
      })),
    );
    for (const [index, sent] of sentDocuments().entries()) {
      const binary = out!.binary![`document_${index}`]!;
      expect(sha256(Buffer.from(binary.data, 'base64'))).toBe(storedOf(sent.id).sha256);
      expect(binary).toMatchObject({ fileName: sent.filename, mimeType: 'application/pdf' });
    }
    // Recorded as processed, the same message again (a retry after a lost answer) stops at Verify.
    await runCode(code('Record as processed'), {
      items: [out!],
      env: n8nEnv(),
      nodes: { 'Verify signature': verified },
    });
    expect(
      await runCode(code('Verify signature'), {
        items: [webhookItem(fresh)],
        env: n8nEnv(),
        rawBody: fresh.rawBody,
      }),
    ).toEqual([]);
  });

  it('fails the download node, naming the document, when a link has expired', async () => {
    const verifiedPayload = JSON.parse(message.rawBody.toString('utf8'));
    const links = app.runtime.deps.completionDelivery.documentLinks;
    const first = verifiedPayload.documents[0];
    first.downloadUrl = links.mint(first.id, Math.floor(Date.now() / 1000) - 60);
    await expect(
      runCode(code('Download and check documents'), {
        items: [{ json: { webhookId: 'w', payload: verifiedPayload } }],
        env: {},
      }),
    ).rejects.toThrow(`Document ${first.id} - the portal answered HTTP 403`);
  });
});

describe('the inbound example, its Code nodes run as n8n runs them', () => {
  const workflow = () => readWorkflow(inboundWorkflowPath);
  const code = (name: string) => workflow().nodes.find((n) => n.name === name)!.parameters.jsCode!;
  const env = { PORTAL_URL: `${TEST_ORIGIN}/`, INBOUND_WEBHOOK_SECRET: INBOUND_SECRET };

  it('builds a message of the endpoint shape, signs it and sends the raw body: applied', async () => {
    const [example] = await runCode(code('Message to send'), { items: [{ json: {} }], env: {} });
    const data = { ...(example!.json.data as { note: string }), applicationId };
    const message = { ...example!.json, data };
    expect(inboundWebhookSchema.safeParse(message).success).toBe(true);
    const id = crypto.randomUUID();
    const answers = await runCode(code('Sign and send'), {
      items: [{ json: { ...message, webhookId: id } }],
      env,
    });
    expect(answers).toEqual([
      { json: { applied: true, applicationId, applicationStatus: expect.any(String) } },
    ]);
    // The portal recorded the note once, under the webhook-id the item named: a repeat changes nothing.
    const again = await runCode(code('Sign and send'), {
      items: [{ json: { ...message, webhookId: id } }],
      env,
    });
    expect(again).toEqual(answers);
    const notes = await app.runtime.deps.database.pool.query(
      `select 1 from audit_log where action = 'review.note_added' and details->>'note' = $1`,
      [data.note],
    );
    expect(notes.rowCount).toBe(1);
  });

  it("fails with the portal's message when the portal refuses, and without PORTAL_URL", async () => {
    const item = { json: { type: 'application.note', data: { applicationId, note: 'Refused.' } } };
    await expect(
      runCode(code('Sign and send'), {
        items: [item],
        env: { ...env, INBOUND_WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}` },
      }),
    ).rejects.toThrow(
      'The portal refused the message (HTTP 401) - The webhook-signature does not match the body - sign it with INBOUND_WEBHOOK_SECRET.',
    );
    await expect(
      runCode(code('Sign and send'), {
        items: [
          { json: { type: 'application.note', data: { applicationId: crypto.randomUUID(), note: 'x' } } },
        ],
        env,
      }),
    ).rejects.toThrow('The portal refused the message (HTTP 404)');
    await expect(
      runCode(code('Sign and send'), { items: [item], env: { ...env, PORTAL_URL: '' } }),
    ).rejects.toThrow('PORTAL_URL is not set in n8n');
  });
});
