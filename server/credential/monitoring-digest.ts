/**
 * Ongoing monitoring in the administrators' daily digest (issue 49 item 2): the findings recorded
 * since the last digest, counted by kind (no names or identifiers in email), each marked digested in
 * the statement that counts it, so two overlapping runs never list one twice.
 */
import { sql } from 'drizzle-orm';
import {
  type MonitoringFindingKind,
  monitoringKindLabel,
} from '../../domain/credentials/credential-standing.ts';
import type { Queryable } from '../db/client.ts';

/** How many findings of one kind were recorded since the last digest. */
export interface DigestedFindings {
  kind: MonitoringFindingKind;
  findings: number;
}

/** Marks every finding not yet digested as digested and counts them by kind. */
export async function markFindingsDigested(db: Queryable): Promise<DigestedFindings[]> {
  const result = await db.execute<{ kind: MonitoringFindingKind; findings: number }>(sql`
    with undigested as (
      select id from credential_monitoring_findings where digested_at is null order by id for update
    ),
    marked as (
      update credential_monitoring_findings m set digested_at = now()
      from undigested where m.id = undigested.id
      returning m.kind
    )
    select kind, count(*)::int as findings from marked group by kind order by kind`);
  return result.rows.map((r) => ({ kind: r.kind, findings: Number(r.findings) }));
}

/**
 * The digest's paragraph: '2 credentials were suspended by ongoing monitoring since the last digest:
 * - exclusion: 1 …', with what happens next; '' when nothing was found.
 */
export function monitoringDigestText(found: readonly DigestedFindings[]): string {
  const total = found.reduce((n, f) => n + f.findings, 0);
  if (total === 0) return '';
  const lines = found.map((f) => `- ${monitoringKindLabel[f.kind]}: ${f.findings}`).join('\n');
  return `Ongoing monitoring recorded ${total} finding${total === 1 ? '' : 's'} on credentialed providers since the last digest; each credential is suspended (published as inactive) and its file waits on 'Ready for Committee' with the reason 'Monitoring finding':\n\n${lines}\n\n`;
}
