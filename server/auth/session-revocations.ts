/**
 * Revocations told to every instance (decision 015): whatever may have ended or changed sessions
 * (sign-out, password change or reset, second factor on, off or reset, a role change) sends
 * `NOTIFY session_revocations` on the shared PostgreSQL; every instance LISTENs on its own
 * connection and empties its session memory (session-cache.ts) when one arrives, normally within
 * milliseconds. If the notification is lost (the listening connection is down or being remade), the
 * memory's time to live, SESSION_CACHE_SECONDS, is the bound; while not listening the instance
 * keeps nothing in memory longer than that anyway.
 */

import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Queryable } from '../db/client.ts';
import type { SessionCache } from './session-cache.ts';

/** The PostgreSQL channel of revocations. No payload: every instance forgets every session. */
export const SESSION_REVOCATION_CHANNEL = 'session_revocations';

/**
 * The better-auth paths whose success may end sessions or change what a cached session holds (user,
 * role, second factor): only these announce (decision 015). Sign-up, email confirmation and sign-in
 * only add a session (an unconfirmed account has none to change), so they never empty the memories
 * of every instance.
 */
export const SESSION_CHANGING_AUTH_PATHS: ReadonlySet<string> = new Set([
  '/sign-out',
  '/change-password',
  '/reset-password',
  '/change-email',
  '/update-user',
  '/delete-user',
  '/revoke-session',
  '/revoke-sessions',
  '/revoke-other-sessions',
  // Enrolment confirmed by its first code ends the other sessions (two-factor.ts); disable turns it off.
  '/two-factor/verify-totp',
  '/two-factor/disable',
]);

/** Tell every instance (this one included, through its listener) that sessions may have ended. */
export async function notifySessionsRevoked(db: Queryable): Promise<void> {
  await db.execute(sql`select pg_notify(${SESSION_REVOCATION_CHANNEL}, '')`);
}

/**
 * After a request that may have ended or changed sessions: this instance forgets them at once, and
 * tells the others. A failed notification is logged, not thrown (the request itself succeeded); the
 * other instances then learn it within SESSION_CACHE_SECONDS.
 */
export async function announceSessionChanges(deps: {
  db: Queryable;
  sessionCache: SessionCache;
  logger: Pick<Logger, 'warn'>;
}): Promise<void> {
  deps.sessionCache.clear();
  await notifySessionsRevoked(deps.db).catch((error: unknown) => {
    deps.logger.warn(
      { message: (error as Error).message },
      'could not tell other instances about a session change',
    );
  });
}

export interface RevocationListener {
  close(): Promise<void>;
}

/**
 * Listen for revocations on a dedicated connection made with `connection` (the pool's options) and
 * empty `cache` at each one. A lost connection is remade after `retryMs`; the memory is emptied
 * when listening starts again (a revocation may have been missed meanwhile).
 */
export function listenForSessionRevocations(options: {
  connection: pg.ClientConfig;
  cache: SessionCache;
  logger: Logger;
  retryMs?: number;
}): RevocationListener {
  const { connection, cache, logger, retryMs = 1_000 } = options;
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  // One retry pending at most: a failed connection may report both its `end` and its error.
  const scheduleRetry = () => {
    if (closed) return;
    clearTimeout(retry);
    retry = setTimeout(() => void connect(), retryMs);
  };
  const connect = async () => {
    if (closed) return;
    const next = new pg.Client(connection);
    client = next;
    next.on('notification', () => cache.clear());
    next.on('error', () => {
      // Ended by the server (restart, outage): remade below, on `end`.
    });
    next.on('end', () => {
      if (client !== next) return;
      client = undefined;
      scheduleRetry();
    });
    try {
      await next.connect();
      await next.query(`listen ${SESSION_REVOCATION_CHANNEL}`);
      cache.clear();
    } catch (error) {
      logger.debug({ message: (error as Error).message }, 'cannot listen for session revocations yet');
      if (client === next) client = undefined;
      await next.end().catch(() => {});
      scheduleRetry();
    }
  };
  void connect();

  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}
