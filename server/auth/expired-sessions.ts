/**
 * Daily housekeeping of authentication rows (issue 12 scheduled jobs): sessions past their expiry
 * (idle timeout, HIPAA 164.312(a)(2)(iii)) and confirmation or reset tokens past theirs are deleted.
 * better-auth already refuses them; deleting them keeps no dead credential, even hashed, at rest.
 */
import { lt } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { session, verification } from '../db/schema/auth.ts';

/** Delete sessions and verification tokens that expired before `now`; returns how many of each. */
export async function deleteExpiredSessions(
  db: Database,
  now: Date,
): Promise<{ sessions: number; verifications: number }> {
  const sessions = await db.delete(session).where(lt(session.expiresAt, now)).returning({ id: session.id });
  const verifications = await db
    .delete(verification)
    .where(lt(verification.expiresAt, now))
    .returning({ id: verification.id });
  return { sessions: sessions.length, verifications: verifications.length };
}
