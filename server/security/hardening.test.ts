/**
 * Issue 10 (outside review): each test reproduces one finding and fails without its fix.
 * Items: 1 development mailbox, 2 tokens in logs, 3 guards on the matched route, 4 PHI in error
 * logs, 5 bounds, 6 sessions and attempt limits, 7 production keys and name-change audit,
 * 8 loopback origins.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_ROWS_PER_LIST_SECTION } from '../../domain/sections/section.ts';
import { pdfOfSize, tinyPng } from '../../tests/fixtures/files.ts';
import {
  Client,
  createTestApp,
  grantAdmin,
  STRONG_PASSWORD,
  signUpAndSignIn,
  type TestApp,
} from '../../tests/harness.ts';
import { loadEnv } from '../env.ts';
import { isLoopbackAddress, trustedOrigins } from '../http/loopback.ts';
import type { Mailer } from '../mail/mailer.ts';
import { readOutbox } from '../mail/outbox.ts';
import { SIGN_IN } from './rate-limits.ts';

const apps: TestApp[] = [];
async function startApp(...args: Parameters<typeof createTestApp>): Promise<TestApp> {
  const app = await createTestApp(...args);
  apps.push(app);
  return app;
}
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
});
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

function uploadForm(documentType: string, name: string, bytes: Buffer): FormData {
  const form = new FormData();
  form.append('documentType', documentType);
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  return form;
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

describe('item 5: everything a user can create is bounded', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });

  it('refuses names over 100 characters at sign-up and name change, with the limit in the message', async () => {
    const signUp = (firstName: string) =>
      new Client(app).json<{ message: string; code: string }>('POST', '/api/auth/sign-up/email', {
        email: `long.${Math.random()}@example.test`,
        password: STRONG_PASSWORD,
        name: `${firstName} Long`,
        firstName,
        lastName: 'Long',
      });
    const huge = await signUp('x'.repeat(200_000));
    expect(huge.status).toBe(400);
    expect(huge.body.message).toContain('100 characters');
    expect((await signUp('x'.repeat(101))).status).toBe(400);
    expect((await signUp('x'.repeat(100))).status).toBe(200);

    const alice = await signUpAndSignIn(app);
    const rename = await alice.json<{ message: string }>('POST', '/api/auth/update-user', {
      firstName: 'y'.repeat(101),
    });
    expect(rename.status).toBe(400);
    expect(rename.body.message).toContain('100 characters');
    expect((await alice.json('POST', '/api/auth/update-user', { image: 'x'.repeat(10_000) })).status).toBe(
      400,
    );
  });

  it('holds at most 500 rows per list section, for added rows and saved cards', async () => {
    const alice = await signUpAndSignIn(app);
    const application = await alice.json<{ id: string }>('POST', '/api/applications', {});
    const id = application.body.id;
    const pool = app.runtime.deps.database.pool;
    await pool.query(
      `insert into payors (application_id, payor_name) select $1, 'Payor ' || g from generate_series(1, $2) g`,
      [id, MAX_ROWS_PER_LIST_SECTION - 1],
    );
    const base = `/api/applications/${id}/sections`;
    expect((await alice.json('POST', `${base}/payors`, { payorName: 'Last one' })).status).toBe(201);
    const over = await alice.json<{ message: string }>('POST', `${base}/payors`, {
      payorName: 'One too many',
    });
    expect(over.status).toBe(409);
    expect(over.body.message).toContain('500');
    const count = await pool.query(`select count(*)::int as n from payors where application_id = $1`, [id]);
    expect(count.rows[0].n).toBe(MAX_ROWS_PER_LIST_SECTION);

    await pool.query(
      `insert into education (application_id, institution_name, position) select $1, 'School ' || g, g from generate_series(1, $2) g`,
      [id, MAX_ROWS_PER_LIST_SECTION - 1],
    );
    const cards = await alice.json<{ message: string }>('PUT', `${base}/education`, {
      rows: [{ institutionName: 'A' }, { institutionName: 'B' }],
    });
    expect(cards.status).toBe(409);
    const education = await pool.query(`select count(*)::int as n from education where application_id = $1`, [
      id,
    ]);
    expect(education.rows[0].n).toBe(MAX_ROWS_PER_LIST_SECTION - 1);
  });

  it('holds at most 100 documents and 500 MB per application, and keeps no refused file', async () => {
    const alice = await signUpAndSignIn(app);
    const application = await alice.json<{ id: string }>('POST', '/api/applications', {});
    const id = application.body.id;
    const pool = app.runtime.deps.database.pool;
    const url = `/api/applications/${id}/documents`;
    const insertDocuments = (count: number, size: number) =>
      pool.query(
        `insert into documents (application_id, user_id, document_name, document_type, file_path, file_size, mime_type, sha256)
         select $1::uuid, $2, 'seed-' || g || '.pdf', 'other', 'seed/' || $1::text || '/' || g, $3, 'application/pdf', repeat('0', 64)
         from generate_series(1, $4) g`,
        [id, alice.userId, size, count],
      );
    // 49 x 10 MiB already stored: a 6 MB file stays within 500 MiB, a further 6 MB does not.
    await insertDocuments(49, 10 * 1024 * 1024);
    const fits = await alice.request('POST', url, uploadForm('other', 'fits.pdf', pdfOfSize(6_000_000)));
    expect(fits.status, await fits.clone().text()).toBe(201);
    const tooMuch = await alice.request(
      'POST',
      url,
      uploadForm('other', 'too-much.pdf', pdfOfSize(6_000_000)),
    );
    expect(tooMuch.status).toBe(413);
    expect(((await tooMuch.json()) as { message: string }).message).toContain('500 MB');

    await pool.query(`delete from documents where application_id = $1 and file_path like 'seed/%'`, [id]);
    // With the 6 MB upload above, 98 more make 99 documents: the 100th fits, the 101st does not.
    await insertDocuments(98, 1000);
    const hundredth = await alice.request('POST', url, uploadForm('other', 'hundredth.png', tinyPng));
    expect(hundredth.status).toBe(201);
    const refused = await alice.request('POST', url, uploadForm('other', 'extra.png', tinyPng));
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toContain('100 documents');
    const stored = await pool.query(
      `select count(*)::int as n from documents where application_id = $1 and file_path not like 'seed/%'`,
      [id],
    );
    expect(stored.rows[0].n).toBe(2);
    const objectsDir = path.join(app.dataDir, 'objects');
    const files = fs
      .readdirSync(objectsDir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile());
    expect(files).toHaveLength(2);
  });

  it('limits uploads per user, answering 429 with Retry-After', async () => {
    const alice = await signUpAndSignIn(app);
    const application = await alice.json<{ id: string }>('POST', '/api/applications', {});
    const url = `/api/applications/${application.body.id}/documents`;
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 31; i++) {
      last = await alice.request('POST', url, uploadForm('other', `f${i}.png`, tinyPng));
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 201)).toBe(true);
    expect(statuses[30]).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await last!.json()) as { message: string }).message).toContain('30 documents a minute');
  });

  it('refuses uploads with 507 while the disk is short of the reserved space', async () => {
    const full = await startApp({ STORAGE_MIN_FREE_MB: String(1024 * 1024 * 1024) });
    const alice = await signUpAndSignIn(full);
    const application = await alice.json<{ id: string }>('POST', '/api/applications', {});
    const response = await alice.request(
      'POST',
      `/api/applications/${application.body.id}/documents`,
      uploadForm('other', 'a.png', tinyPng),
    );
    expect(response.status).toBe(507);
    expect(((await response.json()) as { message: string }).message).toContain('storage space');
  });

  it('answers a NUL byte or a malformed escape in a search, an id or a body with 400, never 500', async () => {
    const admin = await signUpAndSignIn(app);
    await grantAdmin(app, admin);
    const alice = await signUpAndSignIn(app);
    const application = await alice.json<{ id: string }>('POST', '/api/applications', {});
    const cases: [Client, string, string, unknown?][] = [
      [admin, 'GET', '/api/admin/providers?search=a%00b'],
      [admin, 'GET', '/api/admin/documents?search=%00'],
      [admin, 'GET', '/api/admin/providers/a%00b'],
      [admin, 'GET', '/api/admin/providers/%FF'],
      [admin, 'GET', '/api/admin/audit-log?subjectUserId=a%00b'],
      [alice, 'GET', '/api/applications/%00'],
      [alice, 'POST', `/api/applications/${application.body.id}/sections/payors`, { payorName: 'a\u0000b' }],
      [
        alice,
        'PUT',
        `/api/applications/${application.body.id}/sections/personal-information`,
        { city: '\u0000' },
      ],
      [alice, 'POST', `/api/applications/${application.body.id}/sections/payors`, { payorName: 'a\ud800b' }],
    ];
    for (const [client, method, url, body] of cases) {
      const response = await client.request(method, url, body);
      expect(response.status, `${method} ${url}`).toBe(400);
      expect(((await response.json()) as { message: string }).message.length).toBeGreaterThan(10);
    }
  });
});

describe('item 6: attempt limits without a lockout, reset timing', () => {
  // A password change ends the other sessions whatever the client sends: security.test.ts.
  describe('sign-in limits (TRUST_PROXY so the test can speak from many addresses)', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startApp({ TRUST_PROXY: 'true' });
    });
    const attempt = (email: string, password: string, ip: string) =>
      new Client(app).request(
        'POST',
        '/api/auth/sign-in/email',
        { email, password },
        { 'x-forwarded-for': ip },
      );

    it('ten wrong passwords from ten addresses do not lock the owner out', async () => {
      const victim = await signUpAndSignIn(app);
      for (let i = 1; i <= 10; i++) {
        expect((await attempt(victim.email, `wrong password ${i}!`, `198.51.100.${i}`)).status).toBe(401);
      }
      expect((await attempt(victim.email, STRONG_PASSWORD, '203.0.113.50')).status).toBe(200);
    });

    it('refuses one address after ten attempts for 15 minutes and says so; others still sign in', async () => {
      const victim = await signUpAndSignIn(app);
      for (let i = 1; i <= SIGN_IN.pairAttempts; i++) {
        expect((await attempt(victim.email, `wrong ${i} password!`, '198.51.100.200')).status).toBe(401);
      }
      const refused = await attempt(victim.email, STRONG_PASSWORD, '198.51.100.200');
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(14 * 60);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      expect(((await refused.json()) as { message: string }).message).toMatch(/Try again in 15 minutes/);
      expect((await attempt(victim.email, STRONG_PASSWORD, '198.51.100.201')).status).toBe(200);
    });

    it('beyond 20 failures from anywhere, delays grow to at most a minute, never a lockout', async () => {
      const victim = await signUpAndSignIn(app);
      vi.useFakeTimers({ toFake: ['Date'], now: new Date() });
      // 20 free failures, from 4 addresses (5 each, under the per-address limit).
      for (let i = 0; i < SIGN_IN.accountFreeFailures; i++) {
        expect((await attempt(victim.email, `wrong ${i} password!`, `192.0.2.${i % 4}`)).status).toBe(401);
      }
      // Failures 21..26 each set a delay of 1, 2, 4, 8, 16, 32 s; the clock moves past each.
      let delay = 1;
      for (let n = 1; n <= 6; n++) {
        expect((await attempt(victim.email, `wrong again ${n}!`, `192.0.2.${10 + n}`)).status).toBe(401);
        const early = await attempt(victim.email, STRONG_PASSWORD, '203.0.113.77');
        expect(early.status, `after failure ${20 + n}`).toBe(429);
        expect(Number(early.headers.get('retry-after'))).toBe(delay);
        expect(((await early.json()) as { message: string }).message).toContain(`Wait ${delay} second`);
        vi.setSystemTime(Date.now() + delay * 1000 + 1);
        delay *= 2;
      }
      // Capped: the 27th failure still asks for at most 60 s, and then the owner gets in.
      expect((await attempt(victim.email, 'wrong once more!', '192.0.2.40')).status).toBe(401);
      const capped = await attempt(victim.email, STRONG_PASSWORD, '203.0.113.77');
      expect(Number(capped.headers.get('retry-after'))).toBe(SIGN_IN.accountMaxDelaySeconds);
      vi.setSystemTime(Date.now() + SIGN_IN.accountMaxDelaySeconds * 1000 + 1);
      expect((await attempt(victim.email, STRONG_PASSWORD, '203.0.113.77')).status).toBe(200);
    });
  });

  it('answers a reset request as fast for an unknown email as for a known one (mail in the background)', async () => {
    const sent: string[] = [];
    // A mail server that takes 1.5 s per message.
    const slowMailer: Mailer = {
      async send(message) {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        sent.push(message.to);
      },
    };
    const app = await startApp({}, { mailer: slowMailer });
    const email = `known.${Date.now()}@example.test`;
    expect(
      (
        await new Client(app).json('POST', '/api/auth/sign-up/email', {
          email,
          password: STRONG_PASSWORD,
          firstName: 'Kim',
          lastName: 'Known',
        })
      ).status,
    ).toBe(200);
    const timed = async (address: string) => {
      const started = performance.now();
      const response = await new Client(app).json('POST', '/api/auth/request-password-reset', {
        email: address,
      });
      expect(response.status).toBe(200);
      return performance.now() - started;
    };
    const known = await timed(email);
    const unknown = await timed(`nobody.${Date.now()}@example.test`);
    expect(known).toBeLessThan(750);
    expect(unknown).toBeLessThan(750);
    // The mail does go out, after the answer.
    await vi.waitFor(() => expect(sent.filter((to) => to === email)).toHaveLength(2), { timeout: 5000 });
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
