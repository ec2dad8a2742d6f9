/**
 * Glue between Fastify requests and the Fetch API objects better-auth speaks.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CLIENT_IP_HEADER } from './auth.ts';

/** Request headers as Fetch Headers, with the trusted client-IP header set from the socket address. */
export function toFetchHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === CLIENT_IP_HEADER) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : String(value));
  }
  headers.set(CLIENT_IP_HEADER, request.ip);
  return headers;
}

/** Copy a Fetch Response onto the Fastify reply, forwarding every Set-Cookie. */
export async function sendFetchResponse(reply: FastifyReply, response: Response): Promise<FastifyReply> {
  reply.status(response.status);
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie' && name !== 'content-length') reply.header(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) reply.header('set-cookie', cookies);
  const body = response.body ? await response.text() : null;
  return reply.send(body);
}
