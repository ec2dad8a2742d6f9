/**
 * Vitest global setup: the PostgreSQL server tests create their databases on. DATABASE_URL (CI:
 * the server on 127.0.0.1:5432) or, when unset, an embedded cluster under .data-test/.
 *
 * It also prepares one template database the way a start prepares a database (migrations and the
 * one-time data steps, server/prepare-database.ts), so each test file's app copies it (about
 * 80 ms) instead of migrating from nothing (about 1.2 s) (issue 54 item 7). Tests of migrating
 * itself ask for an empty database (tests/harness.ts createTestDatabase).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import type { TestProject } from 'vitest/node';
import { openDatabase, withStartupLock } from '../server/db/client.ts';
import { startEmbeddedPostgres } from '../server/db/embedded-postgres.ts';
import { prepareDatabase } from '../server/prepare-database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
    /** A migrated database to copy (`create database … template`); nobody connects to it. */
    templateDatabase: string;
  }
}

export default async function setup(project: TestProject) {
  let adminUrl = process.env.DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!adminUrl) {
    const dataDir = path.resolve('.data-test/vitest');
    fs.mkdirSync(dataDir, { recursive: true });
    const embedded = await startEmbeddedPostgres(dataDir, pino({ level: 'warn' }), { database: 'postgres' });
    adminUrl = embedded.adminUrl;
    stopEmbedded = () => embedded.stop();
  }
  const template = `cred_template_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${template}`);
  const url = new URL(adminUrl);
  url.pathname = `/${template}`;
  const database = openDatabase(url.toString(), { max: 1 });
  try {
    await withStartupLock(database.pool, (lockedDb) => prepareDatabase(lockedDb, new Date()));
  } finally {
    await database.close();
  }
  project.provide('adminDatabaseUrl', adminUrl);
  project.provide('templateDatabase', template);
  return async () => {
    await adminQuery(adminUrl, `drop database if exists ${template} with (force)`);
    await stopEmbedded?.();
  };
}

async function adminQuery(adminUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}
