/**
 * How seeded rows are recognised: deterministic ids under fixed prefixes and one email domain, so
 * `--replace` deletes the seed (and only the seed) and the benchmark can name provider N.
 */

/** Id prefix of every seeded user (text ids): user N is `feed0000-0000-4000-8000-<N as 12 hex digits>`. */
export const SEED_USER_PREFIX = 'feed0000-0000-4000-8000-';
/** Id prefix of every seeded application (uuid ids), numbered like the users. */
export const SEED_APPLICATION_PREFIX = 'feed0000-0000-4000-a000-';
/** Domain of every seeded email address (`first.last.N@volume-seed.test`). */
export const SEED_EMAIL_DOMAIN = 'volume-seed.test';

/** The id of seeded provider `n` (1-based), e.g. 54320 -> `feed0000-0000-4000-8000-00000000d430`. */
export function seedUserId(n: number): string {
  return `${SEED_USER_PREFIX}${n.toString(16).padStart(12, '0')}`;
}

/**
 * SQL creating, for the current session only (`pg_temp`), the id functions the seed statements use:
 * `seed_user_id(i)`, `seed_app_id(n)`, and `seed_app_owner(n)`: applications 1..`providers` belong to
 * the provider with the same number, application `providers + k` to provider `10k` (every tenth
 * provider has a second application).
 */
export function seedIdFunctionsSql(providers: number): string {
  return `
    create function pg_temp.seed_user_id(i bigint) returns text language sql immutable
      as $$ select '${SEED_USER_PREFIX}' || lpad(to_hex(i), 12, '0') $$;
    create function pg_temp.seed_app_id(n bigint) returns uuid language sql immutable
      as $$ select ('${SEED_APPLICATION_PREFIX}' || lpad(to_hex(n), 12, '0'))::uuid $$;
    create function pg_temp.seed_app_owner(n bigint) returns bigint language sql immutable
      as $$ select case when n <= ${providers} then n else (n - ${providers}) * 10 end $$;
  `;
}
