/**
 * Shape check for the ids in routes (applications, documents, notifications: PostgreSQL uuid
 * columns). A malformed id is answered 404 like an unknown one, before PostgreSQL would reject the
 * cast with an error (a 500).
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when `value` has the 8-4-4-4-12 hexadecimal shape of a uuid (any version). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
