/**
 * The committee's vote rules (issue 32 item 5): quorum, every member present counted once, the motion
 * carrying, recusals, and the verifier who cannot be the only decider (item 4).
 */
import { describe, expect, it } from 'vitest';
import { checkVote, defaultQuorum, type VoteFacts } from './committee-decisions.ts';

const base: VoteFacts = {
  members: ['a', 'b', 'c', 'd', 'e'],
  present: ['a', 'b', 'c'],
  recused: [],
  quorum: 3,
  votesFor: 2,
  votesAgainst: 1,
  votesAbstained: 0,
  verifiers: [],
};

describe('defaultQuorum', () => {
  it('is a majority of the members', () => {
    expect([1, 2, 3, 4, 5, 6, 50].map(defaultQuorum)).toEqual([1, 2, 2, 3, 3, 4, 26]);
  });
});

describe('checkVote', () => {
  it('carries a decision with a quorum, every voter counted once and more for than against', () => {
    expect(checkVote(base)).toEqual({ ok: true, voting: 3 });
    expect(checkVote({ ...base, votesFor: 1, votesAgainst: 0, votesAbstained: 2 })).toEqual({
      ok: true,
      voting: 3,
    });
  });

  it('needs the quorum of members present and not recused', () => {
    expect(checkVote({ ...base, present: ['a', 'b'], votesFor: 2, votesAgainst: 0 })).toEqual({
      ok: false,
      message: 'No quorum: 2 members present and not recused; this meeting needs 3.',
    });
    // A recused member present does not count toward the quorum, and does not vote.
    const recused = checkVote({ ...base, recused: ['c'], votesFor: 2, votesAgainst: 0 });
    expect(recused).toMatchObject({ ok: false, message: expect.stringMatching(/^No quorum: 2 members/) });
    expect(checkVote({ ...base, present: ['a', 'b', 'c', 'd'], recused: ['d'] })).toEqual({
      ok: true,
      voting: 3,
    });
    // Someone present twice is one member.
    expect(checkVote({ ...base, present: ['a', 'a', 'b'], votesFor: 2, votesAgainst: 0 })).toMatchObject({
      ok: false,
    });
  });

  it('counts every voting member once', () => {
    expect(checkVote({ ...base, votesFor: 3, votesAgainst: 1 })).toEqual({
      ok: false,
      message:
        'Count every member present and not recused once: 3 present, 4 counted (for, against and abstained).',
    });
    expect(checkVote({ ...base, votesFor: 1, votesAgainst: 0 })).toMatchObject({ ok: false });
  });

  it('needs more votes for than against', () => {
    expect(checkVote({ ...base, votesFor: 1, votesAgainst: 1, votesAbstained: 1 })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/more votes for than against/),
    });
    expect(checkVote({ ...base, votesFor: 0, votesAgainst: 0, votesAbstained: 3 })).toMatchObject({
      ok: false,
    });
  });

  it('refuses members present who are not members, and counts that are not whole numbers', () => {
    expect(checkVote({ ...base, present: ['a', 'b', 'x'] })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/Only members of this meeting/),
    });
    expect(checkVote({ ...base, votesFor: 1.5, votesAgainst: 0.5 })).toMatchObject({ ok: false });
    expect(checkVote({ ...base, votesFor: 4, votesAgainst: -1 })).toMatchObject({ ok: false });
  });

  it("refuses a decision whose only voters are the file's verifiers", () => {
    const onlyVerifiers = {
      ...base,
      members: ['a', 'b'],
      present: ['a'],
      quorum: 1,
      votesFor: 1,
      votesAgainst: 0,
    };
    expect(checkVote({ ...onlyVerifiers, verifiers: ['a'] })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/verified this file themselves/),
    });
    // One voter who did not verify it is enough; a recused verifier does not vote at all.
    expect(checkVote({ ...base, verifiers: ['a', 'b'] })).toEqual({ ok: true, voting: 3 });
    expect(checkVote({ ...onlyVerifiers, present: ['a', 'b'], recused: ['a'], verifiers: ['a'] })).toEqual({
      ok: true,
      voting: 1,
    });
  });
});
