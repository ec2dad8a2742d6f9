/**
 * The credentialed providers as directory facts (issue 33: rosters and the FHIR R4 directory API),
 * read from the published credential record only (issue 49 item 1, decision 035): each provider's
 * `provider_credentials.facts`, the facts of the snapshot version an approval or an accepted credential
 * update published (server/credential/published-credential.ts). The live section tables and the
 * account are never read here, so a change the provider saved but nobody reviewed is not published.
 *
 * Who is in: a provider whose credential is running at `now` (domain/credentials/provider-credential.ts
 * `credentialState` 'credentialed': not ended by a denial, `ends_on` not yet passed, and a first
 * approval's effective date reached; days in UTC) and published. A credential suspended by ongoing
 * monitoring stays in, with its standing: the readers publish it as inactive. `now` is always passed
 * in, never read here.
 *
 * `lastUpdated` is `published_at`: when the published record (facts or standing) last changed.
 *
 * Reads are set-based: one query selects a page of providers (keyset on `user_id`, the credential's
 * primary key; an NPI search uses the record's `npi` index, a name search its name columns).
 * Days are `YYYY-MM-DD` strings (UTC calendar days), instants are `Date`s.
 */
import { type SQL, sql } from 'drizzle-orm';
import { isoDay } from '../../domain/calendar.ts';
import type {
  CredentialBoardCertification,
  CredentialDea,
  CredentialDegree,
  CredentialFacts,
  CredentialLicense,
  CredentialPracticeLocation,
  CredentialSpecialty,
} from '../../domain/credentials/credential-facts.ts';
import type { CredentialStanding, MonitoringFinding } from '../../domain/credentials/credential-standing.ts';
import { credentialState } from '../../domain/credentials/provider-credential.ts';
import { FOLD_FROM, FOLD_TO, foldText } from '../../domain/fold-text.ts';
import type { Queryable } from '../db/client.ts';

/** Largest page `credentialedProviderPage` answers. */
export const MAX_DIRECTORY_PAGE = 1000;
/** Default batch size of `credentialedProviderBatches`. */
export const DEFAULT_DIRECTORY_BATCH = 500;

/** The published facts' parts, as the directory's readers name them (domain/credentials/credential-facts.ts). */
export type DirectoryLicense = CredentialLicense;
export type DirectoryDea = CredentialDea;
export type DirectoryDegree = CredentialDegree;
export type DirectoryBoardCertification = CredentialBoardCertification;
export type DirectorySpecialty = CredentialSpecialty;
export type DirectoryPracticeLocation = CredentialPracticeLocation;

/** A credentialed provider as directory facts: the published record (module docstring). */
export interface DirectoryProvider extends Omit<CredentialFacts, 'version'> {
  userId: string;
  /** The application that last set the credential. */
  applicationId: string;
  /** The snapshot version the facts were published from. */
  version: number;
  /** When the published record last changed (facts or standing). */
  lastUpdated: Date;
  /** The first approval's effective day (`provider_credentials.credentialed_at`, UTC). */
  credentialedOn: string;
  /** The credential's end: recredentialing is due by then (`provider_credentials.ends_on`). */
  recredentialingDueOn: string;
  /** Ongoing monitoring (issue 49 item 2): a suspended credential is published as inactive. */
  standing: CredentialStanding;
  /** Why it is suspended ('exclusion: OIG LEIE, 2026-11-28'), or null. */
  standingReason: string | null;
  /** The open monitoring findings, oldest first ([] when active). */
  findings: MonitoringFinding[];
}

/** What `credentialedProviderPage` filters on; every filter is optional but `now` and `limit`. */
export interface DirectoryPageQuery {
  /** The instant the credential state is computed at. */
  now: Date;
  /** Keyset: only providers with `userId` greater than this. */
  after?: string;
  /** 1..MAX_DIRECTORY_PAGE. */
  limit: number;
  /** Only these providers (at most MAX_DIRECTORY_PAGE ids). */
  userIds?: readonly string[];
  /** Exact NPI (Personal Information). */
  npi?: string;
  /** Case- and accent-insensitive: the first or last name starts with it, or the full name contains it. */
  name?: string;
  /** Only providers whose `lastUpdated` is after this instant. */
  updatedSince?: Date;
  /** Only providers whose `lastUpdated` is at or before this instant. */
  updatedUntil?: Date;
}

type ProviderRow = {
  user_id: string;
  application_id: string;
  credentialed_at: Date | string;
  approved_at: Date | string;
  ends_on: string;
  ended_on: string | null;
  facts: CredentialFacts;
  published_at: Date | string;
  standing: CredentialStanding;
  standing_reason: string | null;
  findings: MonitoringFinding[] | null;
};

/** Escape LIKE's wildcards so a name is matched literally. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The instant 1 ms after `instant`, as ISO text: a bound of `_lastUpdated`/`_since` at the precision
 * `meta.lastUpdated` shows (milliseconds; PostgreSQL stores microseconds). `column >= afterMs(since)`
 * is "after `since`" and `column < afterMs(until)` "at or before `until`", to the millisecond (issue
 * 52 item 3: `_lastUpdated=eq<meta.lastUpdated>` found nothing), and both can use an index.
 */
export function afterMs(instant: Date): string {
  return new Date(instant.getTime() + 1).toISOString();
}

const toDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

/**
 * The SQL condition of a published credential in the directory at `today` (`YYYY-MM-DD`): not ended,
 * not past its end, effective (a first approval's effective date reached, issue 49 item 5), published.
 * `pc` is `provider_credentials`. Suspended credentials are in (published as inactive).
 */
export function inDirectory(today: string) {
  return sql`pc.facts is not null and pc.ended_on is null and pc.ends_on >= ${today}::date
    and pc.credentialed_at < ((${today}::date + 1)::timestamp at time zone 'UTC')`;
}

/**
 * One page of credentialed providers by keyset, ordered by `userId`: one query on
 * `provider_credentials` (the published record), whatever the page's size.
 * @throws RangeError when `limit` is not 1..MAX_DIRECTORY_PAGE or more ids than that are given
 */
export async function credentialedProviderPage(
  db: Queryable,
  q: DirectoryPageQuery,
): Promise<DirectoryProvider[]> {
  if (!Number.isInteger(q.limit) || q.limit < 1 || q.limit > MAX_DIRECTORY_PAGE) {
    throw new RangeError(`limit must be 1..${MAX_DIRECTORY_PAGE}`);
  }
  if (q.userIds && q.userIds.length > MAX_DIRECTORY_PAGE) throw new RangeError('too many userIds');
  if (q.userIds && q.userIds.length === 0) return [];
  const filters = [inDirectory(isoDay(q.now))];
  if (q.after !== undefined) filters.push(sql`pc.user_id > ${q.after}`);
  if (q.userIds) filters.push(sql`pc.user_id = any(${sql.param([...q.userIds])}::text[])`);
  if (q.npi !== undefined) filters.push(sql`pc.npi = ${q.npi}`);
  if (q.name !== undefined) {
    // Accent- and case-blind on both sides (domain/fold-text.ts): 'nunez' finds Núñez.
    const name = foldText(q.name.trim());
    const prefix = `${likeLiteral(name)}%`;
    const contains = `%${likeLiteral(name)}%`;
    const folded = (column: SQL) => sql`lower(translate(${column}, ${FOLD_FROM}, ${FOLD_TO}))`;
    filters.push(
      sql`(${folded(sql`pc.given_name`)} like ${prefix} or ${folded(sql`pc.family_name`)} like ${prefix} or ${folded(sql`pc.given_name || ' ' || pc.family_name`)} like ${contains})`,
    );
  }
  if (q.updatedSince) filters.push(sql`pc.published_at >= ${afterMs(q.updatedSince)}::timestamptz`);
  if (q.updatedUntil) filters.push(sql`pc.published_at < ${afterMs(q.updatedUntil)}::timestamptz`);
  const result = await db.execute<ProviderRow>(sql`
    select pc.user_id, pc.application_id, pc.credentialed_at, pc.approved_at,
      pc.ends_on::text as ends_on, pc.ended_on::text as ended_on, pc.facts, pc.published_at,
      pc.standing, pc.standing_reason,
      case when pc.standing = 'suspended' then (
        select json_agg(json_build_object('kind', m.kind, 'detail', m.detail, 'foundOn', m.found_on::text)
          order by m.created_at, m.id)
        from credential_monitoring_findings m where m.user_id = pc.user_id and m.resolved_at is null
      ) end as findings
    from provider_credentials pc
    where ${sql.join(filters, sql` and `)}
    order by pc.user_id
    limit ${q.limit}
  `);
  return result.rows
    .filter(
      (r) =>
        credentialState(
          {
            applicationId: r.application_id,
            credentialedAt: toDate(r.credentialed_at),
            approvedAt: toDate(r.approved_at),
            endsOn: r.ends_on,
            endedOn: r.ended_on,
          },
          q.now,
        ).state === 'credentialed',
    )
    .map((r) => {
      const { version, ...facts } = r.facts;
      return {
        ...facts,
        version,
        userId: r.user_id,
        applicationId: r.application_id,
        lastUpdated: toDate(r.published_at),
        credentialedOn: isoDay(toDate(r.credentialed_at)),
        recredentialingDueOn: r.ends_on,
        standing: r.standing === 'suspended' ? 'suspended' : 'active',
        standingReason: r.standing_reason,
        findings: r.findings ?? [],
      };
    });
}

/**
 * Every credentialed provider at `now`, in `userId` order, in batches of `batchSize` (default
 * DEFAULT_DIRECTORY_BATCH, at most MAX_DIRECTORY_PAGE): one page in memory at a time, so memory stays
 * flat in the number of providers. `updatedSince` keeps those whose `lastUpdated` is after it.
 */
export async function* credentialedProviderBatches(
  db: Queryable,
  q: { now: Date; updatedSince?: Date; batchSize?: number },
): AsyncGenerator<DirectoryProvider[]> {
  const limit = q.batchSize ?? DEFAULT_DIRECTORY_BATCH;
  let after: string | undefined;
  for (;;) {
    const page = await credentialedProviderPage(db, {
      now: q.now,
      after,
      limit,
      updatedSince: q.updatedSince,
    });
    if (page.length === 0) return;
    yield page;
    if (page.length < limit) return;
    after = page[page.length - 1]!.userId;
  }
}
