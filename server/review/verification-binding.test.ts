/**
 * Verifications bound to the data they verified (issue 29 item 3), by API on a real database: a
 * verified license whose expiry the provider changes in a response needs re-verification with the
 * change, 'Approve' refuses it by name, the other items stay verified, and verifying it again lets
 * the approval through. Also the start-up backfill of items verified before bindings existed, run
 * once per database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminReview, ReviewQueue } from '../../domain/api/review.ts';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { approveCleanFile } from '../committee/testing/decide.ts';
import { withStartupLock } from '../db/client.ts';
import { completedApplication } from './testing/completed-review-application.ts';
import { verifyEveryItem } from './testing/verify-items.ts';
import {
  BACKFILL_MARKER,
  backfillVerificationBindings,
  backfillVerificationBindingsOnce,
} from './verification-binding.ts';

let app: TestApp;
let admin: Awaited<ReturnType<typeof signUpAndSignIn>>;

beforeAll(async () => {
  app = await createTestApp();
  admin = await signUpAndSignIn(app, { firstName: 'Vera' });
  await grantAdmin(app, admin);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

const today = () => new Date().toISOString().slice(0, 10);
const adminPath = (applicationId: string, rest: string) => `/api/admin/applications/${applicationId}/${rest}`;

async function review(applicationId: string) {
  const response = await admin.json<AdminReview>('GET', adminPath(applicationId, 'review'));
  expect(response.status).toBe(200);
  return response.body;
}

async function verify(applicationId: string, itemId: string, source: string) {
  const saved = await admin.json('PATCH', adminPath(applicationId, `verification-items/${itemId}`), {
    status: 'verified',
    source,
    verifiedAt: today(),
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
}

/** The review queue's row of `applicationId` (under review, assigned to the admin), paging as needed. */
async function queueRow(applicationId: string): Promise<ReviewQueue['items'][number]> {
  for (let page = 1; ; page += 1) {
    const queue = await admin.json<ReviewQueue>(
      'GET',
      `/api/admin/review-queue?status=under_review&assigned=me&page=${page}`,
    );
    expect(queue.status).toBe(200);
    const row = queue.body.items.find((i) => i.applicationId === applicationId);
    if (row) return row;
    expect(queue.body.items.length, 'the application is not in the queue').toBe(queue.body.pageSize);
  }
}

interface LicenseRow {
  id: string;
  licenseType: string | null;
  expirationDate: string | null;
  [key: string]: unknown;
}

describe('a verification bound to the data it verified', () => {
  it('needs re-verification when a response changes what it covered, and only then', async () => {
    const { provider, applicationId } = await completedApplication(app);
    expect((await admin.json('POST', adminPath(applicationId, 'start-review'), {})).status).toBe(200);
    await verifyEveryItem(admin, applicationId, { verifiedAt: today() });

    const requested = await admin.json<{ requestId: string }>(
      'POST',
      adminPath(applicationId, 'request-information'),
      { message: 'Please update your license.', sections: ['professionalLicenses'] },
    );
    expect(requested.status).toBe(200);
    const listed = await provider.json<{ rows: LicenseRow[] }>(
      'GET',
      `/api/applications/${applicationId}/sections/professional-licenses`,
    );
    const rows = listed.body.rows;
    const license = rows.find((r) => r.licenseType !== 'dea_license' && r.licenseType !== 'npi')!;
    const before = license.expirationDate;
    expect(before).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const saved = await provider.json(
      'PUT',
      `/api/applications/${applicationId}/sections/professional-licenses`,
      {
        rows: rows.map((r) => (r.id === license.id ? { ...r, expirationDate: '2031-12-15' } : r)),
      },
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const responded = await provider.json(
      'POST',
      `/api/applications/${applicationId}/information-requests/${requested.body.requestId}/response`,
      { reply: 'Renewed.' },
    );
    expect(responded.status).toBe(200);

    const after = await review(applicationId);
    const flagged = after.checklist.filter((i) => i.status === 'needs_reverification');
    expect(flagged.map((i) => i.kind)).toEqual(['license']);
    expect(flagged[0]!.changes).toEqual([{ field: 'Expiration date', before: before!, after: '2031-12-15' }]);
    // Items whose data did not change stay as they were.
    expect(after.checklist.filter((i) => i.kind !== 'license').every((i) => i.status === 'verified')).toBe(
      true,
    );

    // The review queue's row counts it apart from the verified ones.
    expect(await queueRow(applicationId)).toMatchObject({
      checklistDone: after.checklist.length - 1,
      checklistNeedsReverification: 1,
      checklistTotal: after.checklist.length,
    });

    const refused = await admin.json<{ message: string }>(
      'POST',
      adminPath(applicationId, 'send-for-decision'),
      {},
    );
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain(
      `${flagged[0]!.target} (needs re-verification: Expiration date ${before} → 2031-12-15)`,
    );

    await verify(applicationId, flagged[0]!.id, 'State board');
    const reverified = (await review(applicationId)).checklist.find((i) => i.id === flagged[0]!.id)!;
    expect(reverified).toMatchObject({ status: 'verified', changes: [] });
    expect(await queueRow(applicationId)).toMatchObject({
      checklistDone: after.checklist.length,
      checklistNeedsReverification: 0,
    });
    await approveCleanFile(app, admin, applicationId);

    const audit = await app.runtime.deps.database.pool.query<{ details: Record<string, unknown> }>(
      `select details from audit_log where action = 'review.reverification_needed' and details->>'applicationId' = $1`,
      [applicationId],
    );
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]!.details).toMatchObject({
      fields: 'Expiration date',
      toStatus: 'needs_reverification',
    });
    // The audit names the field, never its value.
    expect(JSON.stringify(audit.rows[0]!.details)).not.toContain('2031-12-15');
  });

  it('binds items verified before bindings existed to the snapshot they were verified on', async () => {
    const { applicationId } = await completedApplication(app);
    expect((await admin.json('POST', adminPath(applicationId, 'start-review'), {})).status).toBe(200);
    const [first] = (await review(applicationId)).checklist;
    await verify(applicationId, first!.id, first!.primarySource);
    const pool = app.runtime.deps.database.pool;
    const recorded = await pool.query<{ verified_values: Record<string, string> }>(
      'select verified_values from verification_items where id = $1',
      [first!.id],
    );
    expect(Object.keys(recorded.rows[0]!.verified_values).length).toBeGreaterThan(0);
    await pool.query(
      'update verification_items set verified_values = null, verified_version = null where id = $1',
      [first!.id],
    );

    expect(await backfillVerificationBindings(app.runtime.deps.database.db)).toBeGreaterThanOrEqual(1);
    const backfilled = await pool.query<{ verified_values: unknown; verified_version: number }>(
      'select verified_values, verified_version from verification_items where id = $1',
      [first!.id],
    );
    expect(backfilled.rows[0]).toEqual({
      verified_values: recorded.rows[0]!.verified_values,
      verified_version: 1,
    });
    // Idempotent: nothing left to bind.
    expect(await backfillVerificationBindings(app.runtime.deps.database.db)).toBe(0);
  });

  it('backfills once per database: later starts skip the scan, and of two starts at once one runs it', async () => {
    const pool = app.runtime.deps.database.pool;
    const markerOf = () =>
      pool.query<{ finished: boolean }>(
        'select finished_at is not null as finished from scheduled_job_runs where job = $1 and period = $2',
        [BACKFILL_MARKER.job, BACKFILL_MARKER.period],
      );
    // First, the app's own start ran the backfill and left its marker.
    expect((await markerOf()).rows).toEqual([{ finished: true }]);

    // An item without a binding (as if verified before bindings existed).
    const { applicationId } = await completedApplication(app);
    expect((await admin.json('POST', adminPath(applicationId, 'start-review'), {})).status).toBe(200);
    const [first] = (await review(applicationId)).checklist;
    await verify(applicationId, first!.id, first!.primarySource);
    await pool.query(
      'update verification_items set verified_values = null, verified_version = null where id = $1',
      [first!.id],
    );
    const versionOf = async () =>
      (
        await pool.query<{ verified_version: number | null }>(
          'select verified_version from verification_items where id = $1',
          [first!.id],
        )
      ).rows[0]!.verified_version;

    // Second, a later start finds the marker and does not scan: the item stays unbound.
    const later = await withStartupLock(pool, (db) => backfillVerificationBindingsOnce(db, new Date()));
    expect(later).toBe('skipped');
    expect(await versionOf()).toBeNull();

    // Third, without the marker, two starts at once under the start-up lock: one binds, one skips.
    await pool.query('delete from scheduled_job_runs where job = $1', [BACKFILL_MARKER.job]);
    const both = await Promise.all([
      withStartupLock(pool, (db) => backfillVerificationBindingsOnce(db, new Date())),
      withStartupLock(pool, (db) => backfillVerificationBindingsOnce(db, new Date())),
    ]);
    expect(both.filter((r) => r === 'skipped')).toHaveLength(1);
    expect(both.find((r) => r !== 'skipped')).toBeGreaterThanOrEqual(1);
    expect(await versionOf()).toBe(1);
    expect((await markerOf()).rows).toEqual([{ finished: true }]);
  });
});
