/**
 * Writes and deletes the volume seed on a pool: refuses to seed twice unless told to replace, runs
 * the insert statements of seed-statements.ts in one transaction with a progress line per step,
 * then vacuums and analyzes the tables so the planner sees their new sizes.
 */
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import type { FieldCipher } from '../../server/security/field-cipher.ts';
import {
  historyStatements,
  MEDICAL_DIRECTORS,
  SEED_IMPORT_FILE_PREFIX,
  seedAttestationAnswers,
} from './seed-history.ts';
import { SEED_USER_PREFIX, seedIdFunctionsSql } from './seed-ids.ts';
import { REVIEWERS, seedSize, seedStatements } from './seed-statements.ts';

export interface SeedVolumeOptions {
  /** Providers to create (default 100,000; a multiple of 10). Applications, section rows and documents scale with it. */
  providers?: number;
  /** Delete previously seeded rows first instead of refusing. */
  replace?: boolean;
  /** Progress lines (default console.log). */
  log?: (line: string) => void;
  /**
   * The field cipher of the server that will read the database: the seeded attestations' answers are
   * encrypted with it (seed-history.ts `seedAttestationAnswers`), so seeded review pages open.
   */
  cipher: Pick<FieldCipher, 'encrypt'>;
}

export interface SeedVolumeResult {
  providers: number;
  applications: number;
  sectionRows: number;
  documents: number;
  /** Milliseconds per step. */
  timings: Record<string, number>;
}

/** True when this database already holds seeded rows. */
export async function isSeeded(client: pg.ClientBase): Promise<boolean> {
  const { rows } = await client.query<{ seeded: boolean }>(
    `select exists (select 1 from "user" where id like $1) as seeded`,
    [`${SEED_USER_PREFIX}%`],
  );
  return rows[0]!.seeded;
}

/**
 * Delete every seeded row (and only those): documents first (no index on documents.user_id, so the
 * user cascade would scan the table once per user), then applications (cascading to section rows),
 * then users (cascading to profiles and roles).
 */
async function deleteSeeded(client: pg.ClientBase): Promise<void> {
  await client.query(`delete from documents where user_id like $1`, [`${SEED_USER_PREFIX}%`]);
  await client.query(`vacuum documents`);
  await client.query(`delete from provider_applications where user_id like $1`, [`${SEED_USER_PREFIX}%`]);
  await client.query(`delete from "user" where id like $1`, [`${SEED_USER_PREFIX}%`]);
  await client.query(`delete from exclusion_imports where file_name like $1`, [
    `${SEED_IMPORT_FILE_PREFIX}%`,
  ]);
}

/**
 * Seed `options.providers` providers with applications, section rows and documents on `pool`
 * (migrations must have run). Everything but the final vacuum is one transaction: a failure leaves
 * no partial seed.
 * @throws Error when `providers` is not a multiple of 10 (at least 10), or when the database is
 *   already seeded and `replace` is not set; PostgreSQL errors of the statements (rolled back)
 */
export async function seedVolume(pool: pg.Pool, options: SeedVolumeOptions): Promise<SeedVolumeResult> {
  const providers = options.providers ?? 100_000;
  const log = options.log ?? ((line: string) => console.log(line));
  // Seeded providers 1..REVIEWERS review the others and the next MEDICAL_DIRECTORS decide: fewer would
  // leave files with a reviewer or director who is not there.
  const least = Math.ceil((REVIEWERS + MEDICAL_DIRECTORS + 1) / 10) * 10;
  if (!Number.isInteger(providers) || providers < least || providers % 10 !== 0) {
    throw new Error(`--providers must be a multiple of 10 (at least ${least}).`);
  }
  const size = seedSize(providers);
  const timings: Record<string, number> = {};
  const client = await pool.connect();
  const step = async (name: string, sql: string, params: unknown[] = []) => {
    const started = performance.now();
    const result = await client.query(sql, params);
    timings[name] = Math.round(performance.now() - started);
    log(`  ${name.padEnd(24)} ${String(result.rowCount ?? '').padStart(9)} rows  ${timings[name]} ms`);
  };
  try {
    if (await isSeeded(client)) {
      if (!options.replace) {
        throw new Error(
          'This database already holds the volume seed. Run with --replace to delete it and seed again.',
        );
      }
      const started = performance.now();
      await deleteSeeded(client);
      timings['delete previous seed'] = Math.round(performance.now() - started);
      log(`  deleted the previous seed in ${timings['delete previous seed']} ms`);
    }
    await client.query('begin');
    await client.query(seedIdFunctionsSql(providers));
    const answers = seedAttestationAnswers(options.cipher);
    for (const statement of [...seedStatements(size), ...historyStatements(size, answers)])
      await step(statement.name, statement.sql, statement.params);
    const started = performance.now();
    await client.query('commit');
    timings.commit = Math.round(performance.now() - started);
    await step(
      'vacuum analyze',
      `vacuum (analyze) "user", profiles, user_roles, provider_applications, personal_information,
         professional_licenses, education, work_history, malpractice_insurance, vaccinations, payors,
         certifications, cme, peer_references, documents, verification_items, information_requests,
         application_attestations, decision_referrals, decision_facts, provider_credentials, screening_findings,
         exclusion_imports, scheduled_job_runs, staff_roles`,
    );
    return {
      providers,
      applications: size.applications,
      sectionRows: size.perListTable * 10,
      documents: size.documents,
      timings,
    };
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
