/**
 * Writes the n8n 2.x workflows shipped in integrations/n8n/ from the tested JavaScript of their Code
 * nodes plus short n8n entries below (one source of truth per Code node):
 *
 * - credentialing-completion.json (issue 20 item 3): verify-completion.js; answers when it ends.
 * - credentialing-completion-links.json (issue 28 item 9, NOTIFY_DOCUMENTS=links): answers 200 at
 *   once, then verify-completion.js and download-documents.js (each downloadUrl fetched and checked
 *   against its sha256).
 * - credentialing-inbound-example.json (issue 28 item 9): a signed message to the portal's
 *   POST /api/integrations/webhooks with sign-inbound.js (Node's crypto, the raw body sent as signed).
 *
 *   npx tsx integrations/n8n/build-workflow.ts          # write the JSON files
 *   npx tsx integrations/n8n/build-workflow.ts --check  # exit 1 when one is not up to date
 *
 * server/notifications/n8n-workflow.test.ts runs the Code nodes' code as n8n would against this
 * server's real messages and endpoints, and fails when a committed JSON differs from what this builds.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));
export const workflowPath = here('./credentialing-completion.json');
export const linksWorkflowPath = here('./credentialing-completion-links.json');
export const inboundWorkflowPath = here('./credentialing-inbound-example.json');
export const verifierPath = here('./verify-completion.js');
export const downloaderPath = here('./download-documents.js');
export const inboundSignerPath = here('./sign-inbound.js');

/**
 * The Code nodes' call of the portal's receipts (`POST <PORTAL_URL>/api/notifications/receipts`,
 * issue 53 item 2): `claim` in Verify, `done` in Record as processed. NOTIFY_RECEIPT_LEASE_SECONDS
 * (optional) is how long a claim holds before a retry may take it over (the portal's default: 900).
 */
const receiptCall = `
async function receipt(webhookId, action) {
  const portalUrl = String($env.PORTAL_URL || '').replace(/\\/+$/, '');
  if (!portalUrl) throw new Error("PORTAL_URL is not set in n8n (the portal's APP_URL, e.g. https at portal.example)");
  const lease = Number($env.NOTIFY_RECEIPT_LEASE_SECONDS) || undefined;
  const request = receiptRequest({
    secret: $env.NOTIFY_WEBHOOK_SECRET,
    webhookId,
    action,
    leaseSeconds: lease,
    nowSeconds: Math.floor(Date.now() / 1000),
  });
  const response = await this.helpers.httpRequest({
    method: 'POST',
    url: \`\${portalUrl}/api/notifications/receipts\`,
    headers: request.headers,
    body: request.body,
    returnFullResponse: true,
    ignoreHttpStatusErrors: true,
    timeout: 30000,
  });
  return readReceipt(response.statusCode, response.body);
}
`;

/**
 * Appended to verify-completion.js in the Code node ("Run Once for All Items"): reads the request the
 * Webhook node received (Raw Body: the bytes are its binary property `data`) and the secret from n8n's
 * environment, then claims the webhook-id at the portal: the first claim goes on, a done id is dropped,
 * an id another execution holds fails this one (inline: a 500, the portal retries later).
 */
export const codeNodeEntry = `
// --- n8n entry, added by integrations/n8n/build-workflow.ts ---
${receiptCall}
const item = $input.first();
const verified = verifyCompletion({
  rawBody: await this.helpers.getBinaryDataBuffer(0, 'data'),
  headers: item.json.headers,
  secret: $env.NOTIFY_WEBHOOK_SECRET,
  nowSeconds: Math.floor(Date.now() / 1000),
});
// A duplicate stops here; n8n still answers 200, so the portal stops sending it.
if ((await receipt.call(this, verified.webhookId, 'claim')) === 'duplicate') return [];
return [{ json: { webhookId: verified.webhookId, payload: verified.payload } }];
`;

/**
 * Appended to verify-completion.js in the last node, Record as processed: marks the webhook-id done at
 * the portal once your steps before it have run, so later copies are dropped as duplicates. Its items
 * pass through.
 */
export const recordNodeEntry = `
// --- n8n entry, added by integrations/n8n/build-workflow.ts ---
${receiptCall}
await receipt.call(this, $('Verify signature').first().json.webhookId, 'done');
return $input.all();
`;

/** The Record as processed node's JavaScript: verify-completion.js verbatim, then its entry. */
export function recordNodeSource(): string {
  return fs.readFileSync(verifierPath, 'utf8') + recordNodeEntry;
}

/** The Record as processed node, last in both completion workflows, at `x` on the canvas. */
function recordNode(id: string, x: number) {
  return {
    parameters: { jsCode: recordNodeSource() },
    id,
    name: 'Record as processed',
    type: 'n8n-nodes-base.code',
    typeVersion: 2,
    position: [x, 0],
  };
}

/** The Code node's JavaScript: verify-completion.js verbatim, then the entry. */
export function codeNodeSource(): string {
  return fs.readFileSync(verifierPath, 'utf8') + codeNodeEntry;
}

/** The workflow as `n8n import:workflow` reads it. */
export function buildWorkflow() {
  return {
    id: 'CredCompletion01',
    name: 'Credentialing completion notification',
    nodes: [
      {
        parameters: {
          httpMethod: 'POST',
          path: 'credentialing-completion',
          // Answer when the workflow ends: a failed check is a 500 the portal retries and shows.
          responseMode: 'lastNode',
          responseData: 'noData',
          options: { rawBody: true },
        },
        id: '6a1f1c0e-5a4b-4f43-9a55-1f0d3c2b7e01',
        name: 'Completion webhook',
        type: 'n8n-nodes-base.webhook',
        typeVersion: 2,
        position: [0, 0],
        webhookId: '0d8e6f4a-2b7c-4e1d-8f3a-5c6b7a8d9e02',
      },
      {
        parameters: { jsCode: codeNodeSource() },
        id: '3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a03',
        name: 'Verify signature',
        type: 'n8n-nodes-base.code',
        typeVersion: 2,
        position: [260, 0],
      },
      {
        parameters: {},
        id: '9e8d7c6b-5a49-4382-a716-0f9e8d7c6b04',
        name: 'Your processing here',
        type: 'n8n-nodes-base.noOp',
        typeVersion: 1,
        position: [520, 0],
      },
      recordNode('b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d05', 780),
    ],
    connections: {
      'Completion webhook': { main: [[{ node: 'Verify signature', type: 'main', index: 0 }]] },
      'Verify signature': { main: [[{ node: 'Your processing here', type: 'main', index: 0 }]] },
      'Your processing here': { main: [[{ node: 'Record as processed', type: 'main', index: 0 }]] },
    },
    active: false,
    settings: phiSettings,
    pinData: {},
  };
}

/**
 * The settings of every shipped workflow: the message is PHI (SSN, documents), so successful
 * executions are not kept (README "Receiving it with n8n" says how to keep them while testing).
 */
const phiSettings = {
  executionOrder: 'v1',
  saveDataSuccessExecution: 'none',
  saveManualExecutions: false,
} as const;

/**
 * Appended to download-documents.js in the links workflow's Code node ("Run Once for All Items"): its
 * input is the Verify node's one item `{ webhookId, payload }` (none for a duplicate, so this node
 * does not run). Downloads with n8n's `helpers.httpRequest` (no credentials: the link is the
 * capability); the files become the item's binary properties `document_0`, `document_1`, ... and
 * `json.documents` says which is which. The links themselves are dropped from the item: whoever
 * holds one can fetch the document until it expires.
 */
export const downloadNodeEntry = `
// --- n8n entry, added by integrations/n8n/build-workflow.ts ---
const verified = $input.first().json;
const downloaded = await downloadDocuments({
  payload: verified.payload,
  download: async (url) => {
    const response = await this.helpers.httpRequest({
      method: 'GET',
      url,
      encoding: 'arraybuffer',
      returnFullResponse: true,
      ignoreHttpStatusErrors: true,
      timeout: 120000,
    });
    return { status: response.statusCode, body: response.body };
  },
});
const binary = {};
const documents = [];
for (let index = 0; index < downloaded.length; index++) {
  const { document, bytes } = downloaded[index];
  const property = \`document_\${index}\`;
  binary[property] = await this.helpers.prepareBinaryData(bytes, document.filename, document.mime_type);
  documents.push({ binaryProperty: property, id: document.id, sha256: document.sha256, fileSize: bytes.length });
}
const payload = Array.isArray(verified.payload.documents)
  ? {
      ...verified.payload,
      documents: verified.payload.documents.map(({ downloadUrl, ...document }) => document),
    }
  : verified.payload;
return [{ json: { webhookId: verified.webhookId, payload, documents }, binary }];
`;

/** The links workflow's download Code node: download-documents.js verbatim, then the entry. */
export function downloadNodeSource(): string {
  return fs.readFileSync(downloaderPath, 'utf8') + downloadNodeEntry;
}

/**
 * The links-mode workflow: the Webhook node answers 200 as soon as the request is in (the portal's
 * attempt is not held open while documents download; NOTIFY_TIMEOUT_MS is 30 s), then the same
 * verification and de-duplication as credentialing-completion.json, then the downloads. A failure
 * after the answer shows in n8n's execution list, not in the portal (README).
 */
export function buildLinksWorkflow() {
  return {
    id: 'CredCompletionLinks01',
    name: 'Credentialing completion notification (documents as links)',
    nodes: [
      {
        parameters: {
          httpMethod: 'POST',
          path: 'credentialing-completion-links',
          // Answer 200 at once; the rest of the workflow runs after the answer. Raw Body only: n8n
          // treats rawBody and noResponseBody as exclusive and drops the raw body when both are set
          // (issue 53 item 1: Verify then failed on every message after the 200).
          responseMode: 'onReceived',
          options: { rawBody: true },
        },
        id: '5b7e2d10-3c4f-4a8b-9e61-2f0a1b3c4d11',
        name: 'Completion webhook',
        type: 'n8n-nodes-base.webhook',
        typeVersion: 2,
        position: [0, 0],
        webhookId: '7c9a4e21-6d5b-4f3c-8a72-3e1b2c4d5f12',
      },
      {
        parameters: { jsCode: codeNodeSource() },
        id: '8d0b5f32-7e6c-4a4d-9b83-4f2c3d5e6a13',
        name: 'Verify signature',
        type: 'n8n-nodes-base.code',
        typeVersion: 2,
        position: [260, 0],
      },
      {
        parameters: { jsCode: downloadNodeSource() },
        id: '9e1c6a43-8f7d-4b5e-8c94-5a3d4e6f7b14',
        name: 'Download and check documents',
        type: 'n8n-nodes-base.code',
        typeVersion: 2,
        position: [520, 0],
      },
      {
        parameters: {},
        id: 'af2d7b54-9a8e-4c6f-9da5-6b4e5f7a8c15',
        name: 'Your processing here',
        type: 'n8n-nodes-base.noOp',
        typeVersion: 1,
        position: [780, 0],
      },
      recordNode('c2d3e4f5-a6b7-4c8d-9e0f-1a2b3c4d5e16', 1040),
    ],
    connections: {
      'Completion webhook': { main: [[{ node: 'Verify signature', type: 'main', index: 0 }]] },
      'Verify signature': { main: [[{ node: 'Download and check documents', type: 'main', index: 0 }]] },
      'Download and check documents': {
        main: [[{ node: 'Your processing here', type: 'main', index: 0 }]],
      },
      'Your processing here': { main: [[{ node: 'Record as processed', type: 'main', index: 0 }]] },
    },
    active: false,
    settings: phiSettings,
    pinData: {},
  };
}

/**
 * The "Message to send" Code node of the inbound example: one message per item, in the shape of
 * `POST /api/integrations/webhooks` (domain/api/integration.ts). Replace it with your own steps.
 */
export const exampleMessageCode = `// One item per message to send to the portal (README "Acting back"). Optional json.webhookId:
// the portal applies each id once, so a repeat with the same id changes nothing.
return [
  {
    json: {
      type: 'application.note',
      data: {
        applicationId: 'replace with the application id (from the completion notification)',
        note: 'Primary source checks queued.',
      },
    },
  },
];
`;

/**
 * Appended to sign-inbound.js in the inbound example's Code node ("Run Once for All Items"): signs
 * each item's message with INBOUND_WEBHOOK_SECRET and POSTs the exact signed string to
 * PORTAL_URL + /api/integrations/webhooks; the item out is the portal's answer, and a refusal fails
 * the node with the portal's message.
 */
export const inboundNodeEntry = `
// --- n8n entry, added by integrations/n8n/build-workflow.ts ---
const portalUrl = String($env.PORTAL_URL || '').replace(/\\/+$/, '');
if (!portalUrl) throw new Error("PORTAL_URL is not set in n8n (the portal's APP_URL, e.g. https at portal.example)");
const answers = [];
for (const item of $input.all()) {
  const { webhookId, ...message } = item.json;
  const request = signInboundRequest({
    message,
    secret: $env.INBOUND_WEBHOOK_SECRET,
    id: webhookId || crypto.randomUUID(),
    nowSeconds: Math.floor(Date.now() / 1000),
  });
  const response = await this.helpers.httpRequest({
    method: 'POST',
    url: \`\${portalUrl}/api/integrations/webhooks\`,
    headers: request.headers,
    body: request.body,
    returnFullResponse: true,
    ignoreHttpStatusErrors: true,
    timeout: 30000,
  });
  answers.push({ json: readInboundAnswer(response.statusCode, response.body) });
}
return answers;
`;

/** The inbound example's signing Code node: sign-inbound.js verbatim, then the entry. */
export function inboundNodeSource(): string {
  return fs.readFileSync(inboundSignerPath, 'utf8') + inboundNodeEntry;
}

/** The inbound example: run by hand; replace the trigger and the message with your own steps. */
export function buildInboundWorkflow() {
  return {
    id: 'CredInboundExample01',
    name: 'Credentialing portal: signed message to POST /api/integrations/webhooks (example)',
    nodes: [
      {
        parameters: {},
        id: 'b03e8c65-0b9f-4d7a-8eb6-7c5f6a8b9d16',
        name: 'Run by hand',
        type: 'n8n-nodes-base.manualTrigger',
        typeVersion: 1,
        position: [0, 0],
      },
      {
        parameters: { jsCode: exampleMessageCode },
        id: 'c14f9d76-1c0a-4e8b-9fc7-8d6a7b9c0e17',
        name: 'Message to send',
        type: 'n8n-nodes-base.code',
        typeVersion: 2,
        position: [260, 0],
      },
      {
        parameters: { jsCode: inboundNodeSource() },
        id: 'd25a0e87-2d1b-4f9c-8ad8-9e7b8c0d1f18',
        name: 'Sign and send',
        type: 'n8n-nodes-base.code',
        typeVersion: 2,
        position: [520, 0],
      },
    ],
    connections: {
      'Run by hand': { main: [[{ node: 'Message to send', type: 'main', index: 0 }]] },
      'Message to send': { main: [[{ node: 'Sign and send', type: 'main', index: 0 }]] },
    },
    active: false,
    settings: phiSettings,
    pinData: {},
  };
}

/** Every shipped workflow: its file and what builds it. */
export const shippedWorkflows = [
  { path: workflowPath, build: buildWorkflow },
  { path: linksWorkflowPath, build: buildLinksWorkflow },
  { path: inboundWorkflowPath, build: buildInboundWorkflow },
] as const;

/** A workflow's file text: 2-space JSON and a final newline (Biome may reformat it; only the content counts). */
export function workflowText(workflow: unknown = buildWorkflow()): string {
  return `${JSON.stringify(workflow, null, 2)}\n`;
}

/** Whether the committed JSON at `path` has the content `build` makes (whitespace aside). */
function fileIsCurrent(path: string, build: () => unknown): boolean {
  if (!fs.existsSync(path)) return false;
  const current = JSON.parse(fs.readFileSync(path, 'utf8')) as unknown;
  return JSON.stringify(current) === JSON.stringify(build());
}

/** Whether every committed workflow JSON has the content this script builds (whitespace aside). */
export function workflowIsCurrent(): boolean {
  return shippedWorkflows.every(({ path, build }) => fileIsCurrent(path, build));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) {
  if (process.argv.includes('--check')) {
    const stale = shippedWorkflows.filter(({ path, build }) => !fileIsCurrent(path, build));
    if (stale.length > 0) {
      console.error(
        `${stale.map(({ path }) => path).join(', ')} out of date: run npx tsx integrations/n8n/build-workflow.ts`,
      );
      process.exit(1);
    }
  } else {
    for (const { path, build } of shippedWorkflows) {
      fs.writeFileSync(path, workflowText(build()));
      console.log(`wrote ${path}`);
    }
  }
}
