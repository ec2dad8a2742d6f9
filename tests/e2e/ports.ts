/**
 * The ports of one end-to-end run (issue 28 item 19): the app server's and the two receivers' the
 * specs start (the completion webhook receiver and the fake NPPES registry). Each is a free port the
 * operating system hands out (port 0), never a fixed number: a fixed one failed whole spec files with
 * EADDRINUSE whenever another program held it. An explicit `E2E_PORT` still fixes the server's
 * (parallel runs pick theirs); the receivers are always free ports.
 *
 * Playwright evaluates playwright.config.ts in its runner and again in every worker it forks. The
 * runner picks the ports and puts them in the environment its workers inherit, stamped with its pid:
 * a worker (the runner's child) reuses them, so the server and the specs agree; a value any other
 * process left there (a shell's export, a run that started this one) is not trusted and ports are
 * picked anew.
 */
import { execFileSync } from 'node:child_process';
import { z } from 'zod';

/** TCP ports on 127.0.0.1 (where start-server.sh's server and the receivers listen). */
export interface E2ePorts {
  /** The app server (PORT of start-server.sh): `E2E_PORT` if given, else a free port. */
  server: number;
  /** The completion webhook receiver of completion-style specs (helpers.ts). */
  completionReceiver: number;
  /** The fake NPPES registry of review-workflow.spec.ts. */
  nppes: number;
}

/** The variable through which the runner hands its ports to its workers. */
export const E2E_PORTS_VARIABLE = 'E2E_PICKED_PORTS';

const portNumber = z.coerce.number().int().min(1).max(65_535);

const pickedPorts = z.object({
  /** The pid of the process that picked them (the Playwright runner). */
  pickedBy: z.number().int(),
  server: portNumber,
  completionReceiver: portNumber,
  nppes: portNumber,
});

/**
 * `count` distinct ports free on 127.0.0.1 right now, handed out by the system (listen on port 0).
 * Synchronous, because Playwright's config is: a short-lived Node child listens on `count` sockets at
 * once (so the ports differ), prints them and exits, which frees them for the run.
 * @throws if the child fails (e.g. no free port).
 */
export function freePortsSync(count: number): number[] {
  const script = `
    const net = require('node:net');
    const servers = Array.from({ length: Number(process.argv[1]) }, () => net.createServer());
    Promise.all(servers.map((s) => new Promise((resolve, reject) => {
      s.once('error', reject);
      s.listen(0, '127.0.0.1', () => resolve(s.address().port));
    }))).then((ports) => {
      process.stdout.write(JSON.stringify(ports));
      for (const s of servers) s.close();
    }, (error) => { console.error(error.message); process.exit(1); });`;
  const output = execFileSync(process.execPath, ['-e', script, String(count)], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  return z.array(portNumber).length(count).parse(JSON.parse(output));
}

/**
 * The run's ports (see the module comment): inherited from the runner when `env` holds ones picked by
 * `pids.self` or `pids.parent`, else picked now and written to `env` for the workers to inherit.
 * `E2E_PORT`, when set, is the server's port; the receivers never take it.
 * @throws if `E2E_PORT` is not a port number (1-65535).
 */
export function e2ePortsForRun(
  env: NodeJS.ProcessEnv = process.env,
  pids: { self: number; parent: number } = { self: process.pid, parent: process.ppid },
): E2ePorts {
  const inherited = inheritedPorts(env, pids);
  if (inherited) return inherited;
  const explicit = env.E2E_PORT === undefined || env.E2E_PORT === '' ? undefined : env.E2E_PORT;
  const server = explicit === undefined ? undefined : portNumber.safeParse(explicit);
  if (server && !server.success) {
    throw new Error(`E2E_PORT must be a port number (1-65535), not '${explicit}'.`);
  }
  // Three free ports; the one E2E_PORT names, if among them, is not given to a receiver.
  const free = freePortsSync(3).filter((port) => port !== server?.data);
  const ports: E2ePorts = {
    server: server?.data ?? free[2]!,
    completionReceiver: free[0]!,
    nppes: free[1]!,
  };
  env[E2E_PORTS_VARIABLE] = JSON.stringify({ pickedBy: pids.self, ...ports });
  return ports;
}

/**
 * The ports playwright.config.ts picked for this run, in a spec or helper (a worker).
 * @throws outside a Playwright run of playwright.config.ts.
 */
export function e2ePorts(): E2ePorts {
  const ports = inheritedPorts(process.env, { self: process.pid, parent: process.ppid });
  if (!ports) throw new Error('No e2e ports: run the specs with npx playwright test (playwright.config.ts).');
  return ports;
}

function inheritedPorts(
  env: NodeJS.ProcessEnv,
  pids: { self: number; parent: number },
): E2ePorts | undefined {
  const raw = env[E2E_PORTS_VARIABLE];
  if (!raw) return undefined;
  let parsed: z.infer<typeof pickedPorts>;
  try {
    parsed = pickedPorts.parse(JSON.parse(raw));
  } catch {
    return undefined;
  }
  if (parsed.pickedBy !== pids.self && parsed.pickedBy !== pids.parent) return undefined;
  const { pickedBy: _, ...ports } = parsed;
  return ports;
}
