/**
 * The credentialing review state machine (issue 13; spec §4 statuses, whose server-side transitions
 * the spec leaves "not shown"). One table says which action moves an application from which status
 * to which, and who may take it; the server refuses anything else with 409 and the message below.
 *
 *   draft --complete (provider)--> submitted --start_review (reviewer)--> under_review
 *   under_review --request_information (reviewer)--> under_review, with an open request
 *   under_review, open request --submit_response (provider)--> under_review, request answered
 *   under_review, no open request --approve / reject (reviewer)--> approved / rejected (final)
 *
 * The integration actor (the workflow tool's signed inbound webhook) may take the reviewer's actions
 * under the same rules. Approve has a further guard the server checks with the data (every
 * verification item verified or waived and recent enough); it is not part of this table.
 */
import { type ApplicationStatus, applicationStatusLabel } from '../application-status.ts';

/** Longest request message, reply, rejection reason, note or waiver reason, in characters. */
export const REVIEW_TEXT_MAX = 4000;

export const reviewActions = [
  'complete',
  'start_review',
  'request_information',
  'submit_response',
  'approve',
  'reject',
] as const;
export type ReviewAction = (typeof reviewActions)[number];

/** Who acts: the application's provider, an administrator reviewing it, or the integration. */
export const reviewActors = ['provider', 'reviewer', 'integration'] as const;
export type ReviewActor = (typeof reviewActors)[number];

/** The product's label of each action (issue 13: these texts are the buttons). */
export const reviewActionLabel: Record<ReviewAction, string> = {
  complete: 'Application Completed',
  start_review: 'Start Review',
  request_information: 'Request Information',
  submit_response: 'Submit Response',
  approve: 'Approve',
  reject: 'Reject',
};

interface Rule {
  from: ApplicationStatus;
  to: ApplicationStatus;
  by: readonly ReviewActor[];
  /** Whether an information request must be open (true), must not be (false), or either (undefined). */
  openRequest?: boolean;
}

const staff = ['reviewer', 'integration'] as const;

const rules: Record<ReviewAction, Rule> = {
  complete: { from: 'draft', to: 'submitted', by: ['provider'] },
  start_review: { from: 'submitted', to: 'under_review', by: staff },
  request_information: { from: 'under_review', to: 'under_review', by: staff, openRequest: false },
  submit_response: { from: 'under_review', to: 'under_review', by: ['provider'], openRequest: true },
  approve: { from: 'under_review', to: 'approved', by: staff, openRequest: false },
  // Issue 32: a denial is the credentialing committee's (recorded at its meeting) or the integration's.
  reject: { from: 'under_review', to: 'rejected', by: ['reviewer', 'integration'] },
};

/** Statuses no action leaves (issue 13: "Approved and rejected are final"). */
export const finalStatuses: readonly ApplicationStatus[] = ['approved', 'rejected'];

/** Statuses of an application with the credentialing team: completed, no decision yet. */
export const reviewStatuses: readonly ApplicationStatus[] = ['submitted', 'under_review'];

/** Where an application stands, as far as the state machine is concerned. */
export interface ReviewState {
  status: ApplicationStatus;
  /** Whether an information request is waiting for the provider's response. */
  openRequest: boolean;
}

export type TransitionResult =
  | { ok: true; to: ApplicationStatus }
  | {
      ok: false;
      reason: 'not_allowed_for_actor' | 'wrong_status' | 'final' | 'request_open' | 'no_request';
      message: string;
    };

/**
 * The status `action` by `actor` leads to from `state`, or why it is refused (a message a person can
 * act on; the server answers it with 409, or 403 for `not_allowed_for_actor`).
 * @example nextStatus({ status: 'submitted', openRequest: false }, 'start_review', 'reviewer') // { ok: true, to: 'under_review' }
 */
export function nextStatus(state: ReviewState, action: ReviewAction, actor: ReviewActor): TransitionResult {
  const rule = rules[action];
  const label = reviewActionLabel[action];
  if (!rule.by.includes(actor)) {
    return {
      ok: false,
      reason: 'not_allowed_for_actor',
      message:
        actor === 'provider'
          ? `Only the credentialing team can ${label.toLowerCase()} an application.`
          : `'${label}' is the provider's step, not the credentialing team's.`,
    };
  }
  if (finalStatuses.includes(state.status)) {
    return {
      ok: false,
      reason: 'final',
      message: `This application is ${applicationStatusLabel[state.status]}: the decision is final and cannot change.`,
    };
  }
  if (state.status !== rule.from) {
    return {
      ok: false,
      reason: 'wrong_status',
      message: `'${label}' needs an application that is ${applicationStatusLabel[rule.from]}; this one is ${applicationStatusLabel[state.status]}. Reload to see its current status.`,
    };
  }
  if (rule.openRequest === true && !state.openRequest) {
    return {
      ok: false,
      reason: 'no_request',
      message: 'There is no open information request to respond to. Reload to see the application as it is.',
    };
  }
  if (rule.openRequest === false && state.openRequest) {
    return {
      ok: false,
      reason: 'request_open',
      message: `An information request is waiting for the provider's response: '${label}' is possible once they have responded.`,
    };
  }
  return { ok: true, to: rule.to };
}

/** The actions `actor` can take from `state` (what the screens offer), in the table's order. */
export function availableActions(state: ReviewState, actor: ReviewActor): ReviewAction[] {
  return reviewActions.filter((action) => nextStatus(state, action, actor).ok);
}
