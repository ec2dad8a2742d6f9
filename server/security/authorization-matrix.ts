/**
 * The authorization matrix (issue 7; HIPAA 164.312(a)(1) access control): for every registered API
 * route, the status each caller gets on provider A's resources. The test in
 * authorization-matrix.test.ts calls every route as each caller and compares with this table; a route
 * missing here (or an entry with no route) fails it, so a new route cannot skip review.
 *
 * Callers: anonymous; provider A (the owner); provider B (another provider); an admin; an admin who
 * has not set up a second factor yet (issue 16: refused, 403, wherever an admin reads others' data).
 * Spec §6: providers see only their own data; admins read everything and write nothing of a provider's.
 *
 * The table is kept by area, one file each (authorization-matrix-provider.ts, -admin.ts, -review.ts,
 * -committee.ts), with the callers and their expected statuses in authorization-matrix-callers.ts.
 */

import { adminMatrix } from './authorization-matrix-admin.ts';
import type { MatrixEntry } from './authorization-matrix-callers.ts';
import { committeeMatrix } from './authorization-matrix-committee.ts';
import { providerMatrix } from './authorization-matrix-provider.ts';
import { reviewMatrix } from './authorization-matrix-review.ts';

/**
 * The areas' tables as one, keyed `METHOD /path` as the router registers it.
 * @throws Error when two areas list the same route (one object literal refused that at compile time)
 */
function combine(areas: readonly Record<string, MatrixEntry>[]): Record<string, MatrixEntry> {
  const table: Record<string, MatrixEntry> = {};
  for (const area of areas) {
    for (const [route, entry] of Object.entries(area)) {
      if (route in table) throw new Error(`The authorization matrix lists ${route} twice.`);
      table[route] = entry;
    }
  }
  return table;
}

/** Every API route and the status each caller gets on it (provider A's resources). */
export const authorizationMatrix = combine([providerMatrix, adminMatrix, reviewMatrix, committeeMatrix]);
