/**
 * Test helpers for machine clients (issue 33 item 4), for this folder's tests and for the tests of
 * the endpoints behind the bearer guard (FHIR, rosters): register a client through the service and
 * get a token through the real `POST /oauth/token`. Never used by the running server.
 */
import type { Database } from '../db/client.ts';
import { createApiClient } from './api-clients.service.ts';

/** What the helpers need of tests/harness.ts `TestApp`. */
export interface TestApp {
  baseUrl: string;
  runtime: { deps: { db: Database } };
}

/** An answer of the token endpoint: status, headers and the parsed JSON body. */
export interface TokenAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/**
 * `POST /oauth/token` with `params` form-encoded (RFC 6749 §4.4.2) and `headers` added (e.g. an
 * `authorization` for client_secret_basic).
 */
export async function requestToken(
  app: TestApp,
  params: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<TokenAnswer> {
  const response = await fetch(`${app.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(params).toString(),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} };
}

/** `Authorization: Basic` for client_secret_basic (RFC 6749 §2.3.1: each part form-encoded first). */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replaceAll('%20', '+');
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64')}`;
}

/** A registered client (through the service, as the CLI does) with its credentials. */
export interface TestApiClient {
  id: string;
  clientId: string;
  clientSecret: string;
}

/**
 * Register a client named `name` holding `scopes`, with `jwks` (a public JSON Web Key Set, for
 * private_key_jwt) when given.
 */
export async function registerTestClient(
  app: TestApp,
  scopes: readonly string[],
  name = 'Test directory client',
  jwks?: unknown,
): Promise<TestApiClient> {
  const { client, clientSecret } = await createApiClient(
    app.runtime.deps.db,
    { name, scopes, jwks },
    { userId: null, via: 'cli' },
    new Date(),
  );
  return { id: client.id, clientId: client.clientId, clientSecret };
}

/**
 * A fresh client holding `scopes` and a token for all of them from the real token endpoint.
 * @throws Error when the token endpoint does not answer 200
 */
export async function clientWithToken(
  app: TestApp,
  scopes: readonly string[],
): Promise<TestApiClient & { accessToken: string }> {
  const client = await registerTestClient(app, scopes);
  const answer = await requestToken(
    app,
    { grant_type: 'client_credentials' },
    { authorization: basicAuthorization(client.clientId, client.clientSecret) },
  );
  if (answer.status !== 200) throw new Error(`token endpoint answered ${answer.status}`);
  return { ...client, accessToken: String(answer.body.access_token) };
}
