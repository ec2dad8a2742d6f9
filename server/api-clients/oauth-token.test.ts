/**
 * `POST /oauth/token` over real HTTP on a real database (issue 33 item 4): OAuth 2.0 client
 * credentials (RFC 6749 §4.4) with client_secret_basic and client_secret_post, the §5.2 errors, the
 * stored hash (never the token), the audit row, session cookies refused, concurrency and rate limits.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { TOKEN_REQUESTS } from '../security/rate-limits.ts';
import { basicAuthorization, registerTestClient, requestToken, type TestApiClient } from './testing.ts';

let app: TestApp;
let client: TestApiClient;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

beforeAll(async () => {
  app = await createTestApp();
  client = await registerTestClient(app, ['system/*.read', 'roster.read']);
});
afterAll(async () => {
  await app?.close();
});

describe('POST /oauth/token', () => {
  it('issues a bearer token with client_secret_basic: 300 s, every scope, stored as its hash, audited', async () => {
    const before = Date.now();
    const answer = await requestToken(
      app,
      { grant_type: 'client_credentials' },
      { authorization: basicAuthorization(client.clientId, client.clientSecret) },
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('pragma')).toBe('no-cache');
    expect(answer.body).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      token_type: 'bearer',
      expires_in: 300,
      scope: 'system/*.read roster.read',
    });
    const token = String(answer.body.access_token);
    const pool = app.runtime.deps.database.pool;
    const stored = await pool.query<{
      token_hash: string;
      scopes: string[];
      issued_at: Date;
      expires_at: Date;
    }>('select token_hash, scopes, issued_at, expires_at from api_client_tokens where api_client_id = $1', [
      client.id,
    ]);
    expect(stored.rows).toHaveLength(1);
    const row = stored.rows[0]!;
    expect(row.token_hash).toBe(sha256(token));
    expect(row.scopes).toEqual(['system/*.read', 'roster.read']);
    expect(row.issued_at.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(row.expires_at.getTime() - row.issued_at.getTime()).toBe(300_000);
    // Nothing anywhere holds the token or the secret: not the tables, the audit log or the logs.
    const dump = await pool.query(
      `select (select json_agg(t) from api_client_tokens t)::text || (select json_agg(c) from api_clients c)::text || (select json_agg(a) from audit_log a)::text as all`,
    );
    expect(dump.rows[0].all).not.toContain(token);
    expect(dump.rows[0].all).not.toContain(client.clientSecret);
    expect(app.logs.join('\n')).not.toContain(token);
    expect(app.logs.join('\n')).not.toContain(client.clientSecret);
    const audit = await pool.query<{
      resource_id: string;
      details: Record<string, unknown>;
      ip_address: string;
    }>(`select resource_id, details, ip_address from audit_log where action = 'api_client.token_issued'`);
    expect(audit.rows).toEqual([
      {
        resource_id: client.id,
        ip_address: '127.0.0.1',
        details: {
          clientId: client.clientId,
          tokenId: expect.any(String),
          method: 'client_secret_basic',
          scopes: 'system/*.read roster.read',
        },
      },
    ]);
  });

  it('issues with client_secret_post, for a narrower scope in either SMART spelling', async () => {
    const answer = await requestToken(app, {
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      scope: 'system/Practitioner.rs system/Location.read',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.scope).toBe('system/Practitioner.read system/Location.read');
    const audit = await app.runtime.deps.database.pool.query<{ details: { method: string } }>(
      `select details from audit_log where action = 'api_client.token_issued' order by id desc limit 1`,
    );
    expect(audit.rows[0]!.details.method).toBe('client_secret_post');
  });

  it('answers 401 invalid_client for a wrong secret, an unknown client or none at all', async () => {
    const wrong = await requestToken(
      app,
      { grant_type: 'client_credentials' },
      { authorization: basicAuthorization(client.clientId, `${client.clientSecret.slice(0, -1)}x`) },
    );
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
    // RFC 6749 §5.2: a client that tried Basic gets the Basic challenge.
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect(wrong.headers.get('cache-control')).toBe('no-store');

    const unknown = await requestToken(app, {
      grant_type: 'client_credentials',
      client_id: 'no-such-client',
      client_secret: client.clientSecret,
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe('invalid_client');
    expect(unknown.headers.get('www-authenticate')).toBeNull();

    const none = await requestToken(app, { grant_type: 'client_credentials' });
    expect(none).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });

  it("refuses a provider's or an administrator's session cookie: it is no client authentication", async () => {
    const provider = await signUpAndSignIn(app);
    const admin = await signUpAndSignIn(app);
    await grantAdmin(app, admin);
    for (const session of [provider, admin]) {
      const answer = await requestToken(
        app,
        { grant_type: 'client_credentials' },
        { cookie: session.cookie, origin: 'http://localhost:3000' },
      );
      expect(answer).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    }
  });

  it('answers 400 unsupported_grant_type, invalid_scope and invalid_request as RFC 6749 §5.2 says', async () => {
    const post = { client_id: client.clientId, client_secret: client.clientSecret };
    expect(await requestToken(app, { ...post, grant_type: 'password' })).toMatchObject({
      status: 400,
      body: { error: 'unsupported_grant_type' },
    });
    expect(await requestToken(app, { ...post, grant_type: 'authorization_code' })).toMatchObject({
      status: 400,
      body: { error: 'unsupported_grant_type' },
    });
    const narrow = await registerTestClient(app, ['system/Practitioner.read']);
    const notHeld = await requestToken(app, {
      grant_type: 'client_credentials',
      client_id: narrow.clientId,
      client_secret: narrow.clientSecret,
      scope: 'system/Practitioner.read roster.read',
    });
    expect(notHeld).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
    expect(String(notHeld.body.error_description)).toContain('roster.read');
    // Holding one type is not holding them all.
    expect(
      await requestToken(app, {
        grant_type: 'client_credentials',
        client_id: narrow.clientId,
        client_secret: narrow.clientSecret,
        scope: 'system/*.read',
      }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });

    // No grant_type; a repeated parameter (§3.2); both authentication methods at once (§2.3).
    expect(await requestToken(app, post)).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    const repeated = await fetch(`${app.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&client_id=${client.clientId}&client_secret=${client.clientSecret}&scope=roster.read&scope=system/*.read`,
    });
    expect(repeated.status).toBe(400);
    expect(await repeated.json()).toMatchObject({ error: 'invalid_request' });
    expect(
      await requestToken(
        app,
        { grant_type: 'client_credentials', client_secret: client.clientSecret },
        { authorization: basicAuthorization(client.clientId, client.clientSecret) },
      ),
    ).toMatchObject({ status: 400, body: { error: 'invalid_request' } });

    // JSON is not the token endpoint's format (§4.4.2).
    const json = await fetch(`${app.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', ...post }),
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ error: 'invalid_request' });

    // An over-long body is refused before it is read further.
    expect(
      await requestToken(app, { grant_type: 'client_credentials', ...post, scope: 'x'.repeat(10_000) }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });

  it('never widens five type scopes into system/*.read: invalid_scope naming it (issue 52 item 3)', async () => {
    const types = ['Practitioner', 'PractitionerRole', 'Location', 'Organization', 'VerificationResult'];
    const everyType = await registerTestClient(
      app,
      types.map((type) => `system/${type}.read`),
    );
    const asked = await requestToken(app, {
      grant_type: 'client_credentials',
      client_id: everyType.clientId,
      client_secret: everyType.clientSecret,
      scope: 'system/*.read',
    });
    expect(asked).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
    expect(String(asked.body.error_description)).toContain('system/*.read');
    // The types it was granted by name are still given.
    const named = await requestToken(app, {
      grant_type: 'client_credentials',
      client_id: everyType.clientId,
      client_secret: everyType.clientSecret,
      scope: 'system/Location.read',
    });
    expect(named).toMatchObject({ status: 200, body: { scope: 'system/Location.read' } });
  });

  it('gives each of many concurrent requests its own token', async () => {
    const concurrent = await registerTestClient(app, ['roster.read']);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        requestToken(
          app,
          { grant_type: 'client_credentials' },
          { authorization: basicAuthorization(concurrent.clientId, concurrent.clientSecret) },
        ),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    const tokens = new Set(answers.map((a) => a.body.access_token));
    expect(tokens.size).toBe(12);
    const stored = await app.runtime.deps.database.pool.query(
      'select count(distinct token_hash)::int as n from api_client_tokens where api_client_id = $1',
      [concurrent.id],
    );
    expect(stored.rows[0].n).toBe(12);
  });

  it(`refuses a client past ${TOKEN_REQUESTS.perClient} tokens a minute: 429 with Retry-After, other clients unaffected`, async () => {
    const busy = await registerTestClient(app, ['roster.read']);
    const ask = (c: TestApiClient) =>
      requestToken(app, {
        grant_type: 'client_credentials',
        client_id: c.clientId,
        client_secret: c.clientSecret,
      });
    for (let i = 0; i < TOKEN_REQUESTS.perClient; i += 1) expect((await ask(busy)).status).toBe(200);
    const refused = await ask(busy);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('temporarily_unavailable');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // Another client is unaffected, and wrong secrets sent in its name do not spend its allowance:
    // only issued tokens count per client.
    const other = await registerTestClient(app, ['roster.read']);
    for (let i = 0; i < TOKEN_REQUESTS.perClient + 5; i += 1) {
      expect((await ask({ ...other, clientSecret: 'wrong' })).status).toBe(401);
    }
    expect((await ask(other)).status).toBe(200);
  });
});

describe('POST /oauth/token per address', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ AUTH_IP_RATE_LIMIT: 'true' });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it(`refuses an address past ${TOKEN_REQUESTS.perAddress} requests a minute, wrong ones included`, async () => {
    const statuses: number[] = [];
    for (let batch = 0; batch < TOKEN_REQUESTS.perAddress / 20; batch += 1) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          requestToken(limited, {
            grant_type: 'client_credentials',
            client_id: 'guess',
            client_secret: 'guess',
          }),
        ),
      );
      statuses.push(...answers.map((a) => a.status));
    }
    expect(statuses).toEqual(Array(TOKEN_REQUESTS.perAddress).fill(401));
    const good = await registerTestClient(limited, ['roster.read']);
    const refused = await requestToken(limited, {
      grant_type: 'client_credentials',
      client_id: good.clientId,
      client_secret: good.clientSecret,
    });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('temporarily_unavailable');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('OpenAPI', () => {
  it('documents POST /oauth/token as a form-encoded request with its RFC 6749 answers', async () => {
    const response = await fetch(`${app.baseUrl}/api/openapi.json`);
    const document = (await response.json()) as {
      paths: Record<
        string,
        Record<
          string,
          { requestBody?: { content: Record<string, unknown> }; responses: Record<string, unknown> }
        >
      >;
    };
    const operation = document.paths['/oauth/token']?.post;
    expect(Object.keys(operation?.requestBody?.content ?? {})).toEqual(['application/x-www-form-urlencoded']);
    expect(Object.keys(operation?.responses ?? {}).sort()).toEqual(['200', '400', '401', '429']);
  });
});
