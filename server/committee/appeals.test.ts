/**
 * Decision letters and appeals by API (issue 32 item 6): real PostgreSQL, real HTTP. Every decision
 * writes a letter the provider downloads as a PDF and receives by email with the same text; a denial
 * may be appealed once, within 30 days, with a statement; the appeal waits on 'Ready for Committee'
 * for a meeting after the denial, whose decision (upheld, or approved from an effective date) is final.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DecisionList, Meeting } from '../../domain/api/committee.ts';
import type { AdminReview, ProviderReview } from '../../domain/api/review.ts';
import { addDays, formatIsoDay, isoDay } from '../../domain/calendar.ts';
import {
  createTestApp,
  grantAdmin,
  signUpAndSignIn,
  signUpStaff,
  type TestApp,
} from '../../tests/harness.ts';
import { reviewSignature } from '../../tests/http-client.ts';
import { pdfText } from '../pdf/pdf-text.ts';
import {
  approveCleanFile,
  castVotes,
  committeeMember,
  decideAtCommittee,
  medicalDirector,
  reviewedFile,
} from './testing/decide.ts';

let app: TestApp;
let specialist: Awaited<ReturnType<typeof signUpStaff>>;

beforeAll(async () => {
  app = await createTestApp();
  specialist = await signUpStaff(app, 'specialist', { firstName: 'Sam' });
}, 60_000);

afterAll(async () => {
  await app?.close();
});

const today = () => isoDay(new Date());
const REASON = 'The license was on probation during the review.';

/** A provider's application verified by the specialist and denied at a committee meeting. */
async function deniedFile() {
  const { provider, applicationId } = await reviewedFile(app, specialist);
  const meeting = await decideAtCommittee(app, specialist, applicationId, { decision: 'deny', text: REASON });
  return { provider, applicationId, meeting };
}

/**
 * Moves the denial of `applicationId` (its decision and its letter) `days` into the past, the way the
 * clock would: an appeal is heard at a meeting that starts after the denial letter (issue 50 items 3,
 * 8), and a meeting decides only once it has started, so the test's denial must be older than a
 * meeting that has started.
 */
async function ageDenial(applicationId: string, days: number) {
  const pool = app.runtime.deps.database.pool;
  await pool.query(
    `update provider_applications set decided_at = decided_at - make_interval(days => $2) where id = $1`,
    [applicationId, days],
  );
  await pool.query(
    `update decision_letters set created_at = created_at - make_interval(days => $2) where application_id = $1`,
    [applicationId, days],
  );
}

/** A meeting that started a minute ago. */
const justStarted = () => new Date(Date.now() - 60_000).toISOString();

async function providerReview(provider: { json: typeof specialist.json }, applicationId: string) {
  const review = await provider.json<ProviderReview>('GET', `/api/applications/${applicationId}/review`);
  expect(review.status).toBe(200);
  return review.body;
}

async function letterText(
  client: { request: typeof specialist.request },
  applicationId: string,
  letterId: string,
) {
  const response = await client.request('GET', `/api/applications/${applicationId}/letters/${letterId}`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/pdf');
  return (await pdfText(new Uint8Array(await response.arrayBuffer()))).replace(/\s+/g, ' ');
}

describe('decision letters', () => {
  it("state an approval's credential dates, in the PDF and the email alike", async () => {
    const { provider, applicationId } = await reviewedFile(app, specialist);
    await approveCleanFile(app, specialist, applicationId);
    const review = await providerReview(provider, applicationId);
    expect(review.letters).toEqual([
      {
        letterId: expect.any(String),
        kind: 'approval',
        title: 'Approval Letter',
        createdAt: expect.any(String),
      },
    ]);
    expect(review.appeal).toBeNull();
    const through = formatIsoDay(today());
    const text = await letterText(provider, applicationId, review.letters[0]!.letterId);
    expect(text).toContain('Approval Letter');
    // Issue 50 item 7: the director by name.
    expect(text).toMatch(
      new RegExp(`The Medical Director, [^,]+, approved your credentialing application on ${through}\\.`),
    );
    expect(text).toMatch(
      /Your credential is effective from \w{3} \d{1,2}, \d{4} through \w{3} \d{1,2}, \d{4}\./,
    );
    const mail = app.mail.filter(
      (m) => m.to === provider.email && m.subject === 'Your credentialing application was approved',
    );
    expect(mail).toHaveLength(1);
    expect(mail[0]!.text.replace(/\s+/g, ' ')).toMatch(
      new RegExp(`The Medical Director, [^,]+, approved your credentialing application on ${through}\\.`),
    );

    // The provider's letter is theirs: another provider gets 404; staff who read files get it.
    const other = await signUpAndSignIn(app);
    const stranger = await other.request(
      'GET',
      `/api/applications/${applicationId}/letters/${review.letters[0]!.letterId}`,
    );
    expect(stranger.status).toBe(404);
    expect(await letterText(specialist, applicationId, review.letters[0]!.letterId)).toContain(
      'Approval Letter',
    );
    const unknown = await provider.request(
      'GET',
      `/api/applications/${applicationId}/letters/00000000-0000-4000-8000-000000000000`,
    );
    expect(unknown.status).toBe(404);
  }, 90_000);
});

describe('appeals', () => {
  it('are requested once within 30 days and heard at a later meeting, whose denial is final', async () => {
    const { provider, applicationId, meeting: denying } = await deniedFile();
    // The denial's letter: the reason and the appeal rights, and the email says the same.
    const denied = await providerReview(provider, applicationId);
    expect(denied.appeal).toEqual({
      status: 'available',
      deadline: addDays(today(), 30),
      requestedAt: null,
      statement: null,
      decidedAt: null,
      attachments: [],
    });
    const denialText = await letterText(provider, applicationId, denied.letters[0]!.letterId);
    expect(denialText).toContain(`Reason: ${REASON}`);
    expect(denialText).toContain(
      `you may request an appeal until ${formatIsoDay(addDays(today(), 30))} (30 days)`,
    );
    const mail = app.mail.find(
      (m) => m.to === provider.email && m.subject === 'A decision on your credentialing application',
    );
    expect(mail?.text).toContain(`Reason: ${REASON}`);
    expect(mail?.text).toContain("choose 'Request Appeal' on your dashboard");

    // Only the provider, with a statement.
    const path = `/api/applications/${applicationId}/appeal`;
    expect((await provider.json('POST', path, { statement: '  ' })).status).toBe(400);
    expect((await (await signUpAndSignIn(app)).json('POST', path, { statement: 'x' })).status).toBe(404);
    const admin = await signUpAndSignIn(app);
    await grantAdmin(app, admin);
    expect((await admin.json('POST', path, { statement: 'x' })).status).toBe(403);
    // Two requests at once: one appeal.
    const statement = 'The probation ended in March; the board letter is attached to my documents.';
    const [a, b] = await Promise.all([
      provider.json('POST', path, { statement }),
      provider.json('POST', path, { statement }),
    ]);
    expect([a.status, b.status].sort()).toEqual([204, 409]);
    expect((await providerReview(provider, applicationId)).appeal).toMatchObject({
      status: 'requested',
      statement,
    });

    // On 'Ready for Committee' as an appeal; not for the meeting that denied it, which is closed, nor
    // for one held before the denial.
    const director = await medicalDirector(app);
    const member = await committeeMember(app);
    const files = await director.json<DecisionList>('GET', '/api/admin/decisions?list=committee');
    expect(files.body.files.find((f) => f.applicationId === applicationId)).toMatchObject({
      kind: 'appeal',
      reasons: [`Appeal of the denial of ${formatIsoDay(today())}`],
    });
    // The denial is a day old; a meeting held before it cannot hear the appeal.
    await ageDenial(applicationId, 1);
    const members = [director.userId, member.userId];
    const earlier = await director.json<Meeting>('POST', '/api/committee/meetings', {
      scheduledAt: new Date(Date.now() - 2 * 86_400_000).toISOString(),
      memberIds: members,
    });
    const tooEarly = await director.json<{ message: string }>(
      'POST',
      `/api/committee/meetings/${earlier.body.meetingId}/agenda`,
      { applicationId },
    );
    expect(tooEarly.status).toBe(409);
    expect(tooEarly.body.message).toMatch(/meeting that starts after the denial letter/);
    expect(denying.closedAt).toBeNull();
    // Issue 50 item 8: heard by members who did not vote on the denial; the director, who did, sits
    // on the meeting but does not vote on the appeal.
    const fresh = [
      await signUpStaff(app, 'committee', { firstName: 'Fay' }),
      await signUpStaff(app, 'committee', { firstName: 'Gil' }),
    ];
    const later = await director.json<Meeting>('POST', '/api/committee/meetings', {
      scheduledAt: justStarted(),
      memberIds: [director.userId, ...fresh.map((f) => f.userId)],
    });
    const added = await director.json<Meeting>(
      'POST',
      `/api/committee/meetings/${later.body.meetingId}/agenda`,
      { applicationId },
    );
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const item = added.body.agenda[0]!;
    expect(item.kind).toBe('appeal');
    expect(item.recusals).toEqual([{ memberId: director.userId, reason: 'denial_voter' }]);
    const summary = await fresh[0]!.json<{ appeal: unknown }>(
      'GET',
      `/api/committee/meetings/${later.body.meetingId}/files/${applicationId}`,
    );
    expect(summary.body.appeal).toMatchObject({ statement, deniedFor: REASON });
    await director.json('POST', `/api/committee/meetings/${later.body.meetingId}/attendance`, {
      memberIds: [director.userId],
    });
    const directorVote = await director.json<{ message: string }>(
      'POST',
      `/api/committee/meetings/${later.body.meetingId}/agenda/${item.itemId}/vote`,
      { vote: 'deny', ...reviewSignature(director) },
    );
    expect(directorVote.status).toBe(403);
    expect(directorVote.body.message).toMatch(/^You voted on the denial this appeal challenges/);
    await castVotes(app, later.body.meetingId, item.itemId, fresh, 'deny');

    const upheld = await director.json<Meeting>(
      'POST',
      `/api/committee/meetings/${later.body.meetingId}/agenda/${item.itemId}/decision`,
      {
        text: 'The probation had not ended when the committee decided.',
        discussion: 'Read the statement and the board letter.',
      },
    );
    expect(upheld.status, JSON.stringify(upheld.body)).toBe(200);
    const after = await providerReview(provider, applicationId);
    expect(after.applicationStatus).toBe('rejected');
    expect(after.appeal).toMatchObject({ status: 'upheld', decidedAt: expect.any(String) });
    expect(after.letters.map((l) => l.kind)).toEqual(['denial', 'appeal_upheld']);
    const upheldText = await letterText(provider, applicationId, after.letters[1]!.letterId);
    expect(upheldText).toContain('upheld the denial of your credentialing application');
    expect(upheldText).toContain('This decision is final.');
    // Final: no second appeal, and the file is off the lists.
    const again = await provider.json<{ message: string }>('POST', path, { statement: 'Again' });
    expect(again.status).toBe(409);
    const lists = await director.json<DecisionList>('GET', '/api/admin/decisions?list=committee');
    expect(lists.body.files.some((f) => f.applicationId === applicationId)).toBe(false);
  }, 120_000);

  it('approved on appeal moves the denied file to approved from the effective date', async () => {
    const { provider, applicationId } = await deniedFile();
    expect(
      (
        await provider.json('POST', `/api/applications/${applicationId}/appeal`, {
          statement: 'New evidence.',
        })
      ).status,
    ).toBe(204);
    const director = await medicalDirector(app);
    await ageDenial(applicationId, 1);
    const fresh = [
      await signUpStaff(app, 'committee', { firstName: 'Hal' }),
      await signUpStaff(app, 'committee', { firstName: 'Ivy' }),
    ];
    const meeting = await director.json<Meeting>('POST', '/api/committee/meetings', {
      scheduledAt: justStarted(),
      memberIds: fresh.map((f) => f.userId),
    });
    const added = await director.json<Meeting>(
      'POST',
      `/api/committee/meetings/${meeting.body.meetingId}/agenda`,
      { applicationId },
    );
    const itemId = added.body.agenda[0]!.itemId;
    await castVotes(app, meeting.body.meetingId, itemId, fresh, 'approve');
    const effectiveDate = addDays(today(), 3);
    const decided = await director.json<Meeting>(
      'POST',
      `/api/committee/meetings/${meeting.body.meetingId}/agenda/${itemId}/decision`,
      { effectiveDate, discussion: 'The new evidence answers the reason.' },
    );
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    const review = await director.json<AdminReview>('GET', `/api/admin/applications/${applicationId}/review`);
    expect(review.body).toMatchObject({
      applicationStatus: 'approved',
      decisionReason: null,
      decision: { by: 'committee', effectiveDate },
      appeal: { status: 'approved' },
      // Issue 49 item 5: approved, effective in three days; credentialed (and published) from then.
      credential: { state: 'pending', effectiveOn: effectiveDate },
    });
    const letters = (await providerReview(provider, applicationId)).letters;
    expect(letters.map((l) => l.kind)).toEqual(['denial', 'appeal_approved']);
    const text = await letterText(provider, applicationId, letters[1]!.letterId);
    expect(text).toContain('heard your appeal');
    expect(text).toContain(`Your credential is effective from ${formatIsoDay(effectiveDate)} through`);
    // The status change is announced (rejected -> approved).
    const events = await app.runtime.deps.database.pool.query<{
      payload: { data: { from: string; to: string } };
    }>('select payload from status_events where application_id = $1 order by created_at', [applicationId]);
    expect(events.rows.map((r) => `${r.payload.data.from}->${r.payload.data.to}`).slice(-1)).toEqual([
      'rejected->approved',
    ]);
  }, 120_000);

  it('cannot be requested once 30 days have passed', async () => {
    const { provider, applicationId } = await deniedFile();
    await app.runtime.deps.database.pool.query(
      `update provider_applications set decided_at = now() - interval '31 days' where id = $1`,
      [applicationId],
    );
    const late = await provider.json<{ message: string }>(
      'POST',
      `/api/applications/${applicationId}/appeal`,
      { statement: 'Late' },
    );
    expect(late.status).toBe(409);
    expect(late.body.message).toMatch(
      /^An appeal is requested within 30 days of the denial; that time ended on /,
    );
    expect((await providerReview(provider, applicationId)).appeal).toMatchObject({ status: 'closed' });
  }, 90_000);
});
