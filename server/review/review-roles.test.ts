/**
 * The review by role (issue 32 item 1): a Credentialing Specialist starts the review and requests
 * information but is offered no decision and refused one; a Medical Director reads the file, is
 * offered 'Approve' and 'Reject' and reaches the decision's own checks; an Auditor reads it and is
 * offered nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminReview } from '../../domain/api/review.ts';
import { createTestApp, signUpStaff, type TestApp } from '../../tests/harness.ts';
import { completedApplication } from './testing/completed-review-application.ts';

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
}, 60_000);

afterAll(async () => {
  await app?.close();
});

describe('the review by role', () => {
  it('offers and allows each role only its part', async () => {
    const specialist = await signUpStaff(app, 'specialist', { firstName: 'Sam' });
    const director = await signUpStaff(app, 'medical_director', { firstName: 'Meg' });
    const auditor = await signUpStaff(app, 'auditor', { firstName: 'Audrey' });
    const { applicationId } = await completedApplication(app);
    const path = (rest: string) => `/api/admin/applications/${applicationId}/${rest}`;
    const offered = async (client: typeof specialist) => {
      const review = await client.json<AdminReview>('GET', path('review'));
      expect(review.status).toBe(200);
      return review.body.availableActions;
    };

    expect(await offered(specialist)).toEqual(['start_review']);
    expect(await offered(director)).toEqual([]);
    expect(await offered(auditor)).toEqual([]);
    expect((await director.json('POST', path('start-review'), {})).status).toBe(403);
    expect((await specialist.json('POST', path('start-review'), {})).status).toBe(200);

    expect(await offered(specialist)).toEqual(['request_information']);
    expect(await offered(director)).toEqual(['approve', 'reject']);
    expect(await offered(auditor)).toEqual([]);
    // The specialist may not decide; the director reaches the decision's checks (items pending: 409).
    expect((await specialist.json('POST', path('approve'), {})).status).toBe(403);
    expect((await specialist.json('POST', path('reject'), { reason: 'No.' })).status).toBe(403);
    expect((await director.json('POST', path('approve'), {})).status).toBe(409);
    // The auditor writes nothing, a checklist outcome included.
    const item = (await auditor.json<AdminReview>('GET', path('review'))).body.checklist[0]!;
    expect(
      (
        await auditor.json('PATCH', path(`verification-items/${item.id}`), {
          status: 'waived',
          waiverReason: 'x',
        })
      ).status,
    ).toBe(403);
  });
});
