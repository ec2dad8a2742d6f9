/**
 * `npm run leie:import -- FILE` (issue 15): import the OIG LEIE full file (UPDATED.csv) into the
 * configured database, replacing the list in one transaction (a bad file leaves the previous one),
 * then re-screen every application under review and every approved one, emailing the administrators
 * about new matches (as the admin upload does). The same code as the admin upload
 * (server/review/leie.ts); the import is recorded without a user.
 *
 * Target: DATABASE_URL, or the embedded cluster in DATA_DIR (the running one when the server is up).
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { loadEnv } from '../server/env.ts';
import { createMailer } from '../server/mail/mailer.ts';
import { afterLeieImport } from '../server/review/leie.routes.ts';
import { importLeie } from '../server/review/leie.ts';
import { openScriptDatabase } from './script-database.ts';

const USAGE = 'Usage: npm run leie:import -- FILE   (the OIG LEIE full file, UPDATED.csv)';

async function main() {
  const file = process.argv[2];
  if (!file || file === '--help' || file === '-h') {
    console.log(USAGE);
    process.exit(file ? 0 : 1);
  }
  if (!fs.existsSync(file)) {
    console.error(`No file ${file}. ${USAGE}`);
    process.exit(1);
  }
  const env = loadEnv();
  const logger = pino({ level: 'warn' });
  const { database, close } = await openScriptDatabase(env, logger);
  let failed = false;
  try {
    const started = performance.now();
    const imported = await importLeie(database.db, fs.createReadStream(file), {
      fileName: path.basename(file),
      importedBy: null,
      now: new Date(),
    });
    const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, dataDir: env.dataDir, logger });
    const { rescreened, monitored } = await afterLeieImport(
      { db: database.db, mailer, appUrl: env.appUrl, logger },
      new Date(),
    );
    console.log(
      `Imported ${imported.rowCount} exclusions from ${imported.fileName} in ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
        `re-screened ${rescreened} applications under review and ${monitored.screened} approved ones ` +
        `(${monitored.newMatches.length} new matches; the administrators were emailed when there were any).`,
    );
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    failed = true;
  } finally {
    await close();
  }
  process.exit(failed ? 1 : 0);
}

await main();
