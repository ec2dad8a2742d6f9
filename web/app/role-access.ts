/**
 * Who may open which signed-in pages (spec §2, §6; issue 16), as a rule without React: the route
 * guards (web/components/require-role.tsx) apply it, and the early reads (web/early-reads.ts) ask it
 * before starting a page's reads. The server enforces the same rules on every API call.
 */
import type { MeResponse } from '../../domain/api/session.ts';
import { isStaff } from '../../domain/roles.ts';

/** Which callers a signed-in page is for: providers, staff (any staff role of issue 32), or everyone. */
export type PageAudience = 'provider' | 'staff' | 'any';

/**
 * Whether the guard lets `me` in: the second factor their roles need is done, and they are `allow`
 * ('provider', 'staff': any staff role of issue 32, 'any': everyone).
 */
export function roleAllows(me: MeResponse, allow: PageAudience): boolean {
  if (me.twoFactorRequired) return false;
  const staff = isStaff(me.roles);
  return allow === 'any' || (allow === 'provider' ? !staff : staff);
}
