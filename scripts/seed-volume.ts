/**
 * `npm run seed:volume` (issue 6): a volume data set for the admin dashboard and its benchmark.
 *
 * Writes, inside PostgreSQL with `generate_series` (no round trip per row):
 * - 100,000 providers: `user` + `profiles` + `user_roles` rows (no password: seeded users cannot sign in),
 *   emails `first.last.N@volume-seed.test`, joined over the last ~2.5 years;
 * - 110,000 applications: one per provider, plus a second (draft) one for every tenth provider;
 * - 1,000,000 section rows: 100,000 personal information rows (SSN last four only, no ciphertext) and
 *   100,000 rows in each of the nine other list-section tables;
 * - 200,000 document rows. Their objects are not written (the benchmark never downloads): a download
 *   of a seeded document answers the documents route's "file missing" error.
 *
 * Target: DATABASE_URL, or the embedded cluster in DATA_DIR (the running one when the server is up).
 * Migrations are applied first. Seeded rows are recognisable by their ids (`feed0000-…`); the script
 * refuses to run twice unless given `--replace`, which deletes the seeded rows (and only those) first.
 *
 * Usage: `npm run seed:volume [-- --replace] [-- --providers 20000]`
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type pg from 'pg';
import pino from 'pino';
import { type DatabaseHandle, openDatabase, runMigrations } from '../server/db/client.ts';
import { runningEmbeddedUrl } from '../server/db/embedded-postgres.ts';
import { loadEnv } from '../server/env.ts';
import { openConfiguredDatabase } from '../server/runtime.ts';

/** Id prefix of every seeded user (text ids) and application (uuid ids). */
export const SEED_USER_PREFIX = 'feed0000-0000-4000-8000-';
const SEED_APPLICATION_PREFIX = 'feed0000-0000-4000-a000-';
const SEED_EMAIL_DOMAIN = 'volume-seed.test';

export interface SeedVolumeOptions {
  /** Providers to create (default 100,000). Applications, section rows and documents scale with it. */
  providers?: number;
  /** Delete previously seeded rows first instead of refusing. */
  replace?: boolean;
  /** Progress lines (default console.log). */
  log?: (line: string) => void;
}

export interface SeedVolumeResult {
  providers: number;
  applications: number;
  sectionRows: number;
  documents: number;
  /** Milliseconds per step. */
  timings: Record<string, number>;
}

const FIRST_NAMES = [
  'James',
  'Mary',
  'Robert',
  'Patricia',
  'John',
  'Jennifer',
  'Michael',
  'Linda',
  'David',
  'Elizabeth',
  'William',
  'Barbara',
  'Richard',
  'Susan',
  'Joseph',
  'Jessica',
  'Thomas',
  'Sarah',
  'Charles',
  'Karen',
  'Maya',
  'Aisha',
  'Wei',
  'Hiroshi',
  'Priya',
  'Carlos',
  'Sofia',
  'Mateo',
  'Fatima',
  'Omar',
  'Chen',
  'Yuki',
  'Ananya',
  'Lucas',
  'Amara',
  'Ivan',
  'Elena',
  'Kwame',
  'Zara',
  'Noah',
  'Liam',
  'Olivia',
  'Emma',
  'Ava',
  'Ethan',
  'Mia',
  'Arjun',
  'Leila',
  'Diego',
  'Nadia',
  'Tomas',
  'Ingrid',
  'Rafael',
  'Chloe',
  'Samuel',
  'Grace',
  'Daniel',
  'Hannah',
  'Victor',
  'Rosa',
];
const LAST_NAMES = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Okafor',
  'Nakamura',
  'Patel',
  'Nguyen',
  'Kim',
  'Chen',
  'Singh',
  'Kowalski',
  'Ivanova',
  'Haddad',
  'Mensah',
  'Oyelaran',
  'Fischer',
  'Rossi',
  'Dubois',
  'Andersson',
  'Novak',
  'Silva',
  'Costa',
  'Yilmaz',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
  'Hill',
  'Flores',
  'Green',
  'Adams',
  'Nelson',
  'Baker',
  'Hall',
  'Rivera',
  'Campbell',
  'Mitchell',
  'Carter',
  'Roberts',
  'Gomez',
  'Phillips',
  'Evans',
  'Turner',
  'Diaz',
  'Parker',
  'Cruz',
  'Edwards',
  'Collins',
  'Reyes',
  'Stewart',
];

const US_STATES = ['CA', 'NY', 'TX', 'FL', 'IL', 'PA', 'OH', 'GA', 'NC', 'MI', 'MA', 'WA', 'AZ', 'CO', 'MN'];
const CITIES = [
  'Springfield',
  'Riverside',
  'Fairview',
  'Madison',
  'Georgetown',
  'Franklin',
  'Clinton',
  'Salem',
];

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
}

/**
 * Seed `options.providers` providers with applications, section rows and documents on `pool`.
 * @throws Error when the database is already seeded and `replace` is not set
 */
export async function seedVolume(pool: pg.Pool, options: SeedVolumeOptions = {}): Promise<SeedVolumeResult> {
  const providers = options.providers ?? 100_000;
  const log = options.log ?? ((line: string) => console.log(line));
  if (!Number.isInteger(providers) || providers < 10 || providers % 10 !== 0) {
    throw new Error('--providers must be a multiple of 10 (at least 10).');
  }
  // Every tenth provider has a second application (110,000 for 100,000 providers).
  const applications = providers + providers / 10;
  // Per list table: as many rows as providers; personal information: one per application but every
  // eleventh (so 100,000 + 9 x 100,000 = 1,000,000 section rows for 100,000 providers).
  const perListTable = providers;
  const documents = providers * 2;
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
    // Deterministic ids: user i -> feed0000-0000-4000-8000-<i in hex>; application n likewise.
    await client.query(`
      create function pg_temp.seed_user_id(i bigint) returns text language sql immutable
        as $$ select '${SEED_USER_PREFIX}' || lpad(to_hex(i), 12, '0') $$;
      create function pg_temp.seed_app_id(n bigint) returns uuid language sql immutable
        as $$ select ('${SEED_APPLICATION_PREFIX}' || lpad(to_hex(n), 12, '0'))::uuid $$;
      -- Owner of application n: applications 1..P belong to provider n, the rest to every tenth provider.
      create function pg_temp.seed_app_owner(n bigint) returns bigint language sql immutable
        as $$ select case when n <= ${providers} then n else (n - ${providers}) * 10 end $$;
    `);
    await step(
      'users',
      `insert into "user" (id, name, email, email_verified, first_name, last_name, created_at, updated_at)
       select pg_temp.seed_user_id(i), fn || ' ' || ln,
              lower(fn || '.' || ln || '.' || i) || '@${SEED_EMAIL_DOMAIN}', true, fn, ln, ts, ts
       from generate_series(1, $3::int) i,
       lateral (select ($1::text[])[1 + i % cardinality($1::text[])] fn,
                       ($2::text[])[1 + (i * 7 + i / 97) % cardinality($2::text[])] ln,
                       now() - (($3::int - i) * interval '13 minutes') - interval '1 day' ts) x`,
      [FIRST_NAMES, LAST_NAMES, providers],
    );
    await step(
      'profiles',
      `insert into profiles (user_id, first_name, last_name, email, created_at)
       select id, first_name, last_name, email, created_at from "user" where id like $1`,
      [`${SEED_USER_PREFIX}%`],
    );
    await step(
      'user_roles',
      `insert into user_roles (user_id, role) select id, 'user' from "user" where id like $1`,
      [`${SEED_USER_PREFIX}%`],
    );
    await step(
      'applications',
      `insert into provider_applications (id, user_id, application_status, created_at)
       select pg_temp.seed_app_id(n), pg_temp.seed_user_id(owner),
              (case
                 when n > $1::int then 'draft'
                 when owner % 10 = 0 then 'approved'
                 else (array['draft','draft','submitted','under_review','approved','rejected'])[1 + n % 6]
               end)::application_status,
              least(now(), now() - (($1::int - owner) * interval '13 minutes')
                           + (case when n > $1::int then interval '20 hours' else interval '2 hours' end))
       from generate_series(1, $2::int) n, lateral (select pg_temp.seed_app_owner(n) owner) o`,
      [providers, applications],
    );
    await step(
      'personal_information',
      `insert into personal_information (application_id, provider_type, gender, ssn_last4, date_of_birth,
         mobile_phone, npi_number, dea_number, caqh_id, address_line1, address_line2, city, state, zip_code)
       select pg_temp.seed_app_id(n),
              (array['MD','DO','RN','PA','APN','DDS','LPN'])[1 + n % 7],
              (array['M','F'])[1 + n % 2],
              lpad(((n * 7919) % 10000)::text, 4, '0'),
              date '1960-01-01' + (n % 12000)::int,
              '(555) ' || lpad((n % 1000)::text, 3, '0') || '-' || lpad((n % 10000)::text, 4, '0'),
              lpad((1000000000 + n)::text, 10, '0'),
              'B' || chr(65 + (n % 26)::int) || lpad((n % 10000000)::text, 7, '0'),
              (10000000 + n)::text,
              (n % 9000 + 100) || ' Main Street',
              case when n % 3 = 0 then 'Suite ' || (n % 400 + 1) end,
              ($3::text[])[1 + n % cardinality($3::text[])],
              ($4::text[])[1 + n % cardinality($4::text[])],
              lpad((n % 99999)::text, 5, '0')
       from generate_series(1, $1::int) n where n % 11 <> 0 limit $2::int`,
      [applications, perListTable, CITIES, US_STATES],
    );
    // Each list table: row g goes to application 1 + (g * k) mod A, with k coprime to A, so the rows
    // of one table land on distinct applications spread over the whole range.
    const spread = (k: number) => `pg_temp.seed_app_id(1 + (g::bigint * ${k}) % ${applications})`;
    await step(
      'professional_licenses',
      `insert into professional_licenses (application_id, position, license_type, license_number,
         issuing_state, issue_date, expiration_date, status)
       select ${spread(3)}, 0,
              (array['medical_license','nursing_license','dea_license','npi','other'])[1 + g % 5]::license_type,
              'LIC-' || g, ($2::text[])[1 + g % cardinality($2::text[])],
              date '2010-01-01' + (g % 4000), date '2026-01-01' + (g % 1500),
              (array['active','active','active','pending','expired','inactive'])[1 + g % 6]::license_status
       from generate_series(1, $1::int) g`,
      [perListTable, US_STATES],
    );
    await step(
      'education',
      `insert into education (application_id, position, institution_name, degree_type, field_of_study,
         graduation_date, gpa)
       select ${spread(7)}, 0, 'University of ' || ($2::text[])[1 + g % cardinality($2::text[])],
              (array['associate','bachelor','master','doctorate','certificate'])[1 + g % 5]::degree_type,
              (array['Medicine','Nursing','Biology','Pharmacy','Public Health'])[1 + g % 5],
              date '1985-05-15' + (g % 12000), (2.5 + (g % 16) / 10.0)::text
       from generate_series(1, $1::int) g`,
      [perListTable, CITIES],
    );
    await step(
      'work_history',
      `insert into work_history (application_id, position, employer_name, position_title, start_date,
         end_date, is_current_position, responsibilities, supervisor_name, supervisor_contact)
       select ${spread(13)}, 0, ($2::text[])[1 + g % cardinality($2::text[])] || ' General Hospital',
              (array['Attending Physician','Staff Nurse','Resident','Physician Assistant'])[1 + g % 4],
              date '2005-01-01' + (g % 6000),
              case when g % 4 = 0 then null else date '2021-01-01' + (g % 1000) end,
              g % 4 = 0, 'Patient care and clinical documentation', 'Dr. Supervisor ' || g % 500,
              'supervisor' || g % 500 || '@hospital.example'
       from generate_series(1, $1::int) g`,
      [perListTable, CITIES],
    );
    await step(
      'malpractice_insurance',
      `insert into malpractice_insurance (application_id, position, insurance_company, policy_number,
         coverage_amount, effective_date, expiration_date)
       select ${spread(17)}, 0,
              (array['MedPro Group','The Doctors Company','ProAssurance','Coverys'])[1 + g % 4],
              'POL-' || g, '$1,000,000 / $3,000,000', date '2024-01-01' + (g % 700),
              date '2026-01-01' + (g % 700)
       from generate_series(1, $1::int) g`,
      [perListTable],
    );
    await step(
      'vaccinations',
      `insert into vaccinations (application_id, position, vaccine_name, administration_date,
         expiration_date, lot_number, administering_provider)
       select ${spread(19)}, 0,
              (array['covid-19','influenza','hepatitis-b','mmr','tdap','varicella','meningococcal','other'])
                [1 + g % 8]::vaccine_name,
              date '2020-01-01' + (g % 2000), date '2027-01-01' + (g % 700), 'LOT' || g,
              'County Health Clinic'
       from generate_series(1, $1::int) g`,
      [perListTable],
    );
    await step(
      'payors',
      `insert into payors (application_id, payor_name, contract_type, contract_start_date,
         contract_end_date, credentialing_status, notes)
       select ${spread(23)}, (array['Aetna','Cigna','UnitedHealthcare','Humana','Medicare','Medicaid'])[1 + g % 6],
              (array['Fee for service','Capitation','Value based'])[1 + g % 3],
              date '2022-01-01' + (g % 900), date '2027-01-01' + (g % 900),
              (array['pending','approved','denied','expired'])[1 + g % 4]::credentialing_status, null
       from generate_series(1, $1::int) g`,
      [perListTable],
    );
    await step(
      'certifications',
      `insert into certifications (application_id, certification_name, certifying_body,
         certification_number, issue_date, expiration_date)
       select ${spread(29)}, (array['BLS','ACLS','PALS','Board Certified Internal Medicine'])[1 + g % 4],
              (array['American Heart Association','ABIM','ANCC'])[1 + g % 3], 'CERT-' || g,
              date '2018-01-01' + (g % 2000), date '2027-01-01' + (g % 900)
       from generate_series(1, $1::int) g`,
      [perListTable],
    );
    await step(
      'cme',
      `insert into cme (application_id, activity_title, provider_name, category, credit_hours,
         completion_date, certificate_number)
       select ${spread(31)}, 'Clinical Update ' || (g % 300), 'Medical Education Institute',
              (array['Category 1','Category 2','Self-Assessment','Board Certification','Other'])[1 + g % 5]::cme_category,
              (1 + g % 20) * 0.5, date '2022-01-01' + (g % 1000), 'CME-' || g
       from generate_series(1, $1::int) g`,
      [perListTable],
    );
    await step(
      'peer_references',
      `insert into peer_references (application_id, reference_name, title, organization, email, phone,
         relationship, years_known)
       select ${spread(37)}, 'Dr. Reference ' || g, 'Chief of Medicine', 'Regional Medical Center',
              'reference' || g || '@hospital.example', '(555) 010-' || lpad((g % 10000)::text, 4, '0'),
              'Colleague', g % 25
       from generate_series(1, $1::int) g`,
      [perListTable],
    );
    await step(
      'documents',
      `insert into documents (application_id, user_id, document_name, document_type, file_path, file_size,
         mime_type, sha256, uploaded_at)
       select pg_temp.seed_app_id(n), pg_temp.seed_user_id(pg_temp.seed_app_owner(n)),
              (array['cv','license','dea','insurance','diploma','transcript','vaccines','background',
                     'references','other'])[1 + g % 10] || '-' || g || '.pdf',
              (array['cv_resume','medical_license','dea_license','malpractice_insurance','diploma',
                     'transcript','vaccination_record','background_check','references','other'])
                [1 + g % 10]::document_type,
              pg_temp.seed_user_id(pg_temp.seed_app_owner(n)) || '/seed/' || g || '.pdf',
              20000 + (g * 7919) % 2000000, 'application/pdf', repeat('0', 64),
              least(now(), now() - (($2::int - pg_temp.seed_app_owner(n)) * interval '13 minutes')
                           + interval '3 hours' + (g % 600) * interval '1 minute')
       from generate_series(1, $1::int) g,
       lateral (select 1 + (g::bigint * 41) % $3::int n) a`,
      [documents, providers, applications],
    );
    const started = performance.now();
    await client.query('commit');
    timings.commit = Math.round(performance.now() - started);
    await step(
      'vacuum analyze',
      `vacuum (analyze) "user", profiles, user_roles, provider_applications, personal_information,
         professional_licenses, education, work_history, malpractice_insurance, vaccinations, payors,
         certifications, cme, peer_references, documents`,
    );
    return {
      providers,
      applications,
      sectionRows: perListTable * 10,
      documents,
      timings,
    };
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

function parseArgs(argv: string[]): SeedVolumeOptions {
  const options: SeedVolumeOptions = {};
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--replace') options.replace = true;
    else if (argv[i] === '--providers') options.providers = Number(argv[++i]);
    else
      throw new Error(`Unknown option ${argv[i]}. Usage: npm run seed:volume -- [--replace] [--providers N]`);
  }
  return options;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const env = loadEnv();
  const logger = pino({ level: 'warn' });
  // With the embedded cluster already running (npm start), join it instead of starting a second one.
  const runningUrl = env.DATABASE_URL ? undefined : runningEmbeddedUrl(env.dataDir);
  const { database, embedded }: { database: DatabaseHandle; embedded?: { stop(): Promise<void> } } =
    runningUrl
      ? { database: openDatabase(runningUrl, { max: 2, logger }) }
      : await openConfiguredDatabase(env, logger);
  let failed = false;
  try {
    await runMigrations(database.db);
    const started = performance.now();
    console.log(`Seeding ${options.providers ?? 100_000} providers...`);
    const result = await seedVolume(database.pool, options);
    console.log(
      `Done in ${((performance.now() - started) / 1000).toFixed(1)} s: ${result.providers} providers, ` +
        `${result.applications} applications, ${result.sectionRows} section rows, ${result.documents} documents.`,
    );
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    failed = true;
  } finally {
    await database.close();
    await embedded?.stop();
  }
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
