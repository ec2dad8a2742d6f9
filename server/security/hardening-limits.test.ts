/**
 * Issue 10 (outside review), items 5 and 6: each test reproduces one finding and fails without its
 * fix. 5: everything a user can create is bounded (names, rows, documents, upload rate, free disk,
 * malformed input); 6: attempt limits without a lockout, and reset timing. The other items are
 * hardening.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_ROWS_PER_LIST_SECTION } from '../../domain/sections/section.ts';
import { pdfOfSize, tinyPng } from '../../tests/fixtures/files.ts';
import { Client, grantAdmin, STRONG_PASSWORD, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import type { Mailer } from '../mail/mailer.ts';
import { SIGN_IN } from './rate-limits.ts';
import { appStarter, uploadForm } from './testing/hardening-apps.ts';

const startApp = appStarter();
afterEach(() => {
  vi.useRealTimers();
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
