/**
 * The provider's credential, apart from the cycle in progress (issue 29 items 1 and 2, decision 025).
 *
 * A provider holds at most one credential (server table `provider_credentials`): granted by the first
 * approval, running RECREDENTIALING_CYCLE_MONTHS (36, NCQA CR 4) from the latest approval, extended by
 * an approved recredentialing, ended on the decision day by a denied recredentialing. Only a decision
 * (approve, reject) changes it; a draft, a submitted or a withdrawn cycle never does. Its state at a
 * date is computed here, with `now` passed in, so the server, the dashboard and the admin screens say
 * the same thing. Pure: no zod, no Node (decision 021).
 */
import { formatIsoDay, isoDay } from '../calendar.ts';
import { daysUntil } from './expiring-credentials.ts';
import { recredentialingDueOn, recredentialingOpen } from './recredentialing.ts';

/** Which credentialing cycle an application is: the first one, or a recredentialing (issue 29). */
export const applicationCycles = ['initial', 'recredentialing'] as const;
export type ApplicationCycle = (typeof applicationCycles)[number];

/** How the screens name a cycle. */
export const applicationCycleLabel: Record<ApplicationCycle, string> = {
  initial: 'Initial Credentialing',
  recredentialing: 'Recredentialing',
};

/** The stored credential (server/db/schema/credentials.ts `provider_credentials`), days as `YYYY-MM-DD`. */
export interface CredentialRecord {
  /** The decided application that last set it. */
  applicationId: string;
  /** The first approval. */
  credentialedAt: Date;
  /** The latest approval. */
  approvedAt: Date;
  /** 36 months after the latest approval. */
  endsOn: string;
  /** The day a recredentialing denial ended it, else null. */
  endedOn: string | null;
}

/**
 * The credential at a date: none, approved but not yet effective (issue 49 item 5: a first approval
 * whose effective date is still ahead), running, ended by a denial, or past its end with no decision.
 */
export type CredentialState =
  | { state: 'none' }
  | { state: 'pending'; effectiveOn: string; endsOn: string }
  | { state: 'credentialed'; endsOn: string }
  | { state: 'ended'; endedOn: string }
  | { state: 'expired'; endsOn: string };
export type CredentialStateName = CredentialState['state'];

/**
 * The credential's state at `now`. 'expired' once `endsOn` has passed (the day after it) with no
 * decision since; an ended credential stays 'ended' whatever the date.
 */
export function credentialState(record: CredentialRecord | null, now: Date): CredentialState {
  if (!record) return { state: 'none' };
  if (record.endedOn) return { state: 'ended', endedOn: record.endedOn };
  if (daysUntil(record.endsOn, now) < 0) return { state: 'expired', endsOn: record.endsOn };
  // The first approval takes effect on its effective date (credentialedAt, midnight UTC): before that
  // day the provider is approved, not yet credentialed, and nothing is published (issue 49 item 5).
  const effectiveOn = isoDay(record.credentialedAt);
  if (effectiveOn > isoDay(now)) return { state: 'pending', effectiveOn, endsOn: record.endsOn };
  return { state: 'credentialed', endsOn: record.endsOn };
}

/** A decision on a cycle: the only thing that changes the credential. */
export type CredentialDecision = 'approved' | 'rejected';

/**
 * The credential after `decision` on an application of `cycle` decided at `decidedAt`:
 * - approved (initial or recredentialing): credentialed until 36 months after `decidedAt`, keeping
 *   the first `credentialedAt`, and no longer ended;
 * - rejected, initial cycle: unchanged (no credential stays none);
 * - rejected, recredentialing cycle: ended on the decision day (UTC), when there is a credential.
 * Withdrawing, saving a draft or completing one never calls this.
 */
export function credentialAfterDecision(
  current: CredentialRecord | null,
  decision: CredentialDecision,
  cycle: ApplicationCycle,
  decidedAt: Date,
  applicationId: string,
): CredentialRecord | null {
  if (decision === 'approved') {
    return {
      applicationId,
      credentialedAt: current?.credentialedAt ?? decidedAt,
      approvedAt: decidedAt,
      endsOn: recredentialingDueOn(decidedAt),
      endedOn: null,
    };
  }
  if (cycle === 'initial' || !current) return current;
  return { ...current, applicationId, endedOn: current.endedOn ?? isoDay(decidedAt) };
}

/**
 * The cycle a new application opens as: 'recredentialing' while the provider holds a credential that
 * has not ended (credentialed or expired: an expired credential is renewed, not applied for anew),
 * else 'initial' (no credential, or one a denied recredentialing ended).
 */
export function cycleForNewApplication(state: CredentialState): ApplicationCycle {
  return state.state === 'credentialed' || state.state === 'pending' || state.state === 'expired'
    ? 'recredentialing'
    : 'initial';
}

/**
 * Whether the provider may start a cycle themselves at `now` ('Start Recredentialing'): always when
 * they hold no running credential; while credentialed, only from RECREDENTIALING_WINDOW_DAYS (180)
 * days before its end (issue 14, kept by issue 29). An administrator may open one at any date.
 */
export function providerMayStartCycle(state: CredentialState, now: Date): boolean {
  return (
    (state.state !== 'credentialed' && state.state !== 'pending') || recredentialingOpen(state.endsOn, now)
  );
}

/** The 409 message of a provider's 'Start Recredentialing' before the window opens. */
export function recredentialingNotYetMessage(endsOn: string): string {
  return `Recredentialing opens 180 days before your credential ends on ${formatIsoDay(endsOn)}. The credentialing team can open it earlier.`;
}

/** The credential's badge text (issue 29 item 1); null when there is none. */
export function credentialLabel(state: CredentialState): string | null {
  switch (state.state) {
    case 'none':
      return null;
    case 'pending':
      return `Approved, effective ${formatIsoDay(state.effectiveOn)}`;
    case 'credentialed':
      return `Credentialed until ${formatIsoDay(state.endsOn)}`;
    case 'ended':
      return `Credential ended ${formatIsoDay(state.endedOn)}`;
    case 'expired':
      return 'Credential expired';
  }
}

/** The credential badge's Mantine colour (shades picked in the web theme for WCAG AA contrast). */
export const credentialStateColor: Record<CredentialStateName, 'green' | 'red' | 'orange' | 'gray' | 'blue'> =
  {
    none: 'gray',
    pending: 'blue',
    credentialed: 'green',
    ended: 'red',
    expired: 'orange',
  };

/**
 * What the denial's dialog says before a recredentialing denial is recorded (issue 29 item 1: "a
 * recredentialing denial ends it on the decision date; its dialog says so"; since issue 32 the
 * committee's 'Record Decision', Deny); null when denying does not touch a credential (an initial
 * cycle, or no credential held).
 */
export function rejectionEndsCredentialText(
  cycle: ApplicationCycle,
  state: CredentialState,
  providerName: string,
  now: Date,
): string | null {
  if (cycle !== 'recredentialing' || (state.state !== 'credentialed' && state.state !== 'expired'))
    return null;
  const who = providerName.trim() ? `${providerName.trim()}'s` : "the provider's";
  return `Denying this recredentialing ends ${who} credential on ${formatIsoDay(isoDay(now))}.`;
}

/** Texts of the cycle actions (issue 29 item 2): buttons and confirmations, shared by server and web. */
export const cycleTexts = {
  startRecredentialing: 'Start Recredentialing',
  startRecredentialingConfirm:
    'A copy of your approved application is opened as a recredentialing draft. Review and confirm each section, then complete it. Your current credential stays as it is until the credentialing team decides.',
  startRecredentialingNow: 'Start Recredentialing Now',
  startRecredentialingNowConfirm:
    'A recredentialing draft is opened for this provider now, copied from their latest application. The provider reviews and completes it; their current credential stays as it is until a decision.',
  withdraw: 'Withdraw',
  withdrawConfirm:
    'This draft is withdrawn and can no longer be completed. Your credential is not affected. You can start again when recredentialing is open.',
  closeWithoutDecision: 'Close Without Decision',
  closeWithoutDecisionHelp:
    "The application is withdrawn without a decision; the provider's credential is not affected. The provider sees this reason on their dashboard.",
  /** The provider's dashboard, before the administrator's reason. */
  closedByTeamReason: 'The credentialing team closed this application without a decision. Reason:',
  withdrawnByProvider: 'Withdrawn by the provider',
} as const;

/** The administrators' cycle actions on the review page (issue 29 item 2). */
export const cycleActions = ['start_recredentialing_now', 'close_without_decision'] as const;
export type CycleAction = (typeof cycleActions)[number];

/**
 * The cycle actions an administrator can take on an application now: 'Close Without Decision' on a
 * submitted or under-review application; 'Start Recredentialing Now' on the approved application
 * that set a credential not ended, while the provider has no open cycle (draft or in review).
 */
export function availableCycleActions(input: {
  applicationId: string;
  status: string;
  credential: CredentialState;
  /** The application that last set the provider's credential, or null. */
  credentialApplicationId: string | null;
  /** Whether the provider has a draft, submitted or under-review application. */
  openCycle: boolean;
}): CycleAction[] {
  const actions: CycleAction[] = [];
  if (
    input.status === 'approved' &&
    input.credentialApplicationId === input.applicationId &&
    (input.credential.state === 'credentialed' || input.credential.state === 'expired') &&
    !input.openCycle
  ) {
    actions.push('start_recredentialing_now');
  }
  if (input.status === 'submitted' || input.status === 'under_review') actions.push('close_without_decision');
  return actions;
}
