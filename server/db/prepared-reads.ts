/**
 * Reads on the hot path of every page (decision 015) built once and sent as named prepared
 * statements: Drizzle does not rebuild the SQL per request, and PostgreSQL parses and plans it once
 * per connection instead of per query (planning the application list's eleven EXISTS took 0.37 ms,
 * five times its execution).
 */
import type { SQL } from 'drizzle-orm';
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

/** What a prepared raw statement answers: its rows as node-postgres gives them (dates as text). */
export interface PreparedRows<Row> {
  rows: Row[];
}

/**
 * A raw SQL statement (built with `sql.placeholder`s) sent as the named prepared statement `name`:
 * built once per database handle (like `preparedPerHandle`), parsed and planned by PostgreSQL once
 * per connection. Rows come as `db.execute` gives them: timestamps and dates as text, json parsed.
 * Only for statements whose generic plan suits every value (e.g. ids, a page's limit and offset,
 * a date bound): a LIKE pattern's selectivity, say, is not known to a generic plan.
 * @returns a function running the statement on `db` with the placeholders' `values`
 */
export function preparedSql<Row>(
  name: string,
  query: SQL,
): (db: Queryable, values: Record<string, unknown>) => Promise<PreparedRows<Row>> {
  const prepared = preparedPerHandle((db) => {
    // Drizzle's own path for `.prepare(name)`: the handle's dialect renders the SQL and its session
    // makes the prepared query (no fields: rows are returned as node-postgres reads them).
    const { dialect, session } = db as unknown as {
      dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
      session: {
        prepareQuery(
          query: { sql: string; params: unknown[] },
          fields: undefined,
          name: string,
          isResponseInArrayMode: boolean,
        ): { execute(values: Record<string, unknown>): Promise<unknown> };
      };
    };
    return session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false);
  });
  return async (db, values) => (await prepared(db).execute(values)) as PreparedRows<Row>;
}
