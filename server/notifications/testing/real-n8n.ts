/**
 * A real n8n for the real-n8n test (issue 53 item 1): the n8n pinned in integrations/n8n/harness/
 * (installed only by `npm run n8n:install`: n8n is large), run on free ports with its own user folder
 * (SQLite) in a temporary directory, driven with its CLI the way the README says, its execution
 * records read from its SQLite database. Also a recording forwarder that passes the portal's messages
 * to n8n unchanged and keeps a copy, so a test can send altered versions of a real message.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';

/** integrations/n8n/harness/: its own package.json and lock, n8n pinned. */
export const harnessDir = fileURLToPath(new URL('../../../integrations/n8n/harness/', import.meta.url));
/** n8n's CLI entry in the harness (absent until `npm run n8n:install`). */
export const n8nBin = path.join(harnessDir, 'node_modules/n8n/bin/n8n');

/** Whether the harness is installed (`npm run n8n:install`). */
export function n8nInstalled(): boolean {
  return fs.existsSync(n8nBin);
}

/** A free TCP port on 127.0.0.1 (asked of the OS, then released: a tiny race, fine for tests). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** One of n8n's execution records, as its database keeps it. */
export interface N8nExecution {
  id: number;
  workflowId: string;
  /** 'success', 'error', 'crashed', 'running', … */
  status: string;
  /** The webhook-id header of the request that started it ('' when none). */
  webhookId: string;
  /** The nodes that ran, in n8n's runData order. */
  nodesRun: string[];
  /** The error n8n shows for a failed execution (its message), else null. */
  error: string | null;
}

/** What `run` of the CLI gave. */
export interface CliResult {
  code: number | null;
  output: string;
}

/**
 * A real n8n process with its own user folder. `env` is added to n8n's environment (the README's
 * table: NODE_FUNCTION_ALLOW_BUILTIN, N8N_BLOCK_ENV_ACCESS_IN_NODE, the secrets, PORTAL_URL).
 */
export class RealN8n {
  readonly userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-test-'));
  private process?: ChildProcess;
  private log = '';

  readonly port: number;
  private readonly brokerPort: number;
  private readonly env: Record<string, string>;

  private constructor(port: number, brokerPort: number, env: Record<string, string>) {
    this.port = port;
    this.brokerPort = brokerPort;
    this.env = env;
  }

  /** A user folder and two free ports (the editor and webhooks; the task runners' broker). */
  static async create(env: Record<string, string>): Promise<RealN8n> {
    return new RealN8n(await freePort(), await freePort(), env);
  }

  /** http://127.0.0.1:<port>/webhook/<path> (a published workflow's production URL). */
  webhookUrl(webhookPath: string): string {
    return `http://127.0.0.1:${this.port}/webhook/${webhookPath}`;
  }

  private processEnv(): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      HOME: this.userFolder,
      TZ: 'UTC',
      N8N_USER_FOLDER: this.userFolder,
      N8N_PORT: String(this.port),
      N8N_LISTEN_ADDRESS: '127.0.0.1',
      WEBHOOK_URL: `http://127.0.0.1:${this.port}/`,
      N8N_RUNNERS_BROKER_PORT: String(this.brokerPort),
      N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
      N8N_DIAGNOSTICS_ENABLED: 'false',
      N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
      N8N_TEMPLATES_ENABLED: 'false',
      N8N_PERSONALIZATION_ENABLED: 'false',
      N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
      N8N_SECURE_COOKIE: 'false',
      ...this.env,
    };
  }

  /** Run `n8n <args>` (import:workflow, publish:workflow, …) on this user folder; resolves when it exits. */
  async cli(args: string[]): Promise<CliResult> {
    const child = spawn(process.execPath, [n8nBin, ...args], {
      env: this.processEnv(),
      cwd: this.userFolder,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    return { code, output };
  }

  /**
   * `n8n start`; resolves once n8n says its editor is accessible (after it has activated the published
   * workflows and registered their webhooks).
   * @throws Error with n8n's output when it exits first or is not up within `timeoutMs`
   */
  async start(timeoutMs = 180_000): Promise<void> {
    const child = spawn(process.execPath, [n8nBin, 'start'], {
      env: this.processEnv(),
      cwd: this.userFolder,
    });
    this.process = child;
    this.log = '';
    child.stdout!.on('data', (chunk: Buffer) => (this.log += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (this.log += chunk.toString()));
    const deadline = Date.now() + timeoutMs;
    while (!this.log.includes('Editor is now accessible')) {
      if (child.exitCode !== null) throw new Error(`n8n exited (${child.exitCode}):\n${this.log}`);
      if (Date.now() > deadline) throw new Error(`n8n not up after ${timeoutMs} ms:\n${this.log}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** What n8n printed since it was last started. */
  get output(): string {
    return this.log;
  }

  /** Stop n8n (SIGTERM, then SIGKILL after 20 s). */
  async stop(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  }

  /** Stop n8n and delete its user folder. */
  async close(): Promise<void> {
    await this.stop();
    fs.rmSync(this.userFolder, { recursive: true, force: true });
  }

  /** Every execution n8n has recorded, oldest first, read from its SQLite database. */
  executions(): N8nExecution[] {
    const database = new DatabaseSync(path.join(this.userFolder, '.n8n/database.sqlite'), { readOnly: true });
    try {
      const rows = database
        .prepare(
          `select e.id, e.workflowId, e.status, d.data from execution_entity e
           left join execution_data d on d.executionId = e.id order by e.id`,
        )
        .all() as { id: number; workflowId: string; status: string; data: string | null }[];
      return rows.map((row) => ({
        id: row.id,
        workflowId: row.workflowId,
        status: row.status,
        ...readRun(row.data),
      }));
    } finally {
      database.close();
    }
  }

  /**
   * Wait until n8n has finished an execution for each of `webhookIds` (success or error) and return
   * them by webhook-id.
   */
  async finishedExecutions(webhookIds: string[], timeoutMs = 60_000): Promise<Map<string, N8nExecution>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = new Map<string, N8nExecution>();
      for (const execution of this.executions()) {
        if (['success', 'error', 'crashed'].includes(execution.status))
          found.set(execution.webhookId, execution);
      }
      if (webhookIds.every((id) => found.has(id))) return found;
      if (Date.now() > deadline) {
        throw new Error(
          `n8n has no finished execution for ${webhookIds.filter((id) => !found.has(id)).join(', ')}:\n${JSON.stringify(this.executions(), null, 1)}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

const harnessRequire = createRequire(path.join(harnessDir, 'package.json'));

/** The webhook-id, nodes run and error of an execution's data (n8n stores it with `flatted`). */
function readRun(data: string | null): Pick<N8nExecution, 'webhookId' | 'nodesRun' | 'error'> {
  if (!data) return { webhookId: '', nodesRun: [], error: null };
  const { parse } = harnessRequire('flatted') as { parse(text: string): unknown };
  const run = parse(data) as {
    resultData?: {
      runData?: Record<string, { data?: { main?: { json?: { headers?: Record<string, string> } }[][] } }[]>;
      error?: { message?: string };
    };
  };
  const runData = run.resultData?.runData ?? {};
  const trigger = Object.values(runData)[0]?.[0]?.data?.main?.[0]?.[0]?.json;
  return {
    webhookId: trigger?.headers?.['webhook-id'] ?? '',
    nodesRun: Object.keys(runData),
    error: run.resultData?.error?.message ?? null,
  };
}

/** A request as the forwarder passed it on. */
export interface ForwardedRequest {
  headers: Record<string, string>;
  rawBody: Buffer;
  /** What the target answered. */
  status: number;
}

/**
 * An HTTP server on 127.0.0.1 that passes each POST to `target` unchanged (the headers a Standard
 * Webhooks receiver reads, the raw body) and answers what the target answered, keeping a copy.
 */
export async function recordingForwarder(target: string) {
  const requests: ForwardedRequest[] = [];
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks);
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const answer = await fetch(target, { method: 'POST', headers, body: new Uint8Array(rawBody) });
    const body = Buffer.from(await answer.arrayBuffer());
    requests.push({ headers, rawBody, status: answer.status });
    response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
