/**
 * The `api-client` commands of `npm run admin` (server/cli/admin.ts; issue 33 item 4):
 *
 * - `npm run admin -- api-client create NAME --scope SCOPE [--scope SCOPE ...] [--jwks-file FILE]`:
 *   register a client; prints its `client_id` and `client_secret` once (only the secret's SHA-256 is
 *   kept). `--jwks-file` names a JSON file holding the client's public JSON Web Key Set
 *   (`{ "keys": [...] }`, RS384 or ES384 public keys with a `kid` each), so that it may also
 *   authenticate with a signed JWT assertion (`private_key_jwt`, SMART Backend Services).
 * - `npm run admin -- api-client list`: every client (never a secret).
 * - `npm run admin -- api-client revoke CLIENT_ID`: revoke a client by its OAuth client_id; its
 *   tokens are refused from then on.
 *
 * Parsing is pure (`parseApiClientCommand`); `runApiClientCommand` changes the database through the
 * same service as the admin routes, audited with `via: 'cli'` and no actor.
 */
import fs from 'node:fs/promises';
import {
  API_CLIENT_JWKS_MAX_CHARS,
  API_CLIENT_NAME_MAX_LENGTH,
  API_CLIENT_SCOPES_MAX,
  apiClientScopes,
  isApiClientScope,
} from '../../domain/api-clients.ts';
import { AppError } from '../../domain/app-error.ts';
import type { Database } from '../db/client.ts';
import { createApiClient, listApiClients, revokeApiClient } from './api-clients.service.ts';

/** The usage lines of the `api-client` commands. */
export const apiClientUsage = `npm run admin -- api-client create NAME --scope SCOPE [--scope SCOPE ...] [--jwks-file FILE] | npm run admin -- api-client list | npm run admin -- api-client revoke CLIENT_ID
SCOPE is one of ${apiClientScopes.join(', ')}. FILE is a JSON Web Key Set of the client's public RS384 or ES384 keys (for private_key_jwt).`;

/** A parsed `api-client` command. */
export type ApiClientCommand =
  | { command: 'create'; name: string; scopes: string[]; jwksFile?: string }
  | { command: 'list' }
  | { command: 'revoke'; clientId: string };

/**
 * Read the arguments after `api-client`.
 * @returns the command, or `{ error }`: a message for a wrong command line (the CLI exits 2)
 */
export function parseApiClientCommand(args: readonly string[]): ApiClientCommand | { error: string } {
  const [command, ...rest] = args;
  if (command === 'list' && rest.length === 0) return { command: 'list' };
  if (command === 'revoke' && rest.length === 1 && rest[0]!.length <= 200) {
    return { command: 'revoke', clientId: rest[0]! };
  }
  if (command === 'create') {
    const [name, ...options] = rest;
    const scopes: string[] = [];
    let jwksFile: string | undefined;
    for (let i = 0; i < options.length; i += 2) {
      const flag = options[i];
      const value = options[i + 1];
      if (flag === '--jwks-file' && value !== undefined && value !== '' && !value.startsWith('--')) {
        if (jwksFile !== undefined) return { error: 'Give --jwks-file once.' };
        if (value.length > 1000) return { error: 'The --jwks-file path is too long.' };
        jwksFile = value;
        continue;
      }
      if (flag !== '--scope' || value === undefined) return { error: `Unexpected argument: ${flag ?? ''}.` };
      if (!isApiClientScope(value)) return { error: `Unknown scope: ${value.slice(0, 100)}.` };
      scopes.push(value);
    }
    const trimmed = name?.trim() ?? '';
    if (trimmed === '' || trimmed.startsWith('--')) return { error: 'Name the API client.' };
    if (trimmed.length > API_CLIENT_NAME_MAX_LENGTH) {
      return { error: `The name may have at most ${API_CLIENT_NAME_MAX_LENGTH} characters.` };
    }
    if (scopes.length === 0) return { error: 'Give the API client at least one --scope.' };
    if (scopes.length > API_CLIENT_SCOPES_MAX) return { error: `At most ${API_CLIENT_SCOPES_MAX} scopes.` };
    return { command: 'create', name: trimmed, scopes, ...(jwksFile !== undefined ? { jwksFile } : {}) };
  }
  return { error: 'Unknown api-client command.' };
}

/**
 * The JSON of the key set file `file` (at most twice API_CLIENT_JWKS_MAX_CHARS bytes; checked by
 * the service afterwards).
 * @throws AppError validation_failed when it cannot be read, is too large or is not JSON
 */
async function readJwksFile(file: string): Promise<unknown> {
  const shown = file.slice(0, 200);
  let text: string;
  try {
    const handle = await fs.open(file, 'r');
    try {
      const { size } = await handle.stat();
      if (size > 2 * API_CLIENT_JWKS_MAX_CHARS) {
        throw new AppError('validation_failed', `${shown} is larger than a JSON Web Key Set may be.`);
      }
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('validation_failed', `Cannot read the JSON Web Key Set file ${shown}.`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError('validation_failed', `${shown} is not JSON: it must hold { "keys": [ ... ] }.`);
  }
}

/**
 * Run `command` on `db` at `now`; returns what to print (the secret, for `create`, this once).
 * @throws AppError validation_failed from `create` (an unreadable or refused JWKS file), not_found /
 *   conflict from `revoke` (the CLI prints the message and exits 1)
 */
export async function runApiClientCommand(
  db: Database,
  command: ApiClientCommand,
  now: Date,
): Promise<string> {
  const actor = { userId: null, via: 'cli' as const };
  if (command.command === 'create') {
    const jwks = command.jwksFile === undefined ? undefined : await readJwksFile(command.jwksFile);
    const { client, clientSecret } = await createApiClient(
      db,
      { name: command.name, scopes: command.scopes, jwks },
      actor,
      now,
    );
    return [
      `API client "${client.name}" registered with the scopes ${client.scopes.join(' ')}.`,
      `client_id: ${client.clientId}`,
      `client_secret: ${clientSecret}`,
      'Store the client_secret now: it will not be shown again (only its hash is kept).',
      ...(client.jwksKeyIds.length > 0
        ? [
            `Public keys registered for signed JWT assertions (private_key_jwt): ${client.jwksKeyIds.join(', ')}.`,
          ]
        : []),
    ].join('\n');
  }
  if (command.command === 'revoke') {
    const client = await revokeApiClient(db, { clientId: command.clientId }, actor, now);
    return `API client "${client.name}" (${client.clientId}) is revoked: its tokens are refused from now on.`;
  }
  const clients = await listApiClients(db);
  if (clients.length === 0) return 'No API clients are registered.';
  return clients
    .map((client) =>
      [
        client.clientId,
        client.name,
        client.scopes.join(' '),
        `created ${client.createdAt}`,
        client.revokedAt ? `revoked ${client.revokedAt}` : 'active',
        client.lastUsedAt ? `last used ${client.lastUsedAt}` : 'never used',
        client.jwksKeyIds.length > 0 ? `keys ${client.jwksKeyIds.join(',')}` : 'no keys',
      ].join('\t'),
    )
    .join('\n');
}
