/**
 * Whether the receiver of a links-mode completion notification fetched what it was sent (issue 53
 * item 3; NOTIFY_DOCUMENTS=links, decision 017). A 2xx from the receiver says it took the message, not
 * that it downloaded the documents; a workflow that drops the body (the links workflow once did) still
 * answers 200. So each send records the documents it offered (`recordDocumentLinks`, before the
 * message goes out, since a receiver may fetch before it answers), the download route marks a document
 * fetched once its bytes were all sent through a live link (`markDocumentFetched`), and the admin view
 * reads both (`documentFetchesOf`): 'Delivered (documents fetched)', or once the links have expired
 * 'Delivered, documents not fetched', which the administrators' daily digest lists once
 * (`markUnfetchedDigested`). The receiver checks the checksum (the shipped workflow refuses a
 * mismatch); this server knows the bytes it sent, all of them.
 */
import { inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.ts';
import { notificationDocumentLinks } from '../db/schema/notifications.ts';

/**
 * Record that send `messageId` of `notificationId` offers `documentIds` through links valid until
 * `expiresAt`; a retry of the same send extends the expiry (the latest links count).
 */
export async function recordDocumentLinks(
  db: Queryable,
  offer: { notificationId: string; messageId: string; documentIds: readonly string[]; expiresAt: Date },
): Promise<void> {
  if (offer.documentIds.length === 0) return;
  await db
    .insert(notificationDocumentLinks)
    .values(
      offer.documentIds.map((documentId) => ({
        notificationId: offer.notificationId,
        messageId: offer.messageId,
        documentId,
        expiresAt: offer.expiresAt,
      })),
    )
    .onConflictDoUpdate({
      target: [notificationDocumentLinks.messageId, notificationDocumentLinks.documentId],
      set: { expiresAt: sql`greatest(${notificationDocumentLinks.expiresAt}, excluded.expires_at)` },
    });
}

/**
 * The receiver fetched `documentId` whole through a link valid until `linkExpiresAt`: marks it fetched
 * in every send whose links of it live at least that long (a send's own links, or a later retry's).
 */
export async function markDocumentFetched(
  db: Queryable,
  documentId: string,
  linkExpiresAt: Date,
): Promise<void> {
  await db.execute(sql`
    update ${notificationDocumentLinks} set fetched_at = now()
    where document_id = ${documentId} and fetched_at is null and expires_at >= ${linkExpiresAt.toISOString()}`);
}

/** What one send offered and what was fetched of it. */
export interface DocumentFetches {
  /** Documents the send offered. */
  offered: number;
  /** Of them, fetched whole. */
  fetched: number;
  /** When its links expire (the latest), ISO 8601. */
  linksExpireAt: string;
}

/** The offers of the sends of `notificationIds`, by send (`webhook-id`). */
export async function documentFetchesOf(
  db: Queryable,
  notificationIds: readonly string[],
): Promise<Map<string, DocumentFetches>> {
  if (notificationIds.length === 0) return new Map();
  const rows = await db
    .select({
      messageId: notificationDocumentLinks.messageId,
      offered: sql<number>`count(*)::int`,
      fetched: sql<number>`count(${notificationDocumentLinks.fetchedAt})::int`,
      linksExpireAt: sql<Date | string>`max(${notificationDocumentLinks.expiresAt})`,
    })
    .from(notificationDocumentLinks)
    .where(inArray(notificationDocumentLinks.notificationId, [...notificationIds]))
    .groupBy(notificationDocumentLinks.messageId);
  return new Map(
    rows.map((r) => [
      r.messageId,
      { offered: r.offered, fetched: r.fetched, linksExpireAt: new Date(r.linksExpireAt).toISOString() },
    ]),
  );
}

/**
 * Delivered sends whose links expired before `now` with a document not fetched, not yet listed by a
 * digest: marks them listed in the statement that counts them and returns how many there were. Called
 * by the daily digest job, which runs once at a time under its lease (expiry-monitor.ts).
 */
export async function markUnfetchedDigested(db: Queryable, now: Date): Promise<number> {
  const result = await db.execute<{ messages: number }>(sql`
    with unfetched as (
      select l.message_id from ${notificationDocumentLinks} l
      join completion_notifications n on n.id = l.notification_id
      where n.status = 'delivered' and coalesce(n.message_id, n.id) = l.message_id
      group by l.message_id
      having max(l.expires_at) < ${now.toISOString()} and count(l.fetched_at) < count(*)
        and bool_and(l.digested_at is null)
    ),
    marked as (
      update ${notificationDocumentLinks} l set digested_at = ${now.toISOString()}
      from unfetched u where l.message_id = u.message_id
      returning l.message_id
    )
    select count(distinct message_id)::int as messages from marked`);
  return Number(result.rows[0]?.messages ?? 0);
}

/** The digest's paragraph about `messages` sends whose documents were not fetched; '' for none. */
export function unfetchedDigestText(messages: number): string {
  if (messages === 0) return '';
  const which =
    messages === 1 ? '1 completion notification was' : `${messages} completion notifications were`;
  return `${which} delivered with download links, but the receiver did not fetch every document before the links expired. Open Notifications in the admin dashboard and use 'Re-send' to send new links.\n\n`;
}
