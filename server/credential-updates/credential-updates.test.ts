/**
 * Credential updates after approval (issue 29 item 4), by API on a real database: who may send one,
 * which sections stay locked, 'Submit Update' (nothing changed, two at once), the review queue's
 * 'Credential Update' row and its checklist, 'Complete Update Review', and the expiry notices rule
 * ("notices for a credential stop once a newer expiry is verified") with the job's clock driven.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CredentialUpdateStatus, SubmitUpdateResult } from '../../domain/api/credential-updates.ts';
import type { AdminReview, ReviewQueue } from '../../domain/api/review.ts';
import { credentialUpdateTexts } from '../../domain/credentials/credential-updates.ts';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { approveCleanFile } from '../committee/testing/decide.ts';
import { runExpiryMonitor } from '../credentials/expiry-monitor.ts';
import { completedApplication } from '../review/testing/completed-review-application.ts';
import { verifyItem } from '../review/testing/verify-items.ts';

let app: TestApp;
let admin: Awaited<ReturnType<typeof signUpAndSignIn>>;

beforeAll(async () => {
  app = await createTestApp();
  admin = await signUpAndSignIn(app, { firstName: 'Ulla' });
  await grantAdmin(app, admin);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

const today = () => new Date().toISOString().slice(0, 10);
const adminPath = (applicationId: string, rest: string) => `/api/admin/applications/${applicationId}/${rest}`;
const updatePath = (applicationId: string) => `/api/applications/${applicationId}/credential-update`;
const licensesPath = (applicationId: string) =>
  `/api/applications/${applicationId}/sections/professional-licenses`;

interface LicenseRow {
  id: string;
  licenseType: string | null;
  expirationDate: string | null;
  [key: string]: unknown;
}

async function review(applicationId: string) {
  const response = await admin.json<AdminReview>('GET', adminPath(applicationId, 'review'));
  expect(response.status).toBe(200);
  return response.body;
}

async function verify(applicationId: string, itemId: string) {
  const saved = await admin.json('PATCH', adminPath(applicationId, `verification-items/${itemId}`), {
    status: 'verified',
    source: 'State board',
    verifiedAt: today(),
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
}

/** A provider whose application was completed, every item verified, and approved. */
async function approvedApplication() {
  const { provider, applicationId } = await completedApplication(app);
  expect((await admin.json('POST', adminPath(applicationId, 'start-review'), {})).status).toBe(200);
  // The claims history item (issue 31) gets its NPDB query result attached first (verifyItem).
  for (const item of (await review(applicationId)).checklist) {
    await verifyItem(admin, applicationId, item, { source: 'State board', verifiedAt: today() });
  }
  await approveCleanFile(app, admin, applicationId);
  return { provider, applicationId };
}

/** The provider's medical license row (not the DEA or NPI rows) and every row, as the form reads them. */
async function licenses(provider: Awaited<ReturnType<typeof signUpAndSignIn>>, applicationId: string) {
  const listed = await provider.json<{ rows: LicenseRow[] }>('GET', licensesPath(applicationId));
  expect(listed.status).toBe(200);
  const rows = listed.body.rows;
  const license = rows.find((r) => r.licenseType !== 'dea_license' && r.licenseType !== 'npi')!;
  return { rows, license };
}

async function changeLicenseExpiry(
  provider: Awaited<ReturnType<typeof signUpAndSignIn>>,
  applicationId: string,
  expirationDate: string,
) {
  const { rows, license } = await licenses(provider, applicationId);
  const saved = await provider.json('PUT', licensesPath(applicationId), {
    rows: rows.map((r) => (r.id === license.id ? { ...r, expirationDate } : r)),
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return license;
}

async function versionsOf(applicationId: string): Promise<number> {
  const { rows } = await app.runtime.deps.database.pool.query<{ n: number }>(
    'select count(*)::int as n from application_versions where application_id = $1',
    [applicationId],
  );
  return rows[0]!.n;
}

describe('credential updates after approval', () => {
  it('are the owner’s: another provider gets 404, an administrator cannot submit (403) but reads', async () => {
    const { applicationId } = await approvedApplication();
    const stranger = await signUpAndSignIn(app);
    expect((await stranger.json('GET', updatePath(applicationId))).status).toBe(404);
    expect((await stranger.json('POST', updatePath(applicationId), {})).status).toBe(404);
    expect((await admin.json('POST', updatePath(applicationId), {})).status).toBe(403);
    const read = await admin.json<CredentialUpdateStatus>('GET', updatePath(applicationId));
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ allowed: true, unsentSections: [], latest: null });
    // The administrators' routes refuse a provider.
    const { provider } = await completedApplication(app);
    expect((await provider.json('GET', adminPath(applicationId, 'credential-update'))).status).toBe(403);
  });

  it('open the dated sections only: other sections and document removals stay locked', async () => {
    const { provider, applicationId } = await approvedApplication();
    // Personal information holds the DEA number and the driver's license: it opens for an update.
    const personal = await provider.json<Record<string, unknown>>(
      'GET',
      `/api/applications/${applicationId}/sections/personal-information`,
    );
    const opened = await provider.json(
      'PUT',
      `/api/applications/${applicationId}/sections/personal-information`,
      personal.body,
    );
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    // Work history and education keep the decided application's lock message.
    const work = await provider.json<{ rows: Record<string, unknown>[] }>(
      'GET',
      `/api/applications/${applicationId}/sections/work-history`,
    );
    const refused = await provider.json<{ message: string }>(
      'PUT',
      `/api/applications/${applicationId}/sections/work-history`,
      { rows: work.body.rows },
    );
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('it can no longer be changed');
    expect(
      (
        await provider.json('PUT', `/api/applications/${applicationId}/sections/education`, {
          rows: [{ institutionName: 'Elsewhere' }],
        })
      ).status,
    ).toBe(409);
    // A document cannot be removed; a license can be changed.
    const docs = await provider.json<{ documents: { id: string }[] }>(
      'GET',
      `/api/applications/${applicationId}/documents`,
    );
    const document = docs.body.documents[0]!;
    expect(
      (await provider.json('DELETE', `/api/applications/${applicationId}/documents/${document.id}`)).status,
    ).toBe(409);
    await changeLicenseExpiry(provider, applicationId, '2033-01-31');

    // Once the credential has passed its end, the dated sections lock again and nothing is sent.
    await app.runtime.deps.database.pool.query(
      `update provider_credentials set ends_on = current_date - 1 where application_id = $1`,
      [applicationId],
    );
    const { rows } = await licenses(provider, applicationId);
    expect((await provider.json('PUT', licensesPath(applicationId), { rows })).status).toBe(409);
    const late = await provider.json<{ message: string }>('POST', updatePath(applicationId), {});
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(credentialUpdateTexts.notAllowed);
  });

  it('are refused when nothing changed, and two submits at once store one version', async () => {
    const { provider, applicationId } = await approvedApplication();
    const nothing = await provider.json<{ message: string }>('POST', updatePath(applicationId), {});
    expect(nothing.status).toBe(409);
    expect(nothing.body.message).toBe(credentialUpdateTexts.nothingChanged);

    await changeLicenseExpiry(provider, applicationId, '2034-05-31');
    const before = await versionsOf(applicationId);
    const unsent = await provider.json<CredentialUpdateStatus>('GET', updatePath(applicationId));
    expect(unsent.body.unsentSections).toEqual(['professionalLicenses']);

    const both = await Promise.all([
      provider.json<SubmitUpdateResult>('POST', updatePath(applicationId), {}),
      provider.json<SubmitUpdateResult>('POST', updatePath(applicationId), {}),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await versionsOf(applicationId)).toBe(before + 1);
    const sent = await provider.json<CredentialUpdateStatus>('GET', updatePath(applicationId));
    expect(sent.body.unsentSections).toEqual([]);
    expect(sent.body.latest).toMatchObject({ sections: ['professionalLicenses'], reviewedAt: null });
  });

  it('reach the review queue as a Credential Update whose changed item alone needs re-verification', async () => {
    const { provider, applicationId } = await approvedApplication();
    await changeLicenseExpiry(provider, applicationId, '2035-03-31');
    const submitted = await provider.json<SubmitUpdateResult>('POST', updatePath(applicationId), {});
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
    expect(submitted.body).toMatchObject({ needsReverification: 1, checklistItemsAdded: 0 });

    // The queue lists it beside the applications, with the checklist's progress.
    let row: ReviewQueue['items'][number] | undefined;
    for (let page = 1; !row; page += 1) {
      const queue = await admin.json<ReviewQueue>('GET', `/api/admin/review-queue?page=${page}`);
      expect(queue.status).toBe(200);
      row = queue.body.items.find((i) => i.applicationId === applicationId);
      if (queue.body.items.length < queue.body.pageSize) break;
    }
    expect(row).toMatchObject({
      kind: 'credential_update',
      applicationStatus: 'approved',
      credentialUpdate: { sections: ['professionalLicenses'] },
    });
    expect(row!.checklistDone).toBe(row!.checklistTotal - 1);
    // A status filter lists applications only.
    const filtered = await admin.json<ReviewQueue>('GET', '/api/admin/review-queue?status=under_review');
    expect(filtered.body.items.some((i) => i.applicationId === applicationId)).toBe(false);

    const open = (await review(applicationId)).checklist.filter((i) => i.status !== 'verified');
    expect(open.map((i) => [i.kind, i.status])).toEqual([['license', 'needs_reverification']]);
    const banner = await admin.json<{ open: { sections: string[] } | null }>(
      'GET',
      adminPath(applicationId, 'credential-update'),
    );
    expect(banner.body.open?.sections).toEqual(['professionalLicenses']);

    // 'Complete Update Review' names what is left, then closes once it is verified.
    const early = await admin.json<{ message: string }>(
      'POST',
      adminPath(applicationId, 'credential-update/complete'),
      {},
    );
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(`Verify these first: ${open[0]!.target} (Needs re-verification).`);
    await verify(applicationId, open[0]!.id);
    const done = await admin.json<{ reviewedAt: string | null }>(
      'POST',
      adminPath(applicationId, 'credential-update/complete'),
      {},
    );
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.reviewedAt).not.toBeNull();
    expect(
      (await admin.json('POST', adminPath(applicationId, 'credential-update/complete'), {})).status,
    ).toBe(409);
    const after = await admin.json<ReviewQueue>('GET', '/api/admin/review-queue?page=1');
    expect(after.body.items.some((i) => i.applicationId === applicationId)).toBe(false);
    // Verifications are closed again once the update is reviewed.
    expect(
      (
        await admin.json('PATCH', adminPath(applicationId, `verification-items/${open[0]!.id}`), {
          status: 'verified',
          source: 'State board',
          verifiedAt: today(),
        })
      ).status,
    ).toBe(409);

    const audit = await app.runtime.deps.database.pool.query<{ action: string }>(
      `select action from audit_log where action like 'credential.update_%' and resource_id = $1 order by id`,
      [applicationId],
    );
    expect(audit.rows.map((r) => r.action)).toEqual([
      'credential.update_submitted',
      'credential.update_reviewed',
    ]);
  });

  it('keep expiry notices on the verified date until the newer expiry is verified', async () => {
    const { provider, applicationId } = await approvedApplication();
    const { license } = await licenses(provider, applicationId);
    const verifiedExpiry = license.expirationDate!;
    await changeLicenseExpiry(provider, applicationId, '2040-12-31');
    expect((await provider.json('POST', updatePath(applicationId), {})).status).toBe(201);

    const deps = {
      db: app.runtime.deps.db,
      mailer: app.runtime.deps.mailer,
      appUrl: 'https://portal.example',
      logger: pino({ level: 'silent' }),
    };
    const day = 24 * 60 * 60 * 1000;
    const at = (offset: number) => new Date(Date.parse(`${verifiedExpiry}T12:00:00Z`) + offset * day);
    const noticesOf = async () =>
      (
        await app.runtime.deps.database.pool.query<{ threshold: string; expires_on: string }>(
          `select threshold, expires_on::text from credential_expiry_notices where row_id = $1 order by created_at`,
          [license.id],
        )
      ).rows;

    // 20 days before the verified expiry, the change not verified yet: noticed by the verified date.
    await runExpiryMonitor(deps, at(-20));
    expect(await noticesOf()).toEqual([{ threshold: '30', expires_on: verifiedExpiry }]);

    // The reviewer verifies the newer expiry: 5 days before the old date, no new notice.
    const item = (await review(applicationId)).checklist.find((i) => i.status === 'needs_reverification')!;
    await verify(applicationId, item.id);
    await runExpiryMonitor(deps, at(-5));
    await runExpiryMonitor(deps, at(1));
    expect(await noticesOf()).toEqual([{ threshold: '30', expires_on: verifiedExpiry }]);
  });
});
