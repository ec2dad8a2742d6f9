/**
 * Test helpers of decisions (issue 32 items 4, 5): take a fully verified file to its decision the way
 * the product does, by API. 'Approve' is the medical director's of a clean file; a denial is the
 * committee's, recorded at a meeting. The medical director and the committee member are signed up
 * once per test server.
 */
import { expect } from 'vitest';
import type { Meeting, SendForDecisionResult } from '../../../domain/api/committee.ts';
import { type Client, signUpStaff, type TestApp } from '../../../tests/harness.ts';
import { type HttpClient, reviewSignature } from '../../../tests/http-client.ts';
import { completedApplication } from '../../review/testing/completed-review-application.ts';
import { verifyEveryItem } from '../../review/testing/verify-items.ts';

type Sender = Pick<HttpClient, 'json'>;
type Staff = Client & { userId: string; email: string };

const adminPath = (applicationId: string, rest: string) => `/api/admin/applications/${applicationId}/${rest}`;

const directors = new WeakMap<TestApp, Promise<Staff>>();
const members = new WeakMap<TestApp, Promise<Staff>>();

/** The test server's Medical Director (signed up on first use). */
export function medicalDirector(app: TestApp): Promise<Staff> {
  if (!directors.has(app)) directors.set(app, signUpStaff(app, 'medical_director'));
  return directors.get(app) as Promise<Staff>;
}

/** The test server's Committee Member (signed up on first use). */
export function committeeMember(app: TestApp): Promise<Staff> {
  if (!members.has(app)) members.set(app, signUpStaff(app, 'committee'));
  return members.get(app) as Promise<Staff>;
}

/**
 * A new provider's completed application (review/testing), its review started by `reviewer` and every
 * checklist item verified today: ready for 'Send for Decision'.
 */
export async function reviewedFile(app: TestApp, reviewer: Sender & Pick<HttpClient, 'request'>) {
  const { provider, applicationId } = await completedApplication(app);
  const started = await reviewer.json('POST', adminPath(applicationId, 'start-review'), {});
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  await verifyEveryItem(reviewer, applicationId, { verifiedAt: new Date().toISOString().slice(0, 10) });
  return { provider, applicationId };
}

/** 'Send for Decision' by `sender` (a specialist or administrator); expects 200. */
export async function sendForDecision(sender: Sender, applicationId: string): Promise<SendForDecisionResult> {
  const sent = await sender.json<SendForDecisionResult>(
    'POST',
    adminPath(applicationId, 'send-for-decision'),
    {},
  );
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return sent.body;
}

/**
 * Sends a verified clean file for decision and has the medical director approve it; expects both to
 * succeed. @returns the medical director
 */
export async function approveCleanFile(app: TestApp, sender: Sender, applicationId: string): Promise<Staff> {
  const sent = await sendForDecision(sender, applicationId);
  expect(sent.track, sent.reasons.join('; ')).toBe('clean_files');
  const director = await medicalDirector(app);
  const approved = await director.json(
    'POST',
    adminPath(applicationId, 'approve'),
    reviewSignature(director),
  );
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  return director;
}

/**
 * Takes a verified file to a new meeting (the medical director sends a clean one on) and records
 * `decision` there with the committee member and the medical director voting for it.
 * @returns the meeting after the decision, and the file's agenda item as it was before it
 */
export async function decideAtCommittee(
  app: TestApp,
  sender: Sender,
  applicationId: string,
  decision: {
    decision: 'approve' | 'approve_with_conditions' | 'deny' | 'defer';
    text?: string;
    effectiveDate?: string;
  },
): Promise<Meeting & { itemBefore: Meeting['agenda'][number] }> {
  const director = await medicalDirector(app);
  const sent = await sendForDecision(sender, applicationId);
  if (sent.track === 'clean_files') {
    const onward = await director.json('POST', adminPath(applicationId, 'send-to-committee'), {
      note: 'For the committee',
    });
    expect(onward.status, JSON.stringify(onward.body)).toBe(200);
  }
  return decideOnAgenda(app, applicationId, decision);
}

/**
 * Records `decision` on a file already on 'Ready for Committee' (a committee file, an appeal, a
 * monitoring finding) at a new meeting, with the committee member and the medical director voting for it.
 * @returns the meeting after the decision, and the file's agenda item as it was before it
 */
export async function decideOnAgenda(
  app: TestApp,
  applicationId: string,
  decision: {
    decision: 'approve' | 'approve_with_conditions' | 'deny' | 'defer';
    text?: string;
    effectiveDate?: string;
  },
): Promise<Meeting & { itemBefore: Meeting['agenda'][number] }> {
  const director = await medicalDirector(app);
  const member = await committeeMember(app);
  const created = await director.json<Meeting>('POST', '/api/committee/meetings', {
    scheduledAt: new Date().toISOString(),
    memberIds: [director.userId, member.userId],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const meetingId = created.body.meetingId;
  const added = await director.json<Meeting>('POST', `/api/committee/meetings/${meetingId}/agenda`, {
    applicationId,
  });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  const item = added.body.agenda.find((i) => i.applicationId === applicationId);
  // Issue 50: both members are marked present, each casts their own signed vote, then it is recorded.
  await castVotes(app, meetingId, item!.itemId, [director, member], decision.decision);
  const { decision: _carried, ...minutes } = decision;
  const recorded = await director.json<Meeting>(
    'POST',
    `/api/committee/meetings/${meetingId}/agenda/${item?.itemId}/decision`,
    { text: '', ...minutes, discussion: 'Discussed the file.' },
  );
  expect(recorded.status, JSON.stringify(recorded.body)).toBe(200);
  return { ...recorded.body, itemBefore: item as Meeting['agenda'][number] };
}

/**
 * Marks `voters` present (through the meeting's recorder, the medical director) and has each cast
 * their own signed vote `vote` on `itemId` (issue 50 item 2); expects every step to succeed.
 */
export async function castVotes(
  app: TestApp,
  meetingId: string,
  itemId: string,
  voters: readonly Staff[],
  vote: 'approve' | 'approve_with_conditions' | 'deny' | 'defer',
): Promise<void> {
  const director = await medicalDirector(app);
  const present = await director.json<Meeting>('GET', `/api/committee/meetings/${meetingId}`);
  const already = present.body.members.filter((m) => m.presentAt).map((m) => m.userId);
  const marked = await director.json('POST', `/api/committee/meetings/${meetingId}/attendance`, {
    memberIds: [...new Set([...already, ...voters.map((v) => v.userId)])],
  });
  expect(marked.status, JSON.stringify(marked.body)).toBe(200);
  for (const voter of voters) {
    const cast = await voter.json('POST', `/api/committee/meetings/${meetingId}/agenda/${itemId}/vote`, {
      vote,
      ...reviewSignature(voter),
    });
    expect(cast.status, JSON.stringify(cast.body)).toBe(200);
  }
}
