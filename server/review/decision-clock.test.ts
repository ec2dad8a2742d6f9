/**
 * The decision's clock by API (issue 32 item 7): a completed file is due ATTESTATION_VALID_DAYS after
 * its attestation; once an item is verified with an older date, the oldest verification's clock ends
 * first; the review page and its Review Queue row say the same; a decided file has no clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminReview, ReviewQueue } from '../../domain/api/review.ts';
import { addDays, isoDay } from '../../domain/calendar.ts';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { completedApplication } from './testing/completed-review-application.ts';

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp({ ATTESTATION_VALID_DAYS: '90', VERIFICATION_MAX_AGE_DAYS: '120' });
}, 60_000);

afterAll(async () => {
  await app?.close();
});

describe('decision clock', () => {
  it('runs from the attestation, then from the oldest verification when that ends first', async () => {
    const admin = await signUpAndSignIn(app, { firstName: 'Ada' });
    await grantAdmin(app, admin);
    const { applicationId } = await completedApplication(app);
    const path = (rest: string) => `/api/admin/applications/${applicationId}/${rest}`;
    const today = isoDay(new Date());
    const review = async () => (await admin.json<AdminReview>('GET', path('review'))).body;
    const queueRow = async () =>
      (await admin.json<ReviewQueue>('GET', '/api/admin/review-queue?assigned=me')).body.items.find(
        (item) => item.applicationId === applicationId,
      );

    expect((await review()).decisionDue).toEqual({
      dueOn: addDays(today, 90),
      daysLeft: 90,
      basis: 'attestation',
      limitDays: 90,
    });

    expect((await admin.json('POST', path('start-review'), {})).status).toBe(200);
    const item = (await review()).checklist.find((i) => i.kind === 'license')!;
    const verifiedOn = addDays(today, -40);
    const verified = await admin.json('PATCH', path(`verification-items/${item.id}`), {
      status: 'verified',
      source: item.primarySource,
      verifiedAt: verifiedOn,
    });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    const clock = { dueOn: addDays(verifiedOn, 120), daysLeft: 80, basis: 'verification', limitDays: 120 };
    expect((await review()).decisionDue).toEqual(clock);
    expect((await queueRow())?.decisionDue).toEqual(clock);

    // Decided (the committee's tests' subject, issue 32): rejected.
    await app.runtime.deps.database.pool.query(
      `update provider_applications set application_status = 'rejected', decided_at = now() where id = $1`,
      [applicationId],
    );
    expect((await review()).decisionDue).toBeNull();
  });
});
