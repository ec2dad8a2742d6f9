/**
 * Items follow their data (issue 51 item 3), by API on a real database. The malpractice item's target
 * and covered values are recomputed from each version: a policy re-added in a response clears 'none
 * current on file', and a renewal that replaced the policy in force is named with its start date,
 * before and after re-verification, in a response and in a credential update; a verification recorded
 * after the renewal started names the renewal it covered. A renewed license added
 * as a second card (same type, number and state) joins the first card's item: that item needs
 * re-verification and 'Send for Decision' names it. Dates are relative to the real clock the app runs on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminReview } from '../../domain/api/review.ts';
import { addDays, isoDay } from '../../domain/calendar.ts';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { approveCleanFile } from '../committee/testing/decide.ts';
import { completedApplication } from './testing/completed-review-application.ts';
import { verifyEveryItem, verifyItem } from './testing/verify-items.ts';
import { updateVerificationItem } from './verification-items.service.ts';

let app: TestApp;
let admin: Awaited<ReturnType<typeof signUpAndSignIn>>;
type Provider = Awaited<ReturnType<typeof signUpAndSignIn>>;

beforeAll(async () => {
  app = await createTestApp();
  admin = await signUpAndSignIn(app, { firstName: 'Iris' });
  await grantAdmin(app, admin);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

const today = () => isoDay(new Date());
const adminPath = (applicationId: string, rest: string) => `/api/admin/applications/${applicationId}/${rest}`;
const sectionPath = (applicationId: string, slug: string) =>
  `/api/applications/${applicationId}/sections/${slug}`;

interface Row {
  id: string;
  [key: string]: unknown;
}

async function review(applicationId: string) {
  const response = await admin.json<AdminReview>('GET', adminPath(applicationId, 'review'));
  expect(response.status).toBe(200);
  return response.body;
}

const itemOf = async (applicationId: string, kind: string) =>
  (await review(applicationId)).checklist.filter((i) => i.kind === kind);

async function rows(provider: Provider, applicationId: string, slug: string) {
  const listed = await provider.json<{ rows: Row[] }>('GET', sectionPath(applicationId, slug));
  expect(listed.status).toBe(200);
  return listed.body.rows;
}

async function save(provider: Provider, applicationId: string, slug: string, cards: object[]) {
  const saved = await provider.json('PUT', sectionPath(applicationId, slug), { rows: cards });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
}

/** 'Request Information' on `sections`, the provider's `edit`, then 'Submit Response'. */
async function respond(
  provider: Provider,
  applicationId: string,
  sections: string[],
  edit: () => Promise<void>,
) {
  const requested = await admin.json<{ requestId: string }>(
    'POST',
    adminPath(applicationId, 'request-information'),
    { message: 'Please bring this up to date.', sections },
  );
  expect(requested.status, JSON.stringify(requested.body)).toBe(200);
  await edit();
  const responded = await provider.json(
    'POST',
    `/api/applications/${applicationId}/information-requests/${requested.body.requestId}/response`,
    { reply: 'Done.' },
  );
  expect(responded.status, JSON.stringify(responded.body)).toBe(200);
}

/** A policy in force today until the day before `renewalStart`, and its renewal. */
function policies(renewalStart: string) {
  const current = {
    insuranceCompany: 'MedPro',
    policyNumber: 'P-10',
    coverageAmount: '$1,000,000 / $3,000,000',
    effectiveDate: addDays(renewalStart, -365),
    expirationDate: addDays(renewalStart, -1),
  };
  const renewal = {
    ...current,
    policyNumber: 'P-11',
    effectiveDate: renewalStart,
    expirationDate: addDays(renewalStart, 365),
  };
  return { current, renewal };
}

describe('the malpractice item follows each version', () => {
  it("clears 'none current on file' when a response re-adds the policy, and names a renewal with its start date", async () => {
    const { provider, applicationId } = await completedApplication(app);
    expect((await admin.json('POST', adminPath(applicationId, 'start-review'), {})).status).toBe(200);
    // First, the factory's only policy expired: the item says so, and the reviewer verifies that.
    const [before] = await itemOf(applicationId, 'malpractice');
    expect(before!.target).toBe('Current malpractice coverage: none current on file');
    await verifyEveryItem(admin, applicationId, { verifiedAt: today() });

    // Second, the provider re-adds the current policy in a response (version 2 shows it).
    const { current, renewal } = policies(addDays(today(), 34));
    await respond(provider, applicationId, ['malpracticeInsurance'], async () => {
      const [expired] = await rows(provider, applicationId, 'malpractice-insurance');
      await save(provider, applicationId, 'malpractice-insurance', [{ id: expired!.id, ...current }]);
    });
    const [readded] = await itemOf(applicationId, 'malpractice');
    expect(readded).toMatchObject({
      id: before!.id,
      target: 'Current malpractice coverage: MedPro P-10',
      primarySource: 'MedPro',
      status: 'needs_reverification',
    });
    expect(readded!.changes).toContainEqual({ field: 'Policy number', before: '', after: 'P-10' });
    await verifyItem(admin, applicationId, readded!, { verifiedAt: today() });

    // Third, the provider replaces the policy in force with its renewal, not in force yet.
    await respond(provider, applicationId, ['malpracticeInsurance'], async () => {
      const [policy] = await rows(provider, applicationId, 'malpractice-insurance');
      await save(provider, applicationId, 'malpractice-insurance', [{ id: policy!.id, ...renewal }]);
    });
    const renewalTarget = `Current malpractice coverage: none in force; MedPro P-11 starts ${renewal.effectiveDate}`;
    const [renewed] = await itemOf(applicationId, 'malpractice');
    expect(renewed).toMatchObject({ target: renewalTarget, status: 'needs_reverification' });
    expect(renewed!.changes).toContainEqual({
      field: 'Effective date',
      before: current.effectiveDate,
      after: renewal.effectiveDate,
    });
    // After re-verification the item still names the renewal, never the old policy number.
    await verifyItem(admin, applicationId, renewed!, { verifiedAt: today() });
    const [reverified] = await itemOf(applicationId, 'malpractice');
    expect(reverified).toMatchObject({ target: renewalTarget, status: 'verified', changes: [] });
    expect((await review(applicationId)).checklist.filter((i) => i.kind === 'malpractice')).toHaveLength(1);
  });

  it('names the renewal a credential update put in place of the policy in force', async () => {
    const { provider, applicationId } = await completedApplication(app);
    expect((await admin.json('POST', adminPath(applicationId, 'start-review'), {})).status).toBe(200);
    const { current, renewal } = policies(addDays(today(), 34));
    // The file is approved with the current policy verified.
    await respond(provider, applicationId, ['malpracticeInsurance'], async () => {
      const [expired] = await rows(provider, applicationId, 'malpractice-insurance');
      await save(provider, applicationId, 'malpractice-insurance', [{ id: expired!.id, ...current }]);
    });
    await verifyEveryItem(admin, applicationId, { verifiedAt: today() });
    expect((await itemOf(applicationId, 'malpractice'))[0]!.target).toBe(
      'Current malpractice coverage: MedPro P-10',
    );
    await approveCleanFile(app, admin, applicationId);

    // The approved provider replaces the policy with its renewal and submits the update.
    const [policy] = await rows(provider, applicationId, 'malpractice-insurance');
    await save(provider, applicationId, 'malpractice-insurance', [{ id: policy!.id, ...renewal }]);
    const submitted = await provider.json('POST', `/api/applications/${applicationId}/credential-update`, {});
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);

    const [item] = await itemOf(applicationId, 'malpractice');
    expect(item).toMatchObject({
      target: `Current malpractice coverage: none in force; MedPro P-11 starts ${renewal.effectiveDate}`,
      status: 'needs_reverification',
    });
    expect(item!.changes.map((c) => c.field)).toEqual(
      expect.arrayContaining(['Policy number', 'Effective date', 'Expiration date']),
    );
  });
});

describe('a verification records what it covered on its own day', () => {
  it('names the renewal when it is verified after the renewal started', async () => {
    const { provider, applicationId } = await completedApplication(app);
    expect((await admin.json('POST', adminPath(applicationId, 'start-review'), {})).status).toBe(200);
    // The provider lists the policy in force and its renewal; the version's day has the first in force.
    const { current, renewal } = policies(addDays(today(), 34));
    await respond(provider, applicationId, ['malpracticeInsurance'], async () => {
      const [expired] = await rows(provider, applicationId, 'malpractice-insurance');
      await save(provider, applicationId, 'malpractice-insurance', [
        { id: expired!.id, ...current },
        renewal,
      ]);
    });
    const [item] = await itemOf(applicationId, 'malpractice');
    expect(item!.target).toBe('Current malpractice coverage: MedPro P-10');

    // The reviewer verifies it the day after the renewal started: the item covers and names the renewal.
    const later = new Date(`${addDays(renewal.effectiveDate, 1)}T12:00:00Z`);
    const verified = await updateVerificationItem(
      app.runtime.deps.database.db,
      { actor: { userId: admin.userId, ipAddress: '127.0.0.1' }, role: 'reviewer' },
      applicationId,
      item!.id,
      { status: 'verified', source: 'MedPro', verifiedAt: isoDay(later) },
      later,
    );
    expect(verified.target).toBe('Current malpractice coverage: MedPro P-11');
    const [bound] = (
      await app.runtime.deps.database.pool.query<{ verified_values: Record<string, string> }>(
        'select verified_values from verification_items where id = $1',
        [item!.id],
      )
    ).rows;
    expect(bound!.verified_values['Policy number']).toBe('P-11');
  });
});

describe('a second card of the same license', () => {
  it('joins the first card’s item, which needs re-verification before the decision', async () => {
    const { provider, applicationId } = await completedApplication(app);
    expect((await admin.json('POST', adminPath(applicationId, 'start-review'), {})).status).toBe(200);
    await verifyEveryItem(admin, applicationId, { verifiedAt: today() });
    const [license] = await itemOf(applicationId, 'license');
    expect(license!.target).toBe('Professional license: medical license IL MD-1');

    // The provider adds the renewed license as a second card: same type, number and state, a new expiry.
    await respond(provider, applicationId, ['professionalLicenses'], async () => {
      const cards = await rows(provider, applicationId, 'professional-licenses');
      const first = cards.find((c) => c.licenseNumber === 'MD-1')!;
      const { id: _id, createdAt: _createdAt, ...renewed } = first;
      await save(provider, applicationId, 'professional-licenses', [
        ...cards,
        { ...renewed, issueDate: '2026-06-01', expirationDate: '2032-06-01' },
      ]);
    });

    const licenses = await itemOf(applicationId, 'license');
    expect(licenses).toHaveLength(1);
    expect(licenses[0]).toMatchObject({
      id: license!.id,
      target: 'Professional license: medical license IL MD-1 (2 cards)',
      status: 'needs_reverification',
      changes: [
        { field: 'Card 2: Issue date', before: '', after: '2026-06-01' },
        { field: 'Card 2: Expiration date', before: '', after: '2032-06-01' },
      ],
    });
    const refused = await admin.json<{ message: string }>(
      'POST',
      adminPath(applicationId, 'send-for-decision'),
      {},
    );
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('Professional license: medical license IL MD-1 (2 cards)');

    // Verified again, it covers both cards: a change of the second is a change of this item.
    await verifyItem(admin, applicationId, licenses[0]!, { verifiedAt: today() });
    await respond(provider, applicationId, ['professionalLicenses'], async () => {
      const cards = await rows(provider, applicationId, 'professional-licenses');
      const second = cards.filter((c) => c.licenseNumber === 'MD-1')[1]!;
      await save(
        provider,
        applicationId,
        'professional-licenses',
        cards.map((c) => (c.id === second.id ? { ...c, expirationDate: '2033-06-01' } : c)),
      );
    });
    const [changed] = await itemOf(applicationId, 'license');
    expect(changed).toMatchObject({
      status: 'needs_reverification',
      changes: [{ field: 'Card 2: Expiration date', before: '2032-06-01', after: '2033-06-01' }],
    });
  });
});
