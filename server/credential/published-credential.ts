/**
 * The published credential (issue 49 item 1, decision 035): what the directory, the rosters, FHIR and
 * `$export` say about a credentialed provider is the facts of ONE stored snapshot version, the one a
 * decision approved or a credential update's review accepted, written here in that transaction. The
 * live section tables and the account's profile are what the provider is editing; nothing outside
 * the review reads them for publication.
 *
 * Written by: an approval (`credential-record.ts` `recordDecisionCredential`, inside
 * the decision's transaction) and 'Complete Update Review' (`credential-updates`), and once at start-up
 * for a credential granted before the record existed (`publishMissingCredentials`). The standing
 * (ongoing monitoring, ./standing.ts) is kept beside it on the same row.
 *
 * Builds only on `db` and the domain: `applications`, `review`, `credential-updates` and the readers
 * (`directory`, `exports`) import it, never the other way round.
 */
import { and, desc, eq, isNull, lte, sql } from 'drizzle-orm';
import { type CredentialFacts, credentialFactsOf } from '../../domain/credentials/credential-facts.ts';
import { credentialState } from '../../domain/credentials/provider-credential.ts';
import type { ApplicationSnapshot } from '../../domain/review/application-snapshot.ts';
import type { Database, Queryable } from '../db/client.ts';
import { providerApplications } from '../db/schema/core.ts';
import { credentialLocations, credentialUpdates, providerCredentials } from '../db/schema/credentials.ts';
import { applicationVersions } from '../db/schema/review.ts';
import { syncLicenseFindings } from './standing.ts';

/** The snapshot of `applicationId` at `version`, or undefined. */
async function snapshotAt(
  db: Queryable,
  applicationId: string,
  version: number,
): Promise<ApplicationSnapshot | undefined> {
  const [row] = await db
    .select({ snapshot: applicationVersions.snapshot })
    .from(applicationVersions)
    .where(
      and(eq(applicationVersions.applicationId, applicationId), eq(applicationVersions.version, version)),
    );
  return row?.snapshot as ApplicationSnapshot | undefined;
}

/** The newest stored version number of `applicationId`, or undefined when it has none. */
export async function newestVersionNumber(db: Queryable, applicationId: string): Promise<number | undefined> {
  const [row] = await db
    .select({ version: applicationVersions.version })
    .from(applicationVersions)
    .where(eq(applicationVersions.applicationId, applicationId))
    .orderBy(desc(applicationVersions.version))
    .limit(1);
  return row?.version;
}

/**
 * Publish the facts of `applicationId`'s snapshot `version` as `userId`'s credential record, inside
 * the caller's transaction (the one recording the decision or accepting the update): the facts, the
 * search columns and the practice locations' index, `published_at` = `now`. The credential row must
 * exist (the caller wrote it first).
 * @returns the facts published, or null when the version is missing (nothing is changed then)
 */
export async function publishCredentialVersion(
  tx: Queryable,
  input: { userId: string; applicationId: string; version: number; now: Date },
): Promise<CredentialFacts | null> {
  const snapshot = await snapshotAt(tx, input.applicationId, input.version);
  if (!snapshot) return null;
  const facts = credentialFactsOf(snapshot, input.version);
  await writeFacts(tx, input.userId, facts, input.now);
  // A renewal published resolves the lapsed-license finding it answers (issue 49 item 2).
  await syncLicenseFindings(tx, input.now, [input.userId]);
  return facts;
}

async function writeFacts(tx: Queryable, userId: string, facts: CredentialFacts, now: Date): Promise<void> {
  await tx
    .update(providerCredentials)
    .set({
      facts,
      publishedAt: now,
      npi: facts.npi,
      givenName: facts.givenName,
      familyName: facts.familyName,
    })
    .where(eq(providerCredentials.userId, userId));
  await tx.delete(credentialLocations).where(eq(credentialLocations.userId, userId));
  if (facts.practiceLocations.length > 0) {
    await tx.insert(credentialLocations).values(
      facts.practiceLocations.map((l, position) => ({
        userId,
        rowKey: l.rowKey,
        groupNpi: l.groupNpi,
        isPrimary: l.primary,
        position,
      })),
    );
  }
}

/** The published facts of `userId`'s credential, or null when none was published. */
export async function publishedFacts(db: Queryable, userId: string): Promise<CredentialFacts | null> {
  const [row] = await db
    .select({ facts: providerCredentials.facts })
    .from(providerCredentials)
    .where(eq(providerCredentials.userId, userId));
  return row?.facts ?? null;
}

/**
 * At start-up, under the start-up lock: give every credential granted before the record existed
 * (facts null) the facts of the version that was approved, or accepted by the latest reviewed
 * credential update: the newest version stored no later than that moment. A credential update still
 * open is not published. Idempotent; a handful of rows once, none after.
 * @returns how many records were published
 */
export async function publishMissingCredentials(db: Database, now: Date): Promise<number> {
  const missing = await db
    .select({
      userId: providerCredentials.userId,
      applicationId: providerCredentials.applicationId,
      decidedAt: providerApplications.decidedAt,
    })
    .from(providerCredentials)
    .innerJoin(providerApplications, eq(providerApplications.id, providerCredentials.applicationId))
    .where(isNull(providerCredentials.facts));
  let published = 0;
  for (const credential of missing) {
    const [reviewed] = await db
      .select({ version: credentialUpdates.version })
      .from(credentialUpdates)
      .where(
        and(
          eq(credentialUpdates.applicationId, credential.applicationId),
          sql`${credentialUpdates.reviewedAt} is not null`,
        ),
      )
      .orderBy(desc(credentialUpdates.reviewedAt))
      .limit(1);
    let version = reviewed?.version;
    if (version === undefined) {
      const [atDecision] = await db
        .select({ version: applicationVersions.version })
        .from(applicationVersions)
        .where(
          and(
            eq(applicationVersions.applicationId, credential.applicationId),
            credential.decidedAt ? lte(applicationVersions.createdAt, credential.decidedAt) : sql`true`,
          ),
        )
        .orderBy(desc(applicationVersions.version))
        .limit(1);
      version = atDecision?.version ?? (await newestVersionNumber(db, credential.applicationId));
    }
    if (version === undefined) continue;
    const chosen = version;
    const facts = await db.transaction((tx) =>
      publishCredentialVersion(tx, {
        userId: credential.userId,
        applicationId: credential.applicationId,
        version: chosen,
        now,
      }),
    );
    if (facts) published += 1;
  }
  return published;
}

/**
 * Whether `userId` holds a credential whose published record carries their name (issue 49 item 1):
 * approved and not ended (pending its effective date, running, or expired awaiting recredentialing).
 * Such a provider changes their name through 'Change Legal Name' (a credential update with a document),
 * never through the account API.
 */
export async function holdsCredential(db: Queryable, userId: string, now: Date): Promise<boolean> {
  const [row] = await db
    .select({
      applicationId: providerCredentials.applicationId,
      credentialedAt: providerCredentials.credentialedAt,
      approvedAt: providerCredentials.approvedAt,
      endsOn: providerCredentials.endsOn,
      endedOn: providerCredentials.endedOn,
    })
    .from(providerCredentials)
    .where(eq(providerCredentials.userId, userId));
  const { state } = credentialState(row ?? null, now);
  return state === 'pending' || state === 'credentialed' || state === 'expired';
}
