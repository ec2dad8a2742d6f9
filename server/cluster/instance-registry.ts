/**
 * Instances that share one database know of each other (issue 12). Each running server keeps a row in
 * `server_instances` fresh with a heartbeat; a row silent for `STALE_AFTER_HEARTBEATS` heartbeats is
 * a dead instance (killed, or cut off) and is ignored. Liveness is judged on the database's clock, so
 * machines with skewed clocks agree.
 *
 * At start-up, under the start-up lock (db/client.ts `withStartupLock`, so two instances starting at
 * once see each other), `joinCluster`:
 * - refuses to start when a live instance has another AUTH_SECRET or FIELD_ENCRYPTION_KEYS (compared
 *   by fingerprint, security/secret-fingerprints.ts): sessions signed by one instance would be
 *   rejected by the other, and SSNs written by one could not be read by the other;
 * - warns when this instance or a live one keeps documents on local disk (STORAGE_DRIVER=local): a
 *   document uploaded through one instance cannot be read through another on another machine.
 * With no live instance, a changed secret is a deliberate change made with every instance stopped.
 */

import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { serverInstances } from '../db/schema/instances.ts';
import type { SharedSecretName } from '../security/secret-fingerprints.ts';

/** A row unseen for this many heartbeats belongs to an instance that is gone. */
export const STALE_AFTER_HEARTBEATS = 3;

/** What an instance tells the others about itself. */
export interface InstanceIdentity {
  storageDriver: 'local' | 's3';
  /** secretFingerprint('AUTH_SECRET', ...) of this instance's secret. */
  authSecretFingerprint: string;
  /** FieldCipher.fingerprint of this instance's keys. */
  fieldKeysFingerprint: string;
}

/** Another live instance, as its row describes it. */
export interface Peer {
  id: string;
  host: string;
  pid: number;
  storageDriver: string;
  authSecretFingerprint: string;
  fieldKeysFingerprint: string;
}

/** This instance's membership: its id, and `leave()` to stop the heartbeat and remove its row. */
export interface ClusterMembership {
  readonly id: string;
  /** Live instances seen at start-up. */
  readonly peersAtStart: Peer[];
  /** Stop the heartbeat and delete this instance's row (a clean stop); never throws. */
  leave(): Promise<void>;
}

export interface JoinClusterOptions {
  identity: InstanceIdentity;
  /** Milliseconds between heartbeats (INSTANCE_HEARTBEAT_MS). */
  heartbeatMs: number;
  logger: Logger;
}

/** The refusal to start: an instance's shared secret differs from a running instance's. */
export class SecretMismatchError extends Error {
  readonly variable: SharedSecretName;
  constructor(variable: SharedSecretName, peer: Peer) {
    super(
      `Refusing to start: ${variable} differs from that of the instance already running on this database (host ${peer.host}, pid ${peer.pid}). Every instance on one database must use the same ${variable}${
        variable === 'AUTH_SECRET'
          ? ': otherwise sessions signed by one are rejected by the other.'
          : ' (same keys, same order): otherwise SSNs written by one cannot be read by the other.'
      } Set the same ${variable} on every instance (outside production an unset one is generated per DATA_DIR). If that instance was stopped less than a minute ago, wait until it is seen as gone and start again.`,
    );
    this.name = 'SecretMismatchError';
    this.variable = variable;
  }
}

const peerColumns = {
  id: serverInstances.id,
  host: serverInstances.host,
  pid: serverInstances.pid,
  storageDriver: serverInstances.storageDriver,
  authSecretFingerprint: serverInstances.authSecretFingerprint,
  fieldKeysFingerprint: serverInstances.fieldKeysFingerprint,
};

/** Live instances other than `selfId` (seen within STALE_AFTER_HEARTBEATS heartbeats, database clock). */
export async function livePeers(db: Database, selfId: string, heartbeatMs: number): Promise<Peer[]> {
  return db
    .select(peerColumns)
    .from(serverInstances)
    .where(
      and(
        ne(serverInstances.id, selfId),
        sql`${serverInstances.lastSeenAt} > now() - ${STALE_AFTER_HEARTBEATS * heartbeatMs} * interval '1 millisecond'`,
      ),
    );
}

function describePeer(peer: Peer): string {
  return `host ${peer.host}, pid ${peer.pid}`;
}

function localStorageWarning(self: InstanceIdentity, peer: Peer): string | undefined {
  if (self.storageDriver !== 'local' && peer.storageDriver !== 'local') return undefined;
  return `Another instance runs on this database (${describePeer(peer)}) and documents are kept on local disk (STORAGE_DRIVER=local): a document uploaded through one instance cannot be read through another unless they share DATA_DIR on one machine. Use STORAGE_DRIVER=s3 for more than one instance.`;
}

/**
 * Check this instance against the live ones and register it; call under the start-up lock with
 * that lock's `lockedDb`, then the heartbeat runs on `db` (the pool) until `leave()`.
 * @throws SecretMismatchError when a live instance has another AUTH_SECRET or FIELD_ENCRYPTION_KEYS
 */
export async function joinCluster(
  lockedDb: Database,
  db: Database,
  options: JoinClusterOptions,
): Promise<ClusterMembership> {
  const { identity, heartbeatMs, logger } = options;
  const id = randomUUID();
  const peersAtStart = await livePeers(lockedDb, id, heartbeatMs);
  for (const peer of peersAtStart) {
    if (peer.authSecretFingerprint !== identity.authSecretFingerprint)
      throw new SecretMismatchError('AUTH_SECRET', peer);
    if (peer.fieldKeysFingerprint !== identity.fieldKeysFingerprint)
      throw new SecretMismatchError('FIELD_ENCRYPTION_KEYS', peer);
  }
  // Rows of instances long gone (killed) are removed by whoever starts next.
  await lockedDb.delete(serverInstances).where(sql`${serverInstances.lastSeenAt} < now() - interval '1 day'`);
  const row = { id, host: os.hostname(), pid: process.pid, ...identity };
  await lockedDb.insert(serverInstances).values(row);

  const warned = new Set<string>();
  const warnAboutStorage = (peers: Peer[]) => {
    for (const peer of peers) {
      if (warned.has(peer.id)) continue;
      warned.add(peer.id);
      const warning = localStorageWarning(identity, peer);
      if (warning) logger.warn({ peer: peer.id }, warning);
    }
  };
  warnAboutStorage(peersAtStart);
  if (peersAtStart.length > 0)
    logger.info({ instances: peersAtStart.length + 1 }, 'joined other instances on this database');

  let beating: Promise<void> = Promise.resolve();
  const beat = async () => {
    try {
      // An upsert: a row removed meanwhile (a long outage made it look dead) comes back.
      await db
        .insert(serverInstances)
        .values(row)
        .onConflictDoUpdate({ target: serverInstances.id, set: { lastSeenAt: sql`now()` } });
      warnAboutStorage(await livePeers(db, id, heartbeatMs));
    } catch (error) {
      // The database is down: its health monitor says so; the next beat tries again.
      logger.debug({ message: (error as Error).message }, 'instance heartbeat failed');
    }
  };
  const timer = setInterval(() => {
    beating = beating.then(beat);
  }, heartbeatMs);
  timer.unref();

  let left = false;
  return {
    id,
    peersAtStart,
    async leave() {
      if (left) return;
      left = true;
      clearInterval(timer);
      await beating;
      await db
        .delete(serverInstances)
        .where(eq(serverInstances.id, id))
        .catch((error: Error) =>
          logger.debug({ message: error.message }, 'could not remove the instance row'),
        );
    },
  };
}
