/**
 * `npm run exclusions:import -- FILE [--yes] [--reason "why"]` (issue 30 item 1): read an exclusion list
 * file (OIG LEIE full or monthly file, SAM.gov V2 extract, a state Medicaid list) into the configured
 * database the way the admin's 'Import' does, and print what it is: the detected source and kind, the
 * encoding, the rows read, the skipped lines with why, and the first rows by line, exclusion type, date
 * and state (never a name, birth date or NPI: issue 30 item 3). Without `--yes` the import stays staged
 * (apply it on the 'Exclusions' tab, or run again with `--yes`); with `--yes` it is applied and every
 * application under review and approved is screened, the administrators emailed about what is new.
 * A full file that empties or shrinks a list by more than 10 % needs `--reason`.
 *
 * Target: DATABASE_URL, or the embedded cluster in DATA_DIR (the running one when the server is up).
 * Exit codes: 0 done, 1 refused or failed (the message says why; no SQL, no row values).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import type { StagedImport } from '../domain/api/screening.ts';
import { AppError } from '../domain/app-error.ts';
import { loadEnv } from '../server/env.ts';
import { createMailer } from '../server/mail/mailer.ts';
import { applyExclusionImport, stageExclusionFile } from '../server/screening/exclusion-imports.ts';
import { DEFAULT_UNPACK } from '../server/screening/list-file-opening.ts';
import { runScreeningMonitor } from '../server/screening/monitoring.ts';
import { sweepTempFiles } from '../server/storage/temp-files.ts';
import { openScriptDatabase } from './script-database.ts';

const USAGE =
  'Usage: npm run exclusions:import -- FILE [--yes] [--reason "why"]\n' +
  '  FILE      OIG LEIE UPDATED.csv, YYMMEXCL.csv or YYMMREIN.csv; SAM.gov V2 exclusions extract; a state Medicaid list\n' +
  '  --yes     apply the file after reading it (otherwise it stays staged for the Exclusions tab)\n' +
  '  --reason  why a full file that empties or shrinks a list by more than 10 % is applied anyway';

/** The summary printed after 'Import': counts, skipped lines, the sample without personal fields. */
export function describeStaged(staged: StagedImport): string {
  const lines = [
    `${staged.fileName}: ${staged.formatLabel} (${staged.sourceLabel}, ${staged.kind}), ${staged.encoding}.`,
    `Rows read: ${staged.rowCount}. Skipped lines: ${staged.skippedCount}. The list has ${staged.currentRows} rows now.`,
    ...staged.skipped.slice(0, 20).map((s) => `  skipped ${s.reason}`),
    ...(staged.skippedCount > 20 ? [`  ... and ${staged.skippedCount - 20} more skipped lines`] : []),
    staged.sample.length ? 'First rows:' : 'The file has no rows.',
    ...staged.sample.map(
      (r) =>
        `  line ${r.line}: ${r.exclusionType || 'exclusion'}${r.exclusionDate ? ` of ${r.exclusionDate}` : ''}${
          r.reinstatementDate ? `, ended ${r.reinstatementDate}` : ''
        }`,
    ),
  ];
  if (staged.needsReason) lines.push(staged.needsReason);
  return lines.join('\n');
}

async function main(): Promise<number> {
  let args: ReturnType<typeof parse>;
  const parse = () =>
    parseArgs({
      allowPositionals: true,
      options: {
        yes: { type: 'boolean', default: false },
        reason: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  try {
    args = parse();
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 1;
  }
  const file = args.positionals[0];
  if (args.values.help || !file) {
    console.log(USAGE);
    return args.values.help ? 0 : 1;
  }
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) {
    console.error(`No file ${file}.\n${USAGE}`);
    return 1;
  }
  const env = loadEnv();
  const logger = pino({ level: 'warn' });
  const { database, close } = await openScriptDatabase(env, logger);
  try {
    // What an earlier run killed mid-import left unpacked (never a file another run is using).
    await sweepTempFiles(DEFAULT_UNPACK.dir, { prefix: DEFAULT_UNPACK.prefix, recursive: false });
    const staged = await stageExclusionFile(database.db, file, {
      fileName: path.basename(file),
      stagedBy: null,
      now: new Date(),
    });
    console.log(describeStaged(staged));
    if (!args.values.yes) {
      console.log(
        `Staged as import ${staged.id}. Apply it on the admin's Exclusions tab, or run again with --yes.`,
      );
      return 0;
    }
    const applied = await applyExclusionImport(database.db, staged.id, {
      appliedBy: null,
      reason: args.values.reason,
      now: new Date(),
    });
    const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, dataDir: env.dataDir, logger });
    const run = await runScreeningMonitor(
      { db: database.db, mailer, appUrl: env.appUrl, logger },
      new Date(),
      'apply',
    );
    console.log(
      `Applied: the ${staged.sourceLabel} list had ${applied.rowsBefore} rows and has ${applied.rowsAfter}` +
        ` (${applied.kind === 'reinstatements' ? `${applied.changedRows} exclusions ended, ${applied.unmatchedRows} rows matched none` : `${applied.changedRows} rows added`}).` +
        ` Screened ${run.screened} applications: ${run.newMatches.length} new matches, ${run.newPossibleMatches} new possible matches, ${run.newPendingChanges} findings no longer listed.`,
    );
    return 0;
  } catch (error) {
    // AppError messages are written for people; anything else is reported without its detail (it may
    // carry SQL or row values).
    console.error(
      error instanceof AppError ? error.message : 'The import failed; nothing was applied. Try again.',
    );
    return 1;
  } finally {
    await close();
  }
}

process.exit(await main());
