/**
 * Instances on one database share their secrets or do not start (issue 12), and say so when
 * documents stay on local disk. Real runtimes (createRuntime) on one real database, in-process.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, TEST_ORIGIN } from '../../tests/harness.ts';
import { loadEnv } from '../env.ts';
import { loggerOptions } from '../logger.ts';
import { createRuntime, type Runtime } from '../runtime.ts';

let databaseUrl: string;
let drop: () => Promise<void>;
const running: Runtime[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  const created = await createTestDatabase();
  databaseUrl = created.url;
  drop = created.drop;
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((runtime) => runtime.close()));
});
afterAll(async () => {
  await drop?.();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const fieldKey = () => `k1:${randomBytes(32).toString('base64')}`;
const authSecret = () => randomBytes(32).toString('base64url');

/** Start an instance (not listening) on the shared database; its log lines land in `logs`. */
async function startInstance(env: Record<string, string>, logs: string[] = []) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cred-instance-'));
  dirs.push(dataDir);
  const logger = pino(loggerOptions('info'), { write: (line: string) => void logs.push(line) });
  const runtime = await createRuntime({
    env: loadEnv({
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      APP_URL: TEST_ORIGIN,
      INSTANCE_HEARTBEAT_MS: '100',
      ...env,
    }),
    logger,
    serveWeb: false,
  });
  running.push(runtime);
  return runtime;
}

async function instanceRows(runtime: Runtime): Promise<{ pid: number; auth: string }[]> {
  const result = await runtime.deps.database.pool.query<{ pid: number; auth: string }>(
    'select pid, auth_secret_fingerprint as auth from server_instances order by started_at',
  );
  return result.rows;
}

it('refuses to start an instance whose AUTH_SECRET differs from a running one, naming it', async () => {
  const keys = fieldKey();
  const secret = authSecret();
  const first = await startInstance({ AUTH_SECRET: secret, FIELD_ENCRYPTION_KEYS: keys });
  await expect(startInstance({ AUTH_SECRET: authSecret(), FIELD_ENCRYPTION_KEYS: keys })).rejects.toThrow(
    /^Refusing to start: AUTH_SECRET differs from that of the instance already running on this database \(host .+, pid \d+\)\. Every instance on one database must use the same AUTH_SECRET/,
  );
  // Only the running instance is registered, and the database holds no secret.
  const rows = await instanceRows(first);
  expect(rows).toHaveLength(1);
  expect(JSON.stringify(rows)).not.toContain(secret);
  expect(rows[0]!.auth).toMatch(/^[0-9a-f]{32}$/);
});

it('refuses to start an instance with its own generated field key (separate DATA_DIR), naming FIELD_ENCRYPTION_KEYS', async () => {
  // Outside production an unset FIELD_ENCRYPTION_KEYS is generated per DATA_DIR: the realistic mistake.
  const secret = authSecret();
  await startInstance({ AUTH_SECRET: secret });
  await expect(startInstance({ AUTH_SECRET: secret })).rejects.toThrow(
    /FIELD_ENCRYPTION_KEYS differs .* SSNs written by one cannot be read by the other/,
  );
});

it('starts instances that share the secrets, warns that local documents are per machine, and forgets one that stopped', async () => {
  const shared = { AUTH_SECRET: authSecret(), FIELD_ENCRYPTION_KEYS: fieldKey() };
  const firstLogs: string[] = [];
  const secondLogs: string[] = [];
  const first = await startInstance(shared, firstLogs);
  expect(firstLogs.join('\n')).not.toContain('Another instance runs on this database');
  const second = await startInstance(shared, secondLogs);
  expect(await instanceRows(first)).toHaveLength(2);

  const warning = (logs: string[]) =>
    logs
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .find((line) => line.msg.startsWith('Another instance runs on this database'));
  // The instance that starts second says so at start-up, naming the other's pid ...
  expect(warning(secondLogs)).toMatchObject({ level: 40 });
  expect(warning(secondLogs)!.msg).toContain(`pid ${process.pid}`);
  expect(warning(secondLogs)!.msg).toContain('Use STORAGE_DRIVER=s3 for more than one instance.');
  // ... and the first learns of the second at its next heartbeat.
  await expect.poll(() => warning(firstLogs), { timeout: 5_000 }).toBeDefined();

  // A clean stop removes the row; an instance with other secrets may then start (a deliberate change).
  await second.close();
  expect(await instanceRows(first)).toHaveLength(1);
  await first.close();
  await startInstance({ AUTH_SECRET: authSecret(), FIELD_ENCRYPTION_KEYS: fieldKey() });
});

it('ignores an instance that was killed (no heartbeat for three intervals)', async () => {
  const first = await startInstance({ AUTH_SECRET: authSecret(), FIELD_ENCRYPTION_KEYS: fieldKey() });
  // What a SIGKILL leaves: a row whose heartbeat stopped (here 1 s ago: 10 heartbeats of 100 ms).
  await first.deps.database.pool.query(
    `insert into server_instances (id, host, pid, storage_driver, auth_secret_fingerprint, field_keys_fingerprint, last_seen_at)
     values (gen_random_uuid(), 'gone', 1, 'local', 'other', 'other', now() - interval '1 second')`,
  );
  await first.close();
  const logs: string[] = [];
  await startInstance({ AUTH_SECRET: authSecret(), FIELD_ENCRYPTION_KEYS: fieldKey() }, logs);
  expect(logs.join('\n')).not.toContain('Another instance runs on this database');
});
