/**
 * Who may act on which credentialing file (issue 50 items 1, 2, 8; NCQA CR2: the people who verify
 * and decide a file are not the person it is about, and a decision is not its preparer's alone). One
 * pure rule of (the actor, the file's facts, the duty), asked by every server route that acts on a
 * file (server/review/file-duty-guard.ts reads the route's declared duty) and by every button on the
 * review and meeting pages, and written out as a table test.
 *
 * The roles' permissions (domain/permissions.ts) say what kind of work a person does; this rule says
 * on which files they may not do it:
 * - nobody acts on their own file (a staff member who is, or was, its provider);
 * - whoever verified an item of a file neither approves it as the medical director nor votes on it;
 * - a member who voted on a denial does not vote on its appeal (a fair hearing, item 8).
 * Pure: no zod, no Node.
 */

/** What staff do to a file, each a route's declared duty. */
export const fileDuties = [
  'start_review',
  'request_information',
  'verify',
  'assign',
  'send_for_decision',
  'send_to_committee',
  'approve',
  'close',
  'start_recredentialing',
  'complete_update_review',
  'decide_screening_match',
  'add_to_agenda',
  'set_recusals',
  'record_decision',
  'vote',
] as const;
export type FileDuty = (typeof fileDuties)[number];

/** What each duty is, after 'someone else must …'. */
export const fileDutyText: Record<FileDuty, string> = {
  start_review: 'start its review',
  request_information: 'request information on it',
  verify: 'verify, waive or check its items',
  assign: 'assign it',
  send_for_decision: 'send it for decision',
  send_to_committee: 'send it to the committee',
  approve: 'approve it',
  close: 'close it',
  start_recredentialing: 'start its recredentialing',
  complete_update_review: 'complete its update review',
  decide_screening_match: 'decide its screening matches',
  add_to_agenda: 'put it on an agenda',
  set_recusals: 'set its recusals',
  record_decision: 'record its decision',
  vote: 'vote on it',
};

/** The facts of a file the rule reads; the lists only where a duty needs them. */
export interface FileFacts {
  /** The provider the file is about (the application's user id). */
  providerId: string;
  /** Who verified, waived or recorded a discrepancy on an item of the file. */
  verifierIds?: readonly string[];
  /** For an appeal: the members who voted on the denial it challenges. */
  denialVoterIds?: readonly string[];
}

/** What the review page says to a staff member opening their own file: it is read-only to them. */
export const OWN_FILE_NOTICE =
  'This is your own file: you can read it, but its review, verification and decision are for other staff.';

/** The refusal of an own file, as the server answers it and the pages show it. */
export function ownFileRefusal(duty: FileDuty): string {
  return `This is your own file: someone else must ${fileDutyText[duty]}.`;
}

/**
 * Why `actor` may not do `duty` to the file, or null when the rule allows it (the role's permission
 * is checked apart).
 * @example fileDutyRefusal({ userId: 'u1' }, { providerId: 'u1' }, 'approve')
 *   // 'This is your own file: someone else must approve it.'
 */
export function fileDutyRefusal(actor: { userId: string }, file: FileFacts, duty: FileDuty): string | null {
  if (actor.userId === file.providerId) return ownFileRefusal(duty);
  if ((duty === 'approve' || duty === 'vote') && file.verifierIds?.includes(actor.userId)) {
    return duty === 'approve'
      ? 'You verified items of this file: a clean file is approved by a medical director who did not prepare it. Send it to the committee, or ask another medical director.'
      : 'You verified items of this file: you cannot vote on it. You are counted as recused.';
  }
  if (duty === 'vote' && file.denialVoterIds?.includes(actor.userId)) {
    return 'You voted on the denial this appeal challenges: the appeal is heard by members who did not. You are counted as recused.';
  }
  return null;
}

/** Why a member does not vote on a file: recused, their own file, or a verifier of it. */
export type RecusalReason = 'recused' | 'own_file' | 'verifier' | 'denial_voter';

/** How the meeting page and the minutes name each reason. */
export const recusalLabel: Record<RecusalReason, string> = {
  recused: 'Recused',
  own_file: 'Recused (own file)',
  verifier: 'Recused (verified the file)',
  denial_voter: 'Recused (voted on the denial)',
};

/**
 * Whether and why `memberId` is recused from the file: their own file first, then a recusal the
 * meeting recorded, then a verifier of it, then a voter on the denial an appeal challenges.
 */
export function recusalOf(
  memberId: string,
  file: FileFacts & { recusedIds?: readonly string[] },
): RecusalReason | null {
  if (memberId === file.providerId) return 'own_file';
  if (file.recusedIds?.includes(memberId)) return 'recused';
  if (file.verifierIds?.includes(memberId)) return 'verifier';
  if (file.denialVoterIds?.includes(memberId)) return 'denial_voter';
  return null;
}
