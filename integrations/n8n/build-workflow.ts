/**
 * Writes credentialing-completion.json, the n8n 2.x workflow shipped for issue 20 item 3, from
 * verify-completion.js (the one source of the Code node's logic) and the short n8n entry below.
 *
 *   npx tsx integrations/n8n/build-workflow.ts          # write the JSON
 *   npx tsx integrations/n8n/build-workflow.ts --check  # exit 1 when the JSON is not up to date
 *
 * server/notifications/n8n-workflow.test.ts runs the Code node's code as n8n would and fails when the
 * committed JSON differs from what this script builds.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));
export const workflowPath = here('./credentialing-completion.json');
export const verifierPath = here('./verify-completion.js');

/**
 * Appended to verify-completion.js in the Code node ("Run Once for All Items"): reads the request the
 * Webhook node received (Raw Body: the bytes are its binary property `data`), the secret from n8n's
 * environment, and keeps seen ids in the workflow's static data (saved by production executions).
 */
export const codeNodeEntry = `
// --- n8n entry, added by integrations/n8n/build-workflow.ts ---
const item = $input.first();
const result = verifyCompletion({
  rawBody: await this.helpers.getBinaryDataBuffer(0, 'data'),
  headers: item.json.headers,
  secret: $env.NOTIFY_WEBHOOK_SECRET,
  nowSeconds: Math.floor(Date.now() / 1000),
  store: $getWorkflowStaticData('global'),
});
// A duplicate stops here; n8n still answers 200, so the portal stops sending it.
return result.duplicate ? [] : [{ json: { webhookId: result.webhookId, payload: result.payload } }];
`;

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
    ],
    connections: {
      'Completion webhook': { main: [[{ node: 'Verify signature', type: 'main', index: 0 }]] },
      'Verify signature': { main: [[{ node: 'Your processing here', type: 'main', index: 0 }]] },
    },
    active: false,
    // The message is PHI (SSN, documents): do not keep successful executions (README).
    settings: { executionOrder: 'v1', saveDataSuccessExecution: 'none', saveManualExecutions: false },
    pinData: {},
  };
}

/** The file's text: 2-space JSON and a final newline (Biome may reformat it; only the content counts). */
export function workflowText(): string {
  return `${JSON.stringify(buildWorkflow(), null, 2)}\n`;
}

/** Whether the committed JSON has the content this script builds (whitespace aside). */
export function workflowIsCurrent(): boolean {
  if (!fs.existsSync(workflowPath)) return false;
  const current = JSON.parse(fs.readFileSync(workflowPath, 'utf8')) as unknown;
  return JSON.stringify(current) === JSON.stringify(buildWorkflow());
}

if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) {
  if (process.argv.includes('--check')) {
    if (!workflowIsCurrent()) {
      console.error(
        'credentialing-completion.json is out of date: run npx tsx integrations/n8n/build-workflow.ts',
      );
      process.exit(1);
    }
  } else {
    fs.writeFileSync(workflowPath, workflowText());
    console.log(`wrote ${workflowPath}`);
  }
}
