/**
 * The bearer guard (issue 33 item 4) over real HTTP: a small Fastify app on the test app's real
 * dependencies (database, rate limits) and the product's error handler, with one route behind
 * `requireApiClient`, as FHIR and the roster downloads use it. Time is driven through the service
 * (`now` is an input), never slept on.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { errorHandler } from '../http/error-handler.ts';
import { API_CLIENT_READS } from '../security/rate-limits.ts';
import {
  authenticateClient,
  issueAccessToken,
  revokeApiClient,
  verifyAccessToken,
} from './api-clients.service.ts';
import { hasBearerToken, requireApiClient } from './bearer.ts';
import { clientWithToken, registerTestClient } from './testing.ts';

let app: TestApp;
let guarded: FastifyInstance;
let guardedUrl: string;

beforeAll(async () => {
  app = await createTestApp();
  guarded = Fastify();
  guarded.decorate('deps', app.runtime.deps);
  guarded.setErrorHandler(errorHandler);
  guarded.get('/probe', async (request, reply) => {
    const { scope } = request.query as { scope: string };
    return { caller: await requireApiClient(request, reply, scope), bearer: hasBearerToken(request) };
  });
  await guarded.listen({ port: 0, host: '127.0.0.1' });
  const address = guarded.server.address();
  guardedUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await guarded?.close();
  await app?.close();
});

async function probe(scope: string, headers: Record<string, string> = {}, query = '') {
  const response = await fetch(`${guardedUrl}/probe?scope=${encodeURIComponent(scope)}${query}`, { headers });
  const text = await response.text();
  return {
    status: response.status,
    challenge: response.headers.get('www-authenticate'),
    retryAfter: response.headers.get('retry-after'),
    body: JSON.parse(text) as { code?: string; message?: string; bearer?: boolean; caller?: unknown },
  };
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('requireApiClient', () => {
  it('lets a token with the scope through and says who calls', async () => {
    const client = await clientWithToken(app, ['system/*.read']);
    const answer = await probe('system/Practitioner.read', bearer(client.accessToken));
    expect(answer.status).toBe(200);
    const [token] = (
      await app.runtime.deps.database.pool.query<{ id: string }>(
        'select id from api_client_tokens where api_client_id = $1',
        [client.id],
      )
    ).rows;
    expect(answer.body).toEqual({
      bearer: true,
      caller: {
        apiClientId: client.id,
        clientId: client.clientId,
        name: 'Test directory client',
        scopes: ['system/*.read'],
        tokenId: token!.id,
        ipAddress: '127.0.0.1',
      },
    });
    // The scheme is case-insensitive (RFC 6750 §2.1 via RFC 9110 §11.1).
    expect(
      (await probe('system/Location.read', { authorization: `bearer ${client.accessToken}` })).status,
    ).toBe(200);
  });

  it('answers 401 with a Bearer challenge without a token, and never reads one from the URL', async () => {
    const client = await clientWithToken(app, ['roster.read']);
    const none = await probe('roster.read');
    expect(none.status).toBe(401);
    expect(none.challenge).toBe('Bearer realm="credentialing"');
    expect(none.body.code).toBe('unauthorized');
    const inQuery = await probe('roster.read', {}, `&access_token=${client.accessToken}`);
    expect(inQuery.status).toBe(401);
    const basic = await probe('roster.read', {
      authorization: `Basic ${Buffer.from('a:b').toString('base64')}`,
    });
    expect(basic.status).toBe(401);
    expect(basic.body.bearer).toBeUndefined();
  });

  it("refuses a provider's or an administrator's session cookie alone: 401", async () => {
    const provider = await signUpAndSignIn(app);
    const admin = await signUpAndSignIn(app);
    await grantAdmin(app, admin);
    // The cookies are live sessions of the product...
    expect((await admin.json('GET', '/api/admin/api-clients')).status).toBe(200);
    expect((await provider.json('GET', '/api/me')).status).toBe(200);
    // ...and reach nothing behind the guard.
    for (const session of [provider, admin]) {
      const answer = await probe('system/Practitioner.read', { cookie: session.cookie });
      expect(answer.status).toBe(401);
      expect(answer.challenge).toBe('Bearer realm="credentialing"');
    }
  });

  it('answers 401 invalid_token for an unknown or malformed token', async () => {
    const unknown = await probe('roster.read', bearer('A'.repeat(43)));
    expect(unknown.status).toBe(401);
    expect(unknown.challenge).toMatch(/^Bearer realm="credentialing", error="invalid_token"/);
    for (const header of ['Bearer', 'Bearer a b', 'Bearer "quoted"', `Bearer ${'a'.repeat(201)}`]) {
      const answer = await probe('roster.read', { authorization: header });
      expect(answer.status, header).toBe(401);
    }
  });

  it('refuses a token once it has expired (300 s), accepts it just before', async () => {
    const registered = await registerTestClient(app, ['roster.read']);
    const client = await authenticateClient(
      app.runtime.deps.db,
      registered.clientId,
      registered.clientSecret,
    );
    const issue = (secondsAgo: number) =>
      issueAccessToken(
        app.runtime.deps.db,
        client!,
        ['roster.read'],
        { method: 'client_secret_post', ipAddress: null },
        new Date(Date.now() - secondsAgo * 1000),
      );
    const fresh = await issue(290);
    expect((await probe('roster.read', bearer(fresh.accessToken))).status).toBe(200);
    const expired = await issue(301);
    const answer = await probe('roster.read', bearer(expired.accessToken));
    expect(answer.status).toBe(401);
    expect(answer.body.message).toContain('expired');
    // The service decides by the `now` it is given: the fresh one is expired 10 s later.
    const later = await verifyAccessToken(
      app.runtime.deps.db,
      fresh.accessToken,
      new Date(Date.now() + 10_000),
    );
    expect(later).toEqual({ ok: false, reason: 'expired' });
  });

  it("refuses a revoked client's live token", async () => {
    const client = await clientWithToken(app, ['system/*.read']);
    expect((await probe('system/Organization.read', bearer(client.accessToken))).status).toBe(200);
    await revokeApiClient(app.runtime.deps.db, { id: client.id }, { userId: null, via: 'cli' }, new Date());
    const answer = await probe('system/Organization.read', bearer(client.accessToken));
    expect(answer.status).toBe(401);
    expect(answer.body.message).toContain('revoked');
  });

  it('answers 403 insufficient_scope when the token lacks the scope', async () => {
    const roster = await clientWithToken(app, ['roster.read']);
    const fhir = await probe('system/Practitioner.read', bearer(roster.accessToken));
    expect(fhir.status).toBe(403);
    expect(fhir.body.code).toBe('forbidden');
    expect(fhir.challenge).toBe(
      'Bearer realm="credentialing", error="insufficient_scope", scope="system/Practitioner.read"',
    );
    const everything = await clientWithToken(app, ['system/*.read']);
    expect((await probe('roster.read', bearer(everything.accessToken))).status).toBe(403);
  });

  it('updates last_used_at at most once a minute', async () => {
    const client = await clientWithToken(app, ['roster.read']);
    const db = app.runtime.deps.db;
    const lastUsed = async () =>
      (
        await app.runtime.deps.database.pool.query<{ last_used_at: Date | null }>(
          'select last_used_at from api_clients where id = $1',
          [client.id],
        )
      ).rows[0]!.last_used_at;
    expect(await lastUsed()).toBeNull();
    const t0 = new Date();
    expect((await verifyAccessToken(db, client.accessToken, t0)).ok).toBe(true);
    expect((await lastUsed())?.getTime()).toBe(t0.getTime());
    await verifyAccessToken(db, client.accessToken, new Date(t0.getTime() + 59_000));
    expect((await lastUsed())?.getTime()).toBe(t0.getTime());
    const t1 = new Date(t0.getTime() + 61_000);
    await verifyAccessToken(db, client.accessToken, t1);
    expect((await lastUsed())?.getTime()).toBe(t1.getTime());
  });

  it(`answers 429 with Retry-After past ${API_CLIENT_READS.perClient} requests a minute per client`, async () => {
    const busy = await clientWithToken(app, ['roster.read']);
    const statuses: number[] = [];
    for (let batch = 0; batch < API_CLIENT_READS.perClient / 50; batch += 1) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => probe('roster.read', bearer(busy.accessToken))),
      );
      statuses.push(...answers.map((a) => a.status));
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const refused = await probe('roster.read', bearer(busy.accessToken));
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    // Per client: another client's token still reads.
    const other = await clientWithToken(app, ['roster.read']);
    expect((await probe('roster.read', bearer(other.accessToken))).status).toBe(200);
  }, 60_000);
});

describe('hasBearerToken', () => {
  it('is true for the Bearer scheme only, well-formed or not', () => {
    const request = (authorization?: string) =>
      ({ headers: authorization === undefined ? {} : { authorization } }) as Parameters<
        typeof hasBearerToken
      >[0];
    expect(hasBearerToken(request('Bearer abc'))).toBe(true);
    expect(hasBearerToken(request('bearer abc'))).toBe(true);
    expect(hasBearerToken(request('Bearer'))).toBe(true);
    expect(hasBearerToken(request('Basic abc'))).toBe(false);
    expect(hasBearerToken(request('BearerX abc'))).toBe(false);
    expect(hasBearerToken(request())).toBe(false);
  });
});
