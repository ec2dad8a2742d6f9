/**
 * The review by role (issue 32 items 1 and 4): a Credentialing Specialist starts the review, requests
 * information and sends the file for decision but is offered no decision and refused one; a Medical
 * Director reads the file and is offered 'Approve' only once it is on 'Clean Files'; nobody is offered
 * 'Reject' (a denial is the committee's); an Auditor reads it and is offered nothing.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminReview } from '../../domain/api/review.ts';
import { createTestApp, signUpStaff, type TestApp } from '../../tests/harness.ts';
import { reviewSignature } from '../../tests/http-client.ts';
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
    expect(await offered(director)).toEqual([]);
    expect(await offered(auditor)).toEqual([]);
    // The specialist may not decide; the director reaches the decision's checks (not sent: 409); the
    // staff 'Reject' route is gone (a denial is recorded at a committee meeting).
    expect((await specialist.json('POST', path('approve'), reviewSignature(specialist))).status).toBe(403);
    expect((await specialist.json('POST', path('send-to-committee'), { note: 'x' })).status).toBe(403);
    expect((await specialist.json('POST', path('reject'), { reason: 'No.' })).status).toBe(404);
    const early = await director.json<{ message: string }>(
      'POST',
      path('approve'),
      reviewSignature(director),
    );
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/send the file for decision first/);
    // Sending for decision needs the checklist done.
    const unsent = await specialist.json<{ message: string }>('POST', path('send-for-decision'), {});
    expect(unsent.status).toBe(409);
    expect(unsent.body.message).toMatch(/'Send for Decision' needs every checklist item verified/);
    expect((await director.json('POST', path('send-for-decision'), {})).status).toBe(403);
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
