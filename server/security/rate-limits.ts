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
 * Second step of a sign-in (issue 28 items 1 and 2): a code (TOTP or backup) is claimed atomically
 * before it is checked, so one code opens one session however many challenges send it at once; wrong
 * codes are counted per account across challenges with the same growing delay as wrong passwords
 * (`SECOND_FACTOR_ATTEMPTS`): only someone who knows the password reaches this step, and they still
 * cannot lock the owner out for longer than a minute.
 *
 * Mail-sending requests (sign-up, password reset, verification re-send): per email AND address, and a
 * ceiling per email so nobody can bury an inbox. Uploads: per user. Every /api/auth/* request and the
 * web's client event reports: per client address (issue 12: these were in one process's memory).
 *
 * API clients (issue 33 item 4): `POST /oauth/token` per address and tokens issued per client
 * (TOKEN_REQUESTS), and bearer-token requests per client (API_CLIENT_READS).
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

/**
 * Wrong second-factor codes per account (issue 28 item 2; decision 010's rule applied to the second
 * step): the first `accountFreeFailures` in `accountWindowSeconds` cost nothing, each further one makes
 * the next code wait 2^(n-1) seconds, at most `accountMaxDelaySeconds`. Counted across sign-in
 * challenges and factors (NIST SP 800-63B 5.2.2 limits failed attempts per account, not per
 * challenge); a success clears the count.
 */
export const SECOND_FACTOR_ATTEMPTS = {
  accountFreeFailures: 10,
  accountWindowSeconds: 24 * 60 * 60,
  accountMaxDelaySeconds: 60,
} as const;

/** The second factors whose codes are claimed once (`RateLimits.claimSecondFactorCode`). */
export type SecondFactorKind = 'totp' | 'backup_code';

export const MAIL_REQUESTS = {
  pairRequests: 5,
  pairWindowSeconds: 15 * 60,
  accountRequests: 10,
  accountWindowSeconds: 60 * 60,
} as const;

/**
 * Requests per client address per minute to /api/auth/* (the limits better-auth kept in one
 * process's memory until issue 12; now shared by every instance): `paths` for the attempts worth
 * guessing or that send mail, `other` for every other auth path.
 */
export const AUTH_REQUESTS_PER_ADDRESS = {
  windowSeconds: 60,
  other: 120,
  paths: {
    '/sign-in/email': 10,
    '/sign-up/email': 5,
    '/request-password-reset': 5,
    '/reset-password': 10,
    '/send-verification-email': 5,
    // Second factor (issue 16): codes per address; wrong codes are also counted per account across
    // challenges (SECOND_FACTOR_ATTEMPTS), and better-auth ends one challenge after 5.
    '/two-factor/verify-totp': 10,
    '/two-factor/verify-backup-code': 10,
    '/two-factor/enable': 5,
  } as Readonly<Record<string, number>>,
} as const;

/** Reports of unknown web paths (spec §2 not-found logging) per client address per minute. */
export const CLIENT_EVENTS = {
  perAddress: 30,
  windowSeconds: 60,
} as const;

/**
 * How long a claimed second-factor code stays spent, in seconds: better-auth accepts the TOTP codes
 * of the previous, current and next 30-second step, so a code is valid for at most 90 seconds; a
 * backup code is removed from the user's list by the verification that accepted it.
 */
export const TOTP_REUSE_WINDOW_SECONDS = 120;

/** The refusal of a TOTP code used before (or being used by another sign-in at this moment). */
export const TOTP_REUSED_MESSAGE =
  'This code was already used. Wait for the next code from your authenticator app, then enter it.';

/** The refusal of a backup code used before (or being used by another sign-in at this moment). */
export const BACKUP_CODE_REUSED_MESSAGE =
  'This backup code was already used. Enter another of your backup codes or a code from your authenticator app.';

export const UPLOADS = {
  perUser: 30,
  windowSeconds: 60,
} as const;

/**
 * `POST /oauth/token` (issue 33 item 4). Per client address, every request, before the client is
 * authenticated (AUTH_IP_RATE_LIMIT switches it off with the /api/auth limits); per authenticated
 * client, the tokens issued, so nobody without the secret can spend a client's allowance. A token
 * lives 5 minutes: 30 a minute lets many workers each fetch their own.
 */
export const TOKEN_REQUESTS = {
  perAddress: 120,
  perClient: 30,
  windowSeconds: 60,
} as const;

/** Bearer-token requests (FHIR reads, roster downloads) per API client per minute (issue 33 item 4). */
export const API_CLIENT_READS = {
  perClient: 600,
  windowSeconds: 60,
} as const;

/** A refusal: the message for the person and the seconds until a retry can succeed. */
export class RateLimitedError extends AppError {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super('rate_limited', message);
    this.retryAfterSeconds = retryAfterSeconds;
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
  /**
   * Before a second-factor code of `userId` is checked: claim it. The claim is one atomic upsert in
   * `rate_limits` (INSERT ... ON CONFLICT DO UPDATE ... RETURNING), so of several requests sending
   * the same code at once, across instances, exactly one gets through; the others, and any later use
   * within `TOTP_REUSE_WINDOW_SECONDS`, are refused (one-time use, RFC 6238 section 5.2; OWASP ASVS
   * 5.0 V6.5.1). A code the verification then refuses must be released (`releaseSecondFactorCode`).
   * @throws AppError unauthorized (401) with TOTP_REUSED_MESSAGE or BACKUP_CODE_REUSED_MESSAGE
   */
  claimSecondFactorCode(userId: string, factor: SecondFactorKind, code: string): Promise<void>;
  /** The verification refused a claimed code (wrong, or no valid challenge): it may be entered again. */
  releaseSecondFactorCode(userId: string, factor: SecondFactorKind, code: string): Promise<void>;
  /**
   * Before the second step of `userId`'s sign-in: refused while the account is in a delay
   * (SECOND_FACTOR_ATTEMPTS).
   * @throws RateLimitedError (429) saying how many seconds to wait
   */
  beforeSecondFactorCode(userId: string): Promise<void>;
  /** After the second step: `failure` = a wrong code (counted), `success` clears the count. */
  afterSecondFactorCode(userId: string, outcome: 'success' | 'failure'): Promise<void>;
  /**
   * Before any /api/auth/* request from `ip` (AUTH_REQUESTS_PER_ADDRESS); nothing when the per-address
   * limits are off (AUTH_IP_RATE_LIMIT=false, tests from one address).
   * @throws RateLimitedError
   */
  beforeAuthRequest(path: string, ip: string): Promise<void>;
  /**
   * Before a client event report from `ip` (CLIENT_EVENTS).
   * @throws RateLimitedError
   */
  beforeClientEvent(ip: string): Promise<void>;
  /**
   * Before a `POST /oauth/token` request from `ip` (TOKEN_REQUESTS.perAddress); nothing when the
   * per-address limits are off (AUTH_IP_RATE_LIMIT=false).
   * @throws RateLimitedError
   */
  beforeTokenRequest(ip: string): Promise<void>;
  /**
   * Before a token is issued to the authenticated API client `apiClientId` (TOKEN_REQUESTS.perClient).
   * @throws RateLimitedError
   */
  beforeTokenIssue(apiClientId: string): Promise<void>;
  /**
   * Before a bearer-token request of API client `apiClientId` is served (API_CLIENT_READS).
   * @throws RateLimitedError
   */
  beforeApiClientRead(apiClientId: string): Promise<void>;
}

export interface RateLimitOptions {
  /** Count /api/auth/* requests per client address (AUTH_IP_RATE_LIMIT; default true). */
  perAddressAuthLimits?: boolean;
}

/** Limits stored in the `rate_limits` table of `pool`'s database (created by migration 0004). */
export function createRateLimits(pool: pg.Pool, options: RateLimitOptions = {}): RateLimits {
  const perAddressAuthLimits = options.perAddressAuthLimits ?? true;
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
  const spentCodes = limiter('second-factor-spent', 1, TOTP_REUSE_WINDOW_SECONDS);
  const secondFactorFailures = limiter(
    'second-factor-failures',
    1_000_000,
    SECOND_FACTOR_ATTEMPTS.accountWindowSeconds,
  );
  const secondFactorGate = limiter('second-factor-gate', 1, 1);
  const authPathLimiters = new Map(
    Object.entries(AUTH_REQUESTS_PER_ADDRESS.paths).map(([path, points]) => [
      path,
      limiter(`auth-address${path}`, points, AUTH_REQUESTS_PER_ADDRESS.windowSeconds),
    ]),
  );
  const authOther = limiter(
    'auth-address-other',
    AUTH_REQUESTS_PER_ADDRESS.other,
    AUTH_REQUESTS_PER_ADDRESS.windowSeconds,
  );
  const clientEvents = limiter('client-events', CLIENT_EVENTS.perAddress, CLIENT_EVENTS.windowSeconds);
  const tokenAddress = limiter('token-address', TOKEN_REQUESTS.perAddress, TOKEN_REQUESTS.windowSeconds);
  const tokenClient = limiter('token-client', TOKEN_REQUESTS.perClient, TOKEN_REQUESTS.windowSeconds);
  const apiClientReads = limiter(
    'api-client-reads',
    API_CLIENT_READS.perClient,
    API_CLIENT_READS.windowSeconds,
  );
  const tooManyFromAddress = (refused: RateLimiterRes) => {
    const seconds = secondsOf(refused);
    return new RateLimitedError(
      `Too many requests from your network. Try again in ${describeWait(seconds)}.`,
      seconds,
    );
  };

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

    async claimSecondFactorCode(userId, factor, code) {
      const refused = await tryConsume(spentCodes, hashKey(userId, factor, code));
      if (refused) {
        throw new AppError(
          'unauthorized',
          factor === 'totp' ? TOTP_REUSED_MESSAGE : BACKUP_CODE_REUSED_MESSAGE,
        );
      }
    },

    async releaseSecondFactorCode(userId, factor, code) {
      await spentCodes.delete(hashKey(userId, factor, code));
    },

    async beforeSecondFactorCode(userId) {
      const account = hashKey(userId);
      const failures = await secondFactorFailures.get(account);
      if (!failures || failures.consumedPoints <= SECOND_FACTOR_ATTEMPTS.accountFreeFailures) return;
      const refused = await tryConsume(secondFactorGate, account);
      if (refused) {
        const seconds = secondsOf(refused);
        throw new RateLimitedError(
          `Too many wrong codes were entered for this account. Wait ${describeWait(seconds)}, then enter the current code from your authenticator app.`,
          seconds,
        );
      }
    },

    async afterSecondFactorCode(userId, outcome) {
      const account = hashKey(userId);
      if (outcome === 'success') {
        await Promise.all([secondFactorFailures.delete(account), secondFactorGate.delete(account)]);
        return;
      }
      const counted = await secondFactorFailures.penalty(account, 1);
      const beyond = counted.consumedPoints - SECOND_FACTOR_ATTEMPTS.accountFreeFailures;
      if (beyond > 0) {
        await secondFactorGate.block(
          account,
          Math.min(2 ** (beyond - 1), SECOND_FACTOR_ATTEMPTS.accountMaxDelaySeconds),
        );
      }
    },

    async beforeAuthRequest(path, ip) {
      if (!perAddressAuthLimits) return;
      const refused = await tryConsume(authPathLimiters.get(path) ?? authOther, hashKey(ip));
      if (refused) throw tooManyFromAddress(refused);
    },

    async beforeClientEvent(ip) {
      const refused = await tryConsume(clientEvents, hashKey(ip));
      if (refused) throw tooManyFromAddress(refused);
    },

    async beforeTokenRequest(ip) {
      if (!perAddressAuthLimits) return;
      const refused = await tryConsume(tokenAddress, hashKey(ip));
      if (refused) throw tooManyFromAddress(refused);
    },

    async beforeTokenIssue(apiClientId) {
      const refused = await tryConsume(tokenClient, hashKey(apiClientId));
      if (refused) {
        const seconds = secondsOf(refused);
        throw new RateLimitedError(
          `This client may get at most ${TOKEN_REQUESTS.perClient} tokens a minute; each lasts 5 minutes. Try again in ${describeWait(seconds)}.`,
          seconds,
        );
      }
    },

    async beforeApiClientRead(apiClientId) {
      const refused = await tryConsume(apiClientReads, hashKey(apiClientId));
      if (refused) {
        const seconds = secondsOf(refused);
        throw new RateLimitedError(
          `This client may make at most ${API_CLIENT_READS.perClient} requests a minute. Try again in ${describeWait(seconds)}.`,
          seconds,
        );
      }
    },
  };
}
