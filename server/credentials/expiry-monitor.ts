/**
 * The daily `credential-expiry` job (issue 14, docs/decisions/023-expiring-credentials.md): it finds
 * the credentials of current providers that expire within 90, 60, 30 or 7 days or have expired,
 * records one notice per credential per threshold (a unique key: a re-run or a second instance
 * records nothing new), emails each provider what is new for them, and sends administrators one
 * digest of the day's changes. Run once per UTC day across all instances by the scheduler
 * (server/cluster/scheduled-jobs.ts); safe to repeat after an interruption: it sends what is unsent.
 *
 * A provider's current application is their latest submitted, under review or approved one, else
 * their latest draft (rejected applications are not watched). A credential whose change awaits
 * re-verification (issue 29 item 4, a credential update) is noticed by the expiry that was verified
 * until a reviewer verifies the new one: notices stop once a newer expiry is verified. The credentials are read set-based,
 * in keyset batches of the admin tab's query (./current-credentials.ts).
 */
import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { ExpiringListItem } from '../../domain/api/admin.ts';
import { formatIsoDay } from '../../domain/calendar.ts';
import {
  type CredentialKind,
  credentialKindSection,
  DEFAULT_EXPIRING_WINDOW,
  daysLeftText,
  daysUntil,
  type ExpiryUrgency,
} from '../../domain/credentials/expiring-credentials.ts';
import type { SnapshotRow } from '../../domain/review/application-snapshot.ts';
import {
  isoDay,
  lapsedCredentialItemKey,
  verifiedCredentialKinds,
} from '../../domain/review/verification-checklist.ts';
import { sectionCatalog } from '../../domain/sections/section-catalog.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { markFindingsDigested, monitoringDigestText } from '../credential/monitoring-digest.ts';
import { syncLicenseFindings } from '../credential/standing.ts';
import type { Database, Queryable } from '../db/client.ts';
import { user } from '../db/schema/auth.ts';
import { providerApplications, userRoles } from '../db/schema/core.ts';
import { credentialExpiryNotices } from '../db/schema/credentials.ts';
import { verificationItems } from '../db/schema/review.ts';
import type { Mailer } from '../mail/mailer.ts';
import { markUnfetchedDigested, unfetchedDigestText } from '../notifications/document-fetches.ts';
import {
  awaitingReverification,
  credentialIdentity,
  expiringCredentialBatches,
} from './current-credentials.ts';
import { credentialSources } from './expiring-credentials.ts';

/** Rows per notice INSERT statement (a 2,000-row statement overflowed Drizzle's query builder's stack). */
const NOTICE_INSERT_ROWS = 250;

/** The threshold a credential of `urgency` has crossed. */
const thresholdOf: Record<ExpiryUrgency, string> = {
  expired: 'expired',
  within_7: '7',
  within_30: '30',
  within_60: '60',
  within_90: '90',
};

const thresholdText: Record<string, string> = {
  expired: 'expired',
  '7': 'within 7 days',
  '30': 'within 30 days',
  '60': 'within 60 days',
  '90': 'within 90 days',
};

export interface ExpiryMonitorDeps {
  db: Database;
  mailer: Mailer;
  /** The portal's address, for the links in the emails. */
  appUrl: string;
  logger: Logger;
}

export interface ExpiryMonitorResult {
  /** Notices recorded by this run (a threshold crossed for the first time). */
  recorded: number;
  /** Providers emailed by this run. */
  providersEmailed: number;
  /** Administrators who got the digest from this run. */
  adminsDigested: number;
  /** Verification items of approved applications reopened as discrepancies by a lapse. */
  reopened: number;
}

/**
 * Issue 14: an approved provider's lapse reopens the credential's verification item as a
 * discrepancy (domain `lapsedCredentialItemKey`), with a note saying what lapsed when, so the
 * credentialing team sees it on the review page. Items already in discrepancy are left as they are.
 * Audited as 'review.credential_lapsed' (no actor: the daily job). @returns the items reopened
 */
async function reopenLapsedVerifications(
  tx: Queryable,
  applicationId: string,
  lapsed: (typeof credentialExpiryNotices.$inferSelect)[],
  now: Date,
): Promise<number> {
  const [application] = await tx
    .select({ status: providerApplications.applicationStatus, userId: providerApplications.userId })
    .from(providerApplications)
    .where(eq(providerApplications.id, applicationId));
  if (application?.status !== 'approved') return 0;
  let reopened = 0;
  for (const notice of lapsed) {
    if (!verifiedCredentialKinds.includes(notice.kind)) continue;
    const { rows } = await tx.execute<SnapshotRow>(
      sql`select * from ${credentialSources[notice.kind as CredentialKind].table} where id = ${notice.rowId}`,
    );
    const itemKey = rows[0] ? lapsedCredentialItemKey(notice.kind, rows[0]) : null;
    if (!itemKey) continue;
    const updated = await tx
      .update(verificationItems)
      .set({
        status: 'discrepancy',
        verifiedAt: null,
        validatorId: null,
        note: `Lapsed: ${notice.name} expired on ${notice.expiresOn} (found by credential monitoring on ${isoDay(now)}). Verify the renewal with the primary source.`,
        updatedAt: now,
      })
      .where(
        and(
          eq(verificationItems.applicationId, applicationId),
          eq(verificationItems.itemKey, itemKey),
          ne(verificationItems.status, 'discrepancy'),
        ),
      )
      .returning({ id: verificationItems.id });
    for (const item of updated) {
      await recordAudit(tx, {
        action: 'review.credential_lapsed',
        subjectUserId: application.userId,
        resourceType: 'verification_item',
        resourceId: item.id,
        details: { applicationId, kind: notice.kind, expiresOn: notice.expiresOn },
      });
    }
    reopened += updated.length;
  }
  return reopened;
}

/**
 * One run at `now`: record the thresholds crossed, email providers and administrators what is
 * unsent. @throws when a provider's email could not be sent (after sending the others), so the
 * scheduler tries again; nothing sent is sent twice, also when two runs overlap (each provider's
 * notices are locked while their email is sent; the digest's notices are marked before it is sent).
 */
export async function runExpiryMonitor(deps: ExpiryMonitorDeps, now: Date): Promise<ExpiryMonitorResult> {
  const { db, mailer, appUrl, logger } = deps;
  // Every credential of a current application that expires within the widest threshold or has
  // expired, read set-based in keyset batches (the admin tab's query). Each batch's notices, and the
  // verification items its lapses reopen, commit in one transaction: a crash between them cannot
  // record a notice (which never fires again) without its reopening.
  let recorded = 0;
  let reopened = 0;
  // Issue 29 item 4: a changed credential awaiting re-verification is noticed by the expiry that was
  // verified, whatever its row says now; once verified, its row's (newer) date rules again.
  const awaiting = await awaitingReverification(db, now);
  // Issue 49 item 2 (NCQA CR5): a published license past its expiry with no published renewal
  // suspends the credential; a renewal published since resolves it.
  const licenses = await db.transaction((tx) => syncLicenseFindings(tx, now));
  const recordBatch = async (batch: ExpiringListItem[]) => {
    if (batch.length === 0) return;
    await db.transaction(async (tx) => {
      const inserted: (typeof credentialExpiryNotices.$inferSelect)[] = [];
      // Statements of NOTICE_INSERT_ROWS rows: Drizzle builds one large multi-row insert recursively.
      for (let i = 0; i < batch.length; i += NOTICE_INSERT_ROWS) {
        const rows = await tx
          .insert(credentialExpiryNotices)
          .values(
            batch.slice(i, i + NOTICE_INSERT_ROWS).map((credential) => ({
              applicationId: credential.applicationId,
              userId: credential.provider.userId,
              kind: credential.kind,
              rowId: credential.rowId,
              expiresOn: credential.expiresOn,
              threshold: thresholdOf[credential.urgency],
              name: credential.name,
            })),
          )
          .onConflictDoNothing()
          .returning();
        inserted.push(...rows);
      }
      recorded += inserted.length;
      const lapsedByApplication = new Map<string, typeof inserted>();
      for (const notice of inserted) {
        if (notice.threshold !== 'expired') continue;
        const list = lapsedByApplication.get(notice.applicationId) ?? [];
        list.push(notice);
        lapsedByApplication.set(notice.applicationId, list);
      }
      for (const [applicationId, lapsed] of lapsedByApplication) {
        reopened += await reopenLapsedVerifications(tx, applicationId, lapsed, now);
      }
    });
  };
  const batches = expiringCredentialBatches(db, { window: DEFAULT_EXPIRING_WINDOW }, now);
  for await (const batch of batches) {
    await recordBatch(batch.filter((credential) => !awaiting.held.has(credentialIdentity(credential))));
  }
  await recordBatch(awaiting.expiring);

  // Providers: one email each listing what is new for them (and anything an interrupted run left).
  const unsent = await db
    .select({ id: credentialExpiryNotices.id, userId: credentialExpiryNotices.userId, email: user.email })
    .from(credentialExpiryNotices)
    .innerJoin(user, eq(user.id, credentialExpiryNotices.userId))
    .where(isNull(credentialExpiryNotices.emailedAt));
  const byUser = new Map<string, { email: string; noticeIds: string[] }>();
  for (const { id, userId, email } of unsent) {
    const entry = byUser.get(userId) ?? { email, noticeIds: [] };
    entry.noticeIds.push(id);
    byUser.set(userId, entry);
  }
  let providersEmailed = 0;
  let failures = 0;
  for (const { email, noticeIds } of byUser.values()) {
    try {
      // The provider's unsent notices stay locked while their email is sent and marked: a run that
      // overlaps this one (a second instance taking over a lease that ended during a long first run)
      // skips them, and finds them sent once this commits. A crash before the commit sends them again.
      const sent = await db.transaction(async (tx) => {
        const notices = await tx
          .select()
          .from(credentialExpiryNotices)
          .where(
            and(inArray(credentialExpiryNotices.id, noticeIds), isNull(credentialExpiryNotices.emailedAt)),
          )
          .orderBy(credentialExpiryNotices.expiresOn)
          .for('update', { skipLocked: true });
        if (notices.length === 0) return false;
        const lines = notices.map((n) => {
          const section = sectionCatalog[credentialKindSection[n.kind as keyof typeof credentialKindSection]];
          const daysLeft = daysUntil(n.expiresOn, now);
          return `- ${section.title}: ${n.name}, ${daysLeft < 0 ? 'expired' : 'expires'} ${formatIsoDay(n.expiresOn)} (${daysLeftText(daysLeft)})`;
        });
        await mailer.send({
          to: email,
          subject: 'Your credentials are expiring',
          text: `These credentials in your credentialing application expire soon or have expired:\n\n${lines.join('\n')}\n\nRenew them, then update them in your application: ${appUrl}/dashboard\n`,
        });
        await tx
          .update(credentialExpiryNotices)
          .set({ emailedAt: sql`now()` })
          .where(
            inArray(
              credentialExpiryNotices.id,
              notices.map((n) => n.id),
            ),
          );
        return true;
      });
      if (sent) providersEmailed += 1;
    } catch (error) {
      failures += 1;
      // No address or credential in the log (PHI-adjacent): the count says enough to act on.
      logger.error({ reason: (error as Error).message }, 'expiring credentials: a provider email failed');
    }
  }

  // Administrators: one digest of what crossed a threshold since the last digest, counts only.
  const counted = await markNoticesDigested(db);
  const findings = await markFindingsDigested(db);
  const unfetched = await markUnfetchedDigested(db, now);
  // Threshold is never null in a notice: the row without one is the grand total, `()`.
  const overall = counted.find((r) => r.threshold === null) ?? { total: 0, providers: 0, threshold: null };
  let adminsDigested = 0;
  if (overall.total > 0 || findings.length > 0 || unfetched > 0) {
    const admins = await db
      .select({ email: user.email })
      .from(userRoles)
      .innerJoin(user, eq(user.id, userRoles.userId))
      .where(eq(userRoles.role, 'admin'));
    const counts = new Map(counted.filter((r) => r.threshold !== null).map((r) => [r.threshold, r.total]));
    const { total, providers } = overall;
    const summary = ['expired', '7', '30', '60', '90']
      .filter((t) => counts.has(t))
      .map((t) => `- ${thresholdText[t]}: ${counts.get(t)}`)
      .join('\n');
    const reopenedLine =
      reopened > 0
        ? `\n\n${reopened} verification item${reopened === 1 ? ' was' : 's were'} of approved providers reopened as discrepancies: see the review pages.`
        : '';
    const expiring =
      total > 0
        ? `${total} credential${total === 1 ? '' : 's'} of ${providers} provider${providers === 1 ? '' : 's'} crossed an expiry threshold since the last digest:\n\n${summary}${reopenedLine}\n\n`
        : '';
    const text = `${expiring}${monitoringDigestText(findings)}${unfetchedDigestText(unfetched)}See them in the admin dashboard: ${appUrl}/admin\n`;
    for (const admin of admins) {
      try {
        const subject =
          total > 0 ? 'Expiring credentials: daily digest' : 'Credential monitoring: daily digest';
        await mailer.send({ to: admin.email, subject, text });
        adminsDigested += 1;
      } catch (error) {
        logger.error({ reason: (error as Error).message }, 'expiring credentials: a digest email failed');
      }
    }
  }

  logger.info(
    {
      recorded,
      providersEmailed,
      adminsDigested,
      reopened,
      suspended: licenses.opened,
      renewed: licenses.resolved,
    },
    'expiring credentials checked',
  );
  if (failures > 0)
    throw new Error(`${failures} provider email(s) about expiring credentials failed; retrying`);
  return { recorded, providersEmailed, adminsDigested, reopened };
}

/** A threshold's count in a digest; `threshold` null is the grand total (`grouping sets ... ()`). */
export type DigestCount = {
  threshold: string | null;
  total: number;
  providers: number;
};

/**
 * Marks every notice not yet digested as digested and counts them, by threshold and overall, in one
 * statement run before the digest is sent: two overlapping runs cannot both count a notice (the
 * second waits for the first's locks and then finds them marked). Counted in SQL: at volume a first
 * run marks 100,000+ notices, too many to read back.
 *
 * The rows are locked in id order before they are updated. A bare `update ... where digested_at is
 * null` locks them in the order its scan meets them, and a run that waited on a provider's notices
 * (locked by the other run's email transaction, which moved them in the heap when it marked them
 * emailed) follows them to their new place and meets them earlier than a run that started after:
 * the two updates then held what the other needed next, and PostgreSQL killed one (40P01, seen in
 * CI and reproduced in 150 of 200 tries with 100 + 100 notices). One order for every run cannot
 * cycle.
 *
 * @returns one row per threshold present plus the total row; empty counts when nothing was undigested
 */
export async function markNoticesDigested(db: Database): Promise<DigestCount[]> {
  const counted = await db.execute<DigestCount>(sql`
    with undigested as (
      select id from ${credentialExpiryNotices} where digested_at is null order by id for update
    ),
    marked as (
      update ${credentialExpiryNotices} n set digested_at = now()
      from undigested where n.id = undigested.id
      returning n.user_id, n.threshold
    )
    select threshold, count(*)::int as total, count(distinct user_id)::int as providers
    from marked group by grouping sets ((threshold), ())`);
  return counted.rows;
}
