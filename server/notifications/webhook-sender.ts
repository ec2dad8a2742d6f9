/**
 * One HTTP POST with a streamed body (node:http/https, backpressure through `pipeline`). The
 * response body is discarded unread (spec §7: "The response body is not read"). No connection reuse:
 * deliveries are rare, and a fresh connection never inherits a half-dead socket.
 */
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface PostResult {
  status: number;
  /** Raw Retry-After header, if the receiver sent one. */
  retryAfter?: string;
}

/** Fails the body when it yields more or fewer bytes than announced in Content-Length. */
async function* exactly(body: AsyncIterable<Buffer>, length: number): AsyncGenerator<Buffer> {
  let sent = 0;
  for await (const chunk of body) {
    sent += chunk.length;
    if (sent > length) throw new Error(`the body grew past the signed ${length} bytes`);
    yield chunk;
  }
  if (sent !== length) throw new Error(`the body ended at ${sent} of the signed ${length} bytes`);
}

/**
 * POST `body` (exactly `contentLength` bytes) to `url` and resolve with the answer's status as soon as
 * the response head arrives.
 * @throws the network error, the body's own error, or an AbortError when `signal` aborts
 */
export function postStream(
  url: URL,
  headers: Record<string, string>,
  body: AsyncIterable<Buffer>,
  contentLength: number,
  signal: AbortSignal,
): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      action();
    };
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(contentLength) },
      agent: false,
      signal,
    });
    request.on('response', (response) => {
      const retryAfter = response.headers['retry-after'];
      response.resume();
      // A receiver that answers before reading the whole body: stop sending.
      response.on('end', () => {
        if (!request.writableFinished) request.destroy();
      });
      settle(() => resolve({ status: response.statusCode ?? 0, retryAfter }));
    });
    request.on('error', (error) => settle(() => reject(error)));
    pipeline(Readable.from(exactly(body, contentLength), { objectMode: false }), request).catch((error) => {
      settle(() => reject(error));
      request.destroy();
    });
  });
}
