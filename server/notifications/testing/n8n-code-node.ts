/**
 * n8n as the fast tests of the shipped workflows (integrations/n8n/) need it, without n8n (the real
 * one runs them in real-n8n.test.ts, only when installed): the workflows' JSON with its node types,
 * and a Code node's code run the way n8n's Code node runs it (its globals, `$`, `this.helpers`, a
 * `require` that allows only 'crypto').
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A node of a workflow's JSON. */
type WorkflowNode = {
  id: string;
  name: string;
  type: string;
  typeVersion: number;
  position: number[];
  parameters: Record<string, unknown> & { jsCode?: string };
  webhookId?: string;
};

/** A workflow's JSON: its nodes, their connections by source node name, its settings. */
export interface Workflow {
  id: string;
  nodes: WorkflowNode[];
  connections: Record<string, { main: { node: string; type: string; index: number }[][] }>;
  settings: Record<string, unknown>;
}

/** A shipped workflow's JSON. */
export const readWorkflow = (path: string) => JSON.parse(fs.readFileSync(path, 'utf8')) as Workflow;

/** An n8n item: json, and binary properties as prepareBinaryData makes them (base64 `data`). */
export interface N8nItem {
  json: Record<string, unknown>;
  binary?: Record<string, { data: string; fileName?: string; mimeType?: string }>;
}

/**
 * The Code node runner (`runCode`) whose `helpers.httpRequest` fetches through `fetchUrl` (the tests:
 * the test app, reached at APP_URL).
 */
export function codeNodeRunner(fetchUrl: (url: string, init?: RequestInit) => Promise<Response>) {
  /**
   * n8n's `helpers.httpRequest` as the Code nodes use it (n8n-core: axios underneath): `encoding:
   * 'arraybuffer'` gives the body as bytes, else JSON parsed when it is JSON; `returnFullResponse` gives
   * `{ statusCode, headers, body }`; `ignoreHttpStatusErrors` keeps 4xx/5xx from throwing. A string body
   * is sent as is.
   */
  async function n8nHttpRequest(options: {
    method: string;
    url: string;
    headers?: Record<string, string>;
    body?: string;
    encoding?: 'arraybuffer';
    returnFullResponse?: boolean;
    ignoreHttpStatusErrors?: boolean;
    timeout?: number;
  }) {
    const response = await fetchUrl(options.url, {
      method: options.method,
      headers: options.headers,
      body: options.body,
      signal: AbortSignal.timeout(options.timeout ?? 30_000),
    });
    const raw = Buffer.from(await response.arrayBuffer());
    let body: unknown = raw;
    if (options.encoding !== 'arraybuffer') {
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        body = raw.toString('utf8');
      }
    }
    if (!response.ok && !options.ignoreHttpStatusErrors) {
      throw new Error(`Request failed with status code ${response.status}`);
    }
    return options.returnFullResponse
      ? { statusCode: response.status, headers: Object.fromEntries(response.headers), body }
      : body;
  }

  /**
   * Run a Code node's code as n8n's Code node ("Run Once for All Items") does: an async function body
   * with n8n's globals (`$` reads `nodes`), `this` holding the helpers. `require` allows only 'crypto'
   * (NODE_FUNCTION_ALLOW_BUILTIN=crypto).
   */
  async function runCode(
    code: string,
    {
      items,
      env,
      staticData = {},
      rawBody,
      nodes = {},
    }: {
      items: N8nItem[];
      env: Record<string, string | undefined>;
      staticData?: object;
      rawBody?: Buffer;
      /** Earlier nodes' output items by node name, for `$('<node name>')`. */
      nodes?: Record<string, N8nItem[]>;
    },
  ): Promise<N8nItem[]> {
    const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
      ...args: string[]
    ) => (...values: unknown[]) => Promise<N8nItem[]>;
    const run = new AsyncFunction('$input', '$env', '$getWorkflowStaticData', 'require', '$', code);
    const restrictedRequire = (name: string) => {
      if (name !== 'crypto') throw new Error(`Cannot find module '${name}' (not allowed)`);
      return require('node:crypto');
    };
    return run.call(
      {
        helpers: {
          getBinaryDataBuffer: async (index: number, property: string) =>
            index === 0 && property === 'data' ? rawBody : undefined,
          httpRequest: n8nHttpRequest,
          prepareBinaryData: async (bytes: Buffer, fileName?: string, mimeType?: string) => ({
            data: bytes.toString('base64'),
            fileName,
            mimeType,
          }),
        },
      },
      { first: () => items[0], all: () => items },
      env,
      (scope: string) => (scope === 'global' ? staticData : {}),
      restrictedRequire,
      (name: string) => ({ first: () => nodes[name]?.[0], all: () => nodes[name] ?? [] }),
    );
  }

  return runCode;
}
