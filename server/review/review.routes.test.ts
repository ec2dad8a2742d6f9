/**
 * The credentialing review by API (issue 13): real PostgreSQL, real HTTP. The whole flow (complete ->
 * submitted -> start review -> request information on Professional Licenses -> the provider edits a
 * license (allowed) and another section (409) -> responds -> version 2 -> verify every item ->
 * send for decision -> the medical director approves; issue 32), the guard of 'Send for Decision'
 * (pending item, verification older than 120 days), a denial's reason, refused transitions, two
 * concurrent approves, the lock, the snapshot's masked SSN, audit rows and the emails. The queue is
 * review-queue.test.ts, the attestations on the review page review-attestations.test.ts.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminReview, ApplicationVersion, ProviderReview } from '../../domain/api/review.ts';
import { minimalPdf } from '../../tests/fixtures/files.ts';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { reviewSignature } from '../../tests/http-client.ts';
import {
  approveCleanFile,
  decideAtCommittee,
  medicalDirector,
  sendForDecision,
} from '../committee/testing/decide.ts';
import { createCompletedApplication, FACTORY_SSN } from '../notifications/testing/completed-application.ts';
import { completedApplication as completedReview } from './testing/completed-review-application.ts';
import { verifyEveryItem } from './testing/verify-items.ts';

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

const day = 24 * 60 * 60 * 1000;
const isoDay = (offsetDays = 0) => new Date(Date.now() + offsetDays * day).toISOString().slice(0, 10);

const completedApplication = () => completedReview(app);

const adminPath = (applicationId: string, rest: string) => `/api/admin/applications/${applicationId}/${rest}`;

async function review(applicationId: string) {
  const response = await admin.json<AdminReview>('GET', adminPath(applicationId, 'review'));
  expect(response.status).toBe(200);
  return response.body;
}

/** Every item verified on `verifiedAt` (the claims history with its NPDB query result attached). */
async function verifyAll(applicationId: string, verifiedAt = isoDay()) {
  await verifyEveryItem(admin, applicationId, { verifiedAt, note: 'Checked online' });
}

async function auditRows(applicationId: string) {
  const result = await app.runtime.deps.database.pool.query<{
    action: string;
    actor_user_id: string;
    details: Record<string, unknown>;
  }>(
    `select action, actor_user_id, details from audit_log
     where action like 'review.%' and details->>'applicationId' = $1 order by id`,
    [applicationId],
  );
  return result.rows;
}

describe('the credentialing review', () => {
  it('runs from completion to approval, with one information request round', async () => {
    const { provider, applicationId } = await completedApplication();
    const mailsBefore = app.mail.length;

    // Completion moved it to submitted and stored version 1, SSN masked, never in plaintext.
    const mine = await provider.json<ProviderReview>('GET', `/api/applications/${applicationId}/review`);
    expect(mine.body).toMatchObject({ applicationStatus: 'submitted', openRequest: null, decidedAt: null });
    expect(mine.body.submittedAt).not.toBeNull();
    const v1 = await admin.json<{ snapshot: { personalInformation: { ssn: string } }; sha256: string }>(
      'GET',
      adminPath(applicationId, 'versions/1'),
    );
    expect(v1.status).toBe(200);
    expect(v1.body.snapshot.personalInformation.ssn).toBe(`***-**-${FACTORY_SSN.slice(-4)}`);
    expect(JSON.stringify(v1.body)).not.toContain(FACTORY_SSN);
    expect(v1.body.sha256).toMatch(/^[0-9a-f]{64}$/);

    // The admin's card shows the status and when it was completed (issue 13).
    const cards = await admin.json<{
      providers: { currentApplication: { applicationStatus: string; submittedAt: string | null } | null }[];
    }>('GET', `/api/admin/providers?search=${encodeURIComponent(provider.email)}`);
    expect(cards.body.providers[0]?.currentApplication).toMatchObject({
      applicationStatus: 'submitted',
      submittedAt: mine.body.submittedAt,
    });

    // Locked from submitted on: the provider's section writes and document deletes are refused.
    const locked = await provider.json<{ message: string }>(
      'PUT',
      `/api/applications/${applicationId}/sections/professional-licenses`,
      { rows: [{ licenseNumber: 'MD-2' }] },
    );
    expect(locked.status).toBe(409);
    expect(locked.body.message).toMatch(
      /is with the credentialing team; you can change it only when they request information/,
    );

    // 'Start Review' assigns the admin and generates the checklist from version 1.
    const started = await admin.json('POST', adminPath(applicationId, 'start-review'), {});
    expect(started).toMatchObject({ status: 200, body: { applicationStatus: 'under_review' } });
    const again = await admin.json<{ message: string }>('POST', adminPath(applicationId, 'start-review'), {});
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/Reload/);
    const underReview = await review(applicationId);
    expect(underReview.reviewerId).toBe(admin.userId);
    // Issue 15 format checks on the NPI and DEA items: the factory's NPI passes; its DEA number's
    // second letter (B) is not the initial of the default last name 'Provider<n>'.
    const byKind = (kind: string) => underReview.checklist.find((i) => i.kind === kind)!;
    expect(byKind('npi').warnings).toEqual([]);
    expect(byKind('dea').warnings).toEqual([expect.stringMatching(/initial of the last name \(P\)/)]);
    expect(byKind('license').warnings).toEqual([]);
    // Names for the page: the provider's from the profile, the reviewer's among the people mentioned.
    expect(underReview.providerName).not.toBe('');
    expect(underReview.people[admin.userId]).toEqual(expect.any(String));
    // A discrepancy needs a note saying what differs (the form and the server share the rule).
    const silent = await admin.json<{ issues: { path: string[]; message: string }[] }>(
      'PATCH',
      adminPath(applicationId, `verification-items/${underReview.checklist[0]!.id}`),
      { status: 'discrepancy' },
    );
    expect(silent.status).toBe(400);
    expect(silent.body.issues).toContainEqual(
      expect.objectContaining({ path: ['note'], message: 'Describe the discrepancy in the note' }),
    );
    // Issue 31 item 4: training, the hospital privileges and the claims history join (the factory
    // fills the five sections; checklist-additional.test.ts tests them).
    expect(underReview.checklist.map((i) => i.kind)).toEqual([
      'license',
      'dea',
      'npi',
      'board_certification',
      'education',
      'training',
      'work_history',
      'malpractice',
      'hospital_privileges',
      'claims_history',
      'exclusions',
    ]);
    // Issue 32: an administrator prepares the file; 'Approve' is the medical director's, 'Reject' the committee's.
    expect(underReview.availableActions).toEqual(['request_information']);

    // 'Request Information' on Professional Licenses: the provider is emailed (no PHI, a link).
    const requested = await admin.json<{ requestId: string }>(
      'POST',
      adminPath(applicationId, 'request-information'),
      { message: 'Please add your renewed Illinois license.', sections: ['professionalLicenses'] },
    );
    expect(requested.status).toBe(200);
    const requestMail = app.mail.slice(mailsBefore).find((m) => m.to === provider.email);
    expect(requestMail?.subject).toBe('Action required: the credentialing team requests information');
    expect(requestMail?.text).toContain('/dashboard');
    expect(requestMail?.text).not.toContain('Illinois');

    const action = await provider.json<ProviderReview>('GET', `/api/applications/${applicationId}/review`);
    expect(action.body.openRequest).toMatchObject({
      id: requested.body.requestId,
      message: 'Please add your renewed Illinois license.',
      sections: ['professionalLicenses'],
    });

    // The provider edits a license (allowed) but not another section (409).
    const licenses = await provider.json<{ id: string; licenseNumber: string }[]>(
      'GET',
      `/api/applications/${applicationId}/sections/professional-licenses`,
    );
    expect(licenses.status).toBe(200);
    const rows = (licenses.body as unknown as { rows?: { id: string }[] }).rows ?? licenses.body;
    const edited = await provider.json(
      'PUT',
      `/api/applications/${applicationId}/sections/professional-licenses`,
      { rows: [{ ...(rows as { id: string }[])[0], licenseNumber: 'MD-2' }] },
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const other = await provider.json('PUT', `/api/applications/${applicationId}/sections/education`, {
      rows: [{ institutionName: 'Elsewhere' }],
    });
    expect(other.status).toBe(409);

    // 'Send for Decision' is refused while the request is open.
    const early = await admin.json<{ message: string }>(
      'POST',
      adminPath(applicationId, 'send-for-decision'),
      {},
    );
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/waiting for the provider's response/);

    // 'Submit Response': version 2, the reviewer is told, the sections lock again.
    const responded = await provider.json(
      'POST',
      `/api/applications/${applicationId}/information-requests/${requested.body.requestId}/response`,
      { reply: 'Renewed in May.' },
    );
    expect(responded).toMatchObject({ status: 200, body: { applicationStatus: 'under_review', version: 2 } });
    expect(
      app.mail.some(
        (m) => m.to === admin.email && m.subject === 'A provider responded to your information request',
      ),
    ).toBe(true);
    const relocked = await provider.json(
      'PUT',
      `/api/applications/${applicationId}/sections/professional-licenses`,
      { rows: [{ ...(rows as { id: string }[])[0], licenseNumber: 'MD-3' }] },
    );
    expect(relocked.status).toBe(409);

    const v2 = await admin.json<ApplicationVersion>('GET', adminPath(applicationId, 'versions/2'));
    // Changes by row identity (issue 29 item 5): the one license row, its one changed field.
    expect(v2.body.comparedWith).toEqual({ kind: 'previous_version', version: 1 });
    expect(v2.body.changes).toEqual([
      expect.objectContaining({
        section: 'licenses',
        sectionLabel: 'Professional Licenses',
        change: 'changed',
        fields: [{ field: 'license_number', label: 'License Number', before: 'MD-1', after: 'MD-2' }],
      }),
    ]);
    // The license keeps its item across the number change (issue 29: items are bound to their row),
    // which now names the new number; no second item for the same license.
    const afterResponse = await review(applicationId);
    expect(afterResponse.checklist.filter((i) => i.kind === 'license').map((i) => i.target)).toEqual([
      expect.stringContaining('MD-2'),
    ]);

    // 'Send for Decision' is refused while an item is pending; the message lists the items to redo.
    const pending = await admin.json<{ message: string }>(
      'POST',
      adminPath(applicationId, 'send-for-decision'),
      {},
    );
    expect(pending.status).toBe(409);
    expect(pending.body.message).toMatch(/Work history \(last 5 years\) \(pending\)/);

    // A verification older than VERIFICATION_MAX_AGE_DAYS (120) must be redone.
    await verifyAll(applicationId, isoDay(-121));
    const stale = await admin.json<{ message: string }>(
      'POST',
      adminPath(applicationId, 'send-for-decision'),
      {},
    );
    expect(stale.status).toBe(409);
    expect(stale.body.message).toMatch(/more than 120 days ago/);

    // Every item verified today: sent for decision, a clean file, which the medical director approves.
    await verifyAll(applicationId);
    const director = await approveCleanFile(app, admin, applicationId);
    const decided = await provider.json<ProviderReview>('GET', `/api/applications/${applicationId}/review`);
    expect(decided.body).toMatchObject({
      applicationStatus: 'approved',
      decisionReason: null,
      openRequest: null,
    });
    expect(decided.body.decidedAt).not.toBeNull();
    expect(
      app.mail.some(
        (m) => m.to === provider.email && m.subject === 'Your credentialing application was approved',
      ),
    ).toBe(true);

    // Final: nothing moves it, nothing changes it.
    const final = await director.json<{ message: string }>(
      'POST',
      adminPath(applicationId, 'approve'),
      reviewSignature(director),
    );
    expect(final.status).toBe(409);
    expect(final.body.message).toMatch(/decision is final/);
    // (Issue 29 item 4: the dated sections open for a credential update; the others stay locked.)
    const afterDecision = await provider.json<{ message: string }>(
      'PUT',
      `/api/applications/${applicationId}/sections/education`,
      { rows: [{ institutionName: 'Elsewhere' }] },
    );
    expect(afterDecision.status).toBe(409);
    expect(afterDecision.body.message).toMatch(/made its decision/);

    // Every transition, request, response and verification is audited with before/after status.
    const audit = await auditRows(applicationId);
    const transitions = audit.filter(
      (a) => a.action !== 'review.verification_updated' && a.action !== 'review.evidence_uploaded',
    );
    expect(transitions.map((a) => [a.action, a.details.fromStatus, a.details.toStatus])).toEqual([
      ['review.submitted', 'draft', 'submitted'],
      ['review.started', 'submitted', 'under_review'],
      ['review.information_requested', 'under_review', 'under_review'],
      ['review.response_submitted', 'under_review', 'under_review'],
      ['review.sent_for_decision', undefined, undefined],
      ['review.approved', 'under_review', 'approved'],
    ]);
    expect(audit.find((a) => a.action === 'review.approved')).toMatchObject({
      actor_user_id: director.userId,
      details: { decidedBy: 'medical_director' },
    });
    // Eleven items (the license kept its item across the number change), each verified twice; the
    // claims history's NPDB query result attached once (issue 31), before its first verification.
    expect(audit.filter((a) => a.action === 'review.verification_updated').length).toBe(2 * 11);
    expect(audit.filter((a) => a.action === 'review.evidence_uploaded').length).toBe(1);
    const timeline = (await review(applicationId)).timeline.map((t) => t.action);
    expect(timeline).toContain('notification.queued');
    expect(timeline).toContain('review.approved');
  }, 60_000);

  it('refuses transitions from the wrong status, and shows the reason of a denial', async () => {
    const { provider, applicationId } = await completedApplication();
    // Approve from submitted: 409 with the state machine's message.
    const director = await medicalDirector(app);
    const approveSubmitted = await director.json<{ message: string }>(
      'POST',
      adminPath(applicationId, 'approve'),
      reviewSignature(director),
    );
    expect(approveSubmitted.status).toBe(409);
    expect(approveSubmitted.body.message).toMatch(
      /needs an application that is Under Review; this one is Submitted/,
    );
    expect((await admin.json('POST', adminPath(applicationId, 'start-review'), {})).status).toBe(200);
    await verifyAll(applicationId);
    // Issue 32: the committee denies it at a meeting, with the reason the provider reads.
    await decideAtCommittee(app, admin, applicationId, {
      decision: 'deny',
      text: 'The malpractice coverage has lapsed.',
    });
    const seen = await provider.json<ProviderReview>('GET', `/api/applications/${applicationId}/review`);
    expect(seen.body).toMatchObject({
      applicationStatus: 'rejected',
      decisionReason: 'The malpractice coverage has lapsed.',
    });
    // Issue 32 item 6: the email is the decision letter's text, the reason included.
    const letter = app.mail.find(
      (m) => m.to === provider.email && m.subject === 'A decision on your credentialing application',
    );
    expect(letter?.text).toContain('Reason: The malpractice coverage has lapsed.');
    expect((await admin.json('POST', adminPath(applicationId, 'start-review'), {})).status).toBe(409);
  }, 60_000);

  it('lets only one of two concurrent approvals win', async () => {
    const { applicationId } = await completedApplication();
    expect((await admin.json('POST', adminPath(applicationId, 'start-review'), {})).status).toBe(200);
    await verifyAll(applicationId);
    await sendForDecision(admin, applicationId);
    const director = await medicalDirector(app);
    const [a, b] = await Promise.all([
      director.json('POST', adminPath(applicationId, 'approve'), reviewSignature(director)),
      director.json('POST', adminPath(applicationId, 'approve'), reviewSignature(director)),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect((await auditRows(applicationId)).filter((r) => r.action === 'review.approved')).toHaveLength(1);
  }, 60_000);

  it("keeps provider B out of A's review and requests, and providers out of the admin routes", async () => {
    const { applicationId } = await completedApplication();
    expect((await admin.json('POST', adminPath(applicationId, 'start-review'), {})).status).toBe(200);
    const requested = await admin.json<{ requestId: string }>(
      'POST',
      adminPath(applicationId, 'request-information'),
      {
        message: 'Upload your CV.',
        sections: ['documents'],
      },
    );
    const bob = await signUpAndSignIn(app);
    expect((await bob.json('GET', `/api/applications/${applicationId}/review`)).status).toBe(404);
    expect(
      (
        await bob.json(
          'POST',
          `/api/applications/${applicationId}/information-requests/${requested.body.requestId}/response`,
          {},
        )
      ).status,
    ).toBe(404);
    expect(
      (await bob.json('POST', adminPath(applicationId, 'approve'), { reviewed: true, code: '000000' }))
        .status,
    ).toBe(403);
    expect((await bob.json('GET', '/api/admin/review-queue')).status).toBe(403);
    // Bad input is a 400 with a message, never a 500.
    const badSections = await admin.json<{ message: string }>(
      'POST',
      adminPath(applicationId, 'request-information'),
      {
        message: 'x',
        sections: ['nope'],
      },
    );
    expect(badSections.status).toBe(400);
    const waived = await admin.json('PATCH', adminPath(applicationId, 'verification-items/not-a-uuid'), {
      status: 'waived',
    });
    expect(waived.status).toBe(400);
    const item = (await review(applicationId)).checklist[0]!;
    const future = await admin.json<{ message: string }>(
      'PATCH',
      adminPath(applicationId, `verification-items/${item.id}`),
      { status: 'verified', source: 'NPPES', verifiedAt: isoDay(2) },
    );
    expect(future).toMatchObject({
      status: 400,
      body: { message: 'The verification date cannot be in the future.' },
    });
    const noReason = await admin.json('PATCH', adminPath(applicationId, `verification-items/${item.id}`), {
      status: 'waived',
    });
    expect(noReason.status).toBe(400);
    expect((await admin.json('GET', adminPath('not-a-uuid', 'review'))).status).toBe(404);
    expect((await admin.json('GET', adminPath(applicationId, 'versions/9'))).status).toBe(404);
  }, 60_000);

  it('opens documents only through a request on the Documents section, and keeps snapshots immutable', async () => {
    const { provider, applicationId } = await completedApplication();
    const upload = () => {
      const form = new FormData();
      form.append('documentType', 'cv_resume');
      form.append('file', new Blob([new Uint8Array(minimalPdf())], { type: 'application/pdf' }), 'cv.pdf');
      return provider.request('POST', `/api/applications/${applicationId}/documents`, form);
    };
    expect((await upload()).status).toBe(409);
    expect((await admin.json('POST', adminPath(applicationId, 'start-review'), {})).status).toBe(200);
    const requested = await admin.json<{ requestId: string }>(
      'POST',
      adminPath(applicationId, 'request-information'),
      {
        message: 'Upload your current CV.',
        sections: ['documents'],
      },
    );
    const uploaded = await upload();
    expect(uploaded.status).toBe(201);
    const { id: documentId } = (await uploaded.json()) as { id: string };
    const responded = await provider.json(
      'POST',
      `/api/applications/${applicationId}/information-requests/${requested.body.requestId}/response`,
      {},
    );
    expect(responded.status).toBe(200);
    const removed = await provider.request(
      'DELETE',
      `/api/applications/${applicationId}/documents/${documentId}`,
    );
    expect(removed.status).toBe(409);
    const v2 = await admin.json<ApplicationVersion>('GET', adminPath(applicationId, 'versions/2'));
    // The upload is one added document (issue 29 item 5), not every document after it shifted.
    expect(v2.body.changes).toEqual([
      expect.objectContaining({ section: 'documents', change: 'added', rowKey: expect.any(String) }),
    ]);

    // application_versions refuses UPDATE and DELETE; the application's own deletion cascades.
    const pool = app.runtime.deps.database.pool;
    await expect(
      pool.query(`update application_versions set reason = 'x' where application_id = $1`, [applicationId]),
    ).rejects.toThrow(/immutable/);
    await expect(
      pool.query(`delete from application_versions where application_id = $1`, [applicationId]),
    ).rejects.toThrow(/immutable/);
    await pool.query('delete from provider_applications where id = $1', [applicationId]);
    const left = await pool.query('select 1 from application_versions where application_id = $1', [
      applicationId,
    ]);
    expect(left.rowCount).toBe(0);
  }, 60_000);

  it('takes version 1 at Start Review for an application completed before the review existed', async () => {
    const provider = await signUpAndSignIn(app);
    const { applicationId } = await createCompletedApplication({
      ...app.runtime.deps,
      userId: provider.userId,
    });
    // As migration 0007 leaves one: submitted, with its notification, but no snapshot.
    const pool = app.runtime.deps.database.pool;
    await pool.query(
      `insert into completion_notifications (application_id, user_id, status) values ($1, $2, 'undelivered')`,
      [applicationId, provider.userId],
    );
    await pool.query(
      `update provider_applications set application_status = 'submitted', submitted_at = now() where id = $1`,
      [applicationId],
    );
    expect((await admin.json('POST', adminPath(applicationId, 'start-review'), {})).status).toBe(200);
    const started = await review(applicationId);
    expect(started.versions.map((v) => [v.version, v.reason])).toEqual([[1, 'completion']]);
    expect(started.checklist.length).toBeGreaterThan(5);
  }, 60_000);
});
