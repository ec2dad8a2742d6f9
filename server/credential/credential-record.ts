/**
 * The provider's credential, stored (issue 29 item 1, decision 025): read by the dashboard, the admin
 * screens and every start of a cycle; written only by a decision, in the transaction that records it
 * (review/review-decisions.service.ts: `recordDecision` and `recordAppealDecision` call
 * `recordDecisionCredential`). The rules are the domain's (domain/credentials/provider-credential.ts);
 * this module is their SQL.
 *
 * It sits in `credential` (issue 49: the record, its standing and what is published), which builds
 * only on `db`, `audit` and the domain, so `applications` (the cycle of a new draft), `review`
 * (decisions) and `cycles` all call it without a folder cycle (scripts/check-imports.ts).
 */
import { eq, inArray } from 'drizzle-orm';
import type { ProviderCredentialDto } from '../../domain/api/provider-credential.ts';
import { isoDay } from '../../domain/calendar.ts';
import type { CredentialStanding, MonitoringFinding } from '../../domain/credentials/credential-standing.ts';
import {
  type ApplicationCycle,
  type CredentialDecision,
  type CredentialRecord,
  credentialAfterDecision,
  credentialState,
} from '../../domain/credentials/provider-credential.ts';
import type { Queryable } from '../db/client.ts';
import { providerApplications } from '../db/schema/core.ts';
import { providerCredentials } from '../db/schema/credentials.ts';
import { newestVersionNumber, publishCredentialVersion } from './published-credential.ts';
import { openMonitoringFindings } from './standing.ts';

/** The stored credential with its standing under ongoing monitoring (issue 49 item 2). */
export interface StoredCredential extends CredentialRecord {
  standing: CredentialStanding;
  /** The open monitoring findings, oldest first. */
  findings: MonitoringFinding[];
}

/** The provider's stored credential, or null when no approval ever granted one. */
export async function findProviderCredential(
  db: Queryable,
  userId: string,
): Promise<StoredCredential | null> {
  return (await findProviderCredentials(db, [userId])).get(userId) ?? null;
}

/** The stored credentials of several providers, by user id (admin lists). */
export async function findProviderCredentials(
  db: Queryable,
  userIds: readonly string[],
): Promise<Map<string, StoredCredential>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(providerCredentials)
    .where(inArray(providerCredentials.userId, [...userIds]));
  const suspended = rows.filter((r) => r.standing === 'suspended').map((r) => r.userId);
  const findings = await openMonitoringFindings(db, suspended);
  return new Map(rows.map((row) => [row.userId, toRecord(row, findings.get(row.userId) ?? [])]));
}

function toRecord(
  row: typeof providerCredentials.$inferSelect,
  findings: MonitoringFinding[],
): StoredCredential {
  return {
    applicationId: row.applicationId,
    credentialedAt: row.credentialedAt,
    approvedAt: row.approvedAt,
    endsOn: row.endsOn,
    endedOn: row.endedOn,
    standing: row.standing === 'suspended' ? 'suspended' : 'active',
    findings: findings.map(({ kind, detail, foundOn }) => ({ kind, detail, foundOn })),
  };
}

/** The API shape (domain/api/provider-credential.ts) of `record` at `now`. */
export function presentCredential(
  record: StoredCredential | CredentialRecord | null,
  now: Date,
): ProviderCredentialDto {
  const { state } = credentialState(record, now);
  const stored = record && 'standing' in record ? record : null;
  return {
    state,
    applicationId: record?.applicationId ?? null,
    credentialedAt: record?.credentialedAt.toISOString() ?? null,
    endsOn: record?.endsOn ?? null,
    endedOn: record?.endedOn ?? null,
    effectiveOn: record ? isoDay(record.credentialedAt) : null,
    standing: stored?.standing ?? 'active',
    findings: stored?.findings ?? [],
  };
}

/**
 * Apply `decision` on `application` at `decidedAt` to the provider's credential, inside the decision's
 * transaction (issue 29 item 1): an approval grants or extends it, a denied recredentialing ends it,
 * a denied first cycle leaves it as it is. The row is locked (select ... for update) so two decisions
 * of one provider cannot interleave.
 * @returns the credential after the decision (null when there still is none)
 */
export async function recordDecisionCredential(
  tx: Queryable,
  application: { id: string; userId: string },
  decision: CredentialDecision,
  decidedAt: Date,
  /** When the decision is recorded (the published record's change); `decidedAt` may be an effective date. */
  publishedAt?: Date,
): Promise<CredentialRecord | null> {
  const [row] = await tx
    .select()
    .from(providerCredentials)
    .where(eq(providerCredentials.userId, application.userId))
    .for('update');
  const [cycleRow] = await tx
    .select({ cycle: providerApplications.cycle })
    .from(providerApplications)
    .where(eq(providerApplications.id, application.id));
  const current: CredentialRecord | null = row
    ? {
        applicationId: row.applicationId,
        credentialedAt: row.credentialedAt,
        approvedAt: row.approvedAt,
        endsOn: row.endsOn,
        endedOn: row.endedOn,
      }
    : null;
  const next = credentialAfterDecision(
    current,
    decision,
    (cycleRow?.cycle ?? 'initial') as ApplicationCycle,
    decidedAt,
    application.id,
  );
  if (!next || next === current) return current;
  const values = { ...next, updatedAt: decidedAt };
  await tx
    .insert(providerCredentials)
    .values({ userId: application.userId, ...values })
    .onConflictDoUpdate({ target: providerCredentials.userId, set: values });
  if (decision === 'approved') {
    // Issue 49 item 1: what was approved is what is published, the version the decision was taken on.
    const version = await newestVersionNumber(tx, application.id);
    if (version !== undefined) {
      await publishCredentialVersion(tx, {
        userId: application.userId,
        applicationId: application.id,
        version,
        now: publishedAt ?? decidedAt,
      });
    }
  }
  return next;
}
