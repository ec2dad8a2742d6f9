/**
 * Scheduled jobs run once per period across instances (issue 12): instances racing for a period, the
 * next period, a failed run tried again later, and a claim left by a dead instance taken over once
 * its lease ends. The clock is an input: every call gets its `now`.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../tests/harness.ts';
import { type DatabaseHandle, openDatabase, runMigrations } from '../db/client.ts';
import { scheduledJobRuns } from '../db/schema/instances.ts';
import { claimJobRun, runDueJobs, type ScheduledJob, startScheduler, utcDay } from './scheduled-jobs.ts';

const silent = pino({ level: 'silent' });
let database: DatabaseHandle;
let drop: () => Promise<void>;

beforeAll(async () => {
  const created = await createTestDatabase();
  drop = created.drop;
  database = openDatabase(created.url);
  await runMigrations(database.db);
});
afterAll(async () => {
  await database?.close();
  await drop?.();
});

/** A daily job that counts its runs and can be told to fail. */
function countingJob(name: string, behaviour: { fail?: boolean } = {}) {
  const runs: string[] = [];
  const job: ScheduledJob = {
    name,
    periodOf: utcDay,
    retryMs: 5 * 60_000,
    leaseMs: 15 * 60_000,
    async run(now) {
      runs.push(now.toISOString());
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (behaviour.fail) throw new Error('the job failed');
    },
  };
  return { job, runs, behaviour };
}

async function runRow(job: string, period: string) {
  const [row] = await database.db
    .select()
    .from(scheduledJobRuns)
    .where(and(eq(scheduledJobRuns.job, job), eq(scheduledJobRuns.period, period)));
  return row;
}

describe('runDueJobs', () => {
  it('runs a job once per day however many instances race for it', async () => {
    const { job, runs } = countingJob('race');
    const now = new Date('2026-11-23T03:00:00Z');
    const instances = Array.from({ length: 8 }, () => randomUUID());
    const ran = await Promise.all(instances.map((id) => runDueJobs(database.db, [job], id, now, silent)));
    expect(runs).toHaveLength(1);
    expect(ran.flat()).toEqual(['race']);

    // Later the same day: nothing; the next day: once again.
    await runDueJobs(database.db, [job], instances[1]!, new Date('2026-11-23T23:59:00Z'), silent);
    expect(runs).toHaveLength(1);
    await Promise.all(
      instances.map((id) => runDueJobs(database.db, [job], id, new Date('2026-11-24T00:00:30Z'), silent)),
    );
    expect(runs).toHaveLength(2);
    expect((await runRow('race', '2026-11-24'))?.finishedAt).toBeInstanceOf(Date);
  });

  it('tries a failed run again after its retry delay, on any instance, and records the error', async () => {
    const { job, runs, behaviour } = countingJob('flaky', { fail: true });
    const now = new Date('2026-11-23T03:00:00Z');
    await runDueJobs(database.db, [job], randomUUID(), now, silent);
    expect(runs).toHaveLength(1);
    const failed = await runRow('flaky', '2026-11-23');
    expect(failed).toMatchObject({ finishedAt: null, lastError: 'the job failed', attempts: 1 });

    // Before the retry time nobody runs it; at the retry time another instance does, and it works.
    await runDueJobs(database.db, [job], randomUUID(), new Date(now.getTime() + 4 * 60_000), silent);
    expect(runs).toHaveLength(1);
    behaviour.fail = false;
    await runDueJobs(database.db, [job], randomUUID(), new Date(now.getTime() + 5 * 60_000), silent);
    expect(runs).toHaveLength(2);
    expect(await runRow('flaky', '2026-11-23')).toMatchObject({ lastError: null, attempts: 2 });
    expect((await runRow('flaky', '2026-11-23'))?.finishedAt).toBeInstanceOf(Date);
  });

  it('lets another instance take over a run whose instance died, once the lease has ended', async () => {
    const { job, runs } = countingJob('orphan');
    const start = new Date('2026-11-23T03:00:00Z');
    // An instance claims the period and dies before finishing (no run, no finish).
    expect(await claimJobRun(database.db, job, utcDay(start), randomUUID(), start)).toBe(true);

    await runDueJobs(database.db, [job], randomUUID(), new Date(start.getTime() + 14 * 60_000), silent);
    expect(runs).toHaveLength(0);
    await runDueJobs(database.db, [job], randomUUID(), new Date(start.getTime() + 15 * 60_000), silent);
    expect(runs).toHaveLength(1);
    expect(await runRow('orphan', '2026-11-23')).toMatchObject({ attempts: 2, lastError: null });
  });
});

describe('startScheduler', () => {
  it('runs due jobs on its ticks with the clock it is given, and stops', async () => {
    const { job, runs } = countingJob('ticking');
    let now = new Date('2026-12-01T08:00:00Z');
    const scheduler = startScheduler({
      db: database.db,
      jobs: [job],
      instanceId: randomUUID(),
      tickMs: 50,
      logger: silent,
      clock: () => now,
    });
    try {
      await expect.poll(() => runs.length, { timeout: 5_000 }).toBe(1);
      now = new Date('2026-12-02T08:00:00Z');
      await expect.poll(() => runs.length, { timeout: 5_000 }).toBe(2);
    } finally {
      await scheduler.stop();
    }
    now = new Date('2026-12-03T08:00:00Z');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(runs).toHaveLength(2);
  });
});
