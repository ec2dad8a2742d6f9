/**
 * `npm run admin -- api-client create|list|revoke` (issue 33 item 4), run as a real child process
 * the way an operator runs it (as server/cli/admin.test.ts does), against a running test app: the
 * secret printed once works at `POST /oauth/token`, the list never shows it, revoke refuses it.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../tests/harness.ts';
import { parseApiClientCommand } from './api-clients.cli.ts';
import { basicAuthorization, requestToken } from './testing.ts';

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

let app: TestApp;
let dataDir: string;

function runAdmin(args: string[]): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['server/cli/admin.ts', ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: app.databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  app = await createTestApp();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cred-api-client-cli-'));
});
afterAll(async () => {
  await app?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run admin -- api-client', () => {
  it('creates a client and prints its secret once; list shows it without the secret; revoke refuses it', async () => {
    const created = await runAdmin([
      'api-client',
      'create',
      'Payer roster feed',
      '--scope',
      'system/*.read',
      '--scope',
      'roster.read',
    ]);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const clientId = /^client_id: (\S+)$/m.exec(created.stdout)?.[1];
    const clientSecret = /^client_secret: (\S+)$/m.exec(created.stdout)?.[1];
    expect(clientId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created.stdout).toContain(
      'API client "Payer roster feed" registered with the scopes system/*.read roster.read.',
    );
    expect(created.stdout).toContain('it will not be shown again');

    const credentials = { authorization: basicAuthorization(clientId!, clientSecret!) };
    const token = await requestToken(app, { grant_type: 'client_credentials' }, credentials);
    expect(token.status).toBe(200);
    expect(token.body.scope).toBe('system/*.read roster.read');

    const listed = await runAdmin(['api-client', 'list']);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    const line = listed.stdout
      .trim()
      .split('\n')
      .find((l) => l.startsWith(clientId!));
    expect(line?.split('\t').slice(0, 3)).toEqual([
      clientId,
      'Payer roster feed',
      'system/*.read roster.read',
    ]);
    expect(line).toContain('\tactive\t');
    expect(listed.stdout).not.toContain(clientSecret);

    const revoked = await runAdmin(['api-client', 'revoke', clientId!]);
    expect(revoked).toMatchObject({ code: 0, stderr: '' });
    expect(revoked.stdout.trim()).toBe(
      `API client "Payer roster feed" (${clientId}) is revoked: its tokens are refused from now on.`,
    );
    expect(await requestToken(app, { grant_type: 'client_credentials' }, credentials)).toMatchObject({
      status: 401,
      body: { error: 'invalid_client' },
    });
    expect((await runAdmin(['api-client', 'list'])).stdout).toMatch(/\trevoked \d{4}-/);

    const again = await runAdmin(['api-client', 'revoke', clientId!]);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe('This API client is already revoked.');
    const unknown = await runAdmin(['api-client', 'revoke', 'no-such-client']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('No such API client.');

    const audit = await app.runtime.deps.database.pool.query<{
      action: string;
      actor_user_id: string | null;
      details: Record<string, unknown>;
    }>(
      `select action, actor_user_id, details from audit_log where action in ('api_client.created', 'api_client.revoked') order by id`,
    );
    expect(audit.rows).toEqual([
      {
        action: 'api_client.created',
        actor_user_id: null,
        details: { clientId, scopes: 'system/*.read roster.read', via: 'cli' },
      },
      { action: 'api_client.revoked', actor_user_id: null, details: { clientId, liveTokens: 1, via: 'cli' } },
    ]);
  }, 60_000);

  it('refuses a wrong command line with the usage and exit 2, registering nothing', async () => {
    const unknownScope = await runAdmin([
      'api-client',
      'create',
      'Writer',
      '--scope',
      'system/Practitioner.write',
    ]);
    expect(unknownScope.code).toBe(2);
    expect(unknownScope.stderr).toContain('Unknown scope: system/Practitioner.write.');
    expect(unknownScope.stderr).toContain('npm run admin -- api-client create NAME --scope SCOPE');
    const noScope = await runAdmin(['api-client', 'create', 'Nothing']);
    expect(noScope.code).toBe(2);
    expect(noScope.stderr).toContain('Give the API client at least one --scope.');
    const count = await app.runtime.deps.database.pool.query(
      `select count(*)::int as n from api_clients where name in ('Writer', 'Nothing')`,
    );
    expect(count.rows[0].n).toBe(0);
  }, 60_000);
});

describe('npm run admin -- api-client create --jwks-file', () => {
  it('registers the public key set of the file, refuses a private key, and the key signs a working assertion', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES384', { extractable: true });
    const publicFile = path.join(dataDir, 'public.jwks.json');
    fs.writeFileSync(
      publicFile,
      JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'feed-1' }] }),
    );
    const privateFile = path.join(dataDir, 'private.jwks.json');
    fs.writeFileSync(
      privateFile,
      JSON.stringify({ keys: [{ ...(await exportJWK(privateKey)), kid: 'feed-1' }] }),
    );

    const refused = await runAdmin([
      'api-client',
      'create',
      'Leaky',
      '--scope',
      'roster.read',
      '--jwks-file',
      privateFile,
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(
      'Key 1 holds private key material (d): register the public key only, and keep the private key with the client.',
    );
    const missing = await runAdmin([
      'api-client',
      'create',
      'Lost',
      '--scope',
      'roster.read',
      '--jwks-file',
      path.join(dataDir, 'none.json'),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Cannot read the JSON Web Key Set file');
    const count = await app.runtime.deps.database.pool.query(
      `select count(*)::int as n from api_clients where name in ('Leaky', 'Lost')`,
    );
    expect(count.rows[0].n).toBe(0);

    const created = await runAdmin([
      'api-client',
      'create',
      'Signed feed',
      '--scope',
      'roster.read',
      '--jwks-file',
      publicFile,
    ]);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(created.stdout).toContain(
      'Public keys registered for signed JWT assertions (private_key_jwt): feed-1.',
    );
    const clientId = /^client_id: (\S+)$/m.exec(created.stdout)?.[1] ?? '';
    const listed = await runAdmin(['api-client', 'list']);
    expect(listed.stdout.split('\n').find((l) => l.startsWith(clientId))).toMatch(/\tkeys feed-1$/);
    const assertion = await new SignJWT({
      iss: clientId,
      sub: clientId,
      aud: `${TEST_ORIGIN}/oauth/token`,
      exp: Math.floor(Date.now() / 1000) + 120,
      jti: randomUUID(),
    })
      .setProtectedHeader({ alg: 'ES384', kid: 'feed-1', typ: 'JWT' })
      .sign(privateKey);
    const token = await requestToken(app, {
      grant_type: 'client_credentials',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
    });
    expect(token.status).toBe(200);
    expect(token.body.scope).toBe('roster.read');
  }, 60_000);
});

describe('parseApiClientCommand', () => {
  it('reads create, list and revoke, and says what is wrong otherwise', () => {
    expect(
      parseApiClientCommand(['create', 'Feed', '--scope', 'roster.read', '--scope', 'system/Location.rs']),
    ).toEqual({
      command: 'create',
      name: 'Feed',
      scopes: ['roster.read', 'system/Location.rs'],
    });
    expect(
      parseApiClientCommand(['create', 'Feed', '--jwks-file', 'keys.json', '--scope', 'roster.read']),
    ).toEqual({ command: 'create', name: 'Feed', scopes: ['roster.read'], jwksFile: 'keys.json' });
    expect(
      parseApiClientCommand([
        'create',
        'Feed',
        '--scope',
        'roster.read',
        '--jwks-file',
        'a',
        '--jwks-file',
        'b',
      ]),
    ).toEqual({ error: 'Give --jwks-file once.' });
    expect(parseApiClientCommand(['create', 'Feed', '--scope', 'roster.read', '--jwks-file'])).toHaveProperty(
      'error',
    );
    expect(parseApiClientCommand(['list'])).toEqual({ command: 'list' });
    expect(parseApiClientCommand(['revoke', 'abc'])).toEqual({ command: 'revoke', clientId: 'abc' });
    expect(parseApiClientCommand(['create', 'x'.repeat(101), '--scope', 'roster.read'])).toEqual({
      error: 'The name may have at most 100 characters.',
    });
    expect(parseApiClientCommand(['create', '--scope', 'roster.read'])).toHaveProperty('error');
    expect(parseApiClientCommand(['create', 'Feed', '--scope'])).toHaveProperty('error');
    expect(parseApiClientCommand(['create', 'Feed', '--role', 'admin'])).toHaveProperty('error');
    expect(parseApiClientCommand(['list', 'extra'])).toHaveProperty('error');
    expect(parseApiClientCommand(['revoke'])).toHaveProperty('error');
    expect(parseApiClientCommand(['delete', 'abc'])).toHaveProperty('error');
    expect(parseApiClientCommand([])).toHaveProperty('error');
  });
});
