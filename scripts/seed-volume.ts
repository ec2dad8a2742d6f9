/**
 * `npm run seed:volume` (issue 6): a volume data set for the admin dashboard and its benchmark.
 *
 * Writes, inside PostgreSQL with `generate_series` (no round trip per row):
 * - 100,000 providers: `user` + `profiles` + `user_roles` rows (no password: seeded users cannot sign in),
 *   emails `first.last.N@volume-seed.test`, joined over the last ~2.5 years;
 * - 110,000 applications: one per provider, in review (issue 13: 50,000 submitted and 50,000 under
 *   review by 20 seeded administrators, with 400,000 checklist items and 5,000 open information
 *   requests), plus an older approved one for every tenth provider;
 * - 1,000,000 section rows: 100,000 personal information rows (SSN last four only, no ciphertext) and
 *   100,000 rows in each of the nine other list-section tables. Nine in ten rows of the six dated
 *   credentials (issue 14: licenses, malpractice, certifications, vaccinations, payor contracts, the
 *   driver's license; 540,000 rows) carry an expiry date between a year ago and three years ahead of
 *   the seed's day, so the admin 'Expiring' tab has ~25% expired and ~6% within 90 days;
 * - 200,000 document rows. Their objects are not written (the benchmark never downloads): a download
 *   of a seeded document answers the documents route's "file missing" error.
 *
 * Target: DATABASE_URL, or the embedded cluster in DATA_DIR (the running one when the server is up).
 * Migrations are applied first. Seeded rows are recognisable by their ids (`feed0000-…`); the script
 * refuses to run twice unless given `--replace`, which deletes the seeded rows (and only those) first.
 *
 * Layout: this file is the command line; scripts/seed-volume/ holds the seed itself:
 * `seed-database.ts` (seedVolume, isSeeded: the transaction and its progress), `seed-statements.ts`
 * (the insert statements), `seed-ids.ts` (recognisable ids), `sample-values.ts` (names, places).
 *
 * Usage: `npm run seed:volume [-- --replace] [-- --providers 20000]`; `-- --help` prints the usage.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import pino from 'pino';
import { loadEnv } from '../server/env.ts';
import { loadFieldCipher } from '../server/security/field-cipher.ts';
import { openScriptDatabase } from './script-database.ts';
import { type SeedVolumeOptions, seedVolume } from './seed-volume/seed-database.ts';

const USAGE =
  'Usage: npm run seed:volume -- [--replace] [--providers N]   (N: a multiple of 10, at least 30, default 100000)';

/**
 * The command line's options, or `'help'` for `--help`/`-h`.
 * @throws Error naming an unknown option, with the usage line
 */
function parseArgs(argv: string[]): Omit<SeedVolumeOptions, 'cipher'> | 'help' {
  const options: Omit<SeedVolumeOptions, 'cipher'> = {};
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--help' || argv[i] === '-h') return 'help';
    if (argv[i] === '--replace') options.replace = true;
    else if (argv[i] === '--providers') options.providers = Number(argv[++i]);
    else throw new Error(`Unknown option ${argv[i]}. ${USAGE}`);
  }
  return options;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (options === 'help') {
    console.log(USAGE);
    return;
  }
  const env = loadEnv();
  const logger = pino({ level: 'warn' });
  const { database, close } = await openScriptDatabase(env, logger);
  let failed = false;
  try {
    const started = performance.now();
    console.log(`Seeding ${options.providers ?? 100_000} providers...`);
    // The server's cipher (FIELD_ENCRYPTION_KEYS, else the key file in DATA_DIR): seeded attestations
    // are read back by it.
    const cipher = loadFieldCipher({ keyList: env.FIELD_ENCRYPTION_KEYS, dataDir: env.dataDir });
    const result = await seedVolume(database.pool, { ...options, cipher });
    console.log(
      `Done in ${((performance.now() - started) / 1000).toFixed(1)} s: ${result.providers} providers, ` +
        `${result.applications} applications, ${result.sectionRows} section rows, ${result.documents} documents.`,
    );
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    failed = true;
  } finally {
    await close();
  }
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
