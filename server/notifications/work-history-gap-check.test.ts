/**
 * Completion refuses an unexplained work-history gap and names it, and the review's work-history item
 * lists the gaps with their explanations (issue 29 item 7, NCQA CR 3), over
 * real HTTP on a fresh PostgreSQL database. The dates are relative to today, since the route reads the
 * clock: the gap lies well inside the 5-year lookback, 8 whole months long whatever today is.
 * GET /api/applications lists a draft's gaps to explain for the dashboard (issue 51 item 6).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminReview } from '../../domain/api/review.ts';
import { addMonths, isoDay } from '../../domain/calendar.ts';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { signedAttestation } from '../../tests/http-client.ts';
import { createCompletedApplication } from './testing/completed-application.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

/** The first of this month, so month arithmetic never clamps a day. */
const monthStart = `${isoDay(new Date()).slice(0, 8)}01`;
const firstEnd = addMonths(monthStart, -30);
const secondStart = addMonths(monthStart, -22);

describe('POST /api/applications/:id/completion and work-history gaps', () => {
  it('refuses an unexplained gap of 8 months, naming it, and completes once it is explained', async () => {
    // First, a provider has a draft at 100% whose work history has an 8-month gap between positions.
    const provider = await signUpAndSignIn(app);
    const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
    const applicationId = created.body.id;
    await createCompletedApplication({ ...app.runtime.deps, userId: provider.userId, applicationId });
    // The factory's one current position since 2012 would cover any gap: these positions replace it.
    await app.runtime.deps.db.execute(sql`delete from work_history where application_id = ${applicationId}`);
    const url = `/api/applications/${applicationId}/sections/work-history`;
    const saved = await provider.json<{ rows: { id: string; startDate: string }[] }>('PUT', url, {
      rows: [
        { employerName: 'Mercy General', startDate: addMonths(monthStart, -60), endDate: firstEnd },
        { employerName: 'Lakeside Clinic', startDate: secondStart, isCurrentPosition: true },
      ],
    });
    expect(saved.status).toBe(200);
    // The dashboard's list says the draft has a gap to explain: its Work History card shows no green
    // check (issue 51 item 6), though the section has rows and counts towards progress (spec §4).
    const gapsOf = async () =>
      (
        await provider.json<{ workHistoryGaps: unknown[]; applications: { progress: number }[] }>(
          'GET',
          '/api/applications',
        )
      ).body;
    expect((await gapsOf()).workHistoryGaps).toEqual([{ applicationId, unexplained: 1 }]);
    expect((await gapsOf()).applications[0]?.progress).toBe(100);

    // Second, 'Application Completed' is refused with the gap named, and nothing is recorded.
    const refused = await provider.json<{ code: string; message: string }>(
      'POST',
      `/api/applications/${applicationId}/completion`,
      await signedAttestation(provider),
    );
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      code: 'conflict',
      message: `Work history: explain the gap from ${firstEnd} to ${secondStart} (8 months) in Work History before completing.`,
    });
    const counts = await app.runtime.deps.db.execute<{
      notifications: number;
      attestations: number;
      status: string;
    }>(
      sql`select
            (select count(*)::int from completion_notifications where application_id = ${applicationId}) as notifications,
            (select count(*)::int from application_attestations where application_id = ${applicationId}) as attestations,
            (select application_status from provider_applications where id = ${applicationId}) as status`,
    );
    expect(counts.rows[0]).toEqual({ notifications: 0, attestations: 0, status: 'draft' });

    // A blank explanation is no explanation.
    const rows = saved.body.rows;
    const lakeside = rows.find((r) => r.startDate === secondStart)!;
    const mercy = rows.find((r) => r.startDate !== secondStart)!;
    const blank = await provider.json('PUT', url, {
      rows: [
        {
          id: mercy.id,
          employerName: 'Mercy General',
          startDate: addMonths(monthStart, -60),
          endDate: firstEnd,
        },
        {
          id: lakeside.id,
          employerName: 'Lakeside Clinic',
          startDate: secondStart,
          isCurrentPosition: true,
          gapExplanation: '   ',
        },
      ],
    });
    expect(blank.status).toBe(200);
    expect(
      (
        await provider.json(
          'POST',
          `/api/applications/${applicationId}/completion`,
          await signedAttestation(provider),
        )
      ).status,
    ).toBe(409);

    // Third, the provider explains it on the position after the gap: completion goes through.
    const explained = await provider.json<{ rows: { gapExplanation: string | null }[] }>('PUT', url, {
      rows: [
        {
          id: mercy.id,
          employerName: 'Mercy General',
          startDate: addMonths(monthStart, -60),
          endDate: firstEnd,
        },
        {
          id: lakeside.id,
          employerName: 'Lakeside Clinic',
          startDate: secondStart,
          isCurrentPosition: true,
          gapExplanation: 'Parental leave',
        },
      ],
    });
    expect(explained.body.rows.map((r) => r.gapExplanation)).toEqual([null, 'Parental leave']);
    expect((await gapsOf()).workHistoryGaps).toEqual([]);
    const completed = await provider.json<{ status: string }>(
      'POST',
      `/api/applications/${applicationId}/completion`,
      await signedAttestation(provider),
    );
    expect(completed.status).toBe(202);
    const after = await app.runtime.deps.db.execute<{ status: string; explanation: string }>(
      sql`select a.application_status as status,
                 v.snapshot->'lists'->'workHistory'->1->>'gap_explanation' as explanation
          from provider_applications a join application_versions v on v.application_id = a.id
          where a.id = ${applicationId}`,
    );
    // The explanation reaches the snapshot the review reads (and the payload, same rows).
    expect(after.rows[0]).toEqual({ status: 'submitted', explanation: 'Parental leave' });

    // Last, the reviewer's work-history item lists the gap with its explanation; no separate gap item.
    const admin = await signUpAndSignIn(app, { firstName: 'Ada' });
    await grantAdmin(app, admin);
    const started = await admin.json('POST', `/api/admin/applications/${applicationId}/start-review`, {});
    expect(started.status).toBe(200);
    const review = await admin.json<AdminReview>('GET', `/api/admin/applications/${applicationId}/review`);
    expect(review.body.checklist.filter((i) => i.kind === 'work_history_gap')).toEqual([]);
    const workItem = review.body.checklist.find((i) => i.kind === 'work_history')!;
    expect(workItem.details).toEqual([
      `Gap ${firstEnd} to ${secondStart} (8 months): Explanation: Parental leave`,
    ]);
    expect(
      review.body.checklist.filter((i) => i.kind !== 'work_history').every((i) => i.details.length === 0),
    ).toBe(true);
  });

  it('counts the other unexplained gaps in the message', async () => {
    const provider = await signUpAndSignIn(app);
    const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
    const applicationId = created.body.id;
    await createCompletedApplication({ ...app.runtime.deps, userId: provider.userId, applicationId });
    // The factory's one current position since 2012 would cover any gap: these positions replace it.
    await app.runtime.deps.db.execute(sql`delete from work_history where application_id = ${applicationId}`);
    await provider.json('PUT', `/api/applications/${applicationId}/sections/work-history`, {
      rows: [
        // Starts before the 5-year lookback: the time since training (2009) is not asked.
        { startDate: addMonths(monthStart, -70), endDate: addMonths(monthStart, -40) },
        { startDate: addMonths(monthStart, -30), endDate: addMonths(monthStart, -20) },
        // Nothing since: a third gap, up to today.
      ],
    });
    const refused = await provider.json<{ message: string }>(
      'POST',
      `/api/applications/${applicationId}/completion`,
      await signedAttestation(provider),
    );
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      `Work history: explain the gap from ${addMonths(monthStart, -40)} to ${addMonths(monthStart, -30)} (10 months) in Work History before completing. 1 more gap needs an explanation too.`,
    );
  });
});
