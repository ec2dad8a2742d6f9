/**
 * What decides who votes on each file of an agenda, read set-based for a whole meeting (issue 50 items
 * 2 and 4): each file's provider, its recorded recusals, who verified it, for an appeal who voted on
 * the denial it challenges, the members' own votes, and whether the viewer is recused from the same
 * file at another meeting (recusal is per person and file, everywhere). Four queries per meeting,
 * whatever the agenda's length.
 */
import { sql } from 'drizzle-orm';
import type { CommitteeDecision } from '../../domain/committee/committee-decisions.ts';
import type { Queryable } from '../db/client.ts';

/** One agenda item's file, as `recusalOf` and `tallyVotes` read it. */
export interface AgendaFileFacts {
  providerId: string;
  recusedIds: readonly string[];
  verifierIds: readonly string[];
  denialVoterIds: readonly string[];
  votes: { memberId: string; vote: CommitteeDecision; reviewedAt: Date }[];
  /** The viewer is recused from this application at another meeting's agenda item. */
  recusedElsewhere: boolean;
}

/** The facts of each of `items` (by item id), for `viewerId`. */
export async function agendaFacts(
  db: Queryable,
  items: readonly {
    id: string;
    applicationId: string;
    recusedMemberIds: readonly string[];
    kind: string;
    providerId: string;
  }[],
  viewerId: string,
): Promise<Map<string, AgendaFileFacts>> {
  const facts = new Map<string, AgendaFileFacts>();
  if (items.length === 0) return facts;
  const applicationIds = sql.param([...new Set(items.map((i) => i.applicationId))]);
  const itemIds = sql.param(items.map((i) => i.id));
  const verifiers = await db.execute<{ application_id: string; ids: string[] }>(sql`
    select application_id, array_agg(distinct validator_id) as ids from verification_items
    where application_id = any(${applicationIds}::uuid[]) and validator_id is not null
      and status in ('verified', 'waived')
    group by application_id`);
  const denials = await db.execute<{
    application_id: string;
    id: string;
    voters: string[] | null;
    present: string[] | null;
  }>(sql`
    select i.application_id, i.id, (select array_agg(v.member_id) from committee_votes v where v.agenda_item_id = i.id) as voters,
      i.present_member_ids as present
    from committee_agenda_items i where i.application_id = any(${applicationIds}::uuid[]) and i.decision = 'deny'`);
  const votes = await db.execute<{
    agenda_item_id: string;
    member_id: string;
    vote: CommitteeDecision;
    reviewed_at: Date | string;
  }>(sql`
    select agenda_item_id, member_id, vote, reviewed_at from committee_votes
    where agenda_item_id = any(${itemIds}::uuid[]) order by updated_at, member_id`);
  const elsewhere = await db.execute<{ application_id: string }>(sql`
    select distinct application_id from committee_agenda_items
    where application_id = any(${applicationIds}::uuid[]) and ${viewerId} = any(recused_member_ids)`);
  const verifiersOf = new Map(verifiers.rows.map((r) => [r.application_id, r.ids]));
  const recusedAt = new Set(elsewhere.rows.map((r) => r.application_id));
  for (const item of items) {
    const denialVoterIds =
      item.kind === 'appeal'
        ? [
            ...new Set(
              denials.rows
                .filter((d) => d.application_id === item.applicationId && d.id !== item.id)
                .flatMap((d) => d.voters ?? d.present ?? []),
            ),
          ]
        : [];
    facts.set(item.id, {
      providerId: item.providerId,
      recusedIds: item.recusedMemberIds,
      verifierIds: verifiersOf.get(item.applicationId) ?? [],
      denialVoterIds,
      votes: votes.rows
        .filter((v) => v.agenda_item_id === item.id)
        .map((v) => ({ memberId: v.member_id, vote: v.vote, reviewedAt: new Date(v.reviewed_at) })),
      recusedElsewhere: recusedAt.has(item.applicationId),
    });
  }
  return facts;
}
