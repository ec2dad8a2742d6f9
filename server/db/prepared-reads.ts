/**
 * Reads on the hot path of every page (decision 015) built once and sent as named prepared
 * statements: Drizzle does not rebuild the SQL per request, and PostgreSQL parses and plans it once
 * per connection instead of per query (planning the application list's eleven EXISTS took 0.37 ms,
 * five times its execution).
 */
import type { Queryable } from './client.ts';

/**
 * `build(db)` (a Drizzle query ending in `.prepare(name)`, with `sql.placeholder`s) made once per
 * database handle and kept: the same handle gets the same prepared query. A transaction is a new
 * handle each time, so in a transaction the query is built as before (and still sent by name).
 */
export function preparedPerHandle<Query>(build: (db: Queryable) => Query): (db: Queryable) => Query {
  const byHandle = new WeakMap<Queryable, Query>();
  return (db) => {
    let query = byHandle.get(db);
    if (!query) {
      query = build(db);
      byHandle.set(db, query);
    }
    return query;
  };
}
