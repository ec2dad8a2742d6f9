/**
 * The committee's vote rules (issue 32 item 5; issue 50 item 2: members' own votes): the quorum of
 * members present and not recused, a clear majority of them, every member counted once, votes of
 * anyone who may not vote ignored, and the meeting's start (item 3).
 */
import { describe, expect, it } from 'vitest';
import { beforeMeetingStart, defaultQuorum, type TallyFacts, tallyVotes } from './committee-decisions.ts';

const base: TallyFacts = {
  voters: ['a', 'b', 'c'],
  quorum: 3,
  votes: [
    { memberId: 'a', vote: 'approve' },
    { memberId: 'b', vote: 'approve' },
    { memberId: 'c', vote: 'deny' },
  ],
};

describe('defaultQuorum', () => {
  it('is a majority of the members', () => {
    expect([1, 2, 3, 4, 5, 6, 50].map(defaultQuorum)).toEqual([1, 2, 2, 3, 3, 4, 26]);
  });
});

describe('tallyVotes', () => {
  it('carries the decision more than half of the voters chose, with the minutes figures', () => {
    expect(tallyVotes(base)).toEqual({
      ok: true,
      decision: 'approve',
      counts: { approve: 2, approve_with_conditions: 0, deny: 1, defer: 0 },
      votesFor: 2,
      votesAgainst: 1,
      votesAbstained: 0,
    });
  });

  it('refuses without a quorum of voters, saying how many are there', () => {
    const result = tallyVotes({ ...base, voters: ['a', 'b'] });
    expect(result).toMatchObject({ ok: false });
    expect(result.ok ? '' : result.message).toMatch(
      /^No quorum: 2 members present and not recused; this meeting needs 3\./,
    );
  });

  it('refuses a split or a plurality: more than half of the voters must agree', () => {
    const split = tallyVotes({
      voters: ['a', 'b', 'c', 'd'],
      quorum: 3,
      votes: [
        { memberId: 'a', vote: 'approve' },
        { memberId: 'b', vote: 'approve' },
        { memberId: 'c', vote: 'approve_with_conditions' },
        { memberId: 'd', vote: 'deny' },
      ],
    });
    expect(split).toMatchObject({ ok: false });
    expect(split.ok ? '' : split.message).toMatch(
      /^No clear majority: 4 of 4 members voted \(Approve 2, Approve with Conditions 1, Deny 1\)/,
    );
    // A member who casts no vote does not agree either.
    expect(tallyVotes({ ...base, votes: [{ memberId: 'a', vote: 'approve' }] })).toMatchObject({ ok: false });
    expect(tallyVotes({ ...base, votes: [] })).toMatchObject({ ok: false });
  });

  it('counts each voter once and ignores votes of anyone who may not vote (recused, absent, verifier)', () => {
    const result = tallyVotes({
      ...base,
      votes: [
        { memberId: 'a', vote: 'deny' },
        { memberId: 'a', vote: 'deny' },
        { memberId: 'x', vote: 'deny' },
        { memberId: 'y', vote: 'deny' },
        { memberId: 'b', vote: 'approve' },
      ],
    });
    expect(result).toMatchObject({ ok: false, counts: { deny: 1, approve: 1 } });
  });

  it('names abstentions: voters who cast no vote', () => {
    const result = tallyVotes({
      voters: ['a', 'b', 'c', 'd', 'e'],
      quorum: 3,
      votes: [
        { memberId: 'a', vote: 'defer' },
        { memberId: 'b', vote: 'defer' },
        { memberId: 'c', vote: 'defer' },
        { memberId: 'd', vote: 'approve' },
      ],
    });
    expect(result).toMatchObject({
      ok: true,
      decision: 'defer',
      votesFor: 3,
      votesAgainst: 1,
      votesAbstained: 1,
    });
  });
});

describe('beforeMeetingStart', () => {
  const start = new Date('2026-11-29T15:00:00Z');
  it('refuses before the scheduled start, naming it; allows from it on', () => {
    expect(beforeMeetingStart(start, new Date('2026-11-29T14:59:59Z'), 'votes are taken')).toBe(
      'The meeting starts 2026-11-29 15:00 UTC: votes are taken from then on.',
    );
    expect(beforeMeetingStart(start, start, 'votes are taken')).toBeNull();
    expect(beforeMeetingStart(start, new Date('2026-11-30T00:00:00Z'), 'votes are taken')).toBeNull();
  });
});
