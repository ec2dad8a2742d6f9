/**
 * A committee that decides as the record says (issue 50 items 1-4), real PostgreSQL and HTTP: a meeting
 * takes no attendance, vote or decision before it starts and is not closed before it; a member never
 * votes on their own file (recused automatically, 'Recused (own file)') nor on one they verified; a
 * member recused from a file at one meeting reads nothing of it at any other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileSummary, Meeting } from '../../domain/api/committee.ts';
import type { AdminReview } from '../../domain/api/review.ts';
import { ownFileRefusal } from '../../domain/review/file-duties.ts';
import {
  createTestApp,
  grantAdmin,
  signUpAndSignIn,
  signUpStaff,
  type TestApp,
} from '../../tests/harness.ts';
import { reviewSignature } from '../../tests/http-client.ts';
import { completedApplication } from '../review/testing/completed-review-application.ts';
import { verifyEveryItem } from '../review/testing/verify-items.ts';
import {
  castVotes,
  committeeMember,
  medicalDirector,
  reviewedFile,
  sendForDecision,
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

const meetingPath = (meetingId: string, rest = '') => `/api/committee/meetings/${meetingId}${rest}`;

/** A verified file sent to 'Ready for Committee' (the medical director sends a clean one on). */
async function committeeFile(reviewer = specialist) {
  const { provider, applicationId } = await reviewedFile(app, reviewer);
  const sent = await sendForDecision(reviewer, applicationId);
  if (sent.track === 'clean_files') {
    const director = await medicalDirector(app);
    await director.json('POST', `/api/admin/applications/${applicationId}/send-to-committee`, {
      note: 'Committee',
    });
  }
  return { provider, applicationId };
}

async function meetingWith(memberIds: string[], scheduledAt: string, applicationId: string) {
  const director = await medicalDirector(app);
  const created = await director.json<Meeting>('POST', '/api/committee/meetings', { scheduledAt, memberIds });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const added = await director.json<Meeting>('POST', meetingPath(created.body.meetingId, '/agenda'), {
    applicationId,
  });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  return { meetingId: created.body.meetingId, itemId: added.body.agenda[0]!.itemId };
}

describe('meetings happen when they happen (issue 50 item 3)', () => {
  it('refuses attendance, joining, votes, decisions and closing before the start', async () => {
    const { applicationId } = await committeeFile();
    const director = await medicalDirector(app);
    const member = await committeeMember(app);
    const tomorrow = new Date(Date.now() + 86_400_000);
    const { meetingId, itemId } = await meetingWith(
      [director.userId, member.userId],
      tomorrow.toISOString(),
      applicationId,
    );
    const starts = `The meeting starts ${tomorrow.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    const attempts = [
      director.json<{ message: string }>('POST', meetingPath(meetingId, '/attendance'), {
        memberIds: [member.userId],
      }),
      member.json<{ message: string }>('POST', meetingPath(meetingId, '/join')),
      member.json<{ message: string }>('POST', meetingPath(meetingId, `/agenda/${itemId}/vote`), {
        vote: 'approve',
        ...reviewSignature(member),
      }),
      director.json<{ message: string }>('POST', meetingPath(meetingId, `/agenda/${itemId}/decision`), {
        discussion: 'Decided in advance.',
      }),
      director.json<{ message: string }>('POST', meetingPath(meetingId, '/close'), {}),
    ];
    for (const answer of await Promise.all(attempts)) {
      expect(answer.status).toBe(409);
      expect(answer.body.message.startsWith(starts), answer.body.message).toBe(true);
    }
    const view = await member.json<Meeting>('GET', meetingPath(meetingId));
    expect(view.body).toMatchObject({ started: false, closedAt: null });
    expect(view.body.members.every((m) => m.presentAt === null)).toBe(true);
  }, 120_000);
});

describe('own files and verified files (issue 50 items 1, 2)', () => {
  it('recuses a member from their own file automatically: they read nothing of it and cannot vote on it', async () => {
    // A committee member who applies to be credentialed: their own file comes to their meeting.
    const { provider, applicationId } = await completedApplication(app);
    const started = await specialist.json(
      'POST',
      `/api/admin/applications/${applicationId}/start-review`,
      {},
    );
    expect(started.status).toBe(200);
    await verifyEveryItem(specialist, applicationId, { verifiedAt: new Date().toISOString().slice(0, 10) });
    const sent = await sendForDecision(specialist, applicationId);
    const director = await medicalDirector(app);
    if (sent.track === 'clean_files') {
      await director.json('POST', `/api/admin/applications/${applicationId}/send-to-committee`, {
        note: 'x',
      });
    }
    await app.runtime.deps.database.pool.query(
      `insert into staff_roles (user_id, role) values ($1, 'committee')`,
      [provider.userId],
    );
    await grantAdmin(app, provider);
    const { meetingId, itemId } = await meetingWith(
      [director.userId, provider.userId],
      new Date(Date.now() - 60_000).toISOString(),
      applicationId,
    );
    const mine = await provider.json<Meeting>('GET', meetingPath(meetingId));
    expect(mine.body.agenda[0]).toMatchObject({
      callerRecused: true,
      callerRecusal: 'own_file',
      providerName: '',
      votes: [],
    });
    expect((await provider.json('POST', meetingPath(meetingId, '/join'))).status).toBe(200);
    const vote = await provider.json<{ message: string }>(
      'POST',
      meetingPath(meetingId, `/agenda/${itemId}/vote`),
      {
        vote: 'approve',
        ...reviewSignature(provider),
      },
    );
    expect(vote).toMatchObject({ status: 403, body: { message: ownFileRefusal('vote') } });
    const summary = await provider.json('GET', meetingPath(meetingId, `/files/${applicationId}`));
    expect(summary.status).toBe(403);
    // The others see why: 'Recused (own file)'.
    const seen = await director.json<Meeting>('GET', meetingPath(meetingId));
    expect(seen.body.agenda[0]!.recusals).toEqual([{ memberId: provider.userId, reason: 'own_file' }]);
  }, 120_000);

  it('refuses the vote of a member who verified the file', async () => {
    // An administrator who also sits on the committee verifies the file, then comes to its meeting.
    const both = await signUpAndSignIn(app, { firstName: 'Vera' });
    await app.runtime.deps.database.pool.query(
      `insert into staff_roles (user_id, role) values ($1, 'committee')`,
      [both.userId],
    );
    await grantAdmin(app, both);
    const { applicationId } = await committeeFile(both);
    const director = await medicalDirector(app);
    const member = await committeeMember(app);
    const { meetingId, itemId } = await meetingWith(
      [director.userId, member.userId, both.userId],
      new Date(Date.now() - 60_000).toISOString(),
      applicationId,
    );
    await castVotes(app, meetingId, itemId, [director], 'approve');
    await director.json('POST', meetingPath(meetingId, '/attendance'), {
      memberIds: [director.userId, both.userId],
    });
    const vote = await both.json<{ message: string }>(
      'POST',
      meetingPath(meetingId, `/agenda/${itemId}/vote`),
      {
        vote: 'approve',
        ...reviewSignature(both),
      },
    );
    expect(vote.status).toBe(403);
    expect(vote.body.message).toMatch(/^You verified items of this file: you cannot vote on it/);
    const view = await both.json<Meeting>('GET', meetingPath(meetingId));
    expect(view.body.agenda[0]).toMatchObject({ callerRecusal: 'verifier', callerRecused: false });
  }, 120_000);
});

describe('recusal is per person and file, everywhere (issue 50 item 4)', () => {
  it('keeps a member recused at one meeting out of the file at every other', async () => {
    const { applicationId } = await committeeFile();
    const director = await medicalDirector(app);
    const member = await committeeMember(app);
    const recusedOne = await signUpStaff(app, 'committee', { firstName: 'Rex' });
    const startedAt = new Date(Date.now() - 60_000).toISOString();
    // Meeting A: Rex recused; the file deferred.
    const a = await meetingWith(
      [director.userId, member.userId, recusedOne.userId],
      startedAt,
      applicationId,
    );
    await director.json('PUT', meetingPath(a.meetingId, `/agenda/${a.itemId}/recusals`), {
      memberIds: [recusedOne.userId],
    });
    await castVotes(app, a.meetingId, a.itemId, [director, member], 'defer');
    const deferred = await director.json('POST', meetingPath(a.meetingId, `/agenda/${a.itemId}/decision`), {
      text: 'The hospital letter',
      discussion: 'Deferred: the secret reason is here.',
    });
    expect(deferred.status, JSON.stringify(deferred.body)).toBe(200);
    // Back from the specialist, meeting B: Rex sits on it, not recused there.
    const again = await sendForDecision(specialist, applicationId);
    if (again.track === 'clean_files') {
      await director.json('POST', `/api/admin/applications/${applicationId}/send-to-committee`, {
        note: 'Again',
      });
    }
    const b = await meetingWith([director.userId, recusedOne.userId], startedAt, applicationId);
    const atB = await recusedOne.json<Meeting>('GET', meetingPath(b.meetingId));
    expect(atB.body.agenda[0]).toMatchObject({
      callerRecused: true,
      providerName: '',
      reasons: [],
      votes: [],
    });
    expect((await recusedOne.json('GET', meetingPath(b.meetingId, `/files/${applicationId}`))).status).toBe(
      403,
    );
    // Nor through meeting A: the decision's text and discussion stay hidden there too.
    const atA = await recusedOne.json<Meeting>('GET', meetingPath(a.meetingId));
    expect(atA.body.agenda[0]!.decision).toMatchObject({ text: '', discussion: '' });
    expect(
      (await recusedOne.json<FileSummary>('GET', meetingPath(a.meetingId, `/files/${applicationId}`))).status,
    ).toBe(403);
  }, 120_000);
});

describe('the committee sees the whole file (issue 50 item 6)', () => {
  it("lets a member of an open meeting read the file's review, versions, documents, evidence and summary, audited; nobody else", async () => {
    const { applicationId } = await committeeFile();
    const director = await medicalDirector(app);
    const member = await committeeMember(app);
    const stranger = await signUpStaff(app, 'committee', { firstName: 'Stan' });
    const admin = `/api/admin/applications/${applicationId}`;
    // Before the file is on a meeting they sit on, a member reads nothing of it.
    expect((await member.json('GET', `${admin}/review`)).status).toBe(403);
    const { meetingId } = await meetingWith(
      [director.userId, member.userId],
      new Date(Date.now() - 60_000).toISOString(),
      applicationId,
    );
    const review = await member.json<AdminReview>('GET', `${admin}/review`);
    expect(review.status).toBe(200);
    // What the reviewer read: the checklist with its sources, the evidence, the versions, read-only.
    expect(review.body.availableActions).toEqual([]);
    expect(review.body.checklist.every((i) => i.source)).toBe(true);
    const evidence = review.body.checklist.flatMap((i) => i.evidence);
    expect(evidence.length).toBeGreaterThan(0);
    expect((await member.request('GET', `${admin}/evidence/${evidence[0]!.id}/download`)).status).toBe(200);
    expect((await member.json('GET', `${admin}/versions/1`)).status).toBe(200);
    const [document] = (
      await member.json<{ snapshot: { documents: { id: string }[] } }>('GET', `${admin}/versions/1`)
    ).body.snapshot.documents;
    expect((await member.request('GET', `/api/documents/${document!.id}/download`)).status).toBe(200);
    expect((await member.request('GET', `${admin}/file-summary.pdf`)).status).toBe(200);
    // Never a write, and never for someone who does not sit on the meeting.
    expect((await member.json('POST', `${admin}/start-review`, {})).status).toBe(403);
    expect((await stranger.json('GET', `${admin}/review`)).status).toBe(403);
    // Each read is audited against the file.
    const reads = await app.runtime.deps.database.pool.query<{ details: { what: string } }>(
      `select details from audit_log where action = 'committee.file_viewed' and actor_user_id = $1 and resource_id = $2`,
      [member.userId, applicationId],
    );
    expect(reads.rows.map((r) => r.details.what).sort()).toEqual(
      ['document', 'evidence', 'file summary', 'review', 'version', 'version'].sort(),
    );
    // Once the meeting is closed (after a decision), the minutes suffice: no more reads.
    await castVotes(
      app,
      meetingId,
      (await director.json<Meeting>('GET', meetingPath(meetingId))).body.agenda[0]!.itemId,
      [director, member],
      'approve',
    );
    const itemId = (await director.json<Meeting>('GET', meetingPath(meetingId))).body.agenda[0]!.itemId;
    expect(
      (
        await director.json('POST', meetingPath(meetingId, `/agenda/${itemId}/decision`), {
          discussion: 'Fine.',
        })
      ).status,
    ).toBe(200);
    expect((await director.json('POST', meetingPath(meetingId, '/close'), {})).status).toBe(200);
    expect((await member.json('GET', `${admin}/review`)).status).toBe(403);
  }, 120_000);
});
