/**
 * The credentialing committee's decisions and the rules of a valid vote (issue 32 item 5; NCQA CR 2:
 * the committee meets in real time, reviews every file that does not meet the organization's
 * criteria and documents its reasoning). Pure: the server checks a 'Record Decision' with
 * `checkVote` under the meeting's lock, and the web form shows the same messages before sending.
 */

/** Which list a file sent for decision is on: the medical director's, or the committee's (item 4). */
export const decisionTracks = ['clean_files', 'committee'] as const;
export type DecisionTrack = (typeof decisionTracks)[number];

/** The lists' names on the screen (issue 32 item 4). */
export const decisionTrackLabel: Record<DecisionTrack, string> = {
  clean_files: 'Clean Files',
  committee: 'Ready for Committee',
};

/** What a file on a decision list waits for, as the 'For' column says it (issue 32; issue 49). */
export const referralKindLabel: Record<'decision' | 'appeal' | 'monitoring', string> = {
  decision: 'Decision',
  appeal: 'Appeal',
  monitoring: 'Monitoring finding',
};

/** Who made an application's decision (issue 32; decisions before it were the administrators'). */
export const deciders = ['administrator', 'medical_director', 'committee', 'integration'] as const;
export type Decider = (typeof deciders)[number];

/** Who decided, as the review page and the file summary say it (issue 32, issue 33 item 1). */
export const deciderLabel: Record<Decider, string> = {
  administrator: 'an administrator (before staff roles)',
  medical_director: 'the Medical Director (clean file)',
  committee: 'the Credentialing Committee',
  integration: 'the workflow integration',
};

/** What the committee may decide for a file on its agenda. */
export const committeeDecisions = ['approve', 'approve_with_conditions', 'deny', 'defer'] as const;
export type CommitteeDecision = (typeof committeeDecisions)[number];

/** The button and minutes' text of each decision (issue 32 item 5). */
export const committeeDecisionLabel: Record<CommitteeDecision, string> = {
  approve: 'Approve',
  approve_with_conditions: 'Approve with Conditions',
  deny: 'Deny',
  defer: 'Defer',
};

/**
 * The same four decisions on a file sent by ongoing monitoring (issue 49 item 2; NCQA CR5: the
 * committee decides whether a credential continues): Approve continues the credential, Deny
 * terminates it, Defer waits for another meeting.
 */
export const monitoringDecisionLabel: Record<CommitteeDecision, string> = {
  approve: 'Continue',
  approve_with_conditions: 'Continue with Conditions',
  deny: 'Terminate',
  defer: 'Defer',
};

/** A decision's label for a file of `kind` ('monitoring' files continue or terminate a credential). */
export function decisionLabelFor(kind: string | undefined, decision: CommitteeDecision): string {
  return kind === 'monitoring' ? monitoringDecisionLabel[decision] : committeeDecisionLabel[decision];
}

/**
 * The text a decision needs, and its label: the conditions, the reason of a denial (the provider reads
 * it in the letter), or what is missing for a deferral. Approve needs none.
 */
export const committeeDecisionTextLabel: Record<CommitteeDecision, string | null> = {
  approve: null,
  approve_with_conditions: 'Conditions',
  deny: 'Reason',
  defer: 'What is missing',
};

/** The status a decision leaves the application in: approved, rejected, or still under review (Defer). */
export const committeeDecisionOutcome: Record<CommitteeDecision, 'approved' | 'rejected' | 'under_review'> = {
  approve: 'approved',
  approve_with_conditions: 'approved',
  deny: 'rejected',
  defer: 'under_review',
};

/** Most members a meeting may have (every input bounded). */
export const MEETING_MEMBERS_MAX = 50;
/** Most files on one agenda. */
export const AGENDA_ITEMS_MAX = 200;

/**
 * The default quorum: a majority of the meeting's members (issue 32 item 5: "configurable, default a
 * majority of the meeting's members present").
 * @example defaultQuorum(5) // 3
 */
export function defaultQuorum(memberCount: number): number {
  return Math.floor(memberCount / 2) + 1;
}

/** The buttons of a member's own vote (issue 50 item 2), one per decision. */
export const memberVoteLabel: Record<CommitteeDecision, string> = {
  approve: 'Vote to Approve',
  approve_with_conditions: 'Vote to Approve with Conditions',
  deny: 'Vote to Deny',
  defer: 'Vote to Defer',
};

/** The same buttons on a file sent by ongoing monitoring (issue 49): continue or terminate. */
export const monitoringVoteLabel: Record<CommitteeDecision, string> = {
  approve: 'Vote to Continue',
  approve_with_conditions: 'Vote to Continue with Conditions',
  deny: 'Vote to Terminate',
  defer: 'Vote to Defer',
};

/** What the vote of a file counts (issue 50 item 2): who may vote, and the votes they cast. */
export interface TallyFacts {
  /**
   * The members who vote on the file: present at the meeting and not recused (their own file, a
   * recorded recusal, a verifier of the file, a voter on the denial an appeal challenges).
   */
  voters: readonly string[];
  /** Members needed present and not recused. */
  quorum: number;
  /** Each member's own vote; votes of anyone who is not a voter are not counted. */
  votes: readonly { memberId: string; vote: CommitteeDecision }[];
}

export type Tally =
  | {
      ok: true;
      /** The decision the majority voted for. */
      decision: CommitteeDecision;
      /** Votes for each decision (of voters only). */
      counts: Record<CommitteeDecision, number>;
      /** For the decision carried, for the others, and voters who cast none (the minutes' figures). */
      votesFor: number;
      votesAgainst: number;
      votesAbstained: number;
    }
  | { ok: false; message: string; counts: Record<CommitteeDecision, number> };

/**
 * The decision the members' own votes carry (issue 50 item 2; NCQA CR 2): refused without a quorum
 * of voters, and unless one decision has the votes of more than half of the voters (a voter who
 * casts none counts against every decision: abstaining is not agreeing).
 */
export function tallyVotes(facts: TallyFacts): Tally {
  const voters = new Set(facts.voters);
  const counts = Object.fromEntries(committeeDecisions.map((d) => [d, 0])) as Record<
    CommitteeDecision,
    number
  >;
  const counted = new Set<string>();
  for (const { memberId, vote } of facts.votes) {
    if (!voters.has(memberId) || counted.has(memberId)) continue;
    counted.add(memberId);
    counts[vote] += 1;
  }
  if (voters.size < facts.quorum) {
    return {
      ok: false,
      counts,
      message: `No quorum: ${voters.size} member${voters.size === 1 ? '' : 's'} present and not recused; this meeting needs ${facts.quorum}. Mark who is present, or wait for members to join.`,
    };
  }
  const [top, votes] = committeeDecisions
    .map((d) => [d, counts[d]] as const)
    .reduce((a, b) => (b[1] > a[1] ? b : a));
  if (votes * 2 <= voters.size) {
    const cast = counted.size;
    return {
      ok: false,
      counts,
      message: `No clear majority: ${cast} of ${voters.size} members voted (${
        committeeDecisions
          .filter((d) => counts[d] > 0)
          .map((d) => `${committeeDecisionLabel[d]} ${counts[d]}`)
          .join(', ') || 'no votes yet'
      }). A decision needs the votes of more than half of the members present and not recused.`,
    };
  }
  return {
    ok: true,
    decision: top,
    counts,
    votesFor: votes,
    votesAgainst: counted.size - votes,
    votesAbstained: voters.size - counted.size,
  };
}

/**
 * A meeting happens when it happens (issue 50 item 3): attendance, votes and decisions only from its
 * scheduled start; 'Close Meeting' only after it. @returns the refusal, or null once started
 */
export function beforeMeetingStart(scheduledAt: Date, now: Date, what: string): string | null {
  if (now.getTime() >= scheduledAt.getTime()) return null;
  return `The meeting starts ${scheduledAt.toISOString().slice(0, 16).replace('T', ' ')} UTC: ${what} from then on.`;
}
