/**
 * Decisions and the credentialing committee by API (issue 32 items 4, 5, 7; issue 50 items 2-4): real
 * PostgreSQL, real HTTP. A clean file goes to the medical director, who approves it unless they
 * verified it; a file with a Yes disclosure goes to 'Ready for Committee', onto a meeting's agenda,
 * where members are marked present (nobody pre-ticked), each casts their own signed vote, recusals
 * and the quorum are checked, and the decision recorded is the votes' tally; the meeting closes and
 * its minutes PDF names each vote. A deferral sends the file back; concurrent decisions record one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DecisionList, FileSummary, Meeting, MeetingList } from '../../domain/api/committee.ts';
import type { AdminReview, ProviderReview } from '../../domain/api/review.ts';
import { disclosureQuestions } from '../../domain/attestation.ts';
import {
  createTestApp,
  grantAdmin,
  signUpAndSignIn,
  signUpStaff,
  type TestApp,
} from '../../tests/harness.ts';
import { reviewSignature, signedAttestation } from '../../tests/http-client.ts';
import { createCompletedApplication } from '../notifications/testing/completed-application.ts';
import { pdfText } from '../pdf/pdf-text.ts';
import { completedApplication } from '../review/testing/completed-review-application.ts';
import { verifyEveryItem, verifyItem } from '../review/testing/verify-items.ts';
import { meetingTime } from './minutes.ts';
import { castVotes, committeeMember, medicalDirector, sendForDecision } from './testing/decide.ts';

let app: TestApp;
let specialist: Awaited<ReturnType<typeof signUpStaff>>;

beforeAll(async () => {
  app = await createTestApp();
  specialist = await signUpStaff(app, 'specialist', { firstName: 'Sam' });
}, 60_000);

afterAll(async () => {
  await app?.close();
});

const today = () => new Date().toISOString().slice(0, 10);
/** A meeting that started a minute ago (issue 50 item 3: nothing is decided before a meeting starts). */
const justStarted = () => new Date(Math.floor((Date.now() - 60_000) / 60_000) * 60_000).toISOString();
const adminPath = (applicationId: string, rest: string) => `/api/admin/applications/${applicationId}/${rest}`;
const meetingPath = (meetingId: string, rest = '') => `/api/committee/meetings/${meetingId}${rest}`;

/** A completed application under review with every item verified by the specialist. */
async function verifiedFile(options: { yesTo?: string } = {}) {
  let provider: Awaited<ReturnType<typeof signUpAndSignIn>>;
  let applicationId: string;
  if (options.yesTo) {
    provider = await signUpAndSignIn(app, { firstName: 'Yara' });
    applicationId = (await provider.json<{ id: string }>('POST', '/api/applications', {})).body.id;
    await createCompletedApplication({ ...app.runtime.deps, userId: provider.userId, applicationId });
    const attestation = await signedAttestation(provider);
    (attestation.answers as Record<string, { answer: string; explanation?: string }>)[options.yesTo] = {
      answer: 'yes',
      explanation: 'Probation in 2019, completed.',
    };
    const completed = await provider.json(
      'POST',
      `/api/applications/${applicationId}/completion`,
      attestation,
    );
    expect([200, 202], JSON.stringify(completed.body)).toContain(completed.status);
  } else {
    ({ provider, applicationId } = await completedApplication(app));
  }
  expect((await specialist.json('POST', adminPath(applicationId, 'start-review'), {})).status).toBe(200);
  await verifyEveryItem(specialist, applicationId, { verifiedAt: today() });
  return { provider, applicationId };
}

async function list(client: typeof specialist, which: 'clean_files' | 'committee') {
  const answer = await client.json<DecisionList>('GET', `/api/admin/decisions?list=${which}`);
  expect(answer.status).toBe(200);
  return answer.body.files;
}

describe('clean files', () => {
  it('go to the medical director, who approves them unless they verified them', async () => {
    const { provider, applicationId } = await verifiedFile();
    const sent = await sendForDecision(specialist, applicationId);
    expect(sent).toEqual({ track: 'clean_files', reasons: [] });
    // Sent once: a second send is refused, naming the list.
    const again = await specialist.json<{ message: string }>(
      'POST',
      adminPath(applicationId, 'send-for-decision'),
      {},
    );
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("This file is on the 'Clean Files' list already.");

    // On 'Clean Files' with its clock (the verification today: 120 days left), not on the committee's.
    const row = (await list(specialist, 'clean_files')).find((f) => f.applicationId === applicationId);
    expect(row).toMatchObject({ sentBy: expect.stringContaining('Sam'), reasons: [], meeting: null });
    expect(row?.decisionDue).toMatchObject({ daysLeft: 120, basis: expect.any(String) });
    expect((await list(specialist, 'committee')).some((f) => f.applicationId === applicationId)).toBe(false);

    // The review page offers 'Approve' to the medical director only, and shows where the file is.
    const director = await medicalDirector(app);
    const seen = await director.json<AdminReview>('GET', adminPath(applicationId, 'review'));
    expect(seen.body.availableActions).toEqual(['approve']);
    expect(seen.body.decisionRouting).toMatchObject({ track: 'clean_files', reasons: [], deferral: null });
    const bySpecialist = await specialist.json<AdminReview>('GET', adminPath(applicationId, 'review'));
    expect(bySpecialist.body.availableActions).toEqual(['request_information']);

    // A medical director who verified an item of it cannot be its only decider.
    const verifyingDirector = await signUpStaff(app, 'medical_director', { firstName: 'Vera' });
    await app.runtime.deps.database.pool.query(
      `insert into staff_roles (user_id, role) values ($1, 'specialist')`,
      [verifyingDirector.userId],
    );
    const item = seen.body.checklist[0]!;
    await verifyItem(verifyingDirector, applicationId, item, { verifiedAt: today() });
    const own = await verifyingDirector.json<{ message: string }>(
      'POST',
      adminPath(applicationId, 'approve'),
      reviewSignature(verifyingDirector),
    );
    expect(own.status).toBe(403);
    expect(own.body.message).toMatch(
      /^You verified items of this file: a clean file is approved by a medical director who did not prepare it/,
    );

    // An administrator does not decide (issue 32); the medical director does.
    const admin = await signUpAndSignIn(app);
    await grantAdmin(app, admin);
    expect(
      (await admin.json('POST', adminPath(applicationId, 'approve'), reviewSignature(admin))).status,
    ).toBe(403);
    const approved = await director.json(
      'POST',
      adminPath(applicationId, 'approve'),
      reviewSignature(director),
    );
    expect(approved).toMatchObject({ status: 200, body: { applicationStatus: 'approved' } });
    const decided = await director.json<AdminReview>('GET', adminPath(applicationId, 'review'));
    const me = (await director.json<{ profile: { firstName: string; lastName: string } }>('GET', '/api/me'))
      .body;
    expect(decided.body.decision).toEqual({
      by: 'medical_director',
      effectiveDate: today(),
      conditions: null,
      signedBy: `${me.profile.firstName} ${me.profile.lastName}`,
      decidedAt: expect.any(String),
    });
    expect(Date.now() - Date.parse(decided.body.decision?.decidedAt ?? '')).toBeLessThan(60_000);
    expect(decided.body.decisionRouting.track).toBeNull();
    expect((await list(specialist, 'clean_files')).some((f) => f.applicationId === applicationId)).toBe(
      false,
    );
    const providerView = await provider.json<ProviderReview>(
      'GET',
      `/api/applications/${applicationId}/review`,
    );
    expect(providerView.body.applicationStatus).toBe('approved');
  }, 60_000);

  it('that is no longer clean is refused and sent to the committee instead', async () => {
    const { applicationId } = await verifiedFile();
    await sendForDecision(specialist, applicationId);
    // A discrepancy recorded after sending: 'Approve' re-reads the file and refuses.
    const review = await specialist.json<AdminReview>('GET', adminPath(applicationId, 'review'));
    const license = review.body.checklist.find((i) => i.kind === 'license')!;
    const marked = await specialist.json(
      'PATCH',
      adminPath(applicationId, `verification-items/${license.id}`),
      {
        status: 'discrepancy',
        note: 'Board shows probation',
      },
    );
    expect(marked.status, JSON.stringify(marked.body)).toBe(200);
    const director = await medicalDirector(app);
    const refused = await director.json<{ message: string }>(
      'POST',
      adminPath(applicationId, 'approve'),
      reviewSignature(director),
    );
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(
      /^This file is no longer clean \(Discrepancy: .+\): use 'Send to Committee'\.$/,
    );
    // 'Send to Committee' needs a note; the specialist may not send it on.
    expect(
      (await director.json('POST', adminPath(applicationId, 'send-to-committee'), { note: ' ' })).status,
    ).toBe(400);
    expect(
      (await specialist.json('POST', adminPath(applicationId, 'send-to-committee'), { note: 'x' })).status,
    ).toBe(403);
    const onward = await director.json('POST', adminPath(applicationId, 'send-to-committee'), {
      note: 'Probation on the license',
    });
    expect(onward).toMatchObject({ status: 200, body: { track: 'committee' } });
    const row = (await list(director, 'committee')).find((f) => f.applicationId === applicationId);
    expect(row).toMatchObject({ note: 'Probation on the license' });
    // Once there, 'Approve' names the list it is on.
    const there = await director.json<{ message: string }>(
      'POST',
      adminPath(applicationId, 'approve'),
      reviewSignature(director),
    );
    expect(there.body.message).toBe(
      "'Approve' is for files on the 'Clean Files' list; this one is on 'Ready for Committee'.",
    );
  }, 60_000);
});

describe('the credentialing committee', () => {
  it('denies a file that is not clean at a meeting, with recusals, quorum and votes checked, and freezes the minutes', async () => {
    const question = disclosureQuestions[0]!;
    const { provider, applicationId } = await verifiedFile({ yesTo: question.id });
    const sent = await sendForDecision(specialist, applicationId);
    expect(sent).toEqual({ track: 'committee', reasons: [`Yes to: ${question.text}`] });

    const director = await medicalDirector(app);
    const member = await committeeMember(app);
    const second = await signUpStaff(app, 'committee', { firstName: 'Cole' });
    const outsider = await signUpStaff(app, 'committee', { firstName: 'Otto' });

    // Members must be committee members or medical directors.
    const strangers = await director.json<{ message: string }>('POST', '/api/committee/meetings', {
      scheduledAt: justStarted(),
      memberIds: [specialist.userId],
    });
    expect(strangers.status).toBe(400);
    expect(strangers.body.message).toMatch(/Only Committee Members and Medical Directors/);

    const heldAt = justStarted();
    const created = await director.json<Meeting>('POST', '/api/committee/meetings', {
      scheduledAt: heldAt,
      memberIds: [director.userId, member.userId, second.userId],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const meeting = created.body;
    expect(meeting).toMatchObject({ quorum: 2, agenda: [], closedAt: null, canManage: true });
    const { meetingId } = meeting;

    // A file not on 'Ready for Committee' cannot be added.
    const { applicationId: notSent } = await verifiedFile();
    const refused = await director.json<{ message: string }>('POST', meetingPath(meetingId, '/agenda'), {
      applicationId: notSent,
    });
    expect(refused.status).toBe(409);
    const added = await director.json<Meeting>('POST', meetingPath(meetingId, '/agenda'), { applicationId });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const item = added.body.agenda[0]!;
    expect(item).toMatchObject({
      applicationId,
      position: 1,
      reasons: [`Yes to: ${question.text}`],
      decision: null,
    });
    expect(
      (await list(director, 'committee')).find((f) => f.applicationId === applicationId)?.meeting,
    ).toEqual({
      meetingId,
      scheduledAt: heldAt,
    });

    // A member reads their meeting; a committee member who is not on it gets 404, and reads no list.
    expect(
      (await member.json<MeetingList>('GET', '/api/committee/meetings')).body.meetings.map(
        (m) => m.meetingId,
      ),
    ).toContain(meetingId);
    expect((await outsider.json('GET', meetingPath(meetingId))).status).toBe(404);
    expect((await outsider.json<MeetingList>('GET', '/api/committee/meetings')).body.meetings).toEqual([]);
    expect((await outsider.json('GET', meetingPath(meetingId, `/files/${applicationId}`))).status).toBe(404);
    expect((await member.json('GET', '/api/admin/decisions?list=committee')).status).toBe(403);
    // Issue 50 item 6: a member of the meeting reads the file's review; the outsider does not.
    expect((await member.json('GET', adminPath(applicationId, 'review'))).status).toBe(200);
    expect((await outsider.json('GET', adminPath(applicationId, 'review'))).status).toBe(403);
    const summary = await member.json<FileSummary>('GET', meetingPath(meetingId, `/files/${applicationId}`));
    expect(summary.status).toBe(200);
    expect(summary.body.disclosures).toEqual([
      { question: question.text, explanation: 'Probation in 2019, completed.' },
    ]);
    expect(summary.body.checklist.every((i) => i.status === 'verified')).toBe(true);

    // Recused, the second member sees the row greyed out (no name) and cannot read the file.
    const recused = await director.json<Meeting>(
      'PUT',
      meetingPath(meetingId, `/agenda/${item.itemId}/recusals`),
      {
        memberIds: [second.userId],
      },
    );
    expect(recused.body.agenda[0]!.recusedMemberIds).toEqual([second.userId]);
    const asRecused = await second.json<Meeting>('GET', meetingPath(meetingId));
    expect(asRecused.body.agenda[0]).toMatchObject({ callerRecused: true, providerName: '', reasons: [] });
    const hidden = await second.json<{ message: string }>(
      'GET',
      meetingPath(meetingId, `/files/${applicationId}`),
    );
    expect(hidden.status).toBe(403);
    expect(hidden.body.message).toBe('You are recused from this file: its summary is not shown to you.');
    // Members do not change meetings.
    expect((await member.json('POST', meetingPath(meetingId, '/close'), {})).status).toBe(403);

    // The minutes wait for 'Close Meeting'; closing waits for every decision.
    expect((await director.json('GET', meetingPath(meetingId, '/minutes.pdf'))).status).toBe(409);
    const early = await director.json<{ message: string }>('POST', meetingPath(meetingId, '/close'), {});
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/^1 file has no decision yet/);

    const record = (body: Record<string, unknown>) =>
      director.json<Meeting & { message: string }>(
        'POST',
        meetingPath(meetingId, `/agenda/${item.itemId}/decision`),
        {
          text: 'Disclosed probation not resolved.',
          discussion: 'The committee reviewed the board order.',
          ...body,
        },
      );
    const vote = (who: typeof member, choice: string, signature = reviewSignature(who)) =>
      who.json<Meeting & { message: string }>('POST', meetingPath(meetingId, `/agenda/${item.itemId}/vote`), {
        vote: choice,
        ...signature,
      });
    // Nobody is pre-ticked present; a member votes once present, not before.
    expect(added.body.members.every((m) => m.presentAt === null)).toBe(true);
    const absent = await vote(member, 'deny');
    expect(absent).toMatchObject({
      status: 409,
      body: { message: expect.stringMatching(/^Join the meeting first/) },
    });
    // The recorder marks two present; the second member joins by themselves.
    const marked = await director.json<Meeting>('POST', meetingPath(meetingId, '/attendance'), {
      memberIds: [director.userId, member.userId],
    });
    expect(
      marked.body.members
        .filter((m) => m.presentAt)
        .map((m) => m.userId)
        .sort(),
    ).toEqual([director.userId, member.userId].sort());
    expect((await second.json('POST', meetingPath(meetingId, '/join'))).status).toBe(200);
    // The recused member cannot vote; a wrong code signs nothing; nobody votes for someone else.
    expect((await vote(second, 'approve')).status).toBe(403);
    const wrongCode = await vote(member, 'deny', { reviewed: true, code: '000000' });
    expect(wrongCode.status).toBe(400);
    expect(wrongCode.body.message).toMatch(/^That code is not the current one/);
    const unsigned = await member.json('POST', meetingPath(meetingId, `/agenda/${item.itemId}/vote`), {
      vote: 'deny',
      code: reviewSignature(member).code,
    });
    expect(unsigned.status).toBe(400);
    // No votes yet: no decision, whatever the recorder writes.
    const none = await record({});
    expect(none).toMatchObject({
      status: 409,
      body: { message: expect.stringMatching(/^No clear majority: 0 of 2/) },
    });
    // Each member votes for themselves; a vote cast twice at once counts once.
    const twice = await Promise.all([vote(member, 'deny'), vote(member, 'deny')]);
    expect(twice.map((r) => r.status)).toEqual([200, 200]);
    const afterOne = twice[1]!.body.agenda[0]!;
    expect(afterOne.votes.map((v) => v.memberId)).toEqual([member.userId]);
    expect(afterOne.tally).toMatchObject({ decision: null, counts: { deny: 1 } });
    const both = await vote(director, 'deny');
    expect(both.body.agenda[0]).toMatchObject({
      callerVote: 'deny',
      tally: { decision: 'deny', message: null, counts: { deny: 2, approve: 0 } },
      recusals: [{ memberId: second.userId, reason: 'recused' }],
    });
    // A deny needs its reason; without the quorum present nothing is recorded.
    expect((await record({ text: '' })).status).toBe(400);
    await director.json('POST', meetingPath(meetingId, '/attendance'), {
      memberIds: [director.userId, second.userId],
    });
    const noQuorum = await record({});
    expect(noQuorum).toMatchObject({
      status: 409,
      body: {
        message: expect.stringMatching(
          /^No quorum: 1 member present and not recused; this meeting needs 2\./,
        ),
      },
    });
    await director.json('POST', meetingPath(meetingId, '/attendance'), {
      memberIds: [director.userId, member.userId, second.userId],
    });

    // Two recorders at once: one decision.
    const [a, b] = await Promise.all([record({}), record({})]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const decided = (a.status === 200 ? a : b).body.agenda[0]!;
    expect(decided.decision).toMatchObject({
      decision: 'deny',
      text: 'Disclosed probation not resolved.',
      votesFor: 2,
      effectiveDate: null,
    });
    const seen = await provider.json<ProviderReview>('GET', `/api/applications/${applicationId}/review`);
    expect(seen.body).toMatchObject({
      applicationStatus: 'rejected',
      decisionReason: 'Disclosed probation not resolved.',
    });
    expect(
      app.mail.some(
        (m) => m.to === provider.email && m.subject === 'A decision on your credentialing application',
      ),
    ).toBe(true);
    const adminView = await director.json<AdminReview>('GET', adminPath(applicationId, 'review'));
    expect(adminView.body.decision).toMatchObject({ by: 'committee' });

    // Closed: frozen, and the minutes say what was decided.
    const closed = await director.json<Meeting>('POST', meetingPath(meetingId, '/close'), {});
    expect(closed.body.closedAt).not.toBeNull();
    const afterClose = await director.json<{ message: string }>('POST', meetingPath(meetingId, '/agenda'), {
      applicationId: notSent,
    });
    expect(afterClose).toMatchObject({
      status: 409,
      body: { message: 'This meeting is closed: its minutes are final and cannot change.' },
    });
    const minutes = await member.request('GET', meetingPath(meetingId, '/minutes.pdf'));
    expect(minutes.status).toBe(200);
    expect(minutes.headers.get('content-type')).toBe('application/pdf');
    // Lines wrap at the page width: compare with whitespace collapsed.
    const text = (await pdfText(new Uint8Array(await minutes.arrayBuffer()))).replace(/\s+/g, ' ');
    const nameOf = (id: string) => closed.body.members.find((m) => m.userId === id)?.name;
    for (const expected of [
      `Credentialing Committee Minutes: ${meetingTime(heldAt)}`,
      `Held ${meetingTime(heldAt)}`,
      'Decision Deny',
      'Reason Disclosed probation not resolved.',
      'For 2 · Against 0 · Abstained 0',
      `${nameOf(member.userId)}: Vote to Deny (signed`,
      `${nameOf(director.userId)}: Vote to Deny (signed`,
      `${nameOf(second.userId)}: Recused`,
      'Discussion The committee reviewed the board order.',
      `Not a clean file Yes to: ${question.text}`,
    ]) {
      expect(text).toContain(expected);
    }
    const audit = await app.runtime.deps.database.pool.query<{ action: string }>(
      `select action from audit_log where resource_id = $1 and action like 'committee.%' order by id`,
      [meetingId],
    );
    expect(audit.rows.map((r) => r.action)).toEqual([
      'committee.meeting_created',
      'committee.agenda_changed',
      'committee.agenda_changed',
      'committee.attendance_recorded',
      'committee.member_joined',
      'committee.attendance_recorded',
      'committee.attendance_recorded',
      'committee.meeting_closed',
      'committee.minutes_downloaded',
    ]);
    // Each own vote is audited against the file, signed.
    const votes = await app.runtime.deps.database.pool.query<{
      actor_user_id: string;
      details: { signed: boolean };
    }>(
      `select actor_user_id, details from audit_log where action = 'committee.vote_cast' and resource_id = $1`,
      [applicationId],
    );
    expect(votes.rows.map((r) => r.actor_user_id).sort()).toEqual(
      [member.userId, member.userId, director.userId].sort(),
    );
  }, 90_000);

  it('defers a file back to its specialist with what is missing, and approves with conditions', async () => {
    const { applicationId } = await verifiedFile({ yesTo: disclosureQuestions[1]!.id });
    await sendForDecision(specialist, applicationId);
    const director = await medicalDirector(app);
    const member = await committeeMember(app);
    const meeting = await director.json<Meeting>('POST', '/api/committee/meetings', {
      scheduledAt: justStarted(),
      memberIds: [director.userId, member.userId],
      quorum: 2,
    });
    const { meetingId } = meeting.body;
    const added = await director.json<Meeting>('POST', meetingPath(meetingId, '/agenda'), { applicationId });
    const itemId = added.body.agenda[0]!.itemId;
    await castVotes(app, meetingId, itemId, [director, member], 'defer');
    const deferred = await director.json<Meeting>(
      'POST',
      meetingPath(meetingId, `/agenda/${itemId}/decision`),
      { text: 'The court record of the 2019 matter', discussion: 'Needs the court record.' },
    );
    expect(deferred.status, JSON.stringify(deferred.body)).toBe(200);
    const back = await specialist.json<AdminReview>('GET', adminPath(applicationId, 'review'));
    expect(back.body.applicationStatus).toBe('under_review');
    expect(back.body.decisionRouting).toMatchObject({
      track: null,
      deferral: { text: 'The court record of the 2019 matter' },
    });
    expect((await list(specialist, 'committee')).some((f) => f.applicationId === applicationId)).toBe(false);

    // Sent again, to a second meeting, approved with conditions from an effective date.
    await sendForDecision(specialist, applicationId);
    const next = await director.json<Meeting>('POST', '/api/committee/meetings', {
      scheduledAt: justStarted(),
      memberIds: [director.userId, member.userId],
    });
    const again = await director.json<Meeting>('POST', meetingPath(next.body.meetingId, '/agenda'), {
      applicationId,
    });
    const againItem = again.body.agenda[0]!.itemId;
    await castVotes(app, next.body.meetingId, againItem, [director, member], 'approve_with_conditions');
    // The carried decision needs its conditions.
    const noConditions = await director.json(
      'POST',
      meetingPath(next.body.meetingId, `/agenda/${againItem}/decision`),
      { discussion: 'Approved with oversight.' },
    );
    expect(noConditions.status).toBe(400);
    const approved = await director.json<Meeting>(
      'POST',
      meetingPath(next.body.meetingId, `/agenda/${againItem}/decision`),
      {
        text: 'Quarterly chart review for a year',
        effectiveDate: '2026-12-15',
        discussion: 'Approved with oversight.',
      },
    );
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const decided = await specialist.json<AdminReview>('GET', adminPath(applicationId, 'review'));
    expect(decided.body).toMatchObject({
      applicationStatus: 'approved',
      decision: {
        by: 'committee',
        effectiveDate: '2026-12-15',
        conditions: 'Quarterly chart review for a year',
      },
    });
    // The credential runs from the effective date.
    expect(decided.body.credential).toMatchObject({
      credentialedAt: '2026-12-15T00:00:00.000Z',
      endsOn: '2029-12-15',
    });
  }, 90_000);

  it('takes a file closed without a decision off the lists and the agenda', async () => {
    const { applicationId } = await verifiedFile({ yesTo: disclosureQuestions[2]!.id });
    await sendForDecision(specialist, applicationId);
    const director = await medicalDirector(app);
    const member = await committeeMember(app);
    const meeting = await director.json<Meeting>('POST', '/api/committee/meetings', {
      scheduledAt: '2026-12-03T17:00:00Z',
      memberIds: [director.userId, member.userId],
    });
    await director.json('POST', meetingPath(meeting.body.meetingId, '/agenda'), { applicationId });
    const closed = await specialist.json('POST', adminPath(applicationId, 'close'), {
      reason: 'Provider left the group',
    });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect((await list(specialist, 'committee')).some((f) => f.applicationId === applicationId)).toBe(false);
    const after = await director.json<Meeting>('GET', meetingPath(meeting.body.meetingId));
    expect(after.body.agenda).toEqual([]);
  }, 60_000);
});
