/**
 * Ongoing monitoring of a credential (issue 49 item 2, NCQA CR5, decision 035): the open findings
 * (`credential_monitoring_findings`) and the standing they give (`provider_credentials.standing`),
 * which the directory publishes: a suspended credential is `active: false` in FHIR and 'Suspended
 * (…)' in the roster, from the moment the finding is recorded.
 *
 * Findings come from three places, each calling in here inside its own transaction:
 * - exclusion screening (`syncExclusionFindings`): a confirmed match on the credential's application
 *   (by NPI or name and birth date, or a possible match a person confirmed); resolved when the
 *   screening finding is cleared (a reinstatement accepted, or 'Not the Same Person');
 * - the NPPES check (`openMonitoringFinding` kind 'npi_deactivated');
 * - the daily expiry job (`syncLicenseFindings`): a published license of status 'active' past its
 *   expiry with no published renewal (same type, state and number, a later expiry); resolved when a
 *   renewal is published (an accepted credential update).
 * The committee's decision on the file resolves every open finding (`resolveMonitoringFindings`).
 *
 * Builds only on `db`, `audit` and the domain.
 */
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { isoDay } from '../../domain/calendar.ts';
import {
  type CredentialStanding,
  MONITORING_REFERRAL_REASON,
  MONITORING_RESOLVED_TEXT,
  type MonitoringFinding,
  type MonitoringFindingKind,
  type MonitoringResolution,
  standingReasonText,
} from '../../domain/credentials/credential-standing.ts';
import { exclusionSources } from '../../domain/screening/exclusion-formats.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Queryable } from '../db/client.ts';
import { committeeAgendaItems, decisionReferrals } from '../db/schema/committee.ts';
import { credentialMonitoringFindings, providerCredentials } from '../db/schema/credentials.ts';

const sourceLabel = (id: string) => exclusionSources.find((s) => s.id === id)?.label ?? id;

/** A finding as the provider's credential shows it. */
export interface OpenMonitoringFinding extends MonitoringFinding {
  id: string;
  userId: string;
  applicationId: string;
}

/** The open findings of `userIds`, oldest first, by user id. */
export async function openMonitoringFindings(
  db: Queryable,
  userIds: readonly string[],
): Promise<Map<string, OpenMonitoringFinding[]>> {
  const grouped = new Map<string, OpenMonitoringFinding[]>();
  if (userIds.length === 0) return grouped;
  const rows = await db
    .select()
    .from(credentialMonitoringFindings)
    .where(
      and(
        inArray(credentialMonitoringFindings.userId, [...userIds]),
        isNull(credentialMonitoringFindings.resolvedAt),
      ),
    )
    .orderBy(asc(credentialMonitoringFindings.createdAt), asc(credentialMonitoringFindings.id));
  for (const r of rows) {
    const list = grouped.get(r.userId) ?? [];
    list.push({
      id: r.id,
      userId: r.userId,
      applicationId: r.applicationId,
      kind: r.kind as MonitoringFindingKind,
      detail: r.detail,
      foundOn: r.foundOn,
    });
    grouped.set(r.userId, list);
  }
  return grouped;
}

/**
 * Set `userId`'s standing from their open findings: 'suspended' with the first finding's reason while
 * any is open, else 'active'. A change is a change of the published record (`published_at` = `now`).
 * @returns the standing after the refresh, or null when the provider holds no credential
 */
export async function refreshStanding(
  tx: Queryable,
  userId: string,
  now: Date,
): Promise<CredentialStanding | null> {
  const [credential] = await tx
    .select({ standing: providerCredentials.standing, reason: providerCredentials.standingReason })
    .from(providerCredentials)
    .where(eq(providerCredentials.userId, userId))
    .for('update');
  if (!credential) return null;
  const first = (await openMonitoringFindings(tx, [userId])).get(userId)?.[0];
  const standing: CredentialStanding = first ? 'suspended' : 'active';
  const reason = first ? standingReasonText(first) : null;
  if (standing === credential.standing && reason === credential.reason) return standing;
  if (standing !== credential.standing) await referMonitoring(tx, userId, standing, reason, now);
  await tx
    .update(providerCredentials)
    .set({
      standing,
      standingReason: reason,
      standingSince: first ? (credential.standing === 'suspended' ? undefined : now) : null,
      publishedAt: now,
    })
    .where(eq(providerCredentials.userId, userId));
  await recordAudit(tx, {
    action: 'credential.standing_changed',
    subjectUserId: userId,
    resourceType: 'user',
    resourceId: userId,
    details: { standing, ...(reason ? { reason } : {}) },
  });
  return standing;
}

/**
 * The committee's place in monitoring (issue 49 item 2): a credential that becomes suspended puts its
 * approved file on 'Ready for Committee' (a 'monitoring' referral, reason 'Monitoring finding: …') for
 * a decision to continue or terminate it; one that becomes active again before the committee decided
 * (a reinstatement, 'Not the Same Person', a verified renewal) leaves the list and any agenda where it
 * is still undecided, as review's `closeReferral` takes files off the lists (which `credential` cannot
 * import: `review` builds on it).
 */
async function referMonitoring(
  tx: Queryable,
  userId: string,
  standing: CredentialStanding,
  reason: string | null,
  now: Date,
): Promise<void> {
  const [credential] = await tx
    .select({ applicationId: providerCredentials.applicationId })
    .from(providerCredentials)
    .where(eq(providerCredentials.userId, userId));
  if (!credential) return;
  if (standing === 'suspended') {
    await tx
      .insert(decisionReferrals)
      .values({
        applicationId: credential.applicationId,
        track: 'committee',
        kind: 'monitoring',
        reasons: [`${MONITORING_REFERRAL_REASON}: ${reason ?? ''}`.trim()],
        sentAt: now,
        sentBy: null,
      })
      .onConflictDoNothing();
    return;
  }
  const [open] = await tx
    .select({ id: decisionReferrals.id })
    .from(decisionReferrals)
    .where(
      and(
        eq(decisionReferrals.applicationId, credential.applicationId),
        eq(decisionReferrals.kind, 'monitoring'),
        isNull(decisionReferrals.closedAt),
      ),
    );
  if (!open) return;
  await tx
    .delete(committeeAgendaItems)
    .where(and(eq(committeeAgendaItems.referralId, open.id), isNull(committeeAgendaItems.decision)));
  await tx
    .update(decisionReferrals)
    .set({ closedAt: now, outcome: 'withdrawn', outcomeText: MONITORING_RESOLVED_TEXT })
    .where(eq(decisionReferrals.id, open.id));
}

/**
 * The committee's decision on a 'monitoring' file (issue 49 item 2), inside 'Record Decision''s
 * transaction: 'approve' or 'approve_with_conditions' continues the credential (its findings resolved
 * as 'committee_continued', published as active again); 'deny' terminates it (ended today, out of the
 * directory; findings resolved as 'committee_terminated'). The caller closes the referral first.
 */
export async function decideMonitoring(
  tx: Queryable,
  input: { userId: string; decision: 'continue' | 'terminate'; by: string; now: Date },
): Promise<void> {
  if (input.decision === 'terminate') {
    await tx
      .update(providerCredentials)
      .set({ endedOn: isoDay(input.now), updatedAt: input.now, publishedAt: input.now })
      .where(and(eq(providerCredentials.userId, input.userId), isNull(providerCredentials.endedOn)));
    await recordAudit(tx, {
      action: 'credential.terminated',
      actorUserId: input.by,
      subjectUserId: input.userId,
      resourceType: 'user',
      resourceId: input.userId,
      details: { endedOn: isoDay(input.now) },
    });
  }
  await resolveMonitoringFindings(tx, {
    userId: input.userId,
    resolution: input.decision === 'terminate' ? 'committee_terminated' : 'committee_continued',
    by: input.by,
    now: input.now,
  });
}

/**
 * Record a finding on `userId`'s running credential (once per kind and subject while open) and
 * refresh the standing. Nothing happens when the provider holds no running, published credential.
 * @returns the new finding's id, or null when nothing was recorded (none held, or open already)
 */
export async function openMonitoringFinding(
  tx: Queryable,
  input: { userId: string; kind: MonitoringFindingKind; subjectKey: string; detail: string; now: Date },
): Promise<string | null> {
  const today = isoDay(input.now);
  const [credential] = await tx
    .select({ applicationId: providerCredentials.applicationId })
    .from(providerCredentials)
    .where(
      and(
        eq(providerCredentials.userId, input.userId),
        isNull(providerCredentials.endedOn),
        sql`${providerCredentials.endsOn} >= ${today}::date`,
        sql`${providerCredentials.facts} is not null`,
      ),
    );
  if (!credential) return null;
  const [row] = await tx
    .insert(credentialMonitoringFindings)
    .values({
      userId: input.userId,
      applicationId: credential.applicationId,
      kind: input.kind,
      subjectKey: input.subjectKey,
      detail: input.detail,
      foundOn: today,
      createdAt: input.now,
    })
    .onConflictDoNothing()
    .returning({ id: credentialMonitoringFindings.id });
  if (!row) return null;
  await recordAudit(tx, {
    action: 'credential.monitoring_finding',
    subjectUserId: input.userId,
    resourceType: 'application',
    resourceId: credential.applicationId,
    details: { findingId: row.id, kind: input.kind, detail: input.detail },
  });
  await refreshStanding(tx, input.userId, input.now);
  return row.id;
}

/**
 * Resolve `userId`'s open findings (of `kind` and `subjectKeys` when given) as `resolution`, then
 * refresh the standing.
 * @returns how many findings were resolved
 */
export async function resolveMonitoringFindings(
  tx: Queryable,
  input: {
    userId: string;
    kind?: MonitoringFindingKind;
    subjectKeys?: readonly string[];
    resolution: MonitoringResolution;
    by?: string | null;
    now: Date;
  },
): Promise<number> {
  if (input.subjectKeys && input.subjectKeys.length === 0) return 0;
  const resolved = await tx
    .update(credentialMonitoringFindings)
    .set({ resolvedAt: input.now, resolution: input.resolution, resolvedBy: input.by ?? null })
    .where(
      and(
        eq(credentialMonitoringFindings.userId, input.userId),
        isNull(credentialMonitoringFindings.resolvedAt),
        input.kind ? eq(credentialMonitoringFindings.kind, input.kind) : undefined,
        input.subjectKeys
          ? inArray(credentialMonitoringFindings.subjectKey, [...input.subjectKeys])
          : undefined,
      ),
    )
    .returning({ id: credentialMonitoringFindings.id, kind: credentialMonitoringFindings.kind });
  if (resolved.length === 0) return 0;
  await recordAudit(tx, {
    action: 'credential.monitoring_resolved',
    actorUserId: input.by ?? null,
    subjectUserId: input.userId,
    resourceType: 'user',
    resourceId: input.userId,
    details: { resolution: input.resolution, findings: resolved.length },
  });
  await refreshStanding(tx, input.userId, input.now);
  return resolved.length;
}

/**
 * Bring the exclusion findings of `userIds`' credentials in step with exclusion screening: every
 * confirmed screening finding on a credential's application opens a monitoring finding (subject: the
 * screening finding's id; detail: its list's name); every open one whose screening finding was
 * cleared since is resolved as `resolution` (default 'reinstated').
 * @returns the users whose findings changed
 */
export async function syncExclusionFindings(
  tx: Queryable,
  userIds: readonly string[],
  now: Date,
  options: { resolution?: MonitoringResolution; by?: string | null } = {},
): Promise<string[]> {
  if (userIds.length === 0) return [];
  const ids = sql.param([...new Set(userIds)]);
  const confirmed = await tx.execute<{ id: string; user_id: string; source: string }>(sql`
    select f.id, f.user_id, f.source from screening_findings f
    join provider_credentials pc on pc.user_id = f.user_id and pc.application_id = f.application_id
    where f.user_id = any(${ids}::text[]) and f.status = 'confirmed'
      and not exists (select 1 from credential_monitoring_findings m
        where m.user_id = f.user_id and m.kind = 'exclusion' and m.subject_key = f.id::text)`);
  const changed = new Set<string>();
  for (const f of confirmed.rows) {
    const opened = await openMonitoringFinding(tx, {
      userId: f.user_id,
      kind: 'exclusion',
      subjectKey: f.id,
      detail: sourceLabel(f.source),
      now,
    });
    if (opened) changed.add(f.user_id);
  }
  const cleared = await tx.execute<{ user_id: string; subject_key: string }>(sql`
    select m.user_id, m.subject_key from credential_monitoring_findings m
    join screening_findings f on f.id::text = m.subject_key
    where m.user_id = any(${ids}::text[]) and m.kind = 'exclusion' and m.resolved_at is null
      and f.status = 'cleared'`);
  const byUser = new Map<string, string[]>();
  for (const r of cleared.rows) byUser.set(r.user_id, [...(byUser.get(r.user_id) ?? []), r.subject_key]);
  for (const [userId, subjectKeys] of byUser) {
    await resolveMonitoringFindings(tx, {
      userId,
      kind: 'exclusion',
      subjectKeys,
      resolution: options.resolution ?? 'reinstated',
      by: options.by ?? null,
      now,
    });
    changed.add(userId);
  }
  return [...changed];
}

/**
 * The lapsed licenses of published credentials at `now` (of `userIds`, else every running one): a
 * license of status 'active' whose expiry has passed, with no license of the same type, state and
 * number expiring later in the same record. Subject: the row key and the expiry.
 */
async function lapsedLicenses(tx: Queryable, now: Date, userIds?: readonly string[]) {
  const today = isoDay(now);
  const scope = userIds ? sql`and pc.user_id = any(${sql.param([...userIds])}::text[])` : sql``;
  const result = await tx.execute<{ user_id: string; subject_key: string; detail: string }>(sql`
    select pc.user_id, (l->>'rowKey') || ':' || (l->>'expiresOn') as subject_key,
      concat_ws(' ', nullif(l->>'state', ''), replace(coalesce(l->>'type', 'license'), '_', ' '), nullif(l->>'number', '')) as detail
    from provider_credentials pc, jsonb_array_elements(pc.facts->'licenses') l
    where pc.facts is not null and pc.ended_on is null and pc.ends_on >= ${today}::date ${scope}
      and l->>'status' = 'active' and (l->>'expiresOn') < ${today}
      and not exists (select 1 from jsonb_array_elements(pc.facts->'licenses') r
        where r->>'type' is not distinct from l->>'type' and r->>'state' is not distinct from l->>'state'
          and r->>'number' is not distinct from l->>'number' and (r->>'expiresOn') >= ${today})`);
  return result.rows;
}

/**
 * Bring the license findings in step with the published records at `now` (of `userIds`, else every
 * running credential: the daily job): a lapsed license opens a finding; an open one whose license is
 * no longer lapsed in the record (a renewal was published) is resolved as 'renewal_verified'.
 * @returns how many findings were opened and resolved
 */
export async function syncLicenseFindings(
  tx: Queryable,
  now: Date,
  userIds?: readonly string[],
): Promise<{ opened: number; resolved: number }> {
  const lapsed = await lapsedLicenses(tx, now, userIds);
  let opened = 0;
  for (const l of lapsed) {
    if (
      await openMonitoringFinding(tx, {
        userId: l.user_id,
        kind: 'license_expired',
        subjectKey: l.subject_key,
        detail: l.detail,
        now,
      })
    )
      opened += 1;
  }
  const still = new Set(lapsed.map((l) => `${l.user_id}|${l.subject_key}`));
  const open = await tx
    .select({
      userId: credentialMonitoringFindings.userId,
      subjectKey: credentialMonitoringFindings.subjectKey,
    })
    .from(credentialMonitoringFindings)
    .where(
      and(
        eq(credentialMonitoringFindings.kind, 'license_expired'),
        isNull(credentialMonitoringFindings.resolvedAt),
        userIds ? inArray(credentialMonitoringFindings.userId, [...userIds]) : undefined,
      ),
    );
  const renewed = new Map<string, string[]>();
  for (const f of open) {
    if (!still.has(`${f.userId}|${f.subjectKey}`))
      renewed.set(f.userId, [...(renewed.get(f.userId) ?? []), f.subjectKey]);
  }
  let resolved = 0;
  for (const [userId, subjectKeys] of renewed) {
    resolved += await resolveMonitoringFindings(tx, {
      userId,
      kind: 'license_expired',
      subjectKeys,
      resolution: 'renewal_verified',
      now,
    });
  }
  return { opened, resolved };
}
