/**
 * Every status x open request x action x actor of the review state machine (issue 13 acceptance:
 * "every allowed and every refused transition"), against a table written out here by hand.
 */
import { describe, expect, it } from 'vitest';
import { applicationStatuses } from '../application-status.ts';
import {
  availableActions,
  nextStatus,
  type ReviewAction,
  type ReviewActor,
  reviewActions,
  reviewActors,
} from './review-workflow.ts';

/** The allowed transitions: `status/openRequest/action/actor` -> the next status. Nothing else is. */
const allowed: Record<string, string> = {
  'draft/false/complete/provider': 'submitted',
  'draft/true/complete/provider': 'submitted',
  'submitted/false/start_review/reviewer': 'under_review',
  'submitted/false/start_review/integration': 'under_review',
  'submitted/true/start_review/reviewer': 'under_review',
  'submitted/true/start_review/integration': 'under_review',
  'under_review/false/request_information/reviewer': 'under_review',
  'under_review/false/request_information/integration': 'under_review',
  'under_review/true/submit_response/provider': 'under_review',
  'under_review/false/approve/reviewer': 'approved',
  'under_review/false/approve/integration': 'approved',
  'under_review/false/reject/reviewer': 'rejected',
  'under_review/false/reject/integration': 'rejected',
  'under_review/true/reject/reviewer': 'rejected',
  'under_review/true/reject/integration': 'rejected',
};

const cases = applicationStatuses.flatMap((status) =>
  [false, true].flatMap((openRequest) =>
    reviewActions.flatMap((action) => reviewActors.map((actor) => ({ status, openRequest, action, actor }))),
  ),
);

describe('nextStatus', () => {
  it.each(cases)(
    '$status (open request: $openRequest) -> $action by $actor',
    ({ status, openRequest, action, actor }) => {
      const result = nextStatus({ status, openRequest }, action, actor);
      const expected = allowed[`${status}/${openRequest}/${action}/${actor}`];
      if (expected) {
        expect(result).toEqual({ ok: true, to: expected });
      } else {
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.message.length).toBeGreaterThan(20);
      }
    },
  );

  it('covers 216 combinations, 15 of them allowed; a withdrawn cycle allows none (issue 29)', () => {
    expect(cases).toHaveLength(216);
    expect(cases.filter((c) => nextStatus(c, c.action, c.actor).ok)).toHaveLength(15);
    expect(cases.filter((c) => c.status === 'withdrawn' && nextStatus(c, c.action, c.actor).ok)).toEqual([]);
  });

  it('says why: the actor, a final decision, the wrong status, the open or missing request', () => {
    const underReview = { status: 'under_review' as const, openRequest: false };
    expect(nextStatus(underReview, 'approve', 'provider')).toMatchObject({
      ok: false,
      reason: 'not_allowed_for_actor',
      message: 'Only the credentialing team can approve an application.',
    });
    expect(nextStatus(underReview, 'submit_response', 'reviewer')).toMatchObject({
      reason: 'not_allowed_for_actor',
    });
    expect(nextStatus({ status: 'approved', openRequest: false }, 'reject', 'reviewer')).toMatchObject({
      reason: 'final',
      message: 'This application is Approved: the decision is final and cannot change.',
    });
    expect(
      nextStatus({ status: 'rejected', openRequest: false }, 'start_review', 'integration'),
    ).toMatchObject({
      reason: 'final',
    });
    expect(nextStatus({ status: 'draft', openRequest: false }, 'start_review', 'reviewer')).toMatchObject({
      reason: 'wrong_status',
      message:
        "'Start Review' needs an application that is Submitted; this one is Draft. Reload to see its current status.",
    });
    expect(nextStatus({ ...underReview, openRequest: true }, 'approve', 'reviewer')).toMatchObject({
      reason: 'request_open',
    });
    expect(
      nextStatus({ ...underReview, openRequest: true }, 'request_information', 'reviewer'),
    ).toMatchObject({
      reason: 'request_open',
    });
    expect(nextStatus(underReview, 'submit_response', 'provider')).toMatchObject({ reason: 'no_request' });
  });
});

describe('availableActions', () => {
  const offered = (status: (typeof applicationStatuses)[number], openRequest: boolean, actor: ReviewActor) =>
    availableActions({ status, openRequest }, actor);

  it('offers each party only its next steps', () => {
    expect(offered('draft', false, 'provider')).toEqual<ReviewAction[]>(['complete']);
    expect(offered('submitted', false, 'reviewer')).toEqual<ReviewAction[]>(['start_review']);
    expect(offered('under_review', false, 'reviewer')).toEqual<ReviewAction[]>([
      'request_information',
      'approve',
      'reject',
    ]);
    expect(offered('under_review', true, 'reviewer')).toEqual<ReviewAction[]>(['reject']);
    expect(offered('under_review', true, 'provider')).toEqual<ReviewAction[]>(['submit_response']);
    expect(offered('approved', false, 'reviewer')).toEqual([]);
    expect(offered('rejected', false, 'provider')).toEqual([]);
  });
});
