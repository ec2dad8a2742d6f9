/**
 * Scheduled jobs that run once per period across every instance on the database (issue 12).
 *
 * Each instance ticks every SCHEDULER_TICK_MS and, for each job, tries to claim the row
 * (job, period) of `scheduled_job_runs`: one insert that succeeds for exactly one instance, or takes
 * over a claim whose lease ended without the run finishing (its instance died, or the run failed and
 * its retry time came). The winner runs the job and records it finished; everyone else does nothing
 * until the next period. A job must therefore be safe to run again after an interruption (delete what
 * is due, send what is unsent), which every job here is.
 *
 * Time is an input: `runDueJobs(now)` decides with the `now` it is given, so tests drive the clock.
 */
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { scheduledJobRuns } from '../db/schema/instances.ts';

export interface ScheduledJob {
  /** Stable name, the first half of the claim's key. */
  name: string;
  /** The key of the period `now` falls in (e.g. `utcDay`): one run per distinct key. */
  periodOf(now: Date): string;
  /** Do the work for the period of `now`. Must be safe to repeat after an interruption. */
  run(now: Date): Promise<void>;
  /** How long a claim is held before another instance may take over, ms (default 15 minutes). */
  leaseMs?: number;
  /** Wait after a failed run before it is tried again, ms (default 5 minutes). */
  retryMs?: number;
}

const DEFAULT_LEASE_MS = 15 * 60 * 1000;
const DEFAULT_RETRY_MS = 5 * 60 * 1000;

/** A daily job's period: the UTC date of `now`, 'YYYY-MM-DD'. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/**
 * Claim (job, period) for `instanceId` at `now`: true for exactly one caller per period, or for a
 * caller taking over an unfinished claim whose lease has ended.
 */
export async function claimJobRun(
  db: Database,
  job: Pick<ScheduledJob, 'name' | 'leaseMs'>,
  period: string,
  instanceId: string,
  now: Date,
): Promise<boolean> {
  const leaseUntil = new Date(now.getTime() + (job.leaseMs ?? DEFAULT_LEASE_MS));
  const claimed = await db
    .insert(scheduledJobRuns)
    .values({ job: job.name, period, instanceId, startedAt: now, leaseUntil })
    .onConflictDoUpdate({
      target: [scheduledJobRuns.job, scheduledJobRuns.period],
      set: {
        instanceId,
        startedAt: now,
        leaseUntil,
        attempts: sql`${scheduledJobRuns.attempts} + 1`,
      },
      setWhere: sql`${scheduledJobRuns.finishedAt} is null and ${scheduledJobRuns.leaseUntil} <= ${now.toISOString()}`,
    })
    .returning({ job: scheduledJobRuns.job });
  return claimed.length === 1;
}

/**
 * Run every job whose current period has not run yet and that this instance wins.
 * @returns the names of the jobs this call ran (successfully or not)
 */
export async function runDueJobs(
  db: Database,
  jobs: readonly ScheduledJob[],
  instanceId: string,
  now: Date,
  logger: Logger,
): Promise<string[]> {
  const ran: string[] = [];
  for (const job of jobs) {
    const period = job.periodOf(now);
    if (!(await claimJobRun(db, job, period, instanceId, now))) continue;
    ran.push(job.name);
    const key = sql`${scheduledJobRuns.job} = ${job.name} and ${scheduledJobRuns.period} = ${period} and ${scheduledJobRuns.instanceId} = ${instanceId}`;
    try {
      await job.run(now);
      await db.update(scheduledJobRuns).set({ finishedAt: sql`now()`, lastError: null }).where(key);
      logger.info({ job: job.name, period }, 'scheduled job done');
    } catch (error) {
      const message = (error as Error).message.slice(0, 500);
      logger.error({ job: job.name, period, message }, 'scheduled job failed; it will be tried again');
      const retryAt = new Date(now.getTime() + (job.retryMs ?? DEFAULT_RETRY_MS));
      await db
        .update(scheduledJobRuns)
        .set({ leaseUntil: retryAt, lastError: message })
        .where(key)
        .catch(() => {}); // The lease ends by itself.
    }
  }
  return ran;
}

export interface Scheduler {
  /** Stop ticking and wait for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Tick every `tickMs` (first tick right away) and run due jobs; `clock` gives "now" (tests pass
 * their own). A tick that fails (database down) is logged at debug and the next one tries again.
 */
export function startScheduler(options: {
  db: Database;
  jobs: readonly ScheduledJob[];
  instanceId: string;
  tickMs: number;
  logger: Logger;
  clock?: () => Date;
}): Scheduler {
  const { db, jobs, instanceId, tickMs, logger, clock = () => new Date() } = options;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = running.then(() =>
      runDueJobs(db, jobs, instanceId, clock(), logger).catch((error: Error) =>
        logger.debug({ message: error.message }, 'scheduler tick failed'),
      ),
    );
  };
  tick();
  const timer = setInterval(tick, tickMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
