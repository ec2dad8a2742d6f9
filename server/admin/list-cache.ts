/**
 * Answers of the admin lists remembered between requests (issue 35 goal 4, decision 009): the 'Users &
 * Applications' list and its searches, the 'Review Queue' and the 'Expiring' tab. An answer is one
 * filter's page as sent (serialized once, by the route's response schema); sending it again costs
 * one small query while nothing it reads has changed and the clock has not moved what it says.
 *
 * Each list has a version: a PostgreSQL sequence that statement-level triggers bump on every INSERT,
 * UPDATE, DELETE or TRUNCATE of a table the list's pages read (migrations 0034 and 0035; the test
 * checks the pages' query plans against the triggers). A writer takes the list's advisory lock in
 * shared mode before bumping and holds it until it commits; `admin_list_version(list)` answers the
 * version and whether it is *settled*: no transaction that bumped it was open at that instant. So:
 * - a page read after a settled version V holds every write counted up to V (those writers had all
 *   ended), and later ones perhaps: it is remembered at V;
 * - a request that reads V again (no write bumped since) gets the remembered page: exact, on every
 *   instance (the sequence and the lock are the database's);
 * - a page read after an unsettled version (a write still open) is served but not remembered.
 * Never remembered from a transaction (its own uncommitted writes would be in the page, and its
 * own lock does not block its try); never past the instant the clock changes what it says (the
 * next UTC day for days left, a row's next day waiting: `validUntil`); never longer than
 * LIST_CACHE_MAX_AGE_MS, a bound against what the versions cannot see (a database restored under a
 * running server).
 *
 * Kept per database handle (the app's handle: one memory per instance), at most
 * LIST_CACHE_MAX_ENTRIES answers, least recently stored out first. Keys hold the list's filter (a
 * search term is kept in this process's memory only, never logged). Concurrent requests for the
 * same answer at the same settled version share one read.
 */
import { sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { FastifyReply } from 'fastify';
import type { Queryable } from '../db/client.ts';
import { preparedSql } from '../db/prepared-reads.ts';

/** The remembered lists, each with its version sequence (migration 0034). */
export const listVersionSequences = {
  providers: 'admin_list_version_providers',
  reviewQueue: 'admin_list_version_review_queue',
  expiring: 'admin_list_version_expiring',
} as const;
export type VersionedList = keyof typeof listVersionSequences;

/** The most answers kept per instance (an answer is 20 to 25 rows: 5 to 20 kB). */
export const LIST_CACHE_MAX_ENTRIES = 256;
/** The longest an answer is served from memory (ms), whatever its version says. */
export const LIST_CACHE_MAX_AGE_MS = 60_000;

/** A list's version as `admin_list_version` answers it (migration 0035). */
export interface ListVersion {
  /** The sequence's last value as text; '0' before the first write. */
  version: string;
  /** No transaction that bumped the version was open when it was read. */
  settled: boolean;
}

interface Entry {
  version: string;
  storedAt: number;
  /** Set once the read has answered, when it said until when its value holds. */
  validUntil: number;
  value: Promise<unknown>;
}

const memories = new WeakMap<Queryable, Map<string, Entry>>();

/** `admin_list_version` as a named prepared statement: it is sent with every remembered answer. */
const listVersionStatement = preparedSql<ListVersion>(
  'admin_list_version',
  sql`select version, settled from admin_list_version(${sql.placeholder('list')})`,
);

/** `list`'s version, and whether it is settled (one statement; takes no lock that outlives it). */
export async function readListVersion(db: Queryable, list: VersionedList): Promise<ListVersion> {
  const result = await listVersionStatement(db, { list: listVersionSequences[list] });
  return result.rows[0]!;
}

/** Options of `remembered`. */
export interface RememberOptions<Value> {
  /**
   * Until when (ms since the epoch) `value` holds whatever the version says, when it depends on the
   * clock (days left, days waiting); default: as long as the version.
   */
  validUntil?: (value: Value) => number;
  /** The clock in ms (tests move it). */
  now?: () => number;
}

/**
 * The value of `list` under `key`: remembered when stored at the version the list has now, less
 * than LIST_CACHE_MAX_AGE_MS ago and before its `validUntil`; else `read()`, remembered when the
 * version was settled. A failed read is not remembered. The value is shared between requests:
 * callers must not change it.
 * @param db the app's database handle (the memory is this handle's); a transaction always reads
 * @param key everything the value depends on besides the database and the clock (filter, page, the
 *   caller when it filters on them); what the clock changes ends the value through `validUntil`
 */
export async function remembered<Value>(
  db: Queryable,
  list: VersionedList,
  key: string,
  read: () => Promise<Value>,
  { validUntil, now = Date.now }: RememberOptions<Value> = {},
): Promise<Value> {
  if (db instanceof PgTransaction) return read();
  const { version, settled } = await readListVersion(db, list);
  let memory = memories.get(db);
  if (!memory) {
    memory = new Map();
    memories.set(db, memory);
  }
  const fullKey = `${list}\u0000${key}`;
  const entry = memory.get(fullKey);
  const at = now();
  if (
    entry &&
    entry.version === version &&
    at - entry.storedAt < LIST_CACHE_MAX_AGE_MS &&
    at < entry.validUntil
  ) {
    return entry.value as Promise<Value>;
  }
  if (!settled) return read();
  const value = read();
  memory.delete(fullKey);
  if (memory.size >= LIST_CACHE_MAX_ENTRIES) memory.delete(memory.keys().next().value!);
  const stored: Entry = { version, storedAt: at, validUntil: Number.POSITIVE_INFINITY, value };
  memory.set(fullKey, stored);
  value.then(
    (answered) => {
      if (validUntil) stored.validUntil = validUntil(answered);
    },
    // A failed read is forgotten (unless something newer took its place): the next request reads again.
    () => {
      if (memory.get(fullKey) === stored) memory.delete(fullKey);
    },
  );
  return value;
}

/** An answer of a list route and until when (ms since the epoch) the clock leaves it unchanged. */
export interface ListAnswer<Body> {
  body: Body;
  validUntil: number;
}

/**
 * Send the answer of a list route (GET) under `key`: the remembered bytes (`remembered`), or
 * `answer()`'s body serialized by the route's own response schema (`reply.serialize`: checked like
 * every answer of the route) and remembered until its `validUntil`.
 * @returns the reply, sent as application/json
 */
export async function sendRememberedAnswer<Body>(
  reply: FastifyReply,
  db: Queryable,
  list: VersionedList,
  key: string,
  answer: () => Promise<ListAnswer<Body>>,
): Promise<FastifyReply> {
  const { bytes } = await remembered(
    db,
    list,
    key,
    async () => {
      const { body, validUntil } = await answer();
      const serialized = reply.serialize(body);
      return {
        bytes:
          typeof serialized === 'string' ? Buffer.from(serialized) : Buffer.from(new Uint8Array(serialized)),
        validUntil,
      };
    },
    { validUntil: (serialized) => serialized.validUntil },
  );
  return reply.type('application/json; charset=utf-8').send(bytes);
}
