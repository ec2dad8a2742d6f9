/**
 * A real HTTP receiver on 127.0.0.1 for tests and the benchmark, playing the credentialing team's
 * workflow endpoint. It answers from a script (status codes, Retry-After, or 'hang' to never answer)
 * and records every request. In the default mode it keeps the body and verifies the signature with
 * the `standardwebhooks` package, exactly as a receiver would. In `discard` mode (benchmark) it keeps
 * nothing: it streams the body through an HMAC and a byte counter.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * A status; a status with headers and/or a promise to wait for before answering (a test holds the
 * answer until it has seen what it wants to see); or 'hang' (never answer).
 */
export type ReceiverAnswer =
  | number
  | { status: number; headers?: Record<string, string>; until?: Promise<unknown> }
  | 'hang';

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  /** The whole body (not in discard mode). */
  body?: Buffer;
  bytes: number;
  /** The Standard Webhooks signature matched. */
  verified: boolean;
  verifyError?: string;
  /** What the receiver answered ('hang': nothing). */
  answer: number | 'hang';
  /** ms since the epoch when the body had arrived. */
  receivedAt: number;
}

export interface WebhookReceiverOptions {
  /** The `whsec_...` secret the server signs with. */
  secret: string;
  /** Do not keep bodies (benchmark). */
  discard?: boolean;
}

export class WebhookReceiver {
  /** Answers for the next requests, in order; then `answerFor`'s, or 200. */
  answers: ReceiverAnswer[] = [];
  /**
   * Chooses the answer of a request once `answers` is used up (default: 200). Called as the request
   * arrives, so an answer's `until` can start its wait then (e.g. a receiver that takes 100 ms).
   */
  answerFor?: (headers: IncomingHttpHeaders) => ReceiverAnswer;
  readonly requests: ReceivedRequest[] = [];
  private server?: http.Server;
  private port = 0;

  private readonly options: WebhookReceiverOptions;

  constructor(options: WebhookReceiverOptions) {
    this.options = options;
  }

  /** http://127.0.0.1:<port>/completion */
  get url(): string {
    return `http://127.0.0.1:${this.port}/completion`;
  }

  /** Requests answered 2xx with a valid signature. */
  get delivered(): ReceivedRequest[] {
    return this.requests.filter((r) => typeof r.answer === 'number' && r.answer < 300 && r.verified);
  }

  /** Listen on `port` (0: a free one). */
  async listen(port = this.port): Promise<string> {
    const server = http.createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this.url;
  }

  /** Stop listening and drop open connections (a 'hang'ing request included). */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse) {
    const answer = this.answers.shift() ?? this.answerFor?.(request.headers) ?? 200;
    const headers = request.headers;
    const id = String(headers['webhook-id'] ?? '');
    const timestamp = String(headers['webhook-timestamp'] ?? '');
    const signature = String(headers['webhook-signature'] ?? '');
    const chunks: Buffer[] = [];
    const hmac = this.options.discard
      ? createHmac('sha256', Buffer.from(this.options.secret.replace(/^whsec_/, ''), 'base64')).update(
          `${id}.${timestamp}.`,
        )
      : undefined;
    let bytes = 0;
    try {
      for await (const chunk of request) {
        bytes += (chunk as Buffer).length;
        if (hmac) hmac.update(chunk as Buffer);
        else chunks.push(chunk as Buffer);
      }
    } catch {
      return; // the sender gave up mid-body
    }
    const record: ReceivedRequest = {
      headers,
      bytes,
      verified: false,
      answer: answer === 'hang' ? 'hang' : typeof answer === 'number' ? answer : answer.status,
      receivedAt: Date.now(),
    };
    if (hmac) {
      const expected = Buffer.from(`v1,${hmac.digest('base64')}`);
      const given = Buffer.from(signature);
      record.verified = expected.length === given.length && timingSafeEqual(expected, given);
    } else {
      record.body = Buffer.concat(chunks);
      try {
        new Webhook(this.options.secret).verify(record.body.toString('utf8'), {
          'webhook-id': id,
          'webhook-timestamp': timestamp,
          'webhook-signature': signature,
        });
        record.verified = true;
      } catch (error) {
        record.verifyError = (error as Error).message;
      }
    }
    this.requests.push(record);
    if (answer === 'hang') return;
    if (typeof answer === 'object' && answer.until) await answer.until;
    const status = typeof answer === 'number' ? answer : answer.status;
    response.writeHead(status, typeof answer === 'number' ? {} : answer.headers);
    response.end(status < 300 ? 'ok' : 'no');
  }
}

/** Poll `condition` every 50 ms. @throws Error naming `what` after `timeoutMs` */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
