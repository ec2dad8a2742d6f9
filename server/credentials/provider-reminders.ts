/**
 * The daily `provider-reminders` job (issue 14, docs/decisions/024-recredentialing.md): reminders
 * about a provider's whole application, each recorded once in `provider_reminders` (a unique key:
 * a re-run or a second instance records and sends nothing new) and emailed until sent.
 *
 * - Recredentialing (NCQA CR 4): an approved application that is the provider's latest is due 36
 *   months after approval; the provider is emailed 180, 90 and 30 days before (the smallest threshold
 *   crossed; a run that missed a day still sends that one).
 * - Re-attestation (CAQH cycle): an application with the credentialing team whose latest attestation
 *   is older than ATTESTATION_VALID_DAYS; the provider is emailed once per aged attestation and signs
 *   again on the dashboard ('Attest Again').
 *
 * Run once per UTC day across all instances by the scheduler (server/cluster/scheduled-jobs.ts).
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { formatIsoDay, isoDay } from '../../domain/calendar.ts';
import { daysLeftText, daysUntil } from '../../domain/credentials/expiring-credentials.ts';
import {
  RECREDENTIALING_CYCLE_MONTHS,
  RECREDENTIALING_WINDOW_DAYS,
  recredentialingDueOn,
  recredentialingThreshold,
} from '../../domain/credentials/recredentialing.ts';
import type { Database } from '../db/client.ts';
import { user } from '../db/schema/auth.ts';
import { providerReminders } from '../db/schema/credentials.ts';
import type { Mailer } from '../mail/mailer.ts';

export interface ProviderReminderDeps {
  db: Database;
  mailer: Mailer;
  /** The portal's address, for the links in the emails. */
  appUrl: string;
  logger: Logger;
  /** ATTESTATION_VALID_DAYS. */
  attestationValidDays: number;
}

export interface ProviderReminderResult {
  /** Reminders recorded by this run (a threshold crossed for the first time). */
  recorded: number;
  /** Reminder emails sent by this run. */
  emailed: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The email of one reminder. No PHI: dates and what to do. */
function reminderMail(
  reminder: { kind: string; dueOn: string },
  now: Date,
  deps: Pick<ProviderReminderDeps, 'appUrl' | 'attestationValidDays'>,
): { subject: string; text: string } {
  if (reminder.kind === 'recredentialing') {
    const daysLeft = daysUntil(reminder.dueOn, now);
    return {
      subject: `Recredentialing due ${formatIsoDay(reminder.dueOn)}`,
      text:
        `Your credentialing approval is due for renewal on ${formatIsoDay(reminder.dueOn)} (${daysLeftText(daysLeft)}): ` +
        `providers are recredentialed every ${RECREDENTIALING_CYCLE_MONTHS} months.\n\n` +
        `Open your dashboard and press 'Start Recredentialing'. Your new application starts as a copy of the ` +
        `approved one, documents included, so you only update what has changed: ${deps.appUrl}/dashboard\n`,
    };
  }
  return {
    subject: 'Please attest your application again',
    text:
      `Your application is still with the credentialing team, and the attestation you signed is more than ` +
      `${deps.attestationValidDays} days old.\n\nOpen your dashboard, press 'Attest Again', answer the ` +
      `questions and sign with your full name: ${deps.appUrl}/dashboard\n`,
  };
}

/**
 * One run at `now`: record the reminders due, then email every unsent one.
 * @throws when an email could not be sent (after sending the others), so the scheduler tries again;
 *   nothing sent is sent twice
 */
export async function runProviderReminders(
  deps: ProviderReminderDeps,
  now: Date,
): Promise<ProviderReminderResult> {
  const { db, mailer, logger } = deps;
  const values: (typeof providerReminders.$inferInsert)[] = [];

  // Recredentialing: approved applications that are their provider's latest and approved long enough
  // ago to be within the window (a day of slack; the domain decides exactly).
  const windowStart = new Date(now.getTime() + (RECREDENTIALING_WINDOW_DAYS + 1) * DAY_MS);
  const { rows: approved } = await db.execute<{ id: string; user_id: string; decided_at: string }>(sql`
    select a.id, a.user_id, a.decided_at from provider_applications a
    where a.application_status = 'approved'
      and a.decided_at < ${windowStart.toISOString()}::timestamptz - make_interval(months => ${RECREDENTIALING_CYCLE_MONTHS})
      and not exists (
        select 1 from provider_applications n
        where n.user_id = a.user_id and (n.created_at, n.id) > (a.created_at, a.id)
      )`);
  for (const application of approved) {
    const dueOn = recredentialingDueOn(new Date(application.decided_at));
    const threshold = recredentialingThreshold(dueOn, now);
    if (threshold === null) continue;
    values.push({
      applicationId: application.id,
      userId: application.user_id,
      kind: 'recredentialing',
      dueOn,
      threshold: String(threshold),
    });
  }

  // Re-attestation: with the team, and the latest attestation older than the validity.
  const validSince = new Date(now.getTime() - deps.attestationValidDays * DAY_MS);
  const { rows: aged } = await db.execute<{ id: string; user_id: string; signed_at: string }>(sql`
    select a.id, a.user_id, max(t.signed_at) as signed_at
    from provider_applications a join application_attestations t on t.application_id = a.id
    where a.application_status in ('submitted', 'under_review')
    group by a.id, a.user_id
    having max(t.signed_at) < ${validSince.toISOString()}::timestamptz`);
  for (const application of aged) {
    const expiredAt = new Date(
      new Date(application.signed_at).getTime() + deps.attestationValidDays * DAY_MS,
    );
    values.push({
      applicationId: application.id,
      userId: application.user_id,
      kind: 'reattestation',
      dueOn: isoDay(expiredAt),
      threshold: 'expired',
    });
  }

  // Statements of 250 rows: Drizzle builds one large multi-row insert recursively.
  let recorded = 0;
  for (let i = 0; i < values.length; i += 250) {
    const rows = await db
      .insert(providerReminders)
      .values(values.slice(i, i + 250))
      .onConflictDoNothing()
      .returning({ id: providerReminders.id });
    recorded += rows.length;
  }

  // Everything unsent: this run's, and whatever an interrupted run left.
  const unsent = await db
    .select({ id: providerReminders.id, email: user.email })
    .from(providerReminders)
    .innerJoin(user, eq(user.id, providerReminders.userId))
    .where(isNull(providerReminders.emailedAt))
    .orderBy(providerReminders.createdAt);
  let emailed = 0;
  let failures = 0;
  for (const { id, email } of unsent) {
    let kind: string | undefined;
    try {
      // Locked while its email is sent and marked: an overlapping run (a second instance taking over a
      // lease that ended) skips it, then finds it sent. A crash before the commit sends it again.
      const sent = await db.transaction(async (tx) => {
        const [reminder] = await tx
          .select()
          .from(providerReminders)
          .where(and(eq(providerReminders.id, id), isNull(providerReminders.emailedAt)))
          .for('update', { skipLocked: true });
        if (!reminder) return false;
        kind = reminder.kind;
        await mailer.send({ to: email, ...reminderMail(reminder, now, deps) });
        await tx.update(providerReminders).set({ emailedAt: now }).where(eq(providerReminders.id, id));
        return true;
      });
      if (sent) emailed += 1;
    } catch (error) {
      failures += 1;
      // No address in the log: the kind and count say enough to act on.
      logger.error({ kind, reason: (error as Error).message }, 'provider reminder: an email failed');
    }
  }

  logger.info({ recorded, emailed }, 'provider reminders checked');
  if (failures > 0) throw new Error(`${failures} provider reminder email(s) failed; retrying`);
  return { recorded, emailed };
}
