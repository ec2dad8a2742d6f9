/**
 * The administrators' view of `application.status_changed` events (issue 28 item 8; decision 018,
 * addendum): the `status_events` outbox listed like completion notifications, and an administrator's
 * re-send. Delivery itself is status-events.ts.
 */
import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { StatusChangedEvent, StatusEventState } from '../../domain/api/integration.ts';
import type { AdminStatusEvent } from '../../domain/api/notifications.ts';
import { AppError } from '../../domain/app-error.ts';
import { isUuid } from '../../domain/uuid.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Actor } from '../auth/actor.ts';
import type { Database } from '../db/client.ts';
import { profiles, providerApplications } from '../db/schema/core.ts';
import { statusEventAttempts, statusEvents } from '../db/schema/review.ts';
import { attemptView, groupByOwner, sendsOf } from '../notifications/delivery-sends.ts';
import { webhookMessageIds } from '../notifications/webhook-signature.ts';

/**
 * Status events, newest first (by when the event was written).
 * @param options.status only this state; options.limit at most this many (1..500); options.ids only these
 */
export async function listStatusEvents(
  db: Database,
  options: { status?: StatusEventState; limit: number; ids?: string[] },
): Promise<AdminStatusEvent[]> {
  const rows = await db
    .select({
      event: statusEvents,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      email: profiles.email,
    })
    .from(statusEvents)
    .innerJoin(providerApplications, eq(providerApplications.id, statusEvents.applicationId))
    .leftJoin(profiles, eq(profiles.userId, providerApplications.userId))
    .where(
      and(
        options.ids ? inArray(statusEvents.id, options.ids) : undefined,
        options.status ? eq(statusEvents.status, options.status) : undefined,
      ),
    )
    .orderBy(desc(statusEvents.createdAt), desc(statusEvents.id))
    .limit(options.limit);
  const ids = rows.map((r) => r.event.id);
  const attempts =
    ids.length === 0
      ? []
      : await db
          .select()
          .from(statusEventAttempts)
          .where(inArray(statusEventAttempts.statusEventId, ids))
          .orderBy(statusEventAttempts.attemptedAt, statusEventAttempts.id);
  const byEvent = groupByOwner(attempts, (a) => a.statusEventId);
  return rows.map(({ event, firstName, lastName, email }) => {
    const payload = event.payload as StatusChangedEvent;
    return {
      id: event.id,
      webhookId: webhookMessageIds(event).webhookId,
      applicationId: event.applicationId,
      providerName: [firstName, lastName].filter(Boolean).join(' '),
      providerEmail: email ?? '',
      from: payload.data.from,
      to: payload.data.to,
      actorType: payload.data.actor.type,
      occurredAt: payload.data.occurredAt,
      status: event.status as StatusEventState,
      attempts: event.attempts,
      nextAttemptAt: event.status === 'pending' ? (event.nextAttemptAt?.toISOString() ?? null) : null,
      lastError: event.lastError,
      deliveredAt: event.deliveredAt?.toISOString() ?? null,
      attemptLog: (byEvent.get(event.id) ?? []).map(attemptView),
      sends: sendsOf(
        { id: event.id, messageId: event.messageId, status: event.status as StatusEventState },
        byEvent.get(event.id) ?? [],
      ),
    };
  });
}

/**
 * Queue a status event again (an administrator's 'Re-send'), whatever its state, as a new message
 * (issue 28): a new `webhook-id` (`message_id`) and `resendOf` naming the first message, since a
 * receiver drops an id it has seen (Standard Webhooks; the shipped n8n workflow). Attempts start over
 * and its retries keep the new id. It still waits for an older pending event of its application (the
 * worker keeps each application's events in order). Audited as 'status_event.resend'.
 * @throws AppError not_found (404)
 */
export async function resendStatusEvent(db: Database, actor: Actor, eventId: string): Promise<void> {
  const notFound = new AppError('not_found', 'Status event not found. Reload the list and try again.');
  if (!isUuid(eventId)) throw notFound;
  const messageId = randomUUID();
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(statusEvents)
      .set({
        messageId,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: sql`now()`,
        leaseId: null,
        lastError: null,
        deliveredAt: null,
      })
      .where(eq(statusEvents.id, eventId))
      .returning({ id: statusEvents.id, applicationId: statusEvents.applicationId });
    if (!row) throw notFound;
    const [owner] = await tx
      .select({ userId: providerApplications.userId })
      .from(providerApplications)
      .where(eq(providerApplications.id, row.applicationId));
    await recordAudit(tx, {
      action: 'status_event.resend',
      actorUserId: actor.userId,
      subjectUserId: owner?.userId ?? null,
      resourceType: 'status_event',
      resourceId: row.id,
      ipAddress: actor.ipAddress,
      details: { applicationId: row.applicationId, webhookId: messageId, resendOf: row.id },
    });
  });
}
