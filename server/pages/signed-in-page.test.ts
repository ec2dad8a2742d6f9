/**
 * `/dashboard` rendered by the server with the provider's own data (issue 35 goal 3, decision 033),
 * against the real web build (vite.config.ts, as `npm run build` makes it), the real API and a real
 * database: who gets a rendered page and who the app's own; each provider's page holds their data
 * and their zone's dates, also when many page loads of different providers render at once; text
 * that looks like markup stays text; the page is never stored by a cache.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RENDERED_QUERY_STATE_ID, TIME_ZONE_COOKIE } from '../../domain/rendered-page.ts';
import {
  type Client,
  createTestApp,
  grantAdmin,
  signUpAndSignIn,
  type TestApp,
} from '../../tests/harness.ts';

const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signed-in-page-'));

/** A page load of /dashboard with `client`'s cookies (plus `cookies`), decompressed. */
async function pageLoad(app: TestApp, client: Client | null, cookies = '') {
  const cookie = [client?.cookie, cookies].filter(Boolean).join('; ');
  const response = await fetch(`${app.baseUrl}/dashboard`, {
    headers: { accept: 'text/html', 'accept-encoding': 'br', ...(cookie ? { cookie } : {}) },
  });
  return {
    status: response.status,
    headers: response.headers,
    // React separates adjacent texts with empty comments (`Welcome, <!-- -->Ana`).
    html: (await response.text()).replaceAll('<!-- -->', ''),
  };
}

/** The query cache a rendered page carries, as main.tsx hydrates it. */
function renderedState(html: string): { queries: { queryKey: unknown[]; state: { data: unknown } }[] } {
  const match = new RegExp(
    `<script type="application/json" id="${RENDERED_QUERY_STATE_ID}">(.*?)</script>`,
  ).exec(html);
  if (!match) throw new Error('the page carries no query cache');
  return JSON.parse(match[1]!);
}

/** GET `url` with `headers`, the body exactly as sent (fetch would decompress it). */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(url, { headers: { accept: 'text/html', ...headers } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

const zone = (name: string) => `${TIME_ZONE_COOKIE}=${encodeURIComponent(name)}`;

describe('/dashboard rendered with the provider’s data', () => {
  let app: TestApp;
  beforeAll(async () => {
    await build({
      configFile: path.join(import.meta.dirname, '..', '..', 'vite.config.ts'),
      logLevel: 'warn',
      build: { outDir: webDir, emptyOutDir: true },
    });
    app = await createTestApp({ WEB_DIST_DIR: webDir }, { serveWeb: true });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('sends a provider their own screen, compressed and never stored; anyone else gets the app', async () => {
    const ana = await signUpAndSignIn(app, { firstName: 'Ana', lastName: 'Quintero' });
    expect((await ana.json('POST', '/api/applications', {})).status).toBe(201);

    const page = await pageLoad(app, ana, zone('America/Chicago'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-encoding')).toBe('br');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('vary')).toMatch(/Cookie/);
    expect(page.html).toContain('<div id="root" data-prerendered="/dashboard">');
    expect(page.html).toContain('Welcome, Ana Quintero');
    expect(page.html).toContain('Application Status');
    expect(page.html).toContain('<title>Dashboard - Credentialing</title>');
    // The early reads are not started: the page came with them.
    expect(page.html).not.toContain('data-early-entry');
    const state = renderedState(page.html);
    expect(state.queries.map((query) => query.queryKey[0]).sort()).toEqual(['applications', 'me', 'profile']);

    // Without the time zone, signed out, or staff: the app's own page (index.html with the route's
    // preloads), which the browser renders, sending each where their guard says.
    const shells = [
      await pageLoad(app, ana),
      await pageLoad(app, null, zone('America/Chicago')),
      await pageLoad(app, await adminClient(), zone('America/Chicago')),
    ];
    for (const shell of shells) {
      expect(shell.status).toBe(200);
      expect(shell.html).toContain('<div id="root">');
      expect(shell.html).not.toContain('data-prerendered');
      expect(shell.html).not.toContain(RENDERED_QUERY_STATE_ID);
      expect(shell.html).not.toContain('Quintero');
    }
  });

  it('renders concurrent page loads of different providers each with their own data and zone', async () => {
    // 23:30 UTC on a day: Tokyo is already on the next day, Chicago still on this one.
    const created = '2026-03-10T23:30:00.000Z';
    const providers = await Promise.all(
      ['Bea', 'Cai', 'Dev', 'Eli'].map(async (firstName) => {
        const client = await signUpAndSignIn(app, { firstName, lastName: 'Zonetest' });
        const { body } = await client.json<{ id: string }>('POST', '/api/applications', {});
        await app.runtime.deps.database.pool.query(
          'update provider_applications set created_at = $1 where id = $2',
          [created, body.id],
        );
        return { firstName, client };
      }),
    );
    const zones = { 'Asia/Tokyo': 'Created Mar 11, 2026', 'America/Chicago': 'Created Mar 10, 2026' };
    const loads = Array.from({ length: 24 }, (_, i) => {
      const provider = providers[i % providers.length]!;
      const [zoneName, created] = Object.entries(zones)[i % 3 === 0 ? 0 : 1]!;
      return { provider, zoneName, created };
    });
    const pages = await Promise.all(
      loads.map(({ provider, zoneName }) => pageLoad(app, provider.client, zone(zoneName))),
    );
    pages.forEach((page, i) => {
      const { provider, created } = loads[i]!;
      expect(page.html).toContain(`Welcome, ${provider.firstName} Zonetest`);
      expect(page.html).toContain(created);
      for (const other of providers) {
        if (other !== provider) expect(page.html).not.toContain(`${other.firstName} Zonetest`);
      }
    });
  });

  it('keeps text that looks like markup as text, in the page and in its query cache', async () => {
    const lastName = '</script><script>alert(1)</script>';
    const mallory = await signUpAndSignIn(app, { firstName: 'Mal', lastName });
    const page = await pageLoad(app, mallory, zone('UTC'));
    expect(page.html).toContain('data-prerendered="/dashboard"');
    expect(page.html).not.toContain('<script>alert(1)');
    expect(page.html).toContain('Welcome, Mal &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    const me = renderedState(page.html).queries.find((query) => query.queryKey[0] === 'me');
    expect((me?.state.data as { profile: { lastName: string } } | undefined)?.profile.lastName).toBe(
      lastName,
    );
  });

  it('sends gzip to a browser without brotli, and plain HTML to one without either', async () => {
    const ivy = await signUpAndSignIn(app, { firstName: 'Ivy', lastName: 'Gzip' });
    const cookie = `${ivy.cookie}; ${zone('UTC')}`;
    const gzip = await rawGet(`${app.baseUrl}/dashboard`, { cookie, 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.body).toString()).toContain('Welcome, <!-- -->Ivy');
    const plain = await rawGet(`${app.baseUrl}/dashboard`, { cookie });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toContain('Welcome, <!-- -->Ivy');
  });

  /** A signed-in administrator with their second factor done. */
  async function adminClient(): Promise<Client> {
    const admin = await signUpAndSignIn(app, { firstName: 'Ada', lastName: 'Admin' });
    await grantAdmin(app, admin);
    return admin;
  }
});
