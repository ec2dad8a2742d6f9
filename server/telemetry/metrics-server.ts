/**
 * The metrics listener (issue 54 item 2): `GET /metrics` (or HEAD) answers the registry's Prometheus
 * text; any other path is 404, any other method 405. It listens apart from the app, on METRICS_HOST
 * (loopback by default) and METRICS_PORT, so a collector can scrape it while the app's own port and
 * its authorization stay as they are. It carries no session and reads nothing a caller sends.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';

export interface MetricsServer {
  /** The port it listens on (the one asked for, or the free one given for 0). */
  port: number;
  close(): Promise<void>;
}

/**
 * Listen on `host`:`port` for scrapes of `registry`.
 * @throws the listen error (e.g. EADDRINUSE) when the port cannot be had
 */
export async function startMetricsServer(options: {
  registry: Registry;
  host: string;
  port: number;
  logger: Logger;
}): Promise<MetricsServer> {
  const { registry, logger } = options;
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics') {
      response
        .writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
        .end('Not found: use /metrics\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end();
      return;
    }
    registry.metrics().then(
      (text) => {
        response.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      (error: Error) => {
        // A gauge read from the database failed (e.g. during an outage): say so, keep serving.
        logger.warn({ message: error.message }, 'metrics could not be collected');
        response.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
        response.end('Metrics could not be collected; the database may be unreachable. Try again.\n');
      },
    );
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  logger.info({ host: options.host, port }, 'metrics at /metrics');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
