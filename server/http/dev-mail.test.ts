/**
 * The development mailbox's look (issue 17): an inline stylesheet that wraps long links and long
 * addresses, which the page's own Content-Security-Policy allows (server/app.ts: style-src
 * 'unsafe-inline'); no script. Where the page is served at all: server/security/hardening.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/harness.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ NODE_ENV: 'development' }, { realMailer: true });
});
afterAll(async () => {
  await app?.close();
});

describe('GET /dev/mail', () => {
  it('is styled inline so that long links and addresses wrap, within its CSP', async () => {
    const response = await fetch(`${app.baseUrl}/dev/mail`);
    expect(response.status).toBe(200);
    const html = await response.text();
    const style = html.match(/<style>([^<]*)<\/style>/)?.[1] ?? '';
    expect(style).toMatch(/body\{[^}]*overflow-wrap:anywhere/);
    expect(style).toMatch(/a\{[^}]*word-break:break-all/);
    expect(html).toContain('name="viewport"');
    expect(html).not.toContain('<script');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/style-src [^;]*'unsafe-inline'/);
  });
});
