/**
 * Credentialing data that leaves the product (issue 33, docs/decisions/030):
 *
 * - api_clients: the machine clients an administrator registers ('API Client'): a name, the scopes
 *   it may be granted (`system/Practitioner.read`, `system/*.read`, `roster.read`), and the SHA-256 of
 *   its secret (a 256-bit random value, so a fast hash is enough: nothing to guess). Optionally its
 *   public JSON Web Key Set (migration 0026), for SMART Backend Services' signed JWT assertion
 *   (`private_key_jwt`, RFC 7523). Revoking a client refuses every token it holds.
 * - api_client_assertion_jtis: the `jti` of every assertion accepted, until the assertion expires,
 *   so an assertion is never accepted twice (RFC 7523 §3 item 7; migration 0026).
 * - api_client_tokens: the short-lived bearer tokens of `POST /oauth/token` (OAuth 2.0 client
 *   credentials), by the SHA-256 of the token; never the token itself.
 * - fhir_export_jobs, fhir_export_files: a Bulk Data `$export` (FHIR Bulk Data Access IG, the async
 *   pattern): its request, its state, and the NDJSON files it wrote to object storage.
 * - roster_column_choices: each administrator's last 'Export Roster' column choice.
 */
import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type { PublicJwks } from '../../../domain/api-clients.ts';
import { user } from './auth.ts';

export const apiClients = pgTable('api_clients', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  /** The OAuth `client_id` the client sends; random, not secret. */
  clientId: text('client_id').notNull().unique(),
  /** Hex SHA-256 of the `client_secret`. */
  secretHash: text('secret_hash').notNull(),
  /** After 'Rotate Secret': hex SHA-256 of the secret before, accepted until previousSecretExpiresAt. */
  previousSecretHash: text('previous_secret_hash'),
  previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true }),
  scopes: jsonb('scopes').$type<string[]>().notNull(),
  createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  revokedBy: text('revoked_by').references(() => user.id, { onDelete: 'set null' }),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  /**
   * The client's public JSON Web Key Set (`{ keys: [...] }`, RS384 or ES384 keys, public members
   * only: domain/api-clients.ts `checkPublicJwks`), for `private_key_jwt`; null = secret only.
   */
  jwks: jsonb('jwks').$type<PublicJwks>(),
});

export const apiClientAssertionJtis = pgTable(
  'api_client_assertion_jtis',
  {
    apiClientId: uuid('api_client_id')
      .notNull()
      .references(() => apiClients.id, { onDelete: 'cascade' }),
    /** Hex SHA-256 of the assertion's `jti` (bounded, whatever the client sent). */
    jtiHash: text('jti_hash').notNull(),
    /** The assertion's `exp` plus the clock tolerance: the `jti` may not be used again before. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.apiClientId, t.jtiHash] })],
);

export const apiClientTokens = pgTable(
  'api_client_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    apiClientId: uuid('api_client_id')
      .notNull()
      .references(() => apiClients.id, { onDelete: 'cascade' }),
    /** Hex SHA-256 of the bearer token. */
    tokenHash: text('token_hash').notNull().unique(),
    /** What this token was granted (a subset of the client's scopes). */
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('api_client_tokens_client_idx').on(t.apiClientId)],
);

export const fhirExportJobs = pgTable(
  'fhir_export_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    apiClientId: uuid('api_client_id')
      .notNull()
      .references(() => apiClients.id, { onDelete: 'cascade' }),
    /** The kick-off request's URL (the manifest's `request`). */
    requestUrl: text('request_url').notNull(),
    /** The `_type` resource types, in the order written. */
    types: jsonb('types').$type<string[]>().notNull(),
    /** `_since`: only resources changed after it. */
    since: timestamp('since', { withTimezone: true }),
    /** 'queued', 'running', 'completed', 'failed' or 'cancelled'. */
    status: text('status').notNull(),
    /** The manifest's `transactionTime`: resources are as of this instant. */
    transactionTime: timestamp('transaction_time', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** Why it failed, as a person can act on it (no PHI). */
    error: text('error'),
  },
  (t) => [
    index('fhir_export_jobs_client_idx').on(t.apiClientId, t.createdAt),
    check(
      'fhir_export_jobs_status_check',
      sql`${t.status} in ('queued', 'running', 'completed', 'failed', 'cancelled')`,
    ),
  ],
);

export const fhirExportFiles = pgTable(
  'fhir_export_files',
  {
    jobId: uuid('job_id')
      .notNull()
      .references(() => fhirExportJobs.id, { onDelete: 'cascade' }),
    resourceType: text('resource_type').notNull(),
    /** Files of one type in order, from 1. */
    seq: integer('seq').notNull(),
    /** Where the NDJSON is kept in object storage. */
    storageKey: text('storage_key').notNull(),
    /** Resources (lines) in the file. */
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.resourceType, t.seq] })],
);

export const rosterColumnChoices = pgTable('roster_column_choices', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  /** Column keys in the chosen order (domain/exports/roster.ts). */
  columns: jsonb('columns').$type<string[]>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
