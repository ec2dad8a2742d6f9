/**
 * The real server (`node server/main.ts`, Node 24 stripping its types) as a child process, for tests that kill it,
 * restart it or run several on one database. Plain Node (no vitest import).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from '../server/db/embedded-postgres.ts';
import { waitUntil } from '../server/notifications/testing/webhook-receiver.ts';

export interface ServerProcess {
  name: string;
  child: ChildProcess;
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves when the process has exited (never rejects). */
  exited: Promise<void>;
}

/** Whether `child` has neither exited nor been killed. */
export function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/**
 * Start the server on a free loopback port with `env` over test defaults (NODE_ENV=test,
 * HOST=127.0.0.1, LOG_LEVEL=warn, PATH); `env` must give DATABASE_URL, DATA_DIR and APP_URL. Does
 * not wait for it to be ready (`waitReady`).
 */
export async function spawnServer(
  name: string,
  env: { DATABASE_URL: string; DATA_DIR: string; APP_URL: string } & Record<string, string>,
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['server/main.ts'], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { name, child, baseUrl: `http://127.0.0.1:${port}`, output: () => output, exited };
}

/**
 * Resolves when GET /api/ready answers 200.
 * @throws Error with the end of the process's output when it exits first or is not ready in `timeoutMs`
 */
export async function waitReady(server: ServerProcess, timeoutMs = 45_000): Promise<void> {
  try {
    await waitUntil(
      async () => {
        if (!isRunning(server.child)) throw new Error(`server ${server.name} exited`);
        return fetch(`${server.baseUrl}/api/ready`).then(
          async (r) => {
            await r.arrayBuffer();
            return r.ok;
          },
          () => false,
        );
      },
      timeoutMs,
      `server ${server.name} to be ready`,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}; its output:\n${server.output().slice(-3000)}`);
  }
}
