/**
 * Issue 10 (outside review): each test reproduces one finding and fails without its fix.
 * Items: 1 development mailbox, 2 tokens in logs, 3 guards on the matched route, 4 PHI in error
 * logs, 7 production keys and name-change audit, 8 loopback origins; 5 bounds and 6 sessions and
 * attempt limits are hardening-limits.test.ts.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client, STRONG_PASSWORD, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { loadEnv } from '../env.ts';
import { isLoopbackAddress, trustedOrigins } from '../http/loopback.ts';
import { readOutbox } from '../mail/outbox.ts';
import { appStarter } from './testing/hardening-apps.ts';

const startApp = appStarter();
afterEach(() => {
  vi.useRealTimers();
});

/** The newest outbox message to `to` (the real file mailer writes in the background). */
async function outboxLink(app: TestApp, to: string, subject: RegExp): Promise<string> {
  const dir = path.join(app.dataDir, 'mail');
  await vi.waitFor(
    async () => {
      const found = (await readOutbox(dir)).find((m) => m.to.includes(to) && subject.test(m.subject));
      expect(found?.links.length).toBeGreaterThan(0);
    },
    { timeout: 5000, interval: 25 },
  );
  const message = (await readOutbox(dir)).find((m) => m.to.includes(to) && subject.test(m.subject))!;
  return message.links[0]!;
}

describe('item 1: the development mailbox is served only on a provably local server', () => {
  it('is absent when the server binds every interface (HOST=0.0.0.0), even in development', async () => {
    const app = await startApp({ NODE_ENV: 'development', HOST: '0.0.0.0' }, { realMailer: true });
    const response = await fetch(`${app.baseUrl}/dev/mail`);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('Outgoing mail');
  });

  it('is absent behind a trusted proxy and refuses forwarded or non-loopback-host requests', async () => {
    const proxied = await startApp({ NODE_ENV: 'development', TRUST_PROXY: 'true' }, { realMailer: true });
    expect((await fetch(`${proxied.baseUrl}/dev/mail`)).status).toBe(404);

    const local = await startApp({ NODE_ENV: 'development' }, { realMailer: true });
    expect((await fetch(`${local.baseUrl}/dev/mail`)).status).toBe(200);
    // A proxy on this machine would make a remote visitor's connection look local.
    const forwarded = await fetch(`${local.baseUrl}/dev/mail`, {
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(forwarded.status).toBe(404);
    // DNS rebinding: a page on another name resolved to 127.0.0.1 (fetch cannot set Host).
    const rebound = await new Promise<number>((resolve, reject) => {
      const request = http.get(
        `${local.baseUrl}/dev/mail`,
        { headers: { host: 'attacker.example' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      request.on('error', reject);
    });
    expect(rebound).toBe(404);
  });

  it('is absent in production', async () => {
    const app = await startApp(
      {
        NODE_ENV: 'production',
        AUTH_SECRET: 'x'.repeat(40),
        SMTP_URL: 'smtp://127.0.0.1:9',
        FIELD_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString('base64')}`,
      },
      {},
    );
    expect((await fetch(`${app.baseUrl}/dev/mail`)).status).toBe(404);
  });

  it('knows every loopback spelling and no other address', () => {
    for (const host of [
      'localhost',
      '127.0.0.1',
      '127.1.2.3',
      '::1',
      '[::1]',
      '::ffff:127.0.0.1',
      'LOCALHOST',
    ]) {
      expect(isLoopbackAddress(host), host).toBe(true);
    }
    for (const host of [
      '0.0.0.0',
      '::',
      '10.0.0.5',
      '192.168.1.2',
      'example.com',
      '::ffff:10.0.0.1',
      '',
      undefined,
    ]) {
      expect(isLoopbackAddress(host), String(host)).toBe(false);
    }
  });
});

describe('item 2: no token, link, session id or key in any log line', () => {
  it('logs none of them through sign-up, confirmation, sign-in, reset and change, at trace level', async () => {
    const app = await startApp({ NODE_ENV: 'development', LOG_LEVEL: 'trace' }, { realMailer: true });
    const client = new Client(app);
    const email = `tokens.${Date.now()}@example.test`;
    const signUp = await client.json('POST', '/api/auth/sign-up/email', {
      email,
      password: STRONG_PASSWORD,
      name: 'Tess Token',
      firstName: 'Tess',
      lastName: 'Token',
      callbackURL: '/auth?confirmed=1',
    });
    expect(signUp.status).toBe(200);
    const verifyLink = new URL(await outboxLink(app, email, /Confirm/));
    const verificationToken = verifyLink.searchParams.get('token')!;
    expect(verificationToken.length).toBeGreaterThan(10);
    await client.request('GET', `${verifyLink.pathname}${verifyLink.search}`);

    const signIn = await client.request('POST', '/api/auth/sign-in/email', {
      email,
      password: STRONG_PASSWORD,
    });
    expect(signIn.status).toBe(200);
    const sessionToken = decodeURIComponent(client.cookie.split('session_token=')[1]!.split(';')[0]!);

    await client.json('POST', '/api/auth/request-password-reset', { email, redirectTo: '/reset-password' });
    const resetLink = new URL(await outboxLink(app, email, /Reset/));
    const resetToken = resetLink.pathname.split('/').at(-1)!;
    expect(resetToken.length).toBeGreaterThan(10);
    // The browser follows the link (token in the path), then posts the new password.
    await fetch(`${app.baseUrl}${resetLink.pathname}${resetLink.search}`, { redirect: 'manual' });
    const reset = await new Client(app).json('POST', '/api/auth/reset-password', {
      token: resetToken,
      newPassword: 'amber lighthouse cactus 9081',
    });
    expect(reset.status).toBe(200);

    const logs = app.logs.join('\n');
    expect(logs.length).toBeGreaterThan(1000);
    const authSecret = fs.readFileSync(path.join(app.dataDir, 'auth-secret'), 'utf8').trim();
    const fieldKey = fs.readFileSync(path.join(app.dataDir, 'field-encryption.key'), 'utf8').trim();
    for (const [name, secret] of Object.entries({
      verificationToken,
      resetToken,
      sessionToken: sessionToken.split('.')[0]!,
      authSecret,
      fieldKey,
    })) {
      expect(logs.includes(secret), `${name} appears in the logs`).toBe(false);
    }
    expect(logs).toContain('/api/auth/reset-password/:redacted');
    expect(logs).not.toContain('verify-email?');
    expect(logs).toContain('mail saved to the outbox');
  });

  it('refuses to start in production without SMTP_URL or FIELD_ENCRYPTION_KEYS, naming the variable', () => {
    const base = { NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(40) };
    expect(() => loadEnv({ ...base, FIELD_ENCRYPTION_KEYS: 'k1:abc' })).toThrow(
      /SMTP_URL must be set in production/,
    );
    expect(() => loadEnv({ ...base, SMTP_URL: 'smtp://mail.example:587' })).toThrow(
      /FIELD_ENCRYPTION_KEYS must be set in production/,
    );
    expect(() =>
      loadEnv({ ...base, SMTP_URL: 'smtp://mail.example:587', FIELD_ENCRYPTION_KEYS: 'k1:abc' }),
    ).not.toThrow();
  });
});

describe('item 3: CSRF and no-store apply to the matched route, whatever the spelling', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });

  /** A concrete URL for a route pattern, with its first `a` of `/api` percent-encoded. */
  function encodedSpelling(pattern: string): string {
    const concrete = pattern
      .replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000')
      .replace('*', 'sign-out');
    return concrete.replace(/^\/api\//, '/%61pi/');
  }

  it('blocks a cross-site write on every write route spelled /%61pi/', async () => {
    const alice = await signUpAndSignIn(app);
    const writes = app.runtime.app.routeTable.filter((r) =>
      ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method),
    );
    expect(writes.length).toBeGreaterThan(5);
    for (const route of writes) {
      const url = encodedSpelling(route.url);
      for (const spelling of [url, url.replace('/%61pi/', '/api//'), url.replace('/%61pi/', '/%2Fapi/')]) {
        const response = await alice.request(route.method, spelling, {}, { origin: 'https://evil.example' });
        // 403 from the guard, or 400/404 when the spelling does not route at all: never a write.
        expect([400, 403, 404], `${route.method} ${spelling}`).toContain(response.status);
        if (spelling === url) expect(response.status, `${route.method} ${spelling}`).toBe(403);
      }
    }
    expect(
      (await alice.json<{ applications: unknown[] }>('GET', '/api/applications')).body.applications,
    ).toEqual([]);
  });

  it('marks every API answer no-store, whatever the spelling', async () => {
    const alice = await signUpAndSignIn(app);
    const reads = app.runtime.app.routeTable.filter((r) => r.method === 'GET');
    for (const route of reads) {
      const response = await alice.request('GET', encodedSpelling(route.url));
      expect(response.headers.get('cache-control'), `GET ${encodedSpelling(route.url)}`).toMatch(
        /no-store|no-cache/,
      );
    }
    const malformed = await alice.request('GET', '/api/applications/%FF');
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { code: string }).code).toBe('bad_request');
  });
});

describe('item 4: a database error is logged without SQL or values', () => {
  it('logs SQLSTATE, route and request id, never the bound parameters, and answers a plain 500', async () => {
    const app = await startApp();
    const alice = await signUpAndSignIn(app);
    const application = await alice.json<{ id: string }>('POST', '/api/applications', {});
    // The database refuses every personal-information write (a failing disk, a bad migration...).
    await app.runtime.deps.database.pool.query(`
      create function refuse_write() returns trigger language plpgsql as $$
      begin raise exception 'refused by test trigger'; end $$;
      create trigger refuse_write before insert or update on personal_information
        for each row execute function refuse_write();`);
    const response = await alice.request(
      'PUT',
      `/api/applications/${application.body.id}/sections/personal-information`,
      { dateOfBirth: '1961-07-23', addressLine1: '4417 Canary Lane', licenseNumber: 'x', city: 'Quimperton' },
    );
    const body = await response.text();
    expect(response.status).toBe(500);
    expect(body).not.toMatch(/at .*\.ts:\d+|node_modules|stack|select|insert|1961/i);
    const line = app.logs.find((l) => l.includes('unhandled error'));
    expect(line).toBeDefined();
    const entry = JSON.parse(line!) as {
      err: { code?: string; cause?: { code?: string } };
      route?: string;
      reqId?: string;
    };
    expect(entry.err.code ?? entry.err.cause?.code).toBe('P0001');
    expect(entry.route).toBe('/api/applications/:applicationId/sections/personal-information');
    expect(entry.reqId).toBeTruthy();
    const logs = app.logs.join('\n');
    for (const value of ['1961-07-23', '4417 Canary Lane', 'Quimperton', 'insert into', 'params']) {
      expect(logs, value).not.toContain(value);
    }
  });
});

describe('item 7: a name change through the auth API is audited and reaches the profile', () => {
  it('records auth.name_changed without the names and updates the profile', async () => {
    const app = await startApp();
    const alice = await signUpAndSignIn(app, { firstName: 'Alice', lastName: 'Before' });
    const rename = await alice.json('POST', '/api/auth/update-user', {
      lastName: 'After',
      name: 'Alice After',
    });
    expect(rename.status).toBe(200);
    const me = await alice.json<{ profile: { lastName: string } }>('GET', '/api/me');
    expect(me.body.profile.lastName).toBe('After');
    const audit = await app.runtime.deps.database.pool.query<{ details: string }>(
      `select details::text from audit_log where action = 'auth.name_changed' and subject_user_id = $1`,
      [alice.userId],
    );
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]!.details).not.toContain('After');
  });
});

describe('item 8: both loopback spellings work locally, and only locally', () => {
  it('trusts 127.0.0.1 and [::1] beside localhost on a local server', async () => {
    const app = await startApp();
    const origin = 'http://127.0.0.1:3000'; // APP_URL is http://localhost:3000
    const signUp = await new Client(app).json('POST', '/api/auth/sign-up/email', {
      email: `loopback.${Date.now()}@example.test`,
      password: STRONG_PASSWORD,
      firstName: 'Lou',
      lastName: 'Pback',
    });
    expect(signUp.status).toBe(200);
    const fromOtherSpelling = await new Client(app).request(
      'POST',
      '/api/auth/sign-up/email',
      {
        email: `loopback2.${Date.now()}@example.test`,
        password: STRONG_PASSWORD,
        firstName: 'Lou',
        lastName: 'Two',
      },
      { origin },
    );
    expect(fromOtherSpelling.status).toBe(200);
    const alice = await signUpAndSignIn(app);
    expect((await alice.request('POST', '/api/applications', {}, { origin })).status).toBe(201);
  });

  it('does not trust the other spellings when the server is reachable from elsewhere', () => {
    const local = { HOST: '127.0.0.1', NODE_ENV: 'development', TRUST_PROXY: false };
    expect(trustedOrigins('http://localhost:3000', local)).toEqual([
      'http://localhost:3000',
      'http://127.0.0.1:3000',
      'http://[::1]:3000',
    ]);
    expect(trustedOrigins('http://localhost:3000', { ...local, HOST: '0.0.0.0' })).toEqual([
      'http://localhost:3000',
    ]);
    expect(trustedOrigins('http://localhost:3000', { ...local, NODE_ENV: 'production' })).toEqual([
      'http://localhost:3000',
    ]);
    expect(trustedOrigins('https://portal.example.org', local)).toEqual(['https://portal.example.org']);
  });
});

describe('item 4: the safe error summary', () => {
  it('keeps no message of a Drizzle query error, whatever its cause', async () => {
    const { DrizzleQueryError } = await import('drizzle-orm/errors');
    const { safeErrorSummary } = await import('../logger.ts');
    const leak = new DrizzleQueryError(
      'select * from session where token = $1',
      ['s3ss10n-t0ken-XYZ'],
      new Error('Connection terminated unexpectedly'),
    );
    const summary = JSON.stringify(safeErrorSummary(leak));
    expect(summary).not.toContain('s3ss10n-t0ken-XYZ');
    expect(summary).not.toContain('select');
    expect(summary).toContain('DrizzleQueryError');
    expect(summary).toContain('Connection terminated');
  });
});
