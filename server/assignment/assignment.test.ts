/**
 * 'Assign' (issue 32 item 3) on a real database: an administrator hands a file to a specialist,
 * audited in the file's timeline with who had it and who has it; a person who does not review files
 * cannot be assigned one, nor a decided file anyone; the auditor may not assign.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assignees, AssignResult } from '../../domain/api/assignment.ts';
import type { AdminReview } from '../../domain/api/review.ts';
import {
  createTestApp,
  grantAdmin,
  signUpAndSignIn,
  signUpStaff,
  type TestApp,
} from '../../tests/harness.ts';
import { completedApplication } from '../review/testing/completed-review-application.ts';

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
}, 60_000);

afterAll(async () => {
  await app?.close();
});

describe('Assign', () => {
  it('hands a file to a specialist, audited in its timeline; refuses non-reviewers, decided files and the auditor', async () => {
    const ada = await signUpAndSignIn(app, { firstName: 'Ada', lastName: 'Admin' });
    await grantAdmin(app, ada);
    const sam = await signUpStaff(app, 'specialist', { firstName: 'Sam', lastName: 'Specialist' });
    const audrey = await signUpStaff(app, 'auditor', { firstName: 'Audrey', lastName: 'Auditor' });
    const { applicationId, provider } = await completedApplication(app);
    const path = (rest: string) => `/api/admin/applications/${applicationId}/${rest}`;

    // Who may be assigned: those who review, not the auditor nor the provider.
    const listed = await ada.json<Assignees>('GET', '/api/admin/assignees');
    const ids = listed.body.assignees.map((a) => a.userId);
    expect(ids).toEqual(expect.arrayContaining([ada.userId, sam.userId]));
    expect(ids).not.toContain(audrey.userId);
    expect(ids).not.toContain(provider.userId);
    expect(listed.body.assignees.find((a) => a.userId === sam.userId)?.name).toBe('Sam Specialist');

    // A submitted file, unassigned, goes to Sam; again to Sam changes nothing.
    const assigned = await ada.json<AssignResult>('POST', path('assign'), { userId: sam.userId });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    expect(assigned.body).toEqual({ reviewerId: sam.userId, changed: true });
    expect((await ada.json<AssignResult>('POST', path('assign'), { userId: sam.userId })).body.changed).toBe(
      false,
    );
    const review = (await sam.json<AdminReview>('GET', path('review'))).body;
    expect(review.reviewerId).toBe(sam.userId);
    const entries = review.timeline.filter((t) => t.action === 'review.assigned');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorUserId: ada.userId, details: { from: null, to: sam.userId } });
    expect(review.people[sam.userId]).toBeTruthy();

    // Sam hands it back to Ada; the auditor and a provider cannot be assigned, nor may the auditor assign.
    expect((await sam.json('POST', path('assign'), { userId: ada.userId })).status).toBe(200);
    const refusal = await ada.json<{ message: string }>('POST', path('assign'), { userId: audrey.userId });
    expect(refusal.status).toBe(400);
    expect(refusal.body.message).toContain('does not review files');
    expect((await ada.json('POST', path('assign'), { userId: provider.userId })).status).toBe(400);
    expect((await audrey.json('POST', path('assign'), { userId: sam.userId })).status).toBe(403);
    expect((await audrey.json('GET', '/api/admin/assignees')).status).toBe(403);
    const timeline = (await ada.json<AdminReview>('GET', path('review'))).body.timeline;
    expect(
      timeline.filter((t) => t.action === 'review.assigned').map((t) => [t.details?.from, t.details?.to]),
    ).toEqual([
      [null, sam.userId],
      [sam.userId, ada.userId],
    ]);

    // A rejected file is not assigned any more.
    expect((await ada.json('POST', path('start-review'), {})).status).toBe(200);
    // Decided (the committee's tests' subject, issue 32): rejected.
    await app.runtime.deps.database.pool.query(
      `update provider_applications set application_status = 'rejected', decided_at = now() where id = $1`,
      [applicationId],
    );
    const late = await ada.json<{ message: string }>('POST', path('assign'), { userId: sam.userId });
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(
      'A file is assigned while it is Submitted or Under Review; this one is Rejected.',
    );
  });
});
