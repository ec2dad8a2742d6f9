/**
 * `/dashboard` sent with the provider's own data rendered in (issue 35 goal 3, decision 033 fourth
 * round): the first paint needs no script and no API round trip. The web build's server renderer
 * (web/render-page.tsx, built by scripts/prerender.ts into `server-render/` of the web build) renders
 * the page; this module decides when, gathers what it renders and sends the document.
 *
 * Who sees what is never decided here: every read is the API's own route, called in-process
 * (`app.inject`) with the page load's own cookies and address, so its session check, role rules,
 * rate limits and audit apply exactly as when the browser reads it. Anything but a provider's
 * complete first screen (signed out, staff, a second factor to set up, a read that failed, the time
 * zone not known yet, a render that failed) sends the app as before (null), which the browser renders.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import { parseCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionResponse } from '../../domain/api/session.ts';
import {
  RENDERED_PAGE_SLOTS,
  RENDERED_QUERY_STATE_ID,
  renderedPageTemplateFile,
  SERVER_RENDER_DIR,
  SERVER_RENDERER_FILE,
  TIME_ZONE_COOKIE,
} from '../../domain/rendered-page.ts';
import { isStaff } from '../../domain/roles.ts';
import type { AppInstance } from '../app-types.ts';

/** What web/render-page.tsx exports (built for Node by the web build, so imported untyped). */
interface PageRenderer {
  SIGNED_IN_PAGE_READS: Record<string, readonly string[]>;
  renderSignedInPage(
    path: string,
    reads: Readonly<Record<string, unknown>>,
    timeZone: string,
  ): Promise<{ html: string; title: string; state: unknown } | null>;
}

/** The rendered pages of a web build: the paths they answer, and the document of one page load. */
export interface SignedInPages {
  paths: ReadonlySet<string>;
  /** The page as HTML for this page load, or null: send the app (index.html) instead. */
  render(app: AppInstance, request: FastifyRequest, pagePath: string): Promise<string | null>;
}

/** Largest time zone cookie read (IANA names are under 40 characters). */
const MAX_TIME_ZONE_LENGTH = 64;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * The web build's rendered pages (`webDistDir/server-render/`), or null when the build has none
 * (a build without them, a test's web directory). Imports the renderer once, at start-up.
 * @throws when the renderer exists but does not load (a broken build must not start quietly)
 */
export async function loadSignedInPages(webDistDir: string): Promise<SignedInPages | null> {
  const dir = path.join(webDistDir, SERVER_RENDER_DIR);
  const rendererFile = path.join(dir, SERVER_RENDERER_FILE);
  if (!fs.existsSync(rendererFile)) return null;
  const renderer = (await import(pathToFileURL(rendererFile).href)) as PageRenderer;
  const templates = new Map<string, string>();
  for (const pagePath of Object.keys(renderer.SIGNED_IN_PAGE_READS)) {
    templates.set(
      pagePath,
      fs.readFileSync(path.join(webDistDir, renderedPageTemplateFile(pagePath)), 'utf8'),
    );
  }
  return {
    paths: new Set(templates.keys()),
    async render(app, request, pagePath) {
      const template = templates.get(pagePath);
      const timeZone = timeZoneOf(request);
      if (!template || !timeZone) return null;
      const reads = await readsFor(app, request, renderer.SIGNED_IN_PAGE_READS[pagePath] ?? []);
      if (!reads) return null;
      try {
        const page = await renderer.renderSignedInPage(pagePath, reads, timeZone);
        return page && fillTemplate(template, page);
      } catch (err) {
        // The browser renders the page itself from the app, as it would have without this.
        request.log.error({ err }, `rendering ${pagePath} failed: sent the app instead`);
        return null;
      }
    },
  };
}

/** The browser's time zone from its cookie (web/rendered-page.ts), or null when it has not told it. */
function timeZoneOf(request: FastifyRequest): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  const zone = parseCookie(header)[TIME_ZONE_COOKIE];
  return zone && zone.length <= MAX_TIME_ZONE_LENGTH ? zone : null;
}

/**
 * The page's reads (GET paths), each answered by the API for this page load's session; null unless
 * the session is a provider's with nothing to set up first and every read answered 200.
 */
async function readsFor(
  app: AppInstance,
  request: FastifyRequest,
  paths: readonly string[],
): Promise<Record<string, unknown> | null> {
  const read = async (url: string) => {
    const response = await app.inject({
      method: 'GET',
      url,
      remoteAddress: request.ip,
      headers: {
        cookie: request.headers.cookie ?? '',
        accept: 'application/json',
        ...(request.headers['user-agent'] ? { 'user-agent': request.headers['user-agent'] } : {}),
      },
    });
    return response.statusCode === 200 ? (response.json() as unknown) : undefined;
  };
  const [sessionPath, ...others] = paths;
  if (sessionPath === undefined) return null;
  const me = (await read(sessionPath)) as SessionResponse | undefined;
  // The page's guard (web/router.tsx RequireRole allow="provider") would send anyone else away.
  if (!me || me.twoFactorRequired || isStaff(me.roles)) return null;
  const bodies = await Promise.all(others.map(read));
  if (bodies.some((body) => body === undefined)) return null;
  return Object.fromEntries([
    [sessionPath, me],
    ...others.map((otherPath, i) => [otherPath, bodies[i]] as const),
  ]);
}

/**
 * The document: the template (the page's index.html, scripts and stylesheets as the build wrote
 * them) with the title, the HTML in `#root` and the query cache as a JSON data block. JSON in HTML
 * escapes `<`, so no text in the data can end the block (the CSP refuses inline scripts anyway, and
 * a data block is not one).
 */
export function fillTemplate(
  template: string,
  page: { html: string; title: string; state: unknown },
): string {
  const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const state = JSON.stringify(page.state).replace(/</g, '\\u003c');
  return template
    .replace(RENDERED_PAGE_SLOTS.title, () => escapeText(page.title))
    .replace(RENDERED_PAGE_SLOTS.html, () => page.html)
    .replace(
      RENDERED_PAGE_SLOTS.state,
      () => `<script type="application/json" id="${RENDERED_QUERY_STATE_ID}">${state}</script>`,
    );
}

/**
 * Sends a rendered document: compressed as the browser accepts (brotli, else gzip), never stored by
 * any cache (it holds the caller's data), and varying with the cookies that chose it.
 */
export async function sendRenderedPage(
  request: FastifyRequest,
  reply: FastifyReply,
  document: string,
): Promise<FastifyReply> {
  const encoding = negotiate(String(request.headers['accept-encoding'] ?? ''), ['br', 'gzip']);
  reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('vary', 'Cookie, Accept-Encoding');
  if (encoding === 'br') {
    const body = await brotli(document, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } });
    return reply.header('content-encoding', 'br').send(body);
  }
  if (encoding === 'gzip') return reply.header('content-encoding', 'gzip').send(await gzip(document));
  return reply.send(document);
}
