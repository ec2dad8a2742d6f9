/**
 * The round-robin proxy of `npm run start:cluster` (scripts/start-cluster.ts), alone, in front of two
 * tiny node:http servers standing in for instances: rotation, headers both ways, a streamed upload,
 * GET going on to the next instance when one is down, and the 503 error body when none answers.
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { errorResponseSchema } from '../../domain/app-error.ts';
import { createRoundRobinProxy, type ProxyTarget } from '../../scripts/start-cluster.ts';
import { freePort } from '../../server/db/embedded-postgres.ts';

/** A stand-in instance: answers its name, what it received (headers, body size and SHA-256), two cookies. */
async function startInstance(name: string): Promise<{ server: http.Server; target: ProxyTarget }> {
  const server = http.createServer((request, response) => {
    const hash = createHash('sha256');
    let bytes = 0;
    request.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      hash.update(chunk);
    });
    request.on('end', () => {
      response.setHeader('set-cookie', [`a=${name}; HttpOnly`, `b=${name}; Path=/`]);
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          name,
          method: request.method,
          cookie: request.headers.cookie,
          host: request.headers.host,
          forwardedFor: request.headers['x-forwarded-for'],
          bytes,
          sha256: hash.digest('hex'),
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, target: { host: '127.0.0.1', port: (server.address() as AddressInfo).port } };
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

function close(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

async function startProxy(targets: ProxyTarget[], forwardedFor = false): Promise<string> {
  const proxy = createRoundRobinProxy({ targets: () => targets, forwardedFor });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  closers.push(() => close(proxy));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

async function twoInstances() {
  const a = await startInstance('a');
  const b = await startInstance('b');
  closers.push(
    () => close(a.server),
    () => close(b.server),
  );
  return { a, b };
}

describe('the start:cluster round-robin proxy', () => {
  it('sends each request to the next instance and passes cookies, Host and every Set-Cookie through', async () => {
    const { a, b } = await twoInstances();
    const url = await startProxy([a.target, b.target]);

    const names: string[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await fetch(`${url}/api/ready`, { headers: { cookie: 'session=s1; other=2' } });
      const body = (await response.json()) as {
        name: string;
        cookie: string;
        host: string;
        forwardedFor?: string;
      };
      names.push(body.name);
      expect(body.cookie).toBe('session=s1; other=2');
      // The instance sees the address the browser used (loopback checks, links), not its own port.
      expect(body.host).toBe(new URL(url).host);
      // The instances do not trust proxies unless TRUST_PROXY: nothing is added.
      expect(body.forwardedFor).toBeUndefined();
      expect(response.headers.getSetCookie()).toEqual([`a=${body.name}; HttpOnly`, `b=${body.name}; Path=/`]);
    }
    expect(names).toEqual(['a', 'b', 'a', 'b']);
  });

  it('sets X-Forwarded-For to the client address, replacing the client’s own, only when asked', async () => {
    const { a } = await twoInstances();
    const url = await startProxy([a.target], true);
    const response = await fetch(url, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(((await response.json()) as { forwardedFor: string }).forwardedFor).toBe('127.0.0.1');
  });

  it('streams a 10 MB upload to the instance whole', async () => {
    const { a, b } = await twoInstances();
    const url = await startProxy([a.target, b.target]);
    const bytes = randomBytes(10 * 1024 * 1024);
    // Sent in 64 KiB chunks without a length: the proxy cannot buffer it whole first and pass it on.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 65_536) controller.enqueue(bytes.subarray(at, at + 65_536));
        controller.close();
      },
    });
    const response = await fetch(`${url}/api/upload`, {
      method: 'POST',
      body,
      duplex: 'half',
    } as RequestInit);
    const received = (await response.json()) as { method: string; bytes: number; sha256: string };
    expect(received.method).toBe('POST');
    expect(received.bytes).toBe(bytes.length);
    expect(received.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('goes on to the next instance for a GET when one is down', async () => {
    const { a } = await twoInstances();
    const down: ProxyTarget = { host: '127.0.0.1', port: await freePort() };
    const url = await startProxy([down, a.target]);
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${url}/api/health`);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { name: string }).name).toBe('a');
    }
  });

  it('answers 503 with the product’s error body when no instance answers, and does not replay a POST', async () => {
    const down1: ProxyTarget = { host: '127.0.0.1', port: await freePort() };
    const down2: ProxyTarget = { host: '127.0.0.1', port: await freePort() };
    const url = await startProxy([down1, down2]);

    const get = await fetch(`${url}/api/ready`);
    expect(get.status).toBe(503);
    expect(errorResponseSchema.parse(await get.json()).code).toBe('service_unavailable');

    // A POST is not retried elsewhere (its body was already sent once): the first failure answers.
    const { a } = await twoInstances();
    const mixed = await startProxy([down1, a.target]);
    const post = await fetch(`${mixed}/api/x`, { method: 'POST', body: 'x' });
    expect(post.status).toBe(503);
    expect(errorResponseSchema.parse(await post.json()).message).toMatch(/No server instance answered/);
  });
});
