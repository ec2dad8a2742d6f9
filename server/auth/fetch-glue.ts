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

/**
 * The key better-auth gives the raw session token in its JSON answers: top level in the sign-in,
 * sign-up and second-factor answers, `session.token` in get-session, each entry of list-sessions.
 */
const SESSION_TOKEN_KEY = 'token';

/** `value` with every `token` property removed, at any depth (arrays and plain objects rebuilt). */
function withoutSessionTokens(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSessionTokens);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== SESSION_TOKEN_KEY)
      .map(([key, item]) => [key, withoutSessionTokens(item)]),
  );
}

/**
 * A JSON body of better-auth without session tokens (issue 28 item 5, defence in depth): the session
 * is the signed HttpOnly cookie, and no caller (the web app included) reads a token from a body, so
 * a script, a log or a proxy that keeps response bodies never holds one. Any other body unchanged.
 */
export function stripSessionTokens(body: string, contentType: string | null): string {
  if (!contentType || !/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) return body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body;
  }
  return JSON.stringify(withoutSessionTokens(parsed));
}

/**
 * Copy a Fetch Response onto the Fastify reply, forwarding every Set-Cookie, with session tokens
 * removed from a JSON body (`stripSessionTokens`); the length is Fastify's to set again.
 */
export async function sendFetchResponse(reply: FastifyReply, response: Response): Promise<FastifyReply> {
  reply.status(response.status);
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie' && name !== 'content-length') reply.header(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) reply.header('set-cookie', cookies);
  const body = response.body
    ? stripSessionTokens(await response.text(), response.headers.get('content-type'))
    : null;
  return reply.send(body);
}
