/**
 * `npm run exclusions:import -- FILE [--yes] [--reason ...]` (issue 30 items 1 and 3), run as a real
 * child process against a test database, the way an operator runs it: it prints the detected kind, the
 * counts, the skipped lines and the sample by line, never a name, birth date or NPI of a row and never
 * SQL; without --yes the file stays staged, with --yes it is applied; a shrinking file needs --reason.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../tests/harness.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../tests/fixtures/exclusions');
let database: Awaited<ReturnType<typeof createTestDatabase>>;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cred-exclusions-cli-'));

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/exclusions-import.ts', ...args], {
      env: { ...process.env, DATABASE_URL: database.url, DATA_DIR: dataDir, SMTP_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function query(text: string) {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

describe('npm run exclusions:import', () => {
  it('stages, prints what the file is without row values, and applies with --yes', async () => {
    const file = path.join(FIXTURES, 'leie/bad-rows.csv');
    const staged = await run([file]);
    expect(staged.code, staged.stderr).toBe(0);
    expect(staged.stdout).toMatch(/OIG LEIE/);
    expect(staged.stdout).toMatch(/windows-1252/);
    expect(staged.stdout).toMatch(/Rows read: 4\. Skipped lines: 3\./);
    expect(staged.stdout).toMatch(/skipped line 3: .*19870231/);
    expect(staged.stdout).toMatch(/line 2: 1128b4 of 2016-11-20/);
    // Names, birth dates and addresses of the rows never appear.
    for (const value of ['ALBERTY', 'CRYSTAL', 'MUÑOZ', 'MARIA', '19720909', 'WOODLAND', '1790709913']) {
      expect(staged.stdout + staged.stderr).not.toContain(value);
    }
    expect(staged.stdout).toMatch(/Staged as import \d+/);
    expect(await query(`select count(*)::int as n from exclusion_entries where not staged`)).toEqual([
      { n: 0 },
    ]);

    const applied = await run([path.join(FIXTURES, 'leie/UPDATED.csv'), '--yes']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/Applied: the OIG LEIE list had 0 rows and has 62/);
    // The earlier staged import of the same source gave way to this one.
    expect(
      await query(`select status, count(*)::int as n from exclusion_imports group by status order by status`),
    ).toEqual([
      { status: 'applied', n: 1 },
      { status: 'discarded', n: 1 },
    ]);
  }, 60_000);

  it('refuses a shrinking full file without --reason, and a file of no known list, with a message and exit 1', async () => {
    const shrinking = await run([path.join(FIXTURES, 'leie/header-only.csv'), '--yes']);
    expect(shrinking.code).toBe(1);
    expect(shrinking.stderr).toMatch(/no rows.*Give a reason/s);
    expect(shrinking.stderr).not.toMatch(/insert|select|update/i);
    const unknown = path.join(dataDir, 'other.csv');
    fs.writeFileSync(unknown, 'NAME,NPI\nSOMEONE,1234567893\n');
    const refused = await run([unknown]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/not one of the exclusion lists accepted/);
    expect(refused.stderr).not.toContain('SOMEONE');
    const confirmed = await run([
      path.join(FIXTURES, 'leie/header-only.csv'),
      '--yes',
      '--reason',
      'OIG list withdrawn',
    ]);
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(confirmed.stdout).toMatch(/had 62 rows and has 0/);
  }, 60_000);
});
