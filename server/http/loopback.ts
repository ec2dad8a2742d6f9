/**
 * "Provably local" (issue 10 items 1 and 8): development conveniences (the /dev/mail page, trusting
 * both spellings of the loopback origin) are on only when the server cannot be reached from another
 * machine: it binds a loopback address only, outside production, and not behind a proxy.
 */
import net from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * True for an address or host name that only this machine can reach: `localhost`, 127.0.0.0/8,
 * `::1`, IPv4-mapped loopback (`::ffff:127.0.0.1`), with or without IPv6 brackets.
 * `0.0.0.0`, `::` and every other address are not loopback.
 */
export function isLoopbackAddress(host: string | undefined): boolean {
  if (!host) return false;
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (net.isIPv4(bare)) return bare.startsWith('127.');
  if (net.isIPv6(bare)) {
    if (bare === '::1' || bare === '0:0:0:0:0:0:0:1') return true;
    const mapped = bare.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
    return !!mapped && mapped[1]!.startsWith('127.');
  }
  return false;
}

/** What decides whether the deployment is local: the bind address, the mode, a proxy in front. */
export interface LocalityConfig {
  HOST: string;
  NODE_ENV: string;
  TRUST_PROXY: boolean;
}

/** The server binds loopback only, outside production, with no trusted proxy in front. */
export function isProvablyLocal(config: LocalityConfig): boolean {
  return config.NODE_ENV !== 'production' && !config.TRUST_PROXY && isLoopbackAddress(config.HOST);
}

const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-real-ip'];

/**
 * This request provably comes from this machine to a loopback socket: both ends of the TCP
 * connection are loopback, it names a loopback host, and no proxy forwarded it (a proxy on the same
 * machine would otherwise make a remote visitor look local).
 */
export function isLocalRequest(request: FastifyRequest): boolean {
  const socket = request.raw.socket;
  if (!isLoopbackAddress(socket.remoteAddress) || !isLoopbackAddress(socket.localAddress)) return false;
  if (FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined)) return false;
  const host = request.headers.host?.replace(/:\d+$/, '');
  return isLoopbackAddress(host);
}

/**
 * The origins a browser may use for this deployment: APP_URL's origin, and, when the deployment is
 * provably local and APP_URL is a loopback URL, the other loopback spellings on the same port
 * (`http://localhost:3000`, `http://127.0.0.1:3000`, `http://[::1]:3000`), so opening the address a
 * log line prints never fails sign-up with "Invalid origin".
 */
export function trustedOrigins(appUrl: string, config: LocalityConfig): string[] {
  const app = new URL(appUrl);
  const origins = [app.origin];
  if (isProvablyLocal(config) && isLoopbackAddress(app.hostname)) {
    const port = app.port ? `:${app.port}` : '';
    for (const host of ['localhost', '127.0.0.1', '[::1]']) {
      const origin = `${app.protocol}//${host}${port}`;
      if (!origins.includes(origin)) origins.push(origin);
    }
  }
  return origins;
}
