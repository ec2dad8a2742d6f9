/**
 * Attempt counters shared by every instance on this database (issue 10 item 6): the table layout
 * rate-limiter-flexible's RateLimiterPostgres reads and writes (`tableCreated: true`: created here, by
 * a migration, not by the library at run time). Keys are hashes, never an email or an address.
 */
import { bigint, integer, pgTable, varchar } from 'drizzle-orm/pg-core';

export const rateLimits = pgTable('rate_limits', {
  /** `<limiter prefix>:<sha256 hex of the subject>`. */
  key: varchar('key', { length: 255 }).primaryKey(),
  /** Points consumed in the current window. */
  points: integer('points').notNull().default(0),
  /** End of the window, milliseconds since the epoch; null = never. */
  expire: bigint('expire', { mode: 'number' }),
});
