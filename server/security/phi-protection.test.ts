/**
 * PHI protection (issue 7; HIPAA 164.312(a)(2)(iv), 164.312(b)): a canary SSN entered by a provider
 * never appears in plaintext in the database (a dump) or in the logs, and admins only see it masked.
 * The app runs with the production logger options and the real (file) mailer, at trace level: the
 * configuration a deployment logs with (issue 10 item 13).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';

const run = promisify(execFile);
const CANARY_SSN = '987-65-4329';
const CANARY_DIGITS = '987654329';

let app: TestApp;
let dumpTool: { usable: true } | { usable: false; reason: string };
beforeAll(async () => {
  app = await createTestApp({ LOG_LEVEL: 'trace', NODE_ENV: 'development' }, { realMailer: true });
  dumpTool = await pgDumpFor(app.databaseUrl);
});
afterAll(async () => {
  await app?.close();
});

/** Every row of every table in the public schema, as text: what a dump of the data holds. */
async function allTableText(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(
      `select quote_ident(table_name) as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    const parts: string[] = [];
    for (const { name } of tables.rows) {
      const rows = await client.query<{ t: string }>(`select t::text as t from ${name} t`);
      parts.push(...rows.rows.map((r) => r.t));
    }
    return parts.join('\n');
  } finally {
    await client.end();
  }
}

/** Major version of a `pg_dump --version` / `server_version_num` pair. */
async function pgDumpFor(databaseUrl: string): Promise<{ usable: true } | { usable: false; reason: string }> {
  let clientMajor: number;
  try {
    const { stdout } = await run('pg_dump', ['--version']);
    clientMajor = Number(stdout.match(/(\d+)\.\d+/)?.[1]);
  } catch {
    return { usable: false, reason: 'pg_dump is not installed (apt-get install postgresql-client)' };
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ v: string }>(`select current_setting('server_version_num') as v`);
  await client.end();
  const serverMajor = Math.floor(Number(rows[0]!.v) / 10000);
  return clientMajor >= serverMajor
    ? { usable: true }
    : { usable: false, reason: `pg_dump ${clientMajor} cannot dump a PostgreSQL ${serverMajor} server` };
}

/** pg_dump of the data; any failure fails the test (no silent fallback). */
async function pgDump(databaseUrl: string): Promise<string> {
  const { stdout } = await run('pg_dump', ['--data-only', '--no-owner', databaseUrl], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

describe('canary SSN', () => {
  it('is encrypted at rest, masked for admins and absent from the logs', async () => {
    // First, Alice fills in her personal information with the canary SSN.
    const alice = await signUpAndSignIn(app);
    const application = await alice.json<{ id: string }>('POST', '/api/applications', {});
    const base = `/api/applications/${application.body.id}/sections`;
    const saved = await alice.json('PUT', `${base}/personal-information`, {
      providerType: 'MD',
      ssn: CANARY_SSN,
      dateOfBirth: '1980-04-12',
      npiNumber: '1234567893',
    });
    expect(saved.status).toBe(200);
    // She reads it back in full (she owns it).
    const own = await alice.json<{ personalInformation: { ssn: string } }>(
      'GET',
      `${base}/personal-information`,
    );
    expect(own.body.personalInformation.ssn).toBe(CANARY_SSN);

    // Second, an admin reviews her: the SSN arrives masked.
    const admin = await signUpAndSignIn(app);
    await grantAdmin(app, admin);
    const adminView = await admin.request('GET', `${base}/personal-information`);
    const adminText = await adminView.text();
    expect(adminView.status).toBe(200);
    expect(adminText).not.toContain(CANARY_SSN);
    expect(adminText).not.toContain(CANARY_DIGITS);
    expect(adminText).toContain('4329');

    // The database holds no plaintext SSN in any row (the dump below checks the same with pg_dump).
    const tableText = await allTableText(app.databaseUrl);
    expect(tableText).not.toContain(CANARY_SSN);
    expect(tableText).not.toContain(CANARY_DIGITS);
    expect(tableText).toContain('4329'); // the last four, kept for masked display

    // The logs (at trace level) never carry it.
    await alice.json('POST', '/api/auth/sign-out', {});
    const logs = app.logs.join('\n');
    expect(logs.length).toBeGreaterThan(1000);
    expect(logs).not.toContain(CANARY_SSN);
    expect(logs).not.toContain(CANARY_DIGITS);
    expect(logs).not.toContain('1980-04-12');
  });

  // Skipped, visibly, only when this machine's pg_dump is older than the server (embedded PostgreSQL
  // 17 with Debian's pg_dump 15); CI's PostgreSQL 15 server runs it.
  it('a pg_dump of the database holds no plaintext SSN', async (context) => {
    if (!dumpTool.usable) {
      context.skip(dumpTool.reason);
      return;
    }
    const alice = await signUpAndSignIn(app);
    const application = await alice.json<{ id: string }>('POST', '/api/applications', {});
    await alice.json('PUT', `/api/applications/${application.body.id}/sections/personal-information`, {
      ssn: CANARY_SSN,
    });
    const dump = await pgDump(app.databaseUrl);
    expect(dump).toContain('personal_information');
    expect(dump).toContain(application.body.id);
    expect(dump).not.toContain(CANARY_SSN);
    expect(dump).not.toContain(CANARY_DIGITS);
  });

  it('a bad request echoing PHI does not log it either', async () => {
    const alice = await signUpAndSignIn(app);
    const application = await alice.json<{ id: string }>('POST', '/api/applications', {});
    const response = await alice.json(
      'PUT',
      `/api/applications/${application.body.id}/sections/personal-information`,
      {
        ssn: CANARY_SSN,
        dateOfBirth: 'not-a-date',
      },
    );
    expect(response.status).toBe(400);
    expect(app.logs.join('\n')).not.toContain(CANARY_SSN);
  });
});
