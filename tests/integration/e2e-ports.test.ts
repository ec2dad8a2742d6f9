/**
 * Issue 28 item 19: the e2e run's server and receivers take free ports the system hands out. A
 * receiver on the fixed 127.0.0.1:4100 (E2E_PORT 3100 + 1000) failed five e2e tests with EADDRINUSE
 * while another program held it.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_PORTS_VARIABLE, e2ePortsForRun } from '../e2e/ports.ts';

/** The old fixed ports: the server's default 3100 and its receivers on +1000 and +2000. */
const OLD_PORTS = [3100, 4100, 5100];

/** Listen on 127.0.0.1:`port`; resolves with the server, or undefined if the port is taken. */
function hold(port: number): Promise<net.Server | undefined> {
  const server = net.createServer();
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' ? resolve(undefined) : reject(error),
    );
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

async function release(server: net.Server | undefined) {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
}

/** True if a listener could take `port` right now (then lets it go again). */
async function bindable(port: number): Promise<boolean> {
  const server = await hold(port);
  await release(server);
  return server !== undefined;
}

const runner = { self: 4242, parent: 1 };

describe('the e2e ports (tests/e2e/ports.ts)', () => {
  // Another program holds the old fixed ports for the whole file (or already did: held either way).
  let holders: (net.Server | undefined)[] = [];
  beforeAll(async () => {
    holders = await Promise.all(OLD_PORTS.map(hold));
    for (const port of OLD_PORTS) expect(await bindable(port)).toBe(false);
  });
  afterAll(async () => {
    await Promise.all(holders.map(release));
  });

  it('picks free ports from the system for the server and both receivers, none of the held ones', async () => {
    const env: NodeJS.ProcessEnv = {};
    const ports = e2ePortsForRun(env, runner);
    const all = [ports.server, ports.completionReceiver, ports.nppes];
    expect(new Set(all).size).toBe(3);
    for (const port of all) {
      expect(OLD_PORTS).not.toContain(port);
      expect(await bindable(port), `port ${port}`).toBe(true);
    }
  });

  it('keeps an explicit E2E_PORT for the server; the receivers still take free ports', async () => {
    const env: NodeJS.ProcessEnv = { E2E_PORT: '3210' };
    const ports = e2ePortsForRun(env, runner);
    expect(ports.server).toBe(3210);
    for (const port of [ports.completionReceiver, ports.nppes]) {
      expect([3210, 4210, 5210, ...OLD_PORTS]).not.toContain(port);
      expect(await bindable(port)).toBe(true);
    }
    expect(ports.completionReceiver).not.toBe(ports.nppes);
  });

  it("a worker gets its runner's ports; ports anyone else left in the environment are picked anew", () => {
    // First, the runner evaluates the config: it picks and writes them to the environment.
    const env: NodeJS.ProcessEnv = {};
    const picked = e2ePortsForRun(env, runner);
    expect(e2ePortsForRun(env, runner)).toEqual(picked);
    // Second, a worker it forked (inherited environment, parent = runner) evaluates it again.
    expect(e2ePortsForRun({ ...env }, { self: 5000, parent: runner.self })).toEqual(picked);

    // A shell that exported the old fixed ports (or another run's) does not decide the receivers'.
    const stale: NodeJS.ProcessEnv = {
      [E2E_PORTS_VARIABLE]: JSON.stringify({
        pickedBy: 99,
        server: 3100,
        completionReceiver: 4100,
        nppes: 5100,
      }),
    };
    const fresh = e2ePortsForRun(stale, runner);
    expect(OLD_PORTS).not.toContain(fresh.completionReceiver);
    expect(OLD_PORTS).not.toContain(fresh.nppes);
    expect(JSON.parse(stale[E2E_PORTS_VARIABLE]!)).toMatchObject({ pickedBy: runner.self, ...fresh });
  });

  it('refuses an E2E_PORT that is not a port number, naming it', () => {
    for (const bad of ['abc', '70000', '3100.5', '-1']) {
      expect(() => e2ePortsForRun({ E2E_PORT: bad }, runner)).toThrow(
        `E2E_PORT must be a port number (1-65535), not '${bad}'.`,
      );
    }
  });
});
