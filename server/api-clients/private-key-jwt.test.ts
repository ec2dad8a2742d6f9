/**
 * `private_key_jwt` at `POST /oauth/token` over real HTTP on a real database (issue 33 item 4; SMART
 * App Launch 2.x Backend Services; RFC 7523 §2.2, §3): a client registers its public key, signs an
 * assertion with jose, gets a token that works behind the bearer guard; every way an assertion may
 * be wrong is refused with `invalid_client` and a description naming the fix; a `jti` is accepted
 * once, even by concurrent requests. Time is an input of the service (`now`), never slept on.
 */
import { createHash, randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { type CryptoKey, exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClientCreated } from '../../domain/api/api-clients.ts';
import {
  type Client,
  createTestApp,
  grantAdmin,
  signUpAndSignIn,
  TEST_ORIGIN,
  type TestApp,
} from '../../tests/harness.ts';
import { errorHandler } from '../http/error-handler.ts';
import { revokeApiClient } from './api-clients.service.ts';
import { requireApiClient } from './bearer.ts';
import { tokenEndpointUrl } from './oauth-token.routes.ts';
import { authenticateClientAssertion } from './private-key-jwt.ts';
import { basicAuthorization, registerTestClient, requestToken, type TestApiClient } from './testing.ts';

const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const AUD = `${TEST_ORIGIN}/oauth/token`;

interface KeyPair {
  kid: string;
  alg: 'RS384' | 'ES384';
  privateKey: CryptoKey;
  publicJwk: JWK;
}

async function keyPair(alg: 'RS384' | 'ES384', kid: string): Promise<KeyPair> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, alg, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

interface AssertionOptions {
  key?: KeyPair;
  /** Header overrides (alg, kid, typ, jku); `alg` here only changes the header of jose's signing. */
  header?: Record<string, unknown>;
  /** Claim overrides; `undefined` removes the claim. */
  claims?: Record<string, unknown>;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A signed assertion for `clientId`: valid (iss = sub, aud, exp in 4 minutes, a fresh jti) unless overridden. */
async function assertion(clientId: string, key: KeyPair, options: AssertionOptions = {}): Promise<string> {
  const claims: Record<string, unknown> = {
    iss: clientId,
    sub: clientId,
    aud: AUD,
    exp: nowSeconds() + 240,
    jti: randomUUID(),
    ...options.claims,
  };
  for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
  const signer = options.key ?? key;
  return new SignJWT(claims)
    .setProtectedHeader({ alg: signer.alg, kid: key.kid, typ: 'JWT', ...options.header })
    .sign(signer.privateKey);
}

const assertionParams = (jwt: string, extra: Record<string, string> = {}) => ({
  grant_type: 'client_credentials',
  client_assertion_type: JWT_BEARER,
  client_assertion: jwt,
  ...extra,
});

let app: TestApp;
let rsa: KeyPair;
let ec: KeyPair;
let client: TestApiClient;
let guarded: FastifyInstance;
let guardedUrl: string;

beforeAll(async () => {
  app = await createTestApp();
  [rsa, ec] = await Promise.all([keyPair('RS384', 'rsa-2026'), keyPair('ES384', 'ec-2026')]);
  client = await registerTestClient(app, ['system/*.read', 'roster.read'], 'Signed client', {
    keys: [rsa.publicJwk, ec.publicJwk],
  });
  // One route behind the bearer guard, as bearer.test.ts does.
  guarded = Fastify();
  guarded.decorate('deps', app.runtime.deps);
  guarded.setErrorHandler(errorHandler);
  guarded.get('/probe', async (request, reply) => requireApiClient(request, reply, 'roster.read'));
  await guarded.listen({ port: 0, host: '127.0.0.1' });
  const address = guarded.server.address();
  guardedUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/probe`;
});
afterAll(async () => {
  await guarded?.close();
  await app?.close();
});

async function tokenCount(apiClientId: string): Promise<number> {
  const result = await app.runtime.deps.database.pool.query<{ n: number }>(
    'select count(*)::int as n from api_client_tokens where api_client_id = $1',
    [apiClientId],
  );
  return result.rows[0]!.n;
}

describe('POST /oauth/token with a signed JWT assertion (private_key_jwt)', () => {
  it('issues a token for an RS384 assertion; the token passes the bearer guard; nothing stores the assertion', async () => {
    const jwt = await assertion(client.clientId, rsa);
    const answer = await requestToken(app, assertionParams(jwt, { scope: 'roster.read' }));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      token_type: 'bearer',
      expires_in: 300,
      scope: 'roster.read',
    });
    const token = String(answer.body.access_token);
    const guardedAnswer = await fetch(guardedUrl, { headers: { authorization: `Bearer ${token}` } });
    expect(guardedAnswer.status).toBe(200);
    expect(await guardedAnswer.json()).toMatchObject({ clientId: client.clientId, scopes: ['roster.read'] });

    const pool = app.runtime.deps.database.pool;
    const audit = await pool.query<{ details: Record<string, unknown> }>(
      `select details from audit_log where action = 'api_client.token_issued' and resource_id = $1`,
      [client.id],
    );
    expect(audit.rows).toEqual([
      {
        details: {
          clientId: client.clientId,
          tokenId: expect.any(String),
          method: 'private_key_jwt',
          keyId: 'rsa-2026',
          scopes: 'roster.read',
        },
      },
    ]);
    // The jti is kept as its SHA-256 until the assertion expires; the assertion, nowhere.
    const jti = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()).jti as string;
    const spent = await pool.query<{ jti_hash: string; expires_at: Date }>(
      'select jti_hash, expires_at from api_client_assertion_jtis where api_client_id = $1',
      [client.id],
    );
    expect(spent.rows).toHaveLength(1);
    expect(spent.rows[0]!.jti_hash).toBe(createHash('sha256').update(jti).digest('hex'));
    expect(spent.rows[0]!.expires_at.getTime()).toBeGreaterThan(Date.now() + 200_000);
    const dump = await pool.query(
      `select (select json_agg(t) from api_client_assertion_jtis t)::text || (select json_agg(c) from api_clients c)::text || (select json_agg(a) from audit_log a)::text as all`,
    );
    const signature = jwt.split('.')[2]!;
    expect(dump.rows[0].all).not.toContain(signature);
    expect(dump.rows[0].all).not.toContain(jti);
    expect(app.logs.join('\n')).not.toContain(signature);
    expect(app.logs.join('\n')).not.toContain(token);
  });

  it('issues a token for an ES384 assertion, with client_id also in the body, for every scope by default', async () => {
    const jwt = await assertion(client.clientId, ec);
    const answer = await requestToken(app, assertionParams(jwt, { client_id: client.clientId }));
    expect(answer.status).toBe(200);
    expect(answer.body.scope).toBe('system/*.read roster.read');
    const guardedAnswer = await fetch(guardedUrl, {
      headers: { authorization: `Bearer ${String(answer.body.access_token)}` },
    });
    expect(guardedAnswer.status).toBe(200);
  });

  it('refuses every flawed assertion with 401 invalid_client and a description that names the fix', async () => {
    const impostor = await keyPair('RS384', 'rsa-2026');
    const hmacKey = new TextEncoder().encode('x'.repeat(48));
    const id = client.clientId;
    const cases: Array<[string, () => Promise<string>, RegExp]> = [
      [
        'signed by another key under a registered kid',
        () => assertion(id, rsa, { key: impostor }),
        /signature does not verify with the registered key "rsa-2026"/,
      ],
      [
        'aud of the FHIR base',
        () => assertion(id, rsa, { claims: { aud: `${TEST_ORIGIN}/fhir` } }),
        new RegExp(`aud must be ${AUD.replaceAll('/', '\\/')}\\.$`),
      ],
      [
        'iss different from sub',
        () => assertion(id, rsa, { claims: { iss: 'someone-else' } }),
        /iss and sub must both be your client_id/,
      ],
      [
        'expired two minutes ago',
        () => assertion(id, rsa, { claims: { exp: nowSeconds() - 120 } }),
        /has expired/,
      ],
      [
        'exp ten minutes ahead',
        () => assertion(id, rsa, { claims: { exp: nowSeconds() + 600 } }),
        /at most 5 minutes \(300 s\) after now; it is 60\d s ahead/,
      ],
      ['no exp', () => assertion(id, rsa, { claims: { exp: undefined } }), /must carry exp/],
      ['no jti', () => assertion(id, rsa, { claims: { jti: undefined } }), /must carry a jti/],
      ['an empty jti', () => assertion(id, rsa, { claims: { jti: '' } }), /jti must be a string of 1 to 255/],
      [
        'an unknown kid',
        () => assertion(id, rsa, { header: { kid: 'rsa-2025' } }),
        /No registered key of this client has kid "rsa-2025" for RS384; its keys: rsa-2026, ec-2026\./,
      ],
      [
        "the RSA key under the EC key's kid",
        () => assertion(id, rsa, { header: { kid: 'ec-2026' } }),
        /No registered key .* kid "ec-2026" for RS384/,
      ],
      [
        'HS256 (a symmetric signature)',
        () =>
          new SignJWT({ iss: id, sub: id, aud: AUD, exp: nowSeconds() + 60, jti: randomUUID() })
            .setProtectedHeader({ alg: 'HS256', kid: 'rsa-2026' })
            .sign(hmacKey),
        /alg must be RS384 or ES384 \(SMART Backend Services\), not HS256/,
      ],
      [
        'alg none (unsigned)',
        async () => {
          const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
          return `${part({ alg: 'none', kid: 'rsa-2026' })}.${part({ iss: id, sub: id, aud: AUD, exp: nowSeconds() + 60, jti: randomUUID() })}.`;
        },
        /alg must be RS384 or ES384 \(SMART Backend Services\), not none/,
      ],
      [
        'RS256 with the registered RSA key',
        async () => {
          // The registered key's own material, imported for RS256.
          const privateKey = await importJWK(await exportJWK(rsa.privateKey), 'RS256');
          return new SignJWT({ iss: id, sub: id, aud: AUD, exp: nowSeconds() + 60, jti: randomUUID() })
            .setProtectedHeader({ alg: 'RS256', kid: 'rsa-2026' })
            .sign(privateKey);
        },
        /alg must be RS384 or ES384/,
      ],
      [
        'a jku in the header',
        () => assertion(id, rsa, { header: { jku: 'https://attacker.example/jwks.json' } }),
        /leave jku, jwk and x5u out/,
      ],
      [
        'no kid',
        () => assertion(id, rsa, { header: { kid: undefined } }),
        /must name the signing key in kid/,
      ],
      ['another typ', () => assertion(id, rsa, { header: { typ: 'at+jwt' } }), /typ must be JWT/],
      ['not a JWT', async () => 'not-a-jwt', /not a signed JWT/],
    ];
    for (const [name, make, description] of cases) {
      const answer = await requestToken(app, assertionParams(await make()));
      expect(answer.status, name).toBe(401);
      expect(answer.body.error, name).toBe('invalid_client');
      expect(String(answer.body.error_description), name).toMatch(description);
      expect(answer.headers.get('cache-control'), name).toBe('no-store');
    }
    // Not one of them got a token: the two earlier tests' two tokens are all there are.
    expect(await tokenCount(client.id)).toBe(2);
  });

  it('refuses an assertion whose iat is beyond the clock skew in the future, accepts one within it (issue 52 item 3)', async () => {
    const tomorrow = await requestToken(
      app,
      assertionParams(await assertion(client.clientId, rsa, { claims: { iat: nowSeconds() + 86_400 } })),
    );
    expect(tomorrow.status).toBe(401);
    expect(tomorrow.body.error).toBe('invalid_client');
    expect(String(tomorrow.body.error_description)).toMatch(
      /iat is \d+ s in the future: set iat to the time of signing/,
    );
    const skewed = await requestToken(
      app,
      assertionParams(await assertion(client.clientId, ec, { claims: { iat: nowSeconds() + 10 } })),
    );
    expect(skewed.status).toBe(200);
  });

  it('accepts a jti once: a replay is refused, and of concurrent requests with one jti exactly one succeeds', async () => {
    const replayed = await registerTestClient(app, ['roster.read'], 'Replay', { keys: [ec.publicJwk] });
    const first = await assertion(replayed.clientId, ec);
    expect((await requestToken(app, assertionParams(first))).status).toBe(200);
    const again = await requestToken(app, assertionParams(first));
    expect(again).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(String(again.body.error_description)).toMatch(/jti was already used/);
    // Another assertion (new signature, new exp) with the same jti is a replay too.
    const jti = randomUUID();
    const sameJtiA = await assertion(replayed.clientId, ec, { claims: { jti } });
    const sameJtiB = await assertion(replayed.clientId, ec, { claims: { jti, exp: nowSeconds() + 200 } });
    const answers = await Promise.all(
      [sameJtiA, sameJtiB, sameJtiA, sameJtiB, sameJtiA, sameJtiB].map((jwt) =>
        requestToken(app, assertionParams(jwt)),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401, 401, 401, 401]);
    expect(answers.filter((a) => a.status === 401).every((a) => a.body.error === 'invalid_client')).toBe(
      true,
    );
    expect(await tokenCount(replayed.id)).toBe(2);
    // The jti is the client's own: another client may use the same value.
    const other = await registerTestClient(app, ['roster.read'], 'Other', { keys: [ec.publicJwk] });
    expect(
      (await requestToken(app, assertionParams(await assertion(other.clientId, ec, { claims: { jti } }))))
        .status,
    ).toBe(200);
  });

  it('lets a jti be used again only once its first assertion has expired (now is an input)', async () => {
    const timed = await registerTestClient(app, ['roster.read'], 'Timed', { keys: [rsa.publicJwk] });
    const db = app.runtime.deps.db;
    const t0 = Math.floor(Date.now() / 1000);
    const jti = randomUUID();
    const sign = (exp: number) => assertion(timed.clientId, rsa, { claims: { jti, exp } });
    const at = (seconds: number) => new Date(seconds * 1000);
    const expected = { tokenEndpointUrl: AUD };
    const first = await authenticateClientAssertion(db, await sign(t0 + 60), expected, at(t0));
    expect(first).toMatchObject({ ok: true, keyId: 'rsa-2026', client: { clientId: timed.clientId } });
    // Within exp + 30 s of tolerance the jti stays spent, for an assertion valid then.
    const during = await authenticateClientAssertion(db, await sign(t0 + 120), expected, at(t0 + 85));
    expect(during).toMatchObject({ ok: false, error: 'invalid_client' });
    expect(during.ok ? '' : during.description).toMatch(/already used/);
    // After it, the first assertion is expired itself and the jti is free again.
    const stale = await authenticateClientAssertion(db, await sign(t0 + 60), expected, at(t0 + 95));
    expect(stale.ok ? '' : stale.description).toMatch(/has expired/);
    const later = await authenticateClientAssertion(db, await sign(t0 + 150), expected, at(t0 + 95));
    expect(later).toMatchObject({ ok: true });
    const rows = await app.runtime.deps.database.pool.query<{ expires_at: Date }>(
      'select expires_at from api_client_assertion_jtis where api_client_id = $1',
      [timed.id],
    );
    expect(rows.rows.map((r) => r.expires_at.getTime())).toEqual([(t0 + 180) * 1000]);
  });

  it('refuses a client without a key set, a revoked client and an unknown one', async () => {
    const secretOnly = await registerTestClient(app, ['roster.read'], 'Secret only');
    const noKeys = await requestToken(app, assertionParams(await assertion(secretOnly.clientId, rsa)));
    expect(noKeys).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(String(noKeys.body.error_description)).toMatch(/no registered public key set/);

    const revoked = await registerTestClient(app, ['roster.read'], 'Revoked', { keys: [rsa.publicJwk] });
    expect((await requestToken(app, assertionParams(await assertion(revoked.clientId, rsa)))).status).toBe(
      200,
    );
    await revokeApiClient(
      app.runtime.deps.db,
      { clientId: revoked.clientId },
      { userId: null, via: 'cli' },
      new Date(),
    );
    const refused = await requestToken(app, assertionParams(await assertion(revoked.clientId, rsa)));
    expect(refused).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(String(refused.body.error_description)).toMatch(/revoked/);

    const unknown = await requestToken(app, assertionParams(await assertion('no-such-client', rsa)));
    expect(unknown).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });

  it('answers invalid_request for two methods at once or a mismatched client_id, invalid_client for another assertion type', async () => {
    const jwt = () => assertion(client.clientId, rsa);
    const withSecret = await requestToken(
      app,
      assertionParams(await jwt(), { client_id: client.clientId, client_secret: client.clientSecret }),
    );
    expect(withSecret).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(String(withSecret.body.error_description)).toMatch(/one client authentication method/);
    const withBasic = await requestToken(app, assertionParams(await jwt()), {
      authorization: basicAuthorization(client.clientId, client.clientSecret),
    });
    expect(withBasic).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    const mismatch = await requestToken(app, assertionParams(await jwt(), { client_id: 'someone-else' }));
    expect(mismatch).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(String(mismatch.body.error_description)).toMatch(/client_id differs from the assertion's sub/);
    const otherType = await requestToken(app, {
      ...assertionParams(await jwt()),
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:saml2-bearer',
    });
    expect(otherType).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const typeOnly = await requestToken(app, {
      grant_type: 'client_credentials',
      client_assertion_type: JWT_BEARER,
    });
    expect(typeOnly).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    const tooLong = await requestToken(app, assertionParams('a'.repeat(5000)));
    expect(tooLong).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    // A valid assertion still needs the client credentials grant and a held scope.
    expect(await requestToken(app, assertionParams(await jwt(), { grant_type: 'password' }))).toMatchObject({
      status: 400,
      body: { error: 'unsupported_grant_type' },
    });
    const narrow = await registerTestClient(app, ['system/Location.read'], 'Narrow', {
      keys: [ec.publicJwk],
    });
    expect(
      await requestToken(
        app,
        assertionParams(await assertion(narrow.clientId, ec), { scope: 'roster.read' }),
      ),
    ).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
  });

  it('builds the aud from APP_URL, without a trailing slash doubled', () => {
    expect(tokenEndpointUrl('https://cred.example.org')).toBe('https://cred.example.org/oauth/token');
    expect(tokenEndpointUrl('https://cred.example.org/')).toBe('https://cred.example.org/oauth/token');
    expect(tokenEndpointUrl('https://example.org/credentialing')).toBe(
      'https://example.org/credentialing/oauth/token',
    );
  });
});

describe('registering a public key set (POST /api/admin/api-clients)', () => {
  let admin: Client & { userId: string };
  beforeAll(async () => {
    admin = await signUpAndSignIn(app, { firstName: 'Ada' });
    await grantAdmin(app, admin);
  });

  it('registers RS384 and ES384 public keys, keeping the public members only, and the client signs in with them', async () => {
    const created = await admin.json<ApiClientCreated>('POST', '/api/admin/api-clients', {
      name: 'Keyed payer',
      scopes: ['roster.read'],
      jwks: {
        keys: [
          { ...rsa.publicJwk, x5c: ['MIIB...'], ext: true },
          { ...ec.publicJwk, key_ops: ['verify'] },
        ],
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.client.jwksKeyIds).toEqual(['rsa-2026', 'ec-2026']);
    const stored = await app.runtime.deps.database.pool.query<{ jwks: unknown }>(
      'select jwks from api_clients where id = $1',
      [created.body.client.id],
    );
    expect(stored.rows[0]!.jwks).toEqual({
      keys: [
        { kty: 'RSA', kid: 'rsa-2026', alg: 'RS384', use: 'sig', n: rsa.publicJwk.n, e: rsa.publicJwk.e },
        {
          kty: 'EC',
          kid: 'ec-2026',
          alg: 'ES384',
          use: 'sig',
          key_ops: ['verify'],
          crv: 'P-384',
          x: ec.publicJwk.x,
          y: ec.publicJwk.y,
        },
      ],
    });
    const audit = await app.runtime.deps.database.pool.query<{ details: Record<string, unknown> }>(
      `select details from audit_log where action = 'api_client.created' and resource_id = $1`,
      [created.body.client.id],
    );
    expect(audit.rows[0]!.details.jwksKeyIds).toBe('rsa-2026 ec-2026');
    const answer = await requestToken(
      app,
      assertionParams(await assertion(created.body.client.clientId, ec)),
    );
    expect(answer.status).toBe(200);
  });

  it('refuses a private key, a symmetric key, another algorithm or curve, a key without kid, and too many keys', async () => {
    const { privateKey } = await generateKeyPair('RS384', { extractable: true });
    const privateJwk = { ...(await exportJWK(privateKey)), kid: 'leaked' };
    const p256 = await generateKeyPair('ES256', { extractable: true });
    const p256Jwk = { ...(await exportJWK(p256.publicKey)), kid: 'p256' };
    const bodies: Array<[string, unknown, RegExp]> = [
      [
        'a private RSA key',
        { keys: [privateJwk] },
        /holds private key material \(d, p, q, dp, dq, qi\): register the public key only/,
      ],
      [
        'a private part beside a public key',
        { keys: [rsa.publicJwk, { ...ec.publicJwk, kid: 'ec-2', d: 'AAAA' }] },
        /Key 2 holds private key material \(d\)/,
      ],
      [
        'a symmetric key',
        { keys: [{ kty: 'oct', kid: 'hmac', k: 'c2VjcmV0' }] },
        /private key material \(k\)/,
      ],
      ['an RS256 key', { keys: [{ ...rsa.publicJwk, alg: 'RS256' }] }, /an RSA key's alg must be RS384/],
      ['a P-256 key', { keys: [p256Jwk] }, /must be on the curve P-384/],
      ['a key without kid', { keys: [{ ...rsa.publicJwk, kid: undefined }] }, /needs a kid/],
      [
        'a repeated kid',
        { keys: [rsa.publicJwk, { ...ec.publicJwk, kid: 'rsa-2026' }] },
        /each key needs its own kid/,
      ],
      ['an encryption key', { keys: [{ ...rsa.publicJwk, use: 'enc' }] }, /use must be "sig"/],
      [
        'an EC point off the curve',
        { keys: [{ ...ec.publicJwk, x: 'A'.repeat(64), y: 'A'.repeat(64) }] },
        /is not a valid P-384 public key/,
      ],
      ['no keys', { keys: [] }, /1 to 10 keys/],
      [
        'eleven keys',
        { keys: Array.from({ length: 11 }, (_, i) => ({ ...ec.publicJwk, kid: `k${i}` })) },
        /at most 10 keys/,
      ],
      ['a bare key', rsa.publicJwk, /\{ "keys": \[ \.\.\. \] \}/],
    ];
    for (const [name, jwks, message] of bodies) {
      const answer = await admin.json<{ code: string; message: string }>('POST', '/api/admin/api-clients', {
        name: `Refused: ${name}`,
        scopes: ['roster.read'],
        jwks,
      });
      expect(answer.status, name).toBe(400);
      expect(answer.body.code, name).toBe('validation_failed');
      expect(answer.body.message, name).toMatch(message);
    }
    const count = await app.runtime.deps.database.pool.query(
      `select count(*)::int as n from api_clients where name like 'Refused:%'`,
    );
    expect(count.rows[0].n).toBe(0);
    // The service refuses the same, for the command line's path.
    await expect(
      registerTestClient(app, ['roster.read'], 'Refused: service', { keys: [privateJwk] }),
    ).rejects.toThrow(/private key material/);
  });
});
