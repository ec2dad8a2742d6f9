/**
 * The administrators' API client routes (issue 33 item 4) over real HTTP: register (the secret
 * once, only its hash kept), list (never a secret), revoke (its tokens refused from then on), the
 * validation, who may call them, and the audit rows. The authorization matrix covers every caller.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClientCreated, ApiClientList, ApiClientSummary } from '../../domain/api/api-clients.ts';
import {
  type Client,
  createTestApp,
  grantAdmin,
  grantStaffRole,
  signUpAndSignIn,
  type TestApp,
} from '../../tests/harness.ts';
import { authenticateClient } from './api-clients.service.ts';
import { basicAuthorization, requestToken } from './testing.ts';

let app: TestApp;
let admin: Client & { userId: string };

beforeAll(async () => {
  app = await createTestApp();
  admin = await signUpAndSignIn(app, { firstName: 'Ada' });
  await grantAdmin(app, admin);
});
afterAll(async () => {
  await app?.close();
});

describe('API client admin routes', () => {
  it('registers a client, answers its secret once, keeps only the hash, and the secret gets a token', async () => {
    const created = await admin.json<ApiClientCreated>('POST', '/api/admin/api-clients', {
      name: '  Payer directory  ',
      scopes: ['roster.read', 'system/Practitioner.rs', 'roster.read'],
    });
    expect(created.status).toBe(201);
    const { client, clientSecret } = created.body;
    expect(client).toEqual({
      id: expect.any(String),
      clientId: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      name: 'Payer directory',
      scopes: ['system/Practitioner.read', 'roster.read'],
      createdAt: expect.any(String),
      revokedAt: null,
      lastUsedAt: null,
      jwksKeyIds: [],
    });
    // 256 random bits, base64url.
    expect(clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const pool = app.runtime.deps.database.pool;
    const row = await pool.query<{ secret_hash: string; created_by: string }>(
      'select secret_hash, created_by from api_clients where id = $1',
      [client.id],
    );
    expect(row.rows[0]).toEqual({
      secret_hash: createHash('sha256').update(clientSecret).digest('hex'),
      created_by: admin.userId,
    });

    const listed = await admin.json<ApiClientList>('GET', '/api/admin/api-clients');
    expect(listed.status).toBe(200);
    expect(listed.body.clients).toEqual([client]);
    expect(JSON.stringify(listed.body)).not.toContain(clientSecret);
    expect(JSON.stringify(listed.body)).not.toContain(row.rows[0]!.secret_hash);

    const token = await requestToken(
      app,
      { grant_type: 'client_credentials' },
      { authorization: basicAuthorization(client.clientId, clientSecret) },
    );
    expect(token.status).toBe(200);
    expect(token.body.scope).toBe('system/Practitioner.read roster.read');

    const audit = await pool.query<{ actor_user_id: string; resource_id: string; details: unknown }>(
      `select actor_user_id, resource_id, details from audit_log where action = 'api_client.created'`,
    );
    expect(audit.rows).toEqual([
      {
        actor_user_id: admin.userId,
        resource_id: client.id,
        details: { clientId: client.clientId, scopes: 'system/Practitioner.read roster.read', via: 'admin' },
      },
    ]);
  });

  it('revokes a client: its token endpoint and audit say so, a second revoke is 409, an unknown id 404', async () => {
    const created = await admin.json<ApiClientCreated>('POST', '/api/admin/api-clients', {
      name: 'Short-lived',
      scopes: ['system/*.read'],
    });
    const { client, clientSecret } = created.body;
    const credentials = { authorization: basicAuthorization(client.clientId, clientSecret) };
    expect((await requestToken(app, { grant_type: 'client_credentials' }, credentials)).status).toBe(200);

    const revoked = await admin.json<ApiClientSummary>(
      'POST',
      `/api/admin/api-clients/${client.id}/revoke`,
      {},
    );
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).not.toBeNull();
    const pool = app.runtime.deps.database.pool;
    // Its live token is marked revoked too, and it gets no new one.
    const tokens = await pool.query('select revoked_at from api_client_tokens where api_client_id = $1', [
      client.id,
    ]);
    expect(tokens.rows).toHaveLength(1);
    expect(tokens.rows[0].revoked_at).not.toBeNull();
    expect(await requestToken(app, { grant_type: 'client_credentials' }, credentials)).toMatchObject({
      status: 401,
      body: { error: 'invalid_client' },
    });
    const revokedBy = await pool.query('select revoked_by from api_clients where id = $1', [client.id]);
    expect(revokedBy.rows[0].revoked_by).toBe(admin.userId);
    const audit = await pool.query(
      `select actor_user_id, details from audit_log where action = 'api_client.revoked' and resource_id = $1`,
      [client.id],
    );
    expect(audit.rows).toEqual([
      { actor_user_id: admin.userId, details: { clientId: client.clientId, liveTokens: 1, via: 'admin' } },
    ]);

    const again = await admin.json('POST', `/api/admin/api-clients/${client.id}/revoke`, {});
    expect(again.status).toBe(409);
    const unknown = await admin.json(
      'POST',
      '/api/admin/api-clients/00000000-0000-4000-8000-000000000001/revoke',
      {},
    );
    expect(unknown.status).toBe(404);
    expect((await admin.json('POST', '/api/admin/api-clients/not-a-uuid/revoke', {})).status).toBe(400);
  });

  it("rotates a client's secret: the new one works, the old one for 24 hours only; audited (issue 52)", async () => {
    // First, the admin registers a client and later rotates its secret.
    const created = await admin.json<ApiClientCreated>('POST', '/api/admin/api-clients', {
      name: 'Rotating payer',
      scopes: ['roster.read'],
    });
    const { client, clientSecret: oldSecret } = created.body;
    const rotated = await admin.json<ApiClientCreated>(
      'POST',
      `/api/admin/api-clients/${client.id}/rotate-secret`,
      {},
    );
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.clientSecret;
    expect(newSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newSecret).not.toBe(oldSecret);
    expect(rotated.body.client.id).toBe(client.id);
    // Both secrets get a token now.
    for (const secret of [newSecret, oldSecret]) {
      const answer = await requestToken(
        app,
        { grant_type: 'client_credentials' },
        {
          authorization: basicAuthorization(client.clientId, secret),
        },
      );
      expect(answer.status).toBe(200);
    }
    // Only hashes are kept; the old one expires 24 hours after the rotation.
    const pool = app.runtime.deps.database.pool;
    const row = await pool.query(
      'select secret_hash, previous_secret_hash, previous_secret_expires_at from api_clients where id = $1',
      [client.id],
    );
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(row.rows[0]).toMatchObject({ secret_hash: sha(newSecret), previous_secret_hash: sha(oldSecret) });
    const hoursLeft = (row.rows[0].previous_secret_expires_at.getTime() - Date.now()) / 3_600_000;
    expect(hoursLeft).toBeGreaterThan(23.9);
    expect(hoursLeft).toBeLessThanOrEqual(24);
    const later = new Date(Date.now() + 24 * 3_600_000 + 1000);
    expect(await authenticateClient(app.runtime.deps.db, client.clientId, oldSecret, later)).toBeNull();
    expect(await authenticateClient(app.runtime.deps.db, client.clientId, newSecret, later)).not.toBeNull();
    // A second rotation ends the first secret at once.
    const second = await admin.json<ApiClientCreated>(
      'POST',
      `/api/admin/api-clients/${client.id}/rotate-secret`,
      {},
    );
    expect(await authenticateClient(app.runtime.deps.db, client.clientId, oldSecret)).toBeNull();
    expect(await authenticateClient(app.runtime.deps.db, client.clientId, newSecret)).not.toBeNull();
    expect(
      await authenticateClient(app.runtime.deps.db, client.clientId, second.body.clientSecret),
    ).not.toBeNull();
    const audit = await pool.query(
      `select actor_user_id, details from audit_log where action = 'api_client.secret_rotated' and resource_id = $1`,
      [client.id],
    );
    expect(audit.rows).toHaveLength(2);
    expect(audit.rows[0]).toMatchObject({
      actor_user_id: admin.userId,
      details: { clientId: client.clientId, via: 'admin' },
    });
    expect(JSON.stringify(audit.rows)).not.toContain(newSecret);
    // A revoked client cannot be rotated; an unknown one is 404.
    await admin.json('POST', `/api/admin/api-clients/${client.id}/revoke`, {});
    expect((await admin.json('POST', `/api/admin/api-clients/${client.id}/rotate-secret`, {})).status).toBe(
      409,
    );
    expect(
      (
        await admin.json(
          'POST',
          '/api/admin/api-clients/00000000-0000-4000-8000-000000000001/rotate-secret',
          {},
        )
      ).status,
    ).toBe(404);
  });

  it('refuses a name that is empty or too long, no scope, and unknown scopes', async () => {
    const bodies = [
      { name: '   ', scopes: ['roster.read'] },
      { name: 'x'.repeat(101), scopes: ['roster.read'] },
      { name: 'No scope', scopes: [] },
      { name: 'Writer', scopes: ['system/Practitioner.write'] },
      { name: 'Patient reader', scopes: ['system/Patient.read'] },
      { name: 'Too many', scopes: Array(21).fill('roster.read') },
    ];
    for (const body of bodies) {
      const answer = await admin.json<{ code: string }>('POST', '/api/admin/api-clients', body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.body.code).toBe('validation_failed');
    }
    const count = await app.runtime.deps.database.pool.query(
      `select count(*)::int as n from api_clients where name in ('No scope', 'Writer', 'Patient reader', 'Too many')`,
    );
    expect(count.rows[0].n).toBe(0);
  });

  it('is for administrators only: a provider and a specialist are refused', async () => {
    const provider = await signUpAndSignIn(app);
    const specialist = await signUpAndSignIn(app);
    await grantStaffRole(app, specialist, 'specialist');
    for (const caller of [provider, specialist]) {
      expect((await caller.json('GET', '/api/admin/api-clients')).status).toBe(403);
      expect(
        (await caller.json('POST', '/api/admin/api-clients', { name: 'Mine', scopes: ['roster.read'] }))
          .status,
      ).toBe(403);
    }
  });
});
