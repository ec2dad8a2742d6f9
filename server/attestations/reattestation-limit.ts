/**
 * Attempt limit of `POST /api/applications/:applicationId/attestation` (issue 28 item 4): a new
 * attestation is accepted only when one is due (attestation.service.ts `reattest`), and on top of
 * that each provider has `REATTESTATION_ATTEMPTS.perUser` attempts (accepted or refused) per
 * `windowSeconds`. Counted in PostgreSQL `rate_limits` like the other limits (decisions 010, 013:
 * shared by every instance, kept across restarts), under the SHA-256 of the user id.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { describeWait, RateLimitedError } from '../security/rate-limits.ts';

/** A provider signs a few times at most (a typo in the name is refused and corrected): 10 an hour. */
export const REATTESTATION_ATTEMPTS = { perUser: 10, windowSeconds: 60 * 60 } as const;

export interface ReattestationLimit {
  /**
   * Count one attempt of `userId`.
   * @throws RateLimitedError (429, with Retry-After) when the user has used the attempts of the window
   */
  beforeAttempt(userId: string): Promise<void>;
}

/** The limit over the `rate_limits` table of `pool`'s database (created by migration 0004). */
export function createReattestationLimit(pool: pg.Pool): ReattestationLimit {
  const limiter = new RateLimiterPostgres({
    storeClient: pool,
    storeType: 'pool',
    tableName: 'rate_limits',
    tableCreated: true,
    keyPrefix: 'reattestation',
    points: REATTESTATION_ATTEMPTS.perUser,
    duration: REATTESTATION_ATTEMPTS.windowSeconds,
  });
  return {
    async beforeAttempt(userId) {
      try {
        await limiter.consume(createHash('sha256').update(userId).digest('hex'));
      } catch (rejection) {
        // A database error fails the request (503/500); only a refusal is "limited".
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        const seconds = rejection.msBeforeNext / 1000;
        throw new RateLimitedError(
          `Too many attestation attempts. Try again in ${describeWait(seconds)}.`,
          seconds,
        );
      }
    },
  };
}
