/**
 * Our own attempt limits (issue 10 items 5 and 6), counted in PostgreSQL with rate-limiter-flexible
 * so every instance on the database shares them and a restart does not reset them. Keys are SHA-256
 * hashes of the subject (email, address, user id): the table never holds an email or an IP address.
 *
 * Sign-in (decision 010): brute force is limited without handing anyone a lockout.
 * - Per account AND client address: `SIGN_IN.pairAttempts` attempts per `pairWindowSeconds`
 *   (a success clears it). Refuses only that address: ten wrong passwords from ten addresses
 *   refuse those ten addresses, never the account's owner elsewhere.
 * - Per account, across all addresses: the first `accountFreeFailures` failures in
 *   `accountWindowSeconds` cost nothing; each further failure makes the next attempt wait
 *   2^(n-1) seconds (n = failures beyond the allowance), at most `accountMaxDelaySeconds`, and while
 *   over the allowance only one attempt per second is let through. The owner waits at most a
 *   minute; a distributed attacker gets about 60 guesses an hour.
 *
 * Mail-sending requests (sign-up, password reset, verification re-send): per email AND address, and a
 * ceiling per email so nobody can bury an inbox. Uploads: per user.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../../domain/app-error.ts';

/** The numbers of decision 010. */
export const SIGN_IN = {
  pairAttempts: 10,
  pairWindowSeconds: 15 * 60,
  accountFreeFailures: 20,
  accountWindowSeconds: 24 * 60 * 60,
  accountMaxDelaySeconds: 60,
} as const;

export const MAIL_REQUESTS = {
  pairRequests: 5,
  pairWindowSeconds: 15 * 60,
  accountRequests: 10,
  accountWindowSeconds: 60 * 60,
} as const;

export const UPLOADS = {
  perUser: 30,
  windowSeconds: 60,
} as const;

/** A refusal: the message for the person and the seconds until a retry can succeed. */
export class RateLimitedError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('rate_limited', message);
  }
}

/** "15 minutes", "1 minute", "40 seconds", "1 second". */
export function describeWait(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 90) return `${s} second${s === 1 ? '' : 's'}`;
  const minutes = Math.ceil(s / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

function hashKey(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex');
}

function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

function secondsOf(res: RateLimiterRes | undefined | null): number {
  return res ? res.msBeforeNext / 1000 : 1;
}

/** Consume one point, or the RateLimiterRes that says how long until one is free. */
async function tryConsume(limiter: RateLimiterPostgres, key: string): Promise<RateLimiterRes | undefined> {
  try {
    await limiter.consume(key);
    return undefined;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return rejection;
    throw rejection; // A database error: the caller's request fails (503/500), it is not "limited".
  }
}

export interface RateLimits {
  /**
   * Before a sign-in attempt.
   * @throws RateLimitedError when this address has used its attempts for the account, or the account is in a delay
   */
  beforeSignIn(email: string, ip: string): Promise<void>;
  /** After the attempt: `failure` = wrong email or password; `success` clears the counters. */
  afterSignIn(email: string, ip: string, outcome: 'success' | 'failure' | 'other'): Promise<void>;
  /**
   * Before a request that sends mail to `email` (sign-up, reset, verification re-send).
   * @throws RateLimitedError
   */
  beforeMailRequest(email: string, ip: string): Promise<void>;
  /**
   * Before an upload by `userId`.
   * @throws RateLimitedError
   */
  beforeUpload(userId: string): Promise<void>;
}

/** Limits stored in the `rate_limits` table of `pool`'s database (created by migration 0004). */
export function createRateLimits(pool: pg.Pool): RateLimits {
  const limiter = (keyPrefix: string, points: number, duration: number) =>
    new RateLimiterPostgres({
      storeClient: pool,
      storeType: 'pool',
      tableName: 'rate_limits',
      tableCreated: true,
      keyPrefix,
      points,
      duration,
    });
  const signInPair = limiter('signin-pair', SIGN_IN.pairAttempts, SIGN_IN.pairWindowSeconds);
  const accountFailures = limiter('signin-failures', 1_000_000, SIGN_IN.accountWindowSeconds);
  // One point a second; `block` holds it for the growing delay.
  const accountGate = limiter('signin-gate', 1, 1);
  const mailPair = limiter('mail-pair', MAIL_REQUESTS.pairRequests, MAIL_REQUESTS.pairWindowSeconds);
  const mailAccount = limiter(
    'mail-account',
    MAIL_REQUESTS.accountRequests,
    MAIL_REQUESTS.accountWindowSeconds,
  );
  const uploads = limiter('uploads', UPLOADS.perUser, UPLOADS.windowSeconds);

  const accountDelayError = (seconds: number) =>
    new RateLimitedError(
      `This account has had many failed sign-in attempts. Wait ${describeWait(seconds)}, then try again.`,
      seconds,
    );

  return {
    async beforeSignIn(email, ip) {
      const account = hashKey(normaliseEmail(email));
      const pairRefused = await tryConsume(signInPair, hashKey(normaliseEmail(email), ip));
      if (pairRefused) {
        const seconds = secondsOf(pairRefused);
        throw new RateLimitedError(
          `Too many sign-in attempts for this account from your network. Try again in ${describeWait(seconds)}, or reset your password.`,
          seconds,
        );
      }
      const failures = await accountFailures.get(account);
      if (failures && failures.consumedPoints > SIGN_IN.accountFreeFailures) {
        const gateRefused = await tryConsume(accountGate, account);
        if (gateRefused) throw accountDelayError(secondsOf(gateRefused));
      }
    },

    async afterSignIn(email, ip, outcome) {
      const account = hashKey(normaliseEmail(email));
      if (outcome === 'success') {
        await Promise.all([
          signInPair.delete(hashKey(normaliseEmail(email), ip)),
          accountFailures.delete(account),
          accountGate.delete(account),
        ]);
        return;
      }
      if (outcome !== 'failure') return;
      const counted = await accountFailures.penalty(account, 1);
      const beyond = counted.consumedPoints - SIGN_IN.accountFreeFailures;
      if (beyond > 0) {
        await accountGate.block(account, Math.min(2 ** (beyond - 1), SIGN_IN.accountMaxDelaySeconds));
      }
    },

    async beforeMailRequest(email, ip) {
      const address = normaliseEmail(email);
      const pairRefused = await tryConsume(mailPair, hashKey(address, ip));
      if (pairRefused) {
        const seconds = secondsOf(pairRefused);
        throw new RateLimitedError(
          `Too many requests for this email address from your network. Try again in ${describeWait(seconds)}.`,
          seconds,
        );
      }
      const accountRefused = await tryConsume(mailAccount, hashKey(address));
      if (accountRefused) {
        const seconds = secondsOf(accountRefused);
        throw new RateLimitedError(
          `Too many emails were requested for this address. Try again in ${describeWait(seconds)}.`,
          seconds,
        );
      }
    },

    async beforeUpload(userId) {
      const refused = await tryConsume(uploads, hashKey(userId));
      if (refused) {
        const seconds = secondsOf(refused);
        throw new RateLimitedError(
          `You can upload at most ${UPLOADS.perUser} documents a minute. Try again in ${describeWait(seconds)}.`,
          seconds,
        );
      }
    },
  };
}
