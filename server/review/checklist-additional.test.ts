/**
 * The checklist items of issue 31 item 4 and the committee review flag, by API on a real database:
 * 'Start Review' adds one item per training program, the hospital privileges (verified with the
 * facility), the claims history (the NPDB) and names the primary specialty on its certification's
 * item (no second item); 'Verify' of the claims history needs the NPDB query result attached, and its
 * last file stays while it is verified; a response that changes an affiliation's end date, turns it
 * into an admitting arrangement or adds a claim re-binds those items (needs re-verification, same
 * item, target and kind following the row); a claim paid in the last five years, read from the newest
 * snapshot with a driven clock, marks the file for committee review. Issue 51 item 4: only a board
 * certification is an item; ACLS of kind 'other' stays in the snapshot without one.
 */

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminReview } from '../../domain/api/review.ts';
import { PAID_CLAIM_COMMITTEE_REASON } from '../../domain/attestation.ts';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { signedAttestation } from '../../tests/http-client.ts';
import { malpracticeClaims } from '../db/schema/sections.ts';
import { createCompletedApplication } from '../notifications/testing/completed-application.ts';
import { loadCurrentExclusionLists } from '../screening/testing/current-lists.ts';
import { getAdminReview } from './review-reads.service.ts';
import { completedApplication } from './testing/completed-review-application.ts';
import { attachEvidence, verifyEveryItem, verifyItem } from './testing/verify-items.ts';

let app: TestApp;
let admin: Awaited<ReturnType<typeof signUpAndSignIn>>;

beforeAll(async () => {
  app = await createTestApp();
  admin = await signUpAndSignIn(app, { firstName: 'Clara' });
  await grantAdmin(app, admin);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

const DAY_MS = 24 * 60 * 60 * 1000;
const isoDay = (offsetDays = 0) => new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);
const adminPath = (applicationId: string, rest: string) => `/api/admin/applications/${applicationId}/${rest}`;

async function review(applicationId: string): Promise<AdminReview> {
  const response = await admin.json<AdminReview>('GET', adminPath(applicationId, 'review'));
  expect(response.status).toBe(200);
  return response.body;
}

async function underReview() {
  const completed = await completedApplication(app);
  expect((await admin.json('POST', adminPath(completed.applicationId, 'start-review'), {})).status).toBe(200);
  return completed;
}

type Row = Record<string, unknown> & { id: string };

/**
 * 'Request Information' on `sections`, the provider's `edit` of each section's rows (slug -> rows),
 * then 'Submit Response'.
 */
async function respond(
  provider: Awaited<ReturnType<typeof signUpAndSignIn>>,
  applicationId: string,
  edits: Record<string, { key: string; edit: (rows: Row[]) => Record<string, unknown>[] }>,
) {
  const requested = await admin.json<{ requestId: string }>(
    'POST',
    adminPath(applicationId, 'request-information'),
    { message: 'Please update these sections.', sections: Object.values(edits).map((e) => e.key) },
  );
  expect(requested.status, JSON.stringify(requested.body)).toBe(200);
  for (const [slug, { edit }] of Object.entries(edits)) {
    const url = `/api/applications/${applicationId}/sections/${slug}`;
    const listed = await provider.json<{ rows: Row[] }>('GET', url);
    expect(listed.status).toBe(200);
    const saved = await provider.json('PUT', url, { rows: edit(listed.body.rows) });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  }
  const responded = await provider.json(
    'POST',
    `/api/applications/${applicationId}/information-requests/${requested.body.requestId}/response`,
    { reply: 'Updated.' },
  );
  expect(responded.status, JSON.stringify(responded.body)).toBe(200);
}

describe('the checklist items of issue 31', () => {
  it('Start Review adds training, privileges and the claims history, and names the primary specialty on its certification', async () => {
    const { applicationId } = await underReview();
    const { checklist } = await review(applicationId);
    const byKind = (kind: string) => checklist.filter((i) => i.kind === kind);
    expect(byKind('training').map((i) => [i.target, i.primarySource])).toEqual([
      [
        'Training: Residency in Internal Medicine, Internal Medicine Residency, University of Illinois Hospital',
        // The factory's provider is an MD.
        'Internal Medicine Residency or the AMA Physician Profile',
      ],
    ]);
    expect(byKind('hospital_privileges').map((i) => [i.target, i.primarySource])).toEqual([
      [
        'Hospital privileges: Springfield General Hospital, Springfield, IL (Active)',
        'Springfield General Hospital (medical staff office)',
      ],
    ]);
    expect(byKind('claims_history').map((i) => [i.target, i.primarySource])).toEqual([
      [
        'Claims history: 1 claim in the last 10 years, 1 paid',
        'NPDB query (attach the query result as evidence)',
      ],
    ]);
    // One item for the certification, which names the primary specialty linked to it.
    expect(byKind('board_certification').map((i) => i.target)).toEqual([
      'Board certification: Board Certified, Internal Medicine (ABIM), primary specialty Internal Medicine (207R00000X)',
    ]);
    // The factory's claim was paid in 2018: no committee review for it.
    expect((await review(applicationId)).committeeReview).toEqual({ needed: false, reasons: [] });
  });

  it("makes a board certification an item and ACLS of type 'other' none, kept in the snapshot (issue 51 item 4)", async () => {
    // First, the factory's provider lists a board certification (ABIM) and ACLS of kind 'other'.
    const { applicationId } = await underReview();
    // Second, 'Start Review' made the checklist: the board certification is an item, ACLS is not.
    const { checklist } = await review(applicationId);
    expect(checklist.filter((i) => i.kind === 'board_certification').map((i) => i.primarySource)).toEqual([
      'ABIM',
    ]);
    expect(checklist.filter((i) => i.target.includes('Advanced Cardiovascular Life Support'))).toEqual([]);
    // Last, ACLS is still in the signed record, with its kind.
    const stored = await app.runtime.deps.database.pool.query<{ kinds: [string, string][] }>(
      `select array(
         select array[c->>'certification_name', c->>'certification_kind']
           from jsonb_array_elements(snapshot->'lists'->'certifications') c
       ) as kinds
         from application_versions where application_id = $1 and version = 1`,
      [applicationId],
    );
    expect(stored.rows[0]!.kinds).toEqual([
      ['Board Certified, Internal Medicine', 'board'],
      ['Advanced Cardiovascular Life Support', 'other'],
    ]);
  });

  it('verifies the claims history only with the NPDB query result attached, and keeps that file while it is verified', async () => {
    const { applicationId } = await underReview();
    const claims = (await review(applicationId)).checklist.find((i) => i.kind === 'claims_history')!;
    const refused = await admin.json<{ message: string }>(
      'PATCH',
      adminPath(applicationId, `verification-items/${claims.id}`),
      { status: 'verified', source: 'NPDB', verifiedAt: isoDay() },
    );
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'Attach the NPDB query result to the claims history item before verifying it.',
    );
    expect((await review(applicationId)).checklist.find((i) => i.id === claims.id)?.status).toBe('pending');
    // A waiver gives its own reason: no file needed.
    const waived = await admin.json('PATCH', adminPath(applicationId, `verification-items/${claims.id}`), {
      status: 'waived',
      waiverReason: 'NPDB query pending with the delegated entity',
    });
    expect(waived.status, JSON.stringify(waived.body)).toBe(200);

    const evidenceId = await attachEvidence(admin, applicationId, claims.id);
    const verified = await admin.json('PATCH', adminPath(applicationId, `verification-items/${claims.id}`), {
      status: 'verified',
      source: 'NPDB',
      verifiedAt: isoDay(),
    });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);

    // The last file of the verified item stays; a replacement first, or the item back to pending.
    const removed = await admin.json<{ message: string }>(
      'DELETE',
      adminPath(applicationId, `evidence/${evidenceId}`),
    );
    expect(removed.status).toBe(409);
    expect(removed.body.message).toBe(
      'This file is the evidence the claims history was verified with. Attach its replacement first, or set the item back to pending.',
    );
    const replacement = await attachEvidence(admin, applicationId, claims.id, 'npdb-query-result-2.pdf');
    expect((await admin.request('DELETE', adminPath(applicationId, `evidence/${evidenceId}`))).status).toBe(
      204,
    );
    const pending = await admin.json('PATCH', adminPath(applicationId, `verification-items/${claims.id}`), {
      status: 'pending',
    });
    expect(pending.status).toBe(200);
    expect((await admin.request('DELETE', adminPath(applicationId, `evidence/${replacement}`))).status).toBe(
      204,
    );
    // Other kinds are verified without a file, as before.
    const training = (await review(applicationId)).checklist.find((i) => i.kind === 'training')!;
    await verifyItem(admin, applicationId, training, { verifiedAt: isoDay() });
  });

  it('re-binds the items on a later version: an end date, an arrangement instead of privileges, a new paid claim', async () => {
    const { provider, applicationId } = await underReview();
    for (const item of (await review(applicationId)).checklist) {
      await verifyItem(admin, applicationId, item, { verifiedAt: isoDay() });
    }
    const before = await review(applicationId);
    const hospital = before.checklist.find((i) => i.kind === 'hospital_privileges')!;
    const claims = before.checklist.find((i) => i.kind === 'claims_history')!;
    const training = before.checklist.find((i) => i.kind === 'training')!;

    // First response: the privileges get an end date and a claim paid last year is added.
    const paidLastYear = isoDay(-365);
    await respond(provider, applicationId, {
      'hospital-affiliations': {
        key: 'hospitalAffiliations',
        edit: (rows) => rows.map((r) => ({ ...r, endDate: '2031-01-31' })),
      },
      'malpractice-claims': {
        key: 'malpracticeClaims',
        edit: (rows) => [
          ...rows,
          { claimDate: paidLastYear, status: 'settled', amountPaid: 40000, insurer: 'MedPro' },
        ],
      },
    });
    const first = await review(applicationId);
    const item = (id: string) => first.checklist.find((i) => i.id === id)!;
    expect(item(hospital.id)).toMatchObject({
      kind: 'hospital_privileges',
      status: 'needs_reverification',
      changes: [{ field: 'End date', before: '', after: '2031-01-31' }],
    });
    expect(item(claims.id)).toMatchObject({
      status: 'needs_reverification',
      target: 'Claims history: 2 claims in the last 10 years, 2 paid',
    });
    expect(item(claims.id).changes.map((c) => c.field)).toEqual(['Claims']);
    // Training did not change: still verified. No item was added for the same rows.
    expect(item(training.id).status).toBe('verified');
    expect(first.checklist).toHaveLength(before.checklist.length);
    // The claim paid last year marks the file for committee review.
    expect(first.committeeReview).toEqual({ needed: true, reasons: [PAID_CLAIM_COMMITTEE_REASON] });

    // Second response: the affiliation becomes an admitting arrangement. The same item, now of the
    // arrangement's kind, verified with the group.
    await respond(provider, applicationId, {
      'hospital-affiliations': {
        key: 'hospitalAffiliations',
        edit: (rows) =>
          rows.map((r) => ({
            id: r.id,
            privilegeStatus: 'none',
            admittingArrangement: 'hospitalist_group',
            arrangementName: 'Springfield Hospitalists',
          })),
      },
    });
    const second = await review(applicationId);
    const arrangement = second.checklist.find((i) => i.id === hospital.id)!;
    expect(arrangement).toMatchObject({
      kind: 'admitting_arrangement',
      status: 'needs_reverification',
      target: 'Admitting arrangement: Hospitalist group, Springfield Hospitalists',
      primarySource: 'Springfield Hospitalists (written confirmation of the arrangement)',
    });
    expect(arrangement.changes.map((c) => c.field)).toEqual(
      expect.arrayContaining(['Privilege status', 'Facility']),
    );
    expect(second.checklist.filter((i) => i.kind === 'hospital_privileges')).toEqual([]);
    expect(second.checklist).toHaveLength(before.checklist.length);
  });
});

describe('committee review for a paid claim (issue 31 item 4)', () => {
  /**
   * A provider's application completed with `claims` as its Malpractice Claims rows (instead of the
   * factory's), so version 1's snapshot holds them.
   */
  async function completedWithClaims(claims: Omit<typeof malpracticeClaims.$inferInsert, 'applicationId'>[]) {
    const provider = await signUpAndSignIn(app);
    const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
    const applicationId = created.body.id;
    const db = app.runtime.deps.db;
    await createCompletedApplication({ ...app.runtime.deps, userId: provider.userId, applicationId });
    await db.delete(malpracticeClaims).where(eq(malpracticeClaims.applicationId, applicationId));
    await db.insert(malpracticeClaims).values(claims.map((c) => ({ ...c, applicationId })));
    const completed = await provider.json(
      'POST',
      `/api/applications/${applicationId}/completion`,
      await signedAttestation(provider),
    );
    expect([200, 202]).toContain(completed.status);
    return applicationId;
  }

  const at = (applicationId: string, now: string) =>
    getAdminReview(app.runtime.deps.db, applicationId, {
      cipher: app.runtime.deps.cipher,
      validDays: 120,
      now: new Date(`${now}T12:00:00Z`),
    });

  it('is needed for a claim paid 4 years before today, not 6 years; never for the none answer', async () => {
    const paid = await completedWithClaims([
      // Open and unpaid, recent: no reason. Paid, dated by its claim date.
      { claimDate: '2024-01-15', status: 'open', amountPaid: null },
      { incidentDate: '2019-11-02', claimDate: '2020-06-01', status: 'settled', amountPaid: 250000 },
    ]);
    expect((await at(paid, '2024-06-01')).committeeReview).toEqual({
      needed: true,
      reasons: [PAID_CLAIM_COMMITTEE_REASON],
    });
    // Exactly five years is still within; a day later it is not.
    expect((await at(paid, '2025-06-01')).committeeReview.needed).toBe(true);
    expect((await at(paid, '2025-06-02')).committeeReview).toEqual({ needed: false, reasons: [] });
    expect((await at(paid, '2026-06-01')).committeeReview).toEqual({ needed: false, reasons: [] });

    // Without a claim date, the incident date counts.
    const incidentOnly = await completedWithClaims([
      { incidentDate: '2022-03-01', status: 'judgment', amountPaid: 1000 },
    ]);
    expect((await at(incidentOnly, '2026-03-01')).committeeReview.needed).toBe(true);
    // The lists current in 2028 (issue 51 item 1: a screening on lists older than 35 days is a reason).
    await loadCurrentExclusionLists(app.runtime.deps.db, new Date('2028-03-01T00:00:00Z'));
    expect((await at(incidentOnly, '2028-03-01')).committeeReview).toEqual({ needed: false, reasons: [] });

    const none = await completedWithClaims([{ noClaims: true }]);
    for (const now of ['2024-06-01', '2026-06-01']) {
      expect((await at(none, now)).committeeReview).toEqual({ needed: false, reasons: [] });
    }
    // The none answer is still verified with the NPDB.
    expect((await admin.json('POST', adminPath(none, 'start-review'), {})).status).toBe(200);
    expect((await review(none)).checklist.find((i) => i.kind === 'claims_history')?.target).toBe(
      'Claims history: no claims in the last 10 years',
    );
  });
});

describe('clean file (issue 32 item 4)', () => {
  it('an item in discrepancy names the file as not clean; once it is verified the file is clean', async () => {
    const { applicationId } = await underReview();
    const license = (await review(applicationId)).checklist.find((i) => i.kind === 'license')!;
    const recorded = await admin.json('PATCH', adminPath(applicationId, `verification-items/${license.id}`), {
      status: 'discrepancy',
      note: 'The board lists a different expiry.',
    });
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(200);
    expect((await review(applicationId)).committeeReview).toEqual({
      needed: true,
      reasons: [`Discrepancy: ${license.target}`],
    });

    await verifyEveryItem(admin, applicationId, { verifiedAt: isoDay() });
    const settled = await review(applicationId);
    expect(settled.checklist.every((i) => i.status === 'verified')).toBe(true);
    expect(settled.committeeReview).toEqual({ needed: false, reasons: [] });
  });
});
