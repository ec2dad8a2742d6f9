/**
 * What several server instances on one database share about themselves (issue 12): who is running
 * (a heartbeat row per instance) and which scheduled job ran for which period. Neither table holds a
 * secret or PHI: an instance row carries fingerprints of its secrets, never the secrets.
 */
import { integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** One row per running server process; removed at a clean stop, left to go stale by a killed one. */
export const serverInstances = pgTable('server_instances', {
  id: uuid('id').primaryKey(),
  /** Host name of the machine, for the operator reading a warning. */
  host: text('host').notNull(),
  pid: integer('pid').notNull(),
  /** STORAGE_DRIVER of the instance ('local' | 's3'). */
  storageDriver: text('storage_driver').notNull(),
  /** HMAC fingerprint of AUTH_SECRET (security/secret-fingerprints.ts); never the secret. */
  authSecretFingerprint: text('auth_secret_fingerprint').notNull(),
  /** HMAC fingerprint of the field encryption key list, in order; never a key. */
  fieldKeysFingerprint: text('field_keys_fingerprint').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  /** Database time of the last heartbeat; an instance silent for 3 heartbeats is gone. */
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One row per job and period (e.g. 'housekeeping', '2026-11-23'): the claim that makes it run once. */
export const scheduledJobRuns = pgTable(
  'scheduled_job_runs',
  {
    job: text('job').notNull(),
    /** The period's key, e.g. the UTC date of a daily job. */
    period: text('period').notNull(),
    /** The instance that holds (or last held) the claim. */
    instanceId: uuid('instance_id').notNull(),
    attempts: integer('attempts').notNull().default(1),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    /** Until when the claim is held; a run not finished by then may be claimed by another instance. */
    leaseUntil: timestamp('lease_until', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** The last failure's message (no values from the data), cleared on success. */
    lastError: text('last_error'),
  },
  (table) => [primaryKey({ columns: [table.job, table.period] })],
);
