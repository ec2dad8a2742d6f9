/**
 * The credential's state rules (issue 29 item 1 acceptance: "a table test: approve, recredential,
 * deny, lapse, withdraw"), with `now` passed in. Each row replays events from no credential and
 * checks the state and badge at a date.
 */
import { describe, expect, it } from 'vitest';
import {
  type ApplicationCycle,
  type CredentialRecord,
  credentialAfterDecision,
  credentialLabel,
  credentialState,
  cycleForNewApplication,
  providerMayStartCycle,
  rejectionEndsCredentialText,
} from './provider-credential.ts';

type Event =
  | { decide: 'approved' | 'rejected'; cycle: ApplicationCycle; at: string }
  | { withdraw: ApplicationCycle; at: string };

/** Replays `events`: a decision goes through credentialAfterDecision; a withdrawal changes nothing. */
function replay(events: Event[]): CredentialRecord | null {
  let record: CredentialRecord | null = null;
  for (const [index, event] of events.entries()) {
    if ('decide' in event) {
      record = credentialAfterDecision(record, event.decide, event.cycle, new Date(event.at), `app-${index}`);
    }
  }
  return record;
}

const cases: { name: string; events: Event[]; now: string; label: string | null; state: string }[] = [
  { name: 'no decision yet', events: [], now: '2026-06-01T12:00:00Z', label: null, state: 'none' },
  {
    name: 'approve: 36 months from the approval day',
    events: [{ decide: 'approved', cycle: 'initial', at: '2026-03-10T15:00:00Z' }],
    now: '2026-06-01T12:00:00Z',
    label: 'Credentialed until Mar 10, 2029',
    state: 'credentialed',
  },
  {
    name: 'deny an initial cycle: still no credential',
    events: [{ decide: 'rejected', cycle: 'initial', at: '2026-03-10T15:00:00Z' }],
    now: '2026-06-01T12:00:00Z',
    label: null,
    state: 'none',
  },
  {
    name: 'recredential: an approved recredentialing extends it from its own approval',
    events: [
      { decide: 'approved', cycle: 'initial', at: '2026-03-10T15:00:00Z' },
      { decide: 'approved', cycle: 'recredentialing', at: '2028-11-02T09:00:00Z' },
    ],
    now: '2029-06-01T12:00:00Z',
    label: 'Credentialed until Nov 2, 2031',
    state: 'credentialed',
  },
  {
    name: 'deny a recredentialing: ended on the decision day',
    events: [
      { decide: 'approved', cycle: 'initial', at: '2026-03-10T15:00:00Z' },
      { decide: 'rejected', cycle: 'recredentialing', at: '2028-12-01T23:30:00Z' },
    ],
    now: '2028-12-02T12:00:00Z',
    label: 'Credential ended Dec 1, 2028',
    state: 'ended',
  },
  {
    name: 'lapse: the end date passed with no decision',
    events: [{ decide: 'approved', cycle: 'initial', at: '2026-03-10T15:00:00Z' }],
    now: '2029-03-11T00:00:00Z',
    label: 'Credential expired',
    state: 'expired',
  },
  {
    name: 'still credentialed on its last day',
    events: [{ decide: 'approved', cycle: 'initial', at: '2026-03-10T15:00:00Z' }],
    now: '2029-03-10T23:59:00Z',
    label: 'Credentialed until Mar 10, 2029',
    state: 'credentialed',
  },
  {
    name: 'withdraw a recredentialing: no change',
    events: [
      { decide: 'approved', cycle: 'initial', at: '2026-03-10T15:00:00Z' },
      { withdraw: 'recredentialing', at: '2026-04-01T10:00:00Z' },
    ],
    now: '2026-06-01T12:00:00Z',
    label: 'Credentialed until Mar 10, 2029',
    state: 'credentialed',
  },
  {
    name: 'withdraw the first cycle: still no credential',
    events: [{ withdraw: 'initial', at: '2026-04-01T10:00:00Z' }],
    now: '2026-06-01T12:00:00Z',
    label: null,
    state: 'none',
  },
  {
    name: 'approve after an ended credential: credentialed again',
    events: [
      { decide: 'approved', cycle: 'initial', at: '2026-03-10T15:00:00Z' },
      { decide: 'rejected', cycle: 'recredentialing', at: '2028-12-01T10:00:00Z' },
      { decide: 'approved', cycle: 'initial', at: '2029-05-05T10:00:00Z' },
    ],
    now: '2029-06-01T12:00:00Z',
    label: 'Credentialed until May 5, 2032',
    state: 'credentialed',
  },
];

describe('credentialState and credentialLabel over decisions (issue 29 item 1)', () => {
  it.each(cases)('$name', ({ events, now, label, state }) => {
    const current = credentialState(replay(events), new Date(now));
    expect(current.state).toBe(state);
    expect(credentialLabel(current)).toBe(label);
  });

  it('keeps the first approval as credentialedAt across recredentialing', () => {
    const record = replay([
      { decide: 'approved', cycle: 'initial', at: '2026-03-10T15:00:00Z' },
      { decide: 'approved', cycle: 'recredentialing', at: '2028-11-02T09:00:00Z' },
    ]);
    expect(record?.credentialedAt.toISOString()).toBe('2026-03-10T15:00:00.000Z');
    expect(record?.approvedAt.toISOString()).toBe('2028-11-02T09:00:00.000Z');
    expect(record?.applicationId).toBe('app-1');
  });

  it('clamps the end date to the month end (Feb 29 + 36 months)', () => {
    const record = replay([{ decide: 'approved', cycle: 'initial', at: '2028-02-29T10:00:00Z' }]);
    expect(record?.endsOn).toBe('2031-02-28');
  });
});

describe('starting a cycle (issue 29 item 2)', () => {
  const approved = replay([{ decide: 'approved', cycle: 'initial', at: '2026-03-10T15:00:00Z' }]);
  it.each([
    { now: '2026-06-01T00:00:00Z', may: false, cycle: 'recredentialing' },
    { now: '2028-09-12T00:00:00Z', may: true, cycle: 'recredentialing' }, // 179 days before Mar 10, 2029
    { now: '2028-09-10T00:00:00Z', may: false, cycle: 'recredentialing' }, // 181 days before
    { now: '2029-04-01T00:00:00Z', may: true, cycle: 'recredentialing' }, // expired: renewal
  ])('a credentialed provider at $now: may start = $may, cycle $cycle', ({ now, may, cycle }) => {
    const state = credentialState(approved, new Date(now));
    expect(providerMayStartCycle(state, new Date(now))).toBe(may);
    expect(cycleForNewApplication(state)).toBe(cycle);
  });

  it('without a credential, or after it ended, a new application is an initial cycle and may start', () => {
    const ended = replay([
      { decide: 'approved', cycle: 'initial', at: '2026-03-10T15:00:00Z' },
      { decide: 'rejected', cycle: 'recredentialing', at: '2028-12-01T10:00:00Z' },
    ]);
    for (const record of [null, ended]) {
      const state = credentialState(record, new Date('2029-01-01T00:00:00Z'));
      expect(cycleForNewApplication(state)).toBe('initial');
      expect(providerMayStartCycle(state, new Date('2029-01-01T00:00:00Z'))).toBe(true);
    }
  });
});

describe('the Reject dialog warning', () => {
  const now = new Date('2028-12-01T10:00:00Z');
  const held = credentialState(
    replay([{ decide: 'approved', cycle: 'initial', at: '2026-03-10T15:00:00Z' }]),
    now,
  );
  it('names the provider and the decision day for a recredentialing of a held credential', () => {
    expect(rejectionEndsCredentialText('recredentialing', held, 'Alice Smith', now)).toBe(
      "Denying this recredentialing ends Alice Smith's credential on Dec 1, 2028.",
    );
  });
  it('says nothing for an initial cycle or a provider without a credential', () => {
    expect(rejectionEndsCredentialText('initial', held, 'Alice Smith', now)).toBeNull();
    expect(rejectionEndsCredentialText('recredentialing', { state: 'none' }, 'Alice', now)).toBeNull();
  });
});
