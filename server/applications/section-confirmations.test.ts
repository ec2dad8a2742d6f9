/**
 * A copy must be confirmed, not resubmitted (issue 29 item 6), by API on a real PostgreSQL:
 * - a copied section counts towards progress once confirmed ('Review and Confirm') or saved;
 * - the confirm route's rules: owner only (another provider 404, an administrator 403), draft only,
 *   copies only, the section must have content; idempotent, audited once under concurrent clicks;
 * - the completion refuses while copied sections are unconfirmed, naming them, and signs a new
 *   attestation for the copy;
 * - an application that is not a copy counts its sections as before;
 * - 'Start Review' of the copy carries the education verification forward with its original date and
 *   source; the license starts pending; 'Approve' does not refuse the carried date for its age.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApplicationDto } from '../../domain/api/applications.ts';
import type { AdminReview } from '../../domain/api/review.ts';
import { SECTION_COUNT } from '../../domain/sections/registry.ts';
import { catalogSections } from '../../domain/sections/section-catalog.ts';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { signedAttestation } from '../../tests/http-client.ts';
import { approveCleanFile } from '../committee/testing/decide.ts';
import { completedApplication } from '../review/testing/completed-review-application.ts';
import { verifyItem } from '../review/testing/verify-items.ts';

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

const day = 24 * 60 * 60 * 1000;
const isoDay = (offsetDays = 0) => new Date(Date.now() + offsetDays * day).toISOString().slice(0, 10);
const query = <T extends Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  app.runtime.deps.database.pool.query<T>(sql, params).then((r) => r.rows);
const confirmPath = (applicationId: string, slug: string) =>
  `/api/applications/${applicationId}/sections/${slug}/confirm`;
const adminPath = (applicationId: string, rest: string) => `/api/admin/applications/${applicationId}/${rest}`;

type Provider = Awaited<ReturnType<typeof completedApplication>>['provider'];

async function summary(provider: Provider, applicationId: string) {
  const response = await provider.json<ApplicationDto>('GET', `/api/applications/${applicationId}`);
  expect(response.status).toBe(200);
  return response.body;
}

/** A provider whose completed application was decided (approved in the database) and copied into a new draft. */
async function copiedDraft() {
  const { provider, applicationId: sourceId } = await completedApplication(app);
  await query(
    `update provider_applications set application_status = 'approved', decided_at = now() - interval '1 day' where id = $1`,
    [sourceId],
  );
  const created = await provider.json<ApplicationDto & { copied: { sections: string[] } }>(
    'POST',
    '/api/applications',
    {},
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { provider, sourceId, copyId: created.body.id, created: created.body };
}

async function confirmedAudits(applicationId: string) {
  return query<{ details: { section: string } }>(
    `select details from audit_log where action = 'application.section_confirmed' and resource_id = $1`,
    [applicationId],
  );
}

describe('a copied section counts once confirmed', () => {
  it('starts at 0%, counts a confirmed section, and confirms once under concurrent clicks', async () => {
    // First, Alice's approved application is copied into a new draft: every section has rows, none counts.
    const { provider, copyId, created } = await copiedDraft();
    expect(created.copied.sections).toHaveLength(SECTION_COUNT);
    expect(created).toMatchObject({ progress: 0, completeSections: [] });
    expect(created.unconfirmedSections).toHaveLength(SECTION_COUNT);
    const before = await summary(provider, copyId);
    expect(before).toMatchObject({ progress: 0, completeSections: [] });
    expect(before.unconfirmedSections).toEqual(catalogSections.map((s) => s.key));

    // Second, she clicks 'Review and Confirm' on Education twice at once: one confirmation, one audit row.
    const [a, b] = await Promise.all([
      provider.json<{ sectionKey: string; confirmedAt: string }>(
        'POST',
        confirmPath(copyId, 'education'),
        {},
      ),
      provider.json<{ sectionKey: string; confirmedAt: string }>(
        'POST',
        confirmPath(copyId, 'education'),
        {},
      ),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.sectionKey).toBe('education');
    expect(a.body.confirmedAt).toBe(b.body.confirmedAt);
    expect(await confirmedAudits(copyId)).toEqual([{ details: { section: 'education' } }]);

    const after = await summary(provider, copyId);
    expect(after.completeSections).toEqual(['education']);
    expect(after.progress).toBe(Math.round((1 / SECTION_COUNT) * 100));
    expect(after.unconfirmedSections).not.toContain('education');
    expect(after.unconfirmedSections).toHaveLength(SECTION_COUNT - 1);

    // The list shows the same progress as the one application.
    const list = await provider.json<{ applications: ApplicationDto[] }>('GET', '/api/applications');
    expect(list.body.applications.find((x) => x.id === copyId)?.completeSections).toEqual(['education']);
  });

  it('confirms a section by saving it: a list row added, a repeatable screen saved, a document deleted', async () => {
    const { provider, copyId } = await copiedDraft();

    // Adding a payor is a change the provider made in this cycle.
    const payor = await provider.json('POST', `/api/applications/${copyId}/sections/payors`, {
      payorName: 'Aetna',
    });
    expect(payor.status, JSON.stringify(payor.body)).toBe(201);

    // Saving the Professional Licenses screen as it is ('Save & Continue' without a change).
    const licenses = await provider.json<{ rows: Record<string, unknown>[] }>(
      'GET',
      `/api/applications/${copyId}/sections/professional-licenses`,
    );
    const rows = licenses.body.rows.map(({ createdAt: _c, ...row }) => row);
    const saved = await provider.json('PUT', `/api/applications/${copyId}/sections/professional-licenses`, {
      rows,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    // Deleting a document confirms the Documents section.
    const [document] = await query<{ id: string }>('select id from documents where application_id = $1', [
      copyId,
    ]);
    const removed = await provider.request('DELETE', `/api/applications/${copyId}/documents/${document!.id}`);
    expect(removed.status).toBe(204);

    const confirmed = await query<{ section_key: string }>(
      'select section_key from section_confirmations where application_id = $1 order by section_key',
      [copyId],
    );
    expect(confirmed.map((r) => r.section_key)).toEqual(['documents', 'payors', 'professionalLicenses']);
    const after = await summary(provider, copyId);
    // The factory's one document is gone: Documents is confirmed but empty, so it does not count yet.
    expect(after.completeSections).toEqual(['professionalLicenses', 'payors']);
    expect(after.unconfirmedSections).toHaveLength(SECTION_COUNT - 3);
    expect(after.unconfirmedSections).not.toContain('documents');
    // A save is not a 'Review and Confirm' click: no audit row of that action.
    expect(await confirmedAudits(copyId)).toEqual([]);
  });

  it('refuses the completion naming the unconfirmed sections, then completes with a new attestation', async () => {
    const { provider, copyId } = await copiedDraft();
    for (const slug of ['personal-information', 'professional-licenses', 'education']) {
      expect((await provider.json('POST', confirmPath(copyId, slug), {})).status).toBe(200);
    }
    const refused = await provider.json<{ message: string }>(
      'POST',
      `/api/applications/${copyId}/completion`,
      await signedAttestation(provider),
    );
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'Review and confirm each copied section first: Work History, Malpractice Insurance, Vaccinations, Payors, Certifications, CME Credits, Peer References, Documents, Specialties, Practice Locations, Hospital Affiliations, Training, Malpractice Claims.',
    );
    expect((await summary(provider, copyId)).applicationStatus).toBe('draft');

    for (const section of catalogSections) {
      expect((await provider.json('POST', confirmPath(copyId, section.slug), {})).status).toBe(200);
    }
    expect(await summary(provider, copyId)).toMatchObject({ progress: 100, unconfirmedSections: [] });

    // Completion needs the attestation signed for this cycle: without one it is refused.
    const unsigned = await provider.json<{ message: string }>(
      'POST',
      `/api/applications/${copyId}/completion`,
      {},
    );
    expect(unsigned.status).toBe(400);
    const completed = await provider.json(
      'POST',
      `/api/applications/${copyId}/completion`,
      await signedAttestation(provider),
    );
    expect([200, 202]).toContain(completed.status);
    const attestations = await query('select id from application_attestations where application_id = $1', [
      copyId,
    ]);
    expect(attestations).toHaveLength(1);

    // Past draft, there is nothing to confirm.
    const late = await provider.json<{ message: string }>('POST', confirmPath(copyId, 'education'), {});
    expect(late).toMatchObject({
      status: 409,
      body: { message: 'Only a draft application has sections to confirm.' },
    });
  });

  it('lets only the owner confirm: another provider 404, an administrator 403, unknown slug 404', async () => {
    const { provider, copyId } = await copiedDraft();
    const stranger = await signUpAndSignIn(app);
    expect((await stranger.json('POST', confirmPath(copyId, 'education'), {})).status).toBe(404);
    const byAdmin = await admin.json<{ message: string }>('POST', confirmPath(copyId, 'education'), {});
    expect(byAdmin.status).toBe(403);
    expect(
      (await admin.json('POST', confirmPath('00000000-0000-4000-8000-000000000000', 'cme'), {})).status,
    ).toBe(404);
    expect((await provider.json('POST', confirmPath(copyId, 'no-such-section'), {})).status).toBe(404);
    expect(await confirmedAudits(copyId)).toEqual([]);
  });

  it('refuses an empty section, and leaves an application that is not a copy as it was', async () => {
    // A copy whose Certifications section the provider emptied has nothing to confirm there.
    const { provider, copyId } = await copiedDraft();
    await query('delete from certifications where application_id = $1', [copyId]);
    const empty = await provider.json<{ message: string }>('POST', confirmPath(copyId, 'certifications'), {});
    expect(empty).toMatchObject({
      status: 409,
      body: { message: 'This section has nothing to confirm yet. Fill it in and save it.' },
    });

    // A first application counts every section with content, with no confirmation at all.
    const first = await signUpAndSignIn(app);
    const created = await first.json<ApplicationDto>('POST', '/api/applications', {});
    const payor = await first.json('POST', `/api/applications/${created.body.id}/sections/payors`, {
      payorName: 'Blue Cross',
    });
    expect(payor.status, JSON.stringify(payor.body)).toBe(201);
    const firstSummary = await summary(first, created.body.id);
    expect(firstSummary).toMatchObject({ completeSections: ['payors'], unconfirmedSections: [] });
    const notCopy = await first.json<{ message: string }>('POST', confirmPath(created.body.id, 'payors'), {});
    expect(notCopy).toMatchObject({
      status: 409,
      body: { message: 'Only a section copied from your previous application needs confirming.' },
    });
    const confirmations = await query('select 1 from section_confirmations where application_id = $1', [
      created.body.id,
    ]);
    expect(confirmations).toEqual([]);
  });
});

describe("'Start Review' of a copy carries the education verification forward", () => {
  it('carries education with its original date and source, starts the license pending, and approves', async () => {
    // First, the previous cycle: every item verified 300 days ago, then approved.
    const { provider, applicationId: sourceId } = await completedApplication(app);
    expect((await admin.json('POST', adminPath(sourceId, 'start-review'), {})).status).toBe(200);
    const sourceReview = (await admin.json<AdminReview>('GET', adminPath(sourceId, 'review'))).body;
    // Issue 31: the claims history item gets its NPDB query result attached first (verifyItem).
    for (const item of sourceReview.checklist) {
      await verifyItem(admin, sourceId, item, {
        source: `${item.primarySource} (cycle 1)`,
        verifiedAt: isoDay(-300),
        note: 'Checked in cycle 1',
      });
    }
    await query(
      `update provider_applications set application_status = 'approved', decided_at = now() - interval '300 days' where id = $1`,
      [sourceId],
    );
    const sourceEducation = sourceReview.checklist.find((i) => i.kind === 'education')!;
    expect(sourceEducation).toBeDefined();

    // Second, the copy is confirmed section by section, completed and its review started.
    const created = await provider.json<ApplicationDto>('POST', '/api/applications', {});
    const copyId = created.body.id;
    for (const section of catalogSections) {
      expect((await provider.json('POST', confirmPath(copyId, section.slug), {})).status).toBe(200);
    }
    const completed = await provider.json(
      'POST',
      `/api/applications/${copyId}/completion`,
      await signedAttestation(provider),
    );
    expect([200, 202]).toContain(completed.status);
    expect((await admin.json('POST', adminPath(copyId, 'start-review'), {})).status).toBe(200);

    const copyReview = (await admin.json<AdminReview>('GET', adminPath(copyId, 'review'))).body;
    const education = copyReview.checklist.find((i) => i.kind === 'education')!;
    expect(education).toMatchObject({
      status: 'verified',
      verifiedAt: isoDay(-300),
      source: `${sourceEducation.primarySource} (cycle 1)`,
      note: 'Checked in cycle 1',
      validatorId: admin.userId,
      carriedForwardFrom: sourceEducation.id,
    });
    // Training is carried forward like education (issue 31: a completed program does not change).
    const training = copyReview.checklist.find((i) => i.kind === 'training')!;
    expect(training).toMatchObject({ status: 'verified', verifiedAt: isoDay(-300) });
    // Every other item starts pending, the license included.
    const carried = ['education', 'training', 'exclusions'];
    const others = copyReview.checklist.filter((i) => !carried.includes(i.kind));
    expect(others.some((i) => i.kind === 'license')).toBe(true);
    expect(others.every((i) => i.status === 'pending')).toBe(true);
    // The carried item is bound to the copy's version 1, so a later change still flags it.
    // Its covered values are the ones the source item verified (that is why it was carried).
    const bindings = await query<{ id: string; verified_values: unknown; verified_version: number | null }>(
      'select id, verified_values, verified_version from verification_items where id = any($1)',
      [[education.id, sourceEducation.id]],
    );
    const bound = bindings.find((r) => r.id === education.id);
    const source = bindings.find((r) => r.id === sourceEducation.id);
    expect(bound?.verified_version).toBe(1);
    expect(bound?.verified_values).not.toBeNull();
    expect(bound?.verified_values).toEqual(source?.verified_values);
    const audits = await query<{ details: { fromItemId: string } }>(
      `select details from audit_log where action = 'review.verification_carried_forward' and resource_id = $1`,
      [education.id],
    );
    expect(audits.map((r) => r.details.fromItemId)).toEqual([sourceEducation.id]);

    // Third, 'Send for Decision' (and so 'Approve') waits for the pending items but not for the
    // 300-day-old carried education.
    const early = await admin.json<{ message: string; reasons: string[] }>(
      'POST',
      adminPath(copyId, 'send-for-decision'),
      {},
    );
    expect(early.status).toBe(409);
    expect(early.body.message).not.toContain(education.target);
    for (const item of copyReview.checklist) {
      if (item.status === 'verified' || item.status === 'waived') continue;
      await verifyItem(admin, copyId, item, { verifiedAt: isoDay() });
    }
    await approveCleanFile(app, admin, copyId);
  });
});
