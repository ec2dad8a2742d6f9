/**
 * Vitest global setup: the PostgreSQL server tests create their databases on. DATABASE_URL (CI:
 * the server on 127.0.0.1:5432) or, when unset, an embedded cluster under .data-test/.
 */
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../server/db/embedded-postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    project.provide('adminDatabaseUrl', process.env.DATABASE_URL);
    return;
  }
  const dataDir = path.resolve('.data-test/vitest');
  fs.mkdirSync(dataDir, { recursive: true });
  const embedded = await startEmbeddedPostgres(dataDir, pino({ level: 'warn' }), { database: 'postgres' });
  project.provide('adminDatabaseUrl', embedded.adminUrl);
  return async () => {
    await embedded.stop();
  };
}
