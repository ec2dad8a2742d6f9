/**
 * Daily pruning of the receiver's duplicate record (decision 041, which left it for later): a receipt
 * is deleted once RECEIPT_RETENTION_DAYS have passed since it was marked done or, for a claim never
 * marked done, since its lease ran out. A notification's retries end within the portal's retry window
 * (about 14 hours: NOTIFY_MAX_ATTEMPTS with backoff), and a re-send is a new message with its own
 * `webhook-id`, so no retry can arrive for a receipt this old: nothing would be processed twice.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';

/** Days a receipt is kept after it was done or its claim lapsed: far past the ~14-hour retry window. */
export const RECEIPT_RETENTION_DAYS = 30;

/**
 * Delete the receipts done, or whose claim lapsed, more than `retentionDays` before `now`.
 * @returns how many were deleted
 */
export async function deleteOldReceipts(
  db: Database,
  now: Date,
  retentionDays = RECEIPT_RETENTION_DAYS,
): Promise<number> {
  const result = await db.execute(
    sql`delete from notification_receipts
        where coalesce(done_at, claimed_until) < ${now.toISOString()}::timestamptz - make_interval(days => ${retentionDays})`,
  );
  return result.rowCount ?? 0;
}
