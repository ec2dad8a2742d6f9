/**
 * The built web app as the server sends it (issue 18, decision 016): the brotli or gzip copy made at
 * build time when the browser accepts it, a year of `immutable` caching for the content-hashed files
 * under /assets, `no-cache` for the page itself (also where the app answers its own routes), and
 * robots.txt as plain text. The build here is a small stand-in written by the test, shaped like
 * Vite's output (vite.config.ts).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../tests/harness.ts';

const INDEX_HTML = `<!doctype html><html lang="en"><head><title>Credentialing</title><script type="module" src="/assets/index-AbC123.js"></script></head><body><div id="root"></div>${' '.repeat(2048)}</body></html>`;
const SCRIPT = `console.log(${JSON.stringify('the app '.repeat(400))});`;
const ROBOTS = 'User-agent: *\nDisallow: /api/\n';
/** The app's icons (issue 17: /favicon.ico answered the page), shipped in web/public. */
const WEB_PUBLIC_DIR = path.join(import.meta.dirname, '..', 'web', 'public');
const ICONS = ['favicon.ico', 'favicon.svg'];

/** Write `content` to `dir/name` with the .br and .gz copies the build makes. */
function writeWithCopies(dir: string, name: string, content: string) {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(content));
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content));
}

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body exactly as sent (not decompressed). */
  body: Buffer;
}

/** GET `url` with `headers`, keeping the body as the server sent it (fetch would decompress it). */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
      })
      .on('error', reject);
  });
}

describe('serving the built web app', () => {
  let app: TestApp;
  let webDir: string;

  beforeAll(async () => {
    // First, a build: the page, one hashed script, robots.txt (too small to be compressed).
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cred-web-'));
    writeWithCopies(webDir, 'index.html', INDEX_HTML);
    writeWithCopies(webDir, 'assets/index-AbC123.js', SCRIPT);
    fs.writeFileSync(path.join(webDir, 'robots.txt'), ROBOTS);
    // The icons as Vite copies them from web/public (issue 17): the real files, so a missing one fails.
    for (const icon of ICONS) fs.copyFileSync(path.join(WEB_PUBLIC_DIR, icon), path.join(webDir, icon));
    // Second, the real app serving it.
    app = await createTestApp({ WEB_DIST_DIR: webDir }, { serveWeb: true });
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('sends the brotli copy of a hashed asset to a browser that accepts br, cached for a year', async () => {
    const response = await rawGet(`${app.baseUrl}/assets/index-AbC123.js`, {
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(response.body).toString()).toBe(SCRIPT);
  });

  it('sends the gzip copy without br, and the file itself to a client that accepts neither', async () => {
    const gzip = await rawGet(`${app.baseUrl}/assets/index-AbC123.js`, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.body).toString()).toBe(SCRIPT);
    expect(gzip.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const identity = await rawGet(`${app.baseUrl}/assets/index-AbC123.js`);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.toString()).toBe(SCRIPT);
  });

  it('sends the page, compressed, as no-cache at / and at the routes of the app', async () => {
    for (const url of ['/', '/dashboard', '/personal-information/0b1c']) {
      const response = await rawGet(`${app.baseUrl}${url}`, { 'accept-encoding': 'br' });
      expect(response.status, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.headers['content-encoding'], url).toBe('br');
      expect(zlib.brotliDecompressSync(response.body).toString(), url).toBe(INDEX_HTML);
    }
  });

  it('sends robots.txt as plain text, never the page', async () => {
    const response = await rawGet(`${app.baseUrl}/robots.txt`, { 'accept-encoding': 'br, gzip' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body.toString()).toBe(ROBOTS);
  });

  it('sends /favicon.ico and /favicon.svg as images, never the page (issue 17)', async () => {
    const ico = await rawGet(`${app.baseUrl}/favicon.ico`, { 'accept-encoding': 'br, gzip' });
    expect(ico.status).toBe(200);
    expect(ico.headers['content-type']).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
    // An ICO file starts with reserved 0, type 1 (icon).
    expect([...ico.body.subarray(0, 4)]).toEqual([0, 0, 1, 0]);
    const svg = await rawGet(`${app.baseUrl}/favicon.svg`);
    expect(svg.status).toBe(200);
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(svg.body.toString()).toMatch(/^<svg /);
  });

  it('answers an unknown asset and an unknown API path with a 404, not the page', async () => {
    const api = await rawGet(`${app.baseUrl}/api/nothing-here`);
    expect(api.status).toBe(404);
    expect(api.headers['content-type']).toMatch(/^application\/json/);
  });

  it('answers /.well-known/* at the root with a JSON 404, never the page (issue 52: SMART lives at /fhir)', async () => {
    for (const wellKnown of ['/.well-known/smart-configuration', '/.well-known/openid-configuration']) {
      const answer = await rawGet(`${app.baseUrl}${wellKnown}`);
      expect(answer.status, wellKnown).toBe(404);
      expect(answer.headers['content-type'], wellKnown).toMatch(/^application\/json/);
    }
  });

  it('sends the page only to GET and HEAD: any other method on an unknown path gets a JSON 404 (issue 28)', async () => {
    const head = await fetch(`${app.baseUrl}/dashboard`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/^text\/html/);
    for (const [method, url] of [
      ['POST', '/%41PI/x'],
      ['PUT', '/whatever'],
      ['DELETE', '/'],
      ['PATCH', '/dashboard'],
      ['POST', '/robots.txt'],
      ['OPTIONS', '/dashboard'],
    ] as const) {
      const withBody = method !== 'OPTIONS';
      const response = await fetch(`${app.baseUrl}${url}`, {
        method,
        headers: { origin: TEST_ORIGIN, ...(withBody ? { 'content-type': 'application/json' } : {}) },
        body: withBody ? '{}' : undefined,
      });
      const what = `${method} ${url}`;
      expect(response.status, what).toBe(404);
      expect(response.headers.get('content-type'), what).toMatch(/^application\/json/);
      expect(response.headers.get('cache-control'), what).toBe('no-store');
      expect(await response.json(), what).toEqual({
        code: 'not_found',
        message: expect.stringMatching(new RegExp(`^No route for ${method} /`)),
      });
    }
  });
});

/**
 * The public pages the build prerendered (issue 35, decision 033): `prerendered/index.html` answers
 * a page load of `/` and `prerendered/auth.html` one of `/auth`, compressed and `no-cache` like the
 * page; with a query string (`/auth?tab=sign-up`, which the prerendered HTML does not show) and at
 * every other route, the app's index.html. The files are never served under their own names.
 */
describe('serving the prerendered public pages', () => {
  let app: TestApp;
  let webDir: string;
  const LANDING = `<!doctype html><html lang="en"><head><title>Landing</title></head><body><div id="root" data-prerendered="/">${'<p>landing</p>'.repeat(200)}</div></body></html>`;
  const SIGN_IN = `<!doctype html><html lang="en"><head><title>Sign In</title></head><body><div id="root" data-prerendered="/auth">${'<p>sign in</p>'.repeat(200)}</div></body></html>`;

  beforeAll(async () => {
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cred-web-pre-'));
    writeWithCopies(webDir, 'index.html', INDEX_HTML);
    writeWithCopies(webDir, 'assets/index-AbC123.js', SCRIPT);
    writeWithCopies(webDir, 'prerendered/index.html', LANDING);
    writeWithCopies(webDir, 'prerendered/auth.html', SIGN_IN);
    app = await createTestApp({ WEB_DIST_DIR: webDir }, { serveWeb: true });
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('sends the prerendered page at its path, compressed, as no-cache', async () => {
    for (const [url, page] of [
      ['/', LANDING],
      ['/auth', SIGN_IN],
    ] as const) {
      const response = await rawGet(`${app.baseUrl}${url}`, { 'accept-encoding': 'br' });
      expect(response.status, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.headers['content-encoding'], url).toBe('br');
      expect(zlib.brotliDecompressSync(response.body).toString(), url).toBe(page);
    }
    const head = await fetch(`${app.baseUrl}/auth`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it("sends the app's index.html with a query string, at the other routes and for the files' own names", async () => {
    for (const url of [
      '/auth?tab=sign-up',
      '/?ref=1',
      '/dashboard',
      '/forgot-password',
      '/prerendered/auth.html',
      '/prerendered/index.html',
    ]) {
      const response = await rawGet(`${app.baseUrl}${url}`);
      expect(response.status, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.body.toString(), url).toBe(INDEX_HTML);
    }
    // The app's own files are served as before.
    const script = await rawGet(`${app.baseUrl}/assets/index-AbC123.js`);
    expect(script.body.toString()).toBe(SCRIPT);
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
