/**
 * Operational routes: liveness, readiness (includes the database), the client's not-found report
 * (spec §2: "The unknown path is also logged") and the development mail page listing saved messages.
 *
 * The mail page shows every confirmation and reset link, so it is an account-takeover door on any
 * reachable server (issue 10 item 1). It exists only when the deployment is provably local (loopback
 * bind, not production, no trusted proxy) and the file outbox is in use, and each request must come
 * over a loopback connection, name a loopback host and carry no forwarding header.
 */
import { z } from 'zod';
import { AppError, errorResponseSchema } from '../../domain/app-error.ts';
import type { AppInstance } from '../app-types.ts';
import { safeLogPath } from '../logger.ts';
import { readOutbox } from '../mail/outbox.ts';
import { DATABASE_UNAVAILABLE_MESSAGE } from './error-handler.ts';
import { isLocalRequest, isProvablyLocal } from './loopback.ts';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export async function systemRoutes(app: AppInstance) {
  app.get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Liveness',
        tags: ['system'],
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/api/ready',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Readiness: the database answers',
        tags: ['system'],
        response: { 200: z.object({ status: z.literal('ready') }), 503: errorResponseSchema },
      },
    },
    async (_request, reply) => {
      // A probe of the database itself, not the last remembered state: it also tells the health
      // monitor, which logs the outage (once) or the recovery.
      if (await app.deps.database.health.check()) return { status: 'ready' as const };
      const unavailable = new AppError('service_unavailable', DATABASE_UNAVAILABLE_MESSAGE);
      return reply.status(503).send(unavailable.toResponse());
    },
  );

  app.post(
    '/api/client-events/not-found',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Log a path the web app could not route (spec §2)',
        tags: ['system'],
        body: z.object({ path: z.string().max(500) }),
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await app.deps.rateLimits.beforeClientEvent(request.ip);
      // Only the path: the query string could carry identifiers.
      request.log.warn({ unknownPath: safeLogPath(request.body.path) }, 'page not found');
      return reply.status(204).send(null);
    },
  );

  const outboxDir = developmentMailboxDir(app);
  if (outboxDir) {
    app.get('/dev/mail', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
      if (!isLocalRequest(request)) {
        return reply.status(404).send({ code: 'not_found', message: 'Not found' });
      }
      const messages = await readOutbox(outboxDir);
      const items = messages
        .map(
          (m) =>
            `<li><p><strong>${escapeHtml(m.subject)}</strong><br>To: ${escapeHtml(m.to)}<br>${escapeHtml(m.date)}</p><ul>${m.links
              .map((l) => `<li><a href="${escapeHtml(l)}">${escapeHtml(l)}</a></li>`)
              .join('')}</ul></li>`,
        )
        .join('');
      return reply
        .type('text/html')
        .header('cache-control', 'no-store')
        .send(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Outgoing mail (development)</title><style>${MAILBOX_CSS}</style></head><body><main><h1>Outgoing mail</h1><p>Messages are saved here because no SMTP_URL is set. Newest first.</p>${
            items ? `<ol>${items}</ol>` : '<p>No messages yet.</p>'
          }</main></body></html>`,
        );
    });
  }
}

/**
 * The development mail page's look (issue 17): readable, and long links wrap instead of widening the
 * page. Inline <style> is allowed by the CSP of server/app.ts (`style-src 'self' 'unsafe-inline'`);
 * the page has no script.
 */
const MAILBOX_CSS = [
  'body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1a1b1e;background:#f8f9fa;overflow-wrap:anywhere}',
  'main{max-width:48rem;margin:0 auto;padding:1.5rem 1rem}',
  'h1{font-size:1.5rem;margin:0 0 .5rem}',
  'ol{list-style:none;padding:0}',
  'ol>li{background:#fff;border:1px solid #dee2e6;border-radius:8px;padding:.75rem 1rem;margin:0 0 1rem}',
  'ul{padding-left:1.25rem;margin:.25rem 0 0}',
  'a{color:#364fc7;word-break:break-all}',
].join('');

/**
 * The outbox directory the development mail page lists, or undefined when the page must not exist:
 * in production, with SMTP, or when the server is not provably local (e.g. HOST=0.0.0.0).
 */
export function developmentMailboxDir(app: AppInstance): string | undefined {
  const { env, mailer } = app.deps;
  return mailer.outboxDir && isProvablyLocal(env) ? mailer.outboxDir : undefined;
}
