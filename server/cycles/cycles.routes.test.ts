/**
 * Credentialing cycles by API (issue 29 items 1 and 2): real PostgreSQL, real HTTP. An approval
 * grants the credential; the provider's own 'Start Recredentialing' waits for the 180-day window
 * (the clock: the stored end date is moved); an administrator opens one early; the provider
 * withdraws it and the credential is untouched; 'Close Without Decision' needs a reason and has
 * one winner among concurrent requests; a denied recredentialing ends the credential, a denied
 * first cycle leaves none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApplicationList, CreatedApplication } from '../../domain/api/applications.ts';
import type { AdminReview } from '../../domain/api/review.ts';
import { addMonths, isoDay } from '../../domain/calendar.ts';
import { catalogSections } from '../../domain/sections/section-catalog.ts';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { signedAttestation } from '../../tests/http-client.ts';
import { approveCleanFile, decideAtCommittee } from '../committee/testing/decide.ts';
import { completedApplication } from '../review/testing/completed-review-application.ts';
import { verifyItem } from '../review/testing/verify-items.ts';

let app: TestApp;
let admin: Awaited<ReturnType<typeof signUpAndSignIn>>;

beforeAll(async () => {
  app = await createTestApp();
  admin = await signUpAndSignIn(app, { firstName: 'Ada' });
  await grantAdmin(app, admin);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

const adminPath = (applicationId: string, rest: string) => `/api/admin/applications/${applicationId}/${rest}`;

async function review(applicationId: string) {
  const response = await admin.json<AdminReview>('GET', adminPath(applicationId, 'review'));
  expect(response.status).toBe(200);
  return response.body;
}

/**
 * Start review, verify every item, then decide (issue 32): the medical director approves the clean
 * file, or the committee denies it at a meeting.
 */
async function decide(applicationId: string, decision: 'approve' | 'reject') {
  expect((await admin.json('POST', adminPath(applicationId, 'start-review'), {})).status).toBe(200);
  // Issue 31: the claims history item gets its NPDB query result attached first (verifyItem).
  for (const item of (await review(applicationId)).checklist) {
    await verifyItem(admin, applicationId, item, { verifiedAt: isoDay(new Date()) });
  }
  if (decision === 'reject') {
    const denied = await decideAtCommittee(app, admin, applicationId, {
      decision: 'deny',
      text: 'Not eligible',
    });
    return denied.itemBefore;
  }
  await approveCleanFile(app, admin, applicationId);
  return null;
}

async function approvedProvider() {
  const { provider, applicationId } = await completedApplication(app);
  await decide(applicationId, 'approve');
  return { provider, applicationId };
}

async function dashboard(provider: Awaited<ReturnType<typeof signUpAndSignIn>>) {
  const answer = await provider.json<ApplicationList>('GET', '/api/applications');
  expect(answer.status).toBe(200);
  return answer.body;
}

async function auditActions(applicationId: string) {
  const result = await app.runtime.deps.database.pool.query<{ action: string; actor_user_id: string }>(
    `select action, actor_user_id from audit_log where resource_id = $1 order by id`,
    [applicationId],
  );
  return result.rows;
}

describe('the credential apart from the cycle (issue 29 item 1)', () => {
  it('is granted by the approval: credentialed until 36 months later, an initial cycle', async () => {
    const { provider, applicationId } = await approvedProvider();
    const { applications, credential } = await dashboard(provider);
    expect(credential).toMatchObject({
      state: 'credentialed',
      applicationId,
      endsOn: addMonths(isoDay(new Date()), 36),
      endedOn: null,
    });
    expect(applications[0]).toMatchObject({
      id: applicationId,
      applicationStatus: 'approved',
      cycle: 'initial',
    });
    // The admin card and details carry the same credential.
    const cards = await admin.json<{
      providers: { credential: unknown; currentApplication: { cycle: string } }[];
    }>('GET', `/api/admin/providers?search=${encodeURIComponent(provider.email)}`);
    expect(cards.body.providers[0]?.credential).toEqual(credential);
    expect(cards.body.providers[0]?.currentApplication.cycle).toBe('initial');
    const details = await admin.json<{ credential: unknown }>(
      'GET',
      `/api/admin/providers/${provider.userId}`,
    );
    expect(details.body.credential).toEqual(credential);
    expect((await review(applicationId)).credential).toEqual(credential);
  });

  it('is untouched by a denied first cycle: no credential', async () => {
    const { provider, applicationId } = await completedApplication(app);
    await decide(applicationId, 'reject');
    expect((await dashboard(provider)).credential).toEqual({
      state: 'none',
      applicationId: null,
      credentialedAt: null,
      endsOn: null,
      endedOn: null,
      effectiveOn: null,
      standing: 'active',
      findings: [],
    });
  });
});

describe('cycles started on purpose (issue 29 item 2)', () => {
  it("refuses the provider's own start before the 180-day window and opens a recredentialing inside it", async () => {
    const { provider } = await approvedProvider();
    const early = await provider.json<{ message: string }>('POST', '/api/applications', {});
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/^Recredentialing opens 180 days before your credential ends on /);

    // The clock: the credential now ends in 179 days.
    const endsOn = isoDay(new Date(Date.now() + 179 * 24 * 60 * 60 * 1000));
    await app.runtime.deps.database.pool.query(
      'update provider_credentials set ends_on = $1 where user_id = $2',
      [endsOn, provider.userId],
    );
    const started = await provider.json<CreatedApplication>('POST', '/api/applications', {});
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.body).toMatchObject({ applicationStatus: 'draft', cycle: 'recredentialing' });
    expect(started.body.copied?.sections.length).toBeGreaterThan(0);
    expect((await dashboard(provider)).credential).toMatchObject({ state: 'credentialed', endsOn });
  });

  it("opens a recredentialing early for the administrator, once among concurrent clicks, and the provider's withdrawal leaves the credential", async () => {
    const { provider, applicationId } = await approvedProvider();
    const before = (await dashboard(provider)).credential;
    expect((await review(applicationId)).cycleActions).toEqual(['start_recredentialing_now']);

    // The provider cannot use the admin route; two administrators' clicks give one draft.
    expect((await provider.json('POST', adminPath(applicationId, 'start-recredentialing'), {})).status).toBe(
      403,
    );
    const mailBefore = app.mail.length;
    const [a, b] = await Promise.all([
      admin.json<CreatedApplication>('POST', adminPath(applicationId, 'start-recredentialing'), {}),
      admin.json<CreatedApplication>('POST', adminPath(applicationId, 'start-recredentialing'), {}),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const draft = (a.status === 201 ? a : b).body;
    // Issue 51 item 6: the provider is told, once; the draft's timeline says who opened it.
    const told = app.mail
      .slice(mailBefore)
      .filter((m) => m.subject === 'Your recredentialing application is open');
    expect(told.map((m) => m.to)).toEqual([provider.email]);
    expect(told[0]?.text).toContain('/dashboard');
    expect(draft).toMatchObject({
      applicationStatus: 'draft',
      cycle: 'recredentialing',
      copiedFromId: applicationId,
    });
    expect(await auditActions(draft.id)).toEqual([
      { action: 'application.copied_forward', actor_user_id: admin.userId },
    ]);
    expect((await review(draft.id)).timeline).toEqual([
      expect.objectContaining({ action: 'application.copied_forward', actorUserId: admin.userId }),
    ]);
    expect((await review(applicationId)).cycleActions).toEqual([]);
    const during = await dashboard(provider);
    expect(during.credential).toEqual(before);
    expect(during.applications.map((x) => x.applicationStatus)).toEqual(['draft', 'approved']);

    // Only the owner withdraws: an administrator gets 403, another provider 404.
    expect((await admin.json('POST', `/api/applications/${draft.id}/withdraw`, {})).status).toBe(403);
    const stranger = await signUpAndSignIn(app);
    expect((await stranger.json('POST', `/api/applications/${draft.id}/withdraw`, {})).status).toBe(404);

    // Two concurrent withdrawals: one wins, the other is told it is already withdrawn.
    const [w1, w2] = await Promise.all([
      provider.json<{ message?: string }>('POST', `/api/applications/${draft.id}/withdraw`, {}),
      provider.json<{ message?: string }>('POST', `/api/applications/${draft.id}/withdraw`, {}),
    ]);
    expect([w1.status, w2.status].sort()).toEqual([200, 409]);
    const after = await dashboard(provider);
    expect(after.credential).toEqual(before);
    expect(after.applications[0]).toMatchObject({ id: draft.id, applicationStatus: 'withdrawn' });
    expect(after.applications[0]?.withdrawnAt).not.toBeNull();
    const actions = await auditActions(draft.id);
    expect(actions.filter((x) => x.action === 'application.withdrawn')).toEqual([
      { action: 'application.withdrawn', actor_user_id: provider.userId },
    ]);
    // An approved application cannot be withdrawn.
    const approved = await provider.json<{ message: string }>(
      'POST',
      `/api/applications/${applicationId}/withdraw`,
      {},
    );
    expect(approved.status).toBe(409);
    expect(approved.body.message).toMatch(/Only a draft can be withdrawn; this application is Approved/);
    // After the withdrawal the administrator can open one again.
    expect((await review(applicationId)).cycleActions).toEqual(['start_recredentialing_now']);
  });

  it('refuses Start Recredentialing Now on an application that is not the latest approved one', async () => {
    const { applicationId } = await completedApplication(app);
    const refused = await admin.json<{ message: string }>(
      'POST',
      adminPath(applicationId, 'start-recredentialing'),
      {},
    );
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/latest approved application/);
  });
});

describe("'Close Without Decision' (issue 29 item 2)", () => {
  it('needs a bounded reason, has one winner among concurrent requests, announces the change and keeps the credential', async () => {
    const { provider, applicationId } = await completedApplication(app);
    expect((await review(applicationId)).cycleActions).toEqual(['close_without_decision']);
    expect((await provider.json('POST', adminPath(applicationId, 'close'), { reason: 'x' })).status).toBe(
      403,
    );
    const empty = await admin.json<{ message: string }>('POST', adminPath(applicationId, 'close'), {
      reason: '  ',
    });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/Enter the reason for closing without a decision/);
    const long = await admin.json('POST', adminPath(applicationId, 'close'), { reason: 'x'.repeat(4001) });
    expect(long.status).toBe(400);

    const [a, b] = await Promise.all([
      admin.json('POST', adminPath(applicationId, 'close'), { reason: 'Provider left the practice' }),
      admin.json('POST', adminPath(applicationId, 'close'), { reason: 'Provider left the practice' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const closed = await review(applicationId);
    expect(closed).toMatchObject({
      applicationStatus: 'withdrawn',
      withdrawalReason: 'Provider left the practice',
      cycleActions: [],
      credential: { state: 'none' },
    });
    expect(closed.timeline.map((t) => t.action)).toContain('application.closed_without_decision');
    // The provider reads the team's reason on their dashboard (their review state).
    const mine = await provider.json<{ withdrawalReason: string | null }>(
      'GET',
      `/api/applications/${applicationId}/review`,
    );
    expect(mine.body.withdrawalReason).toBe('Provider left the practice');
    const events = await app.runtime.deps.database.pool.query<{
      payload: { data: { from: string; to: string } };
    }>(`select payload from status_events where application_id = $1 order by created_at`, [applicationId]);
    expect(events.rows.at(-1)?.payload.data).toMatchObject({ from: 'submitted', to: 'withdrawn' });
    // A withdrawn application takes no review action any more, and the provider may start again.
    expect((await admin.json('POST', adminPath(applicationId, 'start-review'), {})).status).toBe(409);
    const again = await provider.json<CreatedApplication>('POST', '/api/applications', {});
    expect(again.status).toBe(201);
    expect(again.body.cycle).toBe('initial');
  });

  it('closes an application under review with an open information request; the request stays unanswered', async () => {
    const { applicationId } = await completedApplication(app);
    expect((await admin.json('POST', adminPath(applicationId, 'start-review'), {})).status).toBe(200);
    const asked = await admin.json('POST', adminPath(applicationId, 'request-information'), {
      message: 'Please update your license',
      sections: ['professionalLicenses'],
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const closed = await admin.json('POST', adminPath(applicationId, 'close'), {
      reason: 'Duplicate application',
    });
    expect(closed).toMatchObject({ status: 200, body: { applicationStatus: 'withdrawn' } });
    expect((await review(applicationId)).requests[0]).toMatchObject({ respondedAt: null });
  });
});

describe('a denied recredentialing ends the credential (issue 29 item 1)', () => {
  it('ends it on the decision day; the admin review says the cycle is a recredentialing', async () => {
    const { provider, applicationId } = await approvedProvider();
    const opened = await admin.json<CreatedApplication>(
      'POST',
      adminPath(applicationId, 'start-recredentialing'),
      {},
    );
    expect(opened.status).toBe(201);
    // 'Review and Confirm' of each copied section (issue 29 item 6), then completion.
    for (const section of catalogSections) {
      const confirmed = await provider.json(
        'POST',
        `/api/applications/${opened.body.id}/sections/${section.slug}/confirm`,
        {},
      );
      expect(confirmed.status, JSON.stringify(confirmed.body)).toBeLessThan(300);
    }
    const completed = await provider.json(
      'POST',
      `/api/applications/${opened.body.id}/completion`,
      await signedAttestation(provider),
    );
    expect([200, 202], JSON.stringify(completed.body)).toContain(completed.status);
    const inReview = await review(opened.body.id);
    expect(inReview).toMatchObject({ cycle: 'recredentialing', credential: { state: 'credentialed' } });
    // Issue 29 item 1: the committee's 'Record Decision' said so before the denial.
    const item = await decide(opened.body.id, 'reject');
    expect(item?.denialEndsCredential).toMatch(
      /^Denying this recredentialing ends .+'s credential on \w{3} \d{1,2}, \d{4}\.$/,
    );
    const { credential } = await dashboard(provider);
    expect(credential).toMatchObject({
      state: 'ended',
      endedOn: isoDay(new Date()),
      applicationId: opened.body.id,
    });
    // The next application after an ended credential is an initial cycle again.
    const next = await provider.json<CreatedApplication>('POST', '/api/applications', {});
    expect(next).toMatchObject({ status: 201, body: { cycle: 'initial' } });
  });
});
