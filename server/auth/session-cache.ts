/**
 * A short in-process memory of verified sessions (decision 015): who a session cookie belongs to,
 * for at most SESSION_CACHE_SECONDS, so a burst of API requests costs one better-auth session read
 * (cookie signature, session and user rows, renewal) and one role read instead of one each.
 *
 * - Key: SHA-256 of the signed session cookie value. Only a value better-auth has verified is
 *   stored, so a hit means these exact bytes were verified before; the token itself is never kept
 *   as a key nor logged.
 * - An entry is served until the earlier of its time to live and the session's own end (idle expiry
 *   or SESSION_MAX_HOURS): an expired session is refused at once, cached or not.
 * - Revocation on this instance is immediate: every `/api/auth/*` request but get-session (sign-out,
 *   password change or reset, second-factor enrolment or removal, sign-in) empties the memory after
 *   it completes, before it answers. Other instances and `npm run admin` (role changes, reset-2fa)
 *   announce theirs with NOTIFY (session-revocations.ts): milliseconds, at worst the time to live.
 * - Concurrent misses for one key share one lookup. A lookup that began before the memory was
 *   emptied is not stored (it may have read the session before the revocation committed).
 */
import { createHash } from 'node:crypto';
import type { AccessRole, Role } from '../../domain/roles.ts';

/** What a verified session says about its caller (the Actor without the request's own address). */
export interface SessionFacts {
  userId: string;
  email: string;
  /** user_roles' role (spec §6). */
  role: Role;
  /** The roles they act with (issue 32, domain/roles.ts `accessRoles`): staff roles, or `['user']`. */
  roles: AccessRole[];
  sessionId: string;
  /** The earlier of the idle expiry and the SESSION_MAX_HOURS end. */
  sessionExpiresAt: Date;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
}

export interface SessionCacheOptions {
  /** Time to live of an entry in ms (SESSION_CACHE_SECONDS * 1000); 0 turns the memory off. */
  ttlMs: number;
  /** Most entries kept; the oldest go first. */
  maxEntries?: number;
  /** The clock, in ms (tests move it). */
  now?: () => number;
}

interface Entry {
  facts: SessionFacts;
  storedAt: number;
}

export interface SessionCache {
  /**
   * The facts of the session whose signed cookie value is `cookieValue`: from memory when fresh,
   * else from `load` (better-auth plus the role), which answers null for no valid session (never
   * stored). Failures of `load` propagate and are not stored.
   */
  lookup(cookieValue: string, load: () => Promise<SessionFacts | null>): Promise<SessionFacts | null>;
  /** Forget every session (after any revocation on this instance). */
  clear(): void;
  /** Entries held (for tests). */
  readonly size: number;
}

/** The memory key of a signed session cookie value: never the token itself. */
export function sessionCacheKey(cookieValue: string): string {
  return createHash('sha256').update(cookieValue).digest('base64url');
}

export function createSessionCache({
  ttlMs,
  maxEntries = 10_000,
  now = Date.now,
}: SessionCacheOptions): SessionCache {
  const entries = new Map<string, Entry>();
  const pending = new Map<string, Promise<SessionFacts | null>>();
  // Bumped by clear(): a lookup that started under an older generation may hold pre-revocation data.
  let generation = 0;

  return {
    async lookup(cookieValue, load) {
      if (ttlMs <= 0) return load();
      const key = sessionCacheKey(cookieValue);
      const at = now();
      const entry = entries.get(key);
      if (entry) {
        if (at - entry.storedAt < ttlMs && entry.facts.sessionExpiresAt.getTime() > at) return entry.facts;
        entries.delete(key);
      }
      const inFlight = pending.get(key);
      if (inFlight) return inFlight;
      const startedIn = generation;
      const loading = load().then(
        (facts) => {
          if (pending.get(key) === loading) pending.delete(key);
          if (facts && startedIn === generation) {
            if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
            entries.set(key, { facts, storedAt: at });
          }
          return facts;
        },
        (error: unknown) => {
          if (pending.get(key) === loading) pending.delete(key);
          throw error;
        },
      );
      pending.set(key, loading);
      return loading;
    },
    clear() {
      generation += 1;
      entries.clear();
      pending.clear();
    },
    get size() {
      return entries.size;
    },
  };
}
