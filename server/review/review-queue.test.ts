/**
 * The 'Review Queue' by API (issue 13, decision 018; review-queue.service.ts): oldest submission
 * first, filtered by status and assignee, with checklist progress; and its pages in order, each with
 * its own rows' details, for every filter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { completedApplication as completedReview } from './testing/completed-review-application.ts';

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

const completedApplication = () => completedReview(app);

const adminPath = (applicationId: string, rest: string) => `/api/admin/applications/${applicationId}/${rest}`;

describe('the review queue', () => {
  it('lists the review queue oldest submission first, filtered by status and assignee, with progress', async () => {
    const first = await completedApplication();
    const second = await completedApplication();
    await app.runtime.deps.database.pool.query(
      `update provider_applications set submitted_at = now() - interval '10 days' where id = $1`,
      [first.applicationId],
    );
    expect((await admin.json('POST', adminPath(second.applicationId, 'start-review'), {})).status).toBe(200);
    type Queue = {
      items: {
        applicationId: string;
        daysSinceSubmission: number;
        checklistDone: number;
        checklistTotal: number;
        reviewerId: string | null;
        openRequest: boolean;
      }[];
      total: number;
    };
    const all = await admin.json<Queue>('GET', '/api/admin/review-queue');
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    const ids = all.body.items.map((i) => i.applicationId);
    expect(ids.indexOf(first.applicationId)).toBeLessThan(ids.indexOf(second.applicationId));
    expect(all.body.items.find((i) => i.applicationId === first.applicationId)?.daysSinceSubmission).toBe(10);
    const mine = await admin.json<Queue>('GET', '/api/admin/review-queue?assigned=me&status=under_review');
    const row = mine.body.items.find((i) => i.applicationId === second.applicationId);
    // One item done: the exclusion screening, verified by Start Review's screening on current lists.
    expect(row).toMatchObject({ reviewerId: admin.userId, checklistDone: 1, openRequest: false });
    expect(row?.checklistTotal).toBeGreaterThan(5);
    expect(mine.body.items.some((i) => i.applicationId === first.applicationId)).toBe(false);
    expect((await admin.json('GET', '/api/admin/review-queue?status=draft')).status).toBe(400);
  }, 60_000);
  it('pages the review queue in order, each page with its own rows’ details, for every filter', async () => {
    // First, thirty applications older than any other in the queue: 27 under review by Ada (one with
    // an open request and two of its three items verified), 3 submitted.
    const provider = await signUpAndSignIn(app);
    const pool = app.runtime.deps.database.pool;
    const { rows } = await pool.query<{ id: string }>(
      `insert into provider_applications (user_id, application_status, submitted_at, review_started_at, reviewer_id)
       select $1, (case when i <= 27 then 'under_review' else 'submitted' end)::application_status,
              now() - interval '1000 days' + i * interval '1 minute',
              case when i <= 27 then now() - interval '900 days' end,
              case when i <= 27 then $2 end
       from generate_series(1, 30) i
       returning id`,
      [provider.userId, admin.userId],
    );
    const ordered = await pool.query<{ id: string }>(
      `select id from provider_applications where id = any($1::uuid[]) order by submitted_at, id`,
      [rows.map((r) => r.id)],
    );
    const ids = ordered.rows.map((r) => r.id);
    const withDetails = ids[26]!; // the 27th: page 2 of 'assigned to me'
    await pool.query(
      `insert into verification_items (application_id, kind, item_key, target, primary_source, status, position)
       values ($1, 'npi', 'npi', 'NPI', 'NPPES NPI Registry', 'verified', 0),
              ($1, 'dea', 'dea', 'DEA', 'DEA', 'waived', 1),
              ($1, 'exclusions', 'exclusions', 'Exclusion screening', 'OIG LEIE / SAM.gov', 'pending', 2)`,
      [withDetails],
    );
    await pool.query(
      `insert into information_requests (application_id, message, sections, requested_by)
       values ($1, 'Please renew', array['professionalLicenses'], $2)`,
      [withDetails, admin.userId],
    );
    type Queue = {
      items: {
        applicationId: string;
        reviewerName: string | null;
        openRequest: boolean;
        checklistDone: number;
        checklistTotal: number;
      }[];
      total: number;
    };
    const page = async (query: string) => {
      const response = await admin.json<Queue>('GET', `/api/admin/review-queue?${query}`);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body.items;
    };
    // Then each page holds the next 25 in (submitted_at, id) order, for every filter.
    const both = [...(await page('page=1')), ...(await page('page=2'))];
    expect(both.slice(0, 30).map((i) => i.applicationId)).toEqual(ids);
    const underReview = [
      ...(await page('status=under_review')),
      ...(await page('status=under_review&page=2')),
    ];
    expect(underReview.slice(0, 27).map((i) => i.applicationId)).toEqual(ids.slice(0, 27));
    const mine = [...(await page('assigned=me')), ...(await page('assigned=me&page=2'))];
    expect(mine.slice(0, 27).map((i) => i.applicationId)).toEqual(ids.slice(0, 27));
    // And the details are the row's own, also past the first page.
    expect(mine[26]).toMatchObject({
      applicationId: withDetails,
      reviewerName: expect.stringMatching(/^Ada /),
      openRequest: true,
      checklistDone: 2,
      checklistTotal: 3,
    });
    expect(mine[25]).toMatchObject({ openRequest: false, checklistDone: 0, checklistTotal: 0 });
    expect(await page('status=submitted&page=1')).toEqual(
      expect.arrayContaining([expect.objectContaining({ applicationId: ids[29], reviewerName: null })]),
    );
  }, 60_000);
});
