/**
 * Ongoing exclusion monitoring (issue 30 item 5, decision 027): after every apply, and once a month
 * (the 'exclusion-screening' scheduled job, one run per UTC month across instances), every application
 * under review and every approved one is screened against every applied list. What is new reaches
 * the review page (the checklist item), the audit log (each finding) and the administrators: one
 * digest email with the counts and the lists that are stale (never imported, or older than 35 days).
 * The email carries counts and list names only, never a provider's name.
 */
import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import { exclusionSources } from '../../domain/screening/exclusion-formats.ts';
import { isStaleList } from '../../domain/screening/staleness.ts';
import type { Database } from '../db/client.ts';
import { user } from '../db/schema/auth.ts';
import { userRoles } from '../db/schema/core.ts';
import type { Mailer, MailMessage } from '../mail/mailer.ts';
import { appliedLists } from './coverage.ts';
import { type ScreeningRun, screenApplications } from './screening.ts';

export interface MonitorDeps {
  db: Database;
  mailer: Mailer;
  /** The portal's address, for the link in the digest. */
  appUrl: string;
  logger: Pick<Logger, 'error' | 'info'>;
}

export interface MonitorResult extends ScreeningRun {
  /** Labels of the stale lists ('SAM.gov exclusions (never imported)'). */
  stale: string[];
  /** Administrators emailed. */
  emailed: number;
}

/** The labels of the lists stale at `now`, each with why. */
export async function staleLists(db: Database, now: Date): Promise<string[]> {
  const lists = await appliedLists(db);
  return exclusionSources.flatMap((source) => {
    const list = lists.find((l) => l.source === source.id);
    if (!isStaleList(list?.appliedAt ?? null, now)) return [];
    return [
      `${source.label} (${list ? `last imported ${list.appliedAt.toISOString().slice(0, 10)}` : 'never imported'})`,
    ];
  });
}

/** The administrators' digest of one screening run (counts and list names only). */
export function screeningDigest(
  to: string,
  run: Pick<MonitorResult, 'screened' | 'newMatches' | 'newPossibleMatches' | 'newPendingChanges' | 'stale'>,
  appUrl: string,
): MailMessage {
  const lines = [
    `${run.screened} applications (under review and approved) were screened against the exclusion lists.`,
    `New matches: ${run.newMatches.length}${
      run.newMatches.length
        ? ` (approved providers: ${run.newMatches.filter((m) => m.status === 'approved').length})`
        : ''
    }.`,
    `New possible matches to decide in 'Screening Matches': ${run.newPossibleMatches}.`,
    `Findings whose list row ended or left the list (accept the change in 'Screening Matches'): ${run.newPendingChanges}.`,
  ];
  if (run.stale.length)
    lines.push('', `Stale lists (import the current file on the 'Exclusions' tab): ${run.stale.join('; ')}.`);
  return {
    to,
    subject: run.newMatches.length ? 'Exclusion screening: new matches' : 'Exclusion screening: digest',
    text: `${lines.join('\n')}\n\n${appUrl}/admin\n`,
  };
}

/**
 * Screen everyone and send the digest when there is news (a finding, a pending change) or, on the
 * monthly run, a stale list. A failed email is logged; the screening stands. Returns undefined when
 * no list was ever applied (nothing to screen against; the monthly run still reports stale lists).
 */
export async function runScreeningMonitor(
  deps: MonitorDeps,
  now: Date,
  trigger: 'apply' | 'monthly',
): Promise<MonitorResult> {
  const run = (await screenApplications(deps.db, now)) ?? {
    screened: 0,
    newMatches: [],
    newPossibleMatches: 0,
    newPendingChanges: 0,
  };
  const stale = await staleLists(deps.db, now);
  const news = run.newMatches.length + run.newPossibleMatches + run.newPendingChanges > 0;
  let emailed = 0;
  if (news || (trigger === 'monthly' && stale.length > 0)) {
    const admins = await deps.db
      .select({ email: user.email })
      .from(userRoles)
      .innerJoin(user, eq(user.id, userRoles.userId))
      .where(eq(userRoles.role, 'admin'));
    const result = { ...run, stale, emailed: 0 };
    await Promise.all(
      admins.map(({ email }) =>
        deps.mailer
          .send(screeningDigest(email, result, deps.appUrl))
          .then(() => {
            emailed += 1;
          })
          .catch((error: unknown) =>
            deps.logger.error(
              { reason: (error as Error).message },
              'exclusion screening: a digest email failed',
            ),
          ),
      ),
    );
  }
  deps.logger.info(
    {
      trigger,
      screened: run.screened,
      newMatches: run.newMatches.length,
      newPossibleMatches: run.newPossibleMatches,
      newPendingChanges: run.newPendingChanges,
      stale: stale.length,
    },
    'exclusion screening ran',
  );
  return { ...run, stale, emailed };
}

/** The monthly job's period: the UTC month of `now`, 'YYYY-MM'. */
export function utcMonth(now: Date): string {
  return now.toISOString().slice(0, 7);
}
