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

/** A 'Record Decision' as the vote is counted. */
export interface VoteFacts {
  /** The meeting's members (user ids). */
  members: readonly string[];
  /** Members present for this file. */
  present: readonly string[];
  /** Members recused for this file: present or not, they neither vote nor count toward the quorum. */
  recused: readonly string[];
  /** Members needed present and not recused. */
  quorum: number;
  votesFor: number;
  votesAgainst: number;
  votesAbstained: number;
  /**
   * The people who verified the file's checklist items (issue 32 item 4: the specialist who verified a
   * file cannot be its only decider).
   */
  verifiers: readonly string[];
}

export type VoteCheck = { ok: true; voting: number } | { ok: false; message: string };

/**
 * Whether the vote may carry a decision: every present member is a member; the present members who
 * are not recused reach the quorum; every one of them is counted once (for, against or abstained);
 * more voted for than against (the motion carries); and they are not only the file's verifiers.
 * @returns `voting`: how many members voted (present and not recused)
 */
export function checkVote(facts: VoteFacts): VoteCheck {
  const counts = [facts.votesFor, facts.votesAgainst, facts.votesAbstained];
  if (counts.some((n) => !Number.isInteger(n) || n < 0)) {
    return { ok: false, message: 'Votes are whole numbers, 0 or more.' };
  }
  const members = new Set(facts.members);
  if (facts.present.some((id) => !members.has(id))) {
    return { ok: false, message: 'Only members of this meeting can be marked present. Reload the meeting.' };
  }
  const recused = new Set(facts.recused);
  const voting = [...new Set(facts.present)].filter((id) => !recused.has(id));
  if (voting.length < facts.quorum) {
    return {
      ok: false,
      message: `No quorum: ${voting.length} member${voting.length === 1 ? '' : 's'} present and not recused; this meeting needs ${facts.quorum}.`,
    };
  }
  const cast = facts.votesFor + facts.votesAgainst + facts.votesAbstained;
  if (cast !== voting.length) {
    return {
      ok: false,
      message: `Count every member present and not recused once: ${voting.length} present, ${cast} counted (for, against and abstained).`,
    };
  }
  if (facts.votesFor <= facts.votesAgainst) {
    return {
      ok: false,
      message: 'The decision needs more votes for than against. Record the decision the committee carried.',
    };
  }
  const verifiers = new Set(facts.verifiers);
  if (voting.every((id) => verifiers.has(id))) {
    return {
      ok: false,
      message:
        'The members voting verified this file themselves: someone who did not verify it must decide it too.',
    };
  }
  return { ok: true, voting: voting.length };
}
