/**
 * Builds the Fastify application: security headers, CSRF guard, rate limiting, the zod type
 * provider, the OpenAPI document (/api/openapi.json, reference page at /api/docs), every feature's
 * routes, and, when the web app is built, the SPA on the same port.
 */
import fs from 'node:fs';
import path from 'node:path';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { AppDeps, AppInstance, RegisteredRoute } from './app-types.ts';
import { applicationRoutes } from './applications/applications.routes.ts';
import { authRoutes } from './auth/auth.routes.ts';
import { sessionRoutes } from './auth/session.routes.ts';
import { createCsrfGuard } from './http/csrf.ts';
import { errorHandler, frameworkErrorHandler } from './http/error-handler.ts';
import { isApiRequest, requestPath } from './http/request-route.ts';
import { systemRoutes } from './http/system.routes.ts';
import { rejectUnstorableText } from './http/unstorable-text.ts';
import { defaultWebDistDir } from './paths.ts';
import { evidenceRoutes } from './review/evidence.routes.ts';
import { fileDutyGuard } from './review/file-duty-guard.ts';
import { integrationRoutes } from './review/integration.routes.ts';
import { reviewAdminRoutes, reviewProviderRoutes } from './review/review.routes.ts';
import { statusEventRoutes } from './review/status-events.routes.ts';
import { featureRoutes } from './routes.ts';
import { screeningRoutes } from './screening/screening.routes.ts';

/** While the app closes, how often keep-alive connections left idle are closed, in ms. */
const IDLE_SWEEP_MS = 500;

/**
 * Cache-Control of a file of the built web app (decision 016): the content-hashed files under
 * /assets never change under their name, so browsers keep them a year without asking again; the
 * page (index.html), which names the current assets, and the other files (robots.txt) are revalidated
 * on every use (`no-cache`: the ETag answers 304 when nothing changed).
 */
export function webCacheControl(webDistDir: string, filePath: string): string {
  const relative = path.relative(webDistDir, filePath).split(path.sep);
  return relative[0] === 'assets' && relative.length > 1 ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * The public pages the web build prerendered (decision 033), by the path they answer: the build
 * writes `prerendered/index.html` for `/` and `prerendered/<name>.html` for `/<name>`
 * (scripts/prerender.ts). Read once, when the app is built; empty when the build has none.
 */
export function prerenderedPages(webDistDir: string): Map<string, string> {
  const pages = new Map<string, string>();
  const dir = path.join(webDistDir, 'prerendered');
  if (!fs.existsSync(dir)) return pages;
  for (const name of fs.readdirSync(dir)) {
    const page = /^([a-z0-9-]+)\.html$/.exec(name)?.[1];
    if (page) pages.set(page === 'index' ? '/' : `/${page}`, `prerendered/${name}`);
  }
  return pages;
}

export interface BuildAppOptions {
  deps: AppDeps;
  logger: Logger;
  /** Serve the built web app from dist/web when present (default true). */
  serveWeb?: boolean;
}

export async function buildApp({ deps, logger, serveWeb = true }: BuildAppOptions): Promise<AppInstance> {
  const webDistDir = deps.env.WEB_DIST_DIR ? path.resolve(deps.env.WEB_DIST_DIR) : defaultWebDistDir;
  const app = Fastify({
    loggerInstance: logger,
    trustProxy: deps.env.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    // A malformed URL (bad percent-encoding) is answered in the product's error shape, not Fastify's.
    frameworkErrors: frameworkErrorHandler,
    // Graceful shutdown (issue 19 item 3): app.close() stops accepting connections and closes only
    // idle keep-alive ones; requests in flight run to the end (runtime.close bounds the wait). A
    // request that still arrives on an open connection is answered 503 with `Connection: close`.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();

  // An answer that went out as keep-alive while closing would hold its connection open (and so
  // app.close()) for the keep-alive timeout, 72 s. Once idle, such connections are closed by a sweep;
  // a request that arrives before the sweep is answered 503 (above).
  let idleSweep: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    idleSweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS).unref();
  });
  app.addHook('onClose', async () => clearInterval(idleSweep));

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  app.decorate('deps', deps);

  // Every API route must say who may call it; a forgotten declaration fails at boot, not in production.
  const routeTable: RegisteredRoute[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    if (!route.config?.access)
      throw new Error(`Route ${route.method} ${route.url} has no config.access declaration`);
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD')
        routeTable.push({
          method,
          url: route.url,
          access: route.config.access,
          fileDuty: route.config.fileDuty,
        });
    }
  });

  const production = deps.env.NODE_ENV === 'production';
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine sets style attributes at run time; scripts stay strictly same-origin.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(production ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // HSTS only when served over TLS (production behind https).
    hsts: production ? { maxAge: 31536000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
  // API answers may carry PHI: never stored by browsers or proxies unless a route says otherwise.
  // Guards read the route the router matched, never the URL text (issue 10 item 3): `/%61pi/...`
  // is routed like `/api/...` and must be guarded like it.
  app.addHook('onSend', async (request, reply, payload) => {
    if (isApiRequest(request) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
  // Issue 54 item 2: each answer counted by its route's pattern, when metrics are on.
  const { metrics } = deps;
  if (metrics) {
    app.addHook('onResponse', async (request, reply) => {
      metrics.observeRequest(
        request.method,
        request.routeOptions.url,
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
    });
  }
  app.addHook('onRequest', createCsrfGuard(deps.env.trustedOrigins));
  // Text a PostgreSQL string cannot hold (NUL) or that is not valid Unicode answers 400, never 500.
  app.addHook('preValidation', rejectUnstorableText);
  // Issue 50 item 1: nobody acts on their own file, whatever roles they hold.
  app.addHook('preValidation', fileDutyGuard);

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Healthcare Provider Credentialing API',
        version: '0.1.0',
        description: 'JSON API of the credentialing portal. Sessions are HttpOnly cookies set by /api/auth.',
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  await app.register(systemRoutes);
  await app.register(authRoutes);
  await app.register(sessionRoutes);
  await app.register(applicationRoutes);
  await app.register(featureRoutes);
  // The credentialing review (issue 13): administrators' and providers' routes.
  await app.register(reviewAdminRoutes);
  await app.register(reviewProviderRoutes);
  await app.register(integrationRoutes);
  // The admin 'Notifications' tab's status events (issue 28).
  await app.register(statusEventRoutes);
  await app.register(evidenceRoutes);
  // Exclusion screening (issue 30): lists, imports, the 'Screening Matches' queue.
  await app.register(screeningRoutes);

  app.get('/api/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () =>
    app.swagger(),
  );

  // Whether the built web app is served is decided once: the static plugin is registered (or not) here.
  const spa = serveWeb && fs.existsSync(path.join(webDistDir, 'index.html'));
  // A page load of `/` or `/auth` without a query gets the page as the build prerendered it (its
  // first paint needs no script); any other, the app's index.html, which renders in the browser.
  const prerendered = spa ? prerenderedPages(webDistDir) : new Map<string, string>();
  // Unknown /api paths, and any method but GET and HEAD on an unknown path (`POST /%41PI/x`,
  // `PUT /whatever`, issue 28 item 6): JSON 404, never the SPA. Only a browser's page load, a GET
  // or HEAD, is the web app's to answer.
  app.setNotFoundHandler((request, reply) => {
    const path = requestPath(request);
    const pageLoad = request.method === 'GET' || request.method === 'HEAD';
    // `/.well-known/*` is for machines (SMART's configuration lives at /fhir/.well-known/): JSON 404.
    if (path.startsWith('/api/') || path.startsWith('/.well-known/') || !spa || !pageLoad) {
      return reply
        .status(404)
        .header('cache-control', 'no-store')
        .send({ code: 'not_found', message: `No route for ${request.method} ${path.slice(0, 200)}` });
    }
    // The SPA handles its own routes, including its 404 page.
    const page = (!request.url.includes('?') && prerendered.get(path)) || 'index.html';
    return reply.type('text/html').header('cache-control', 'no-cache').sendFile(page);
  });
  if (spa) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: false,
      // `/` is answered by the not-found handler above (the prerendered page, else index.html), and
      // the prerendered pages only at their own paths, never as files.
      index: false,
      globIgnore: ['prerendered/**'],
      // The build writes a .br and a .gz beside every text asset (vite.config.ts); the one the
      // browser accepts is sent, with Vary: Accept-Encoding.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) => reply.header('cache-control', webCacheControl(webDistDir, filePath)),
    });
  }
  return app as unknown as AppInstance;
}
