/**
 * Every PHI view and edit is audited (issue 51 item 5; HIPAA 164.312(b)), real PostgreSQL and HTTP:
 * the provider's section saves ('application.section_saved': which section, what change, how many
 * rows, from where; never a value), written in the save's transaction so a refused save leaves none;
 * staff reads of the review page and of a version ('review.file_viewed', the provider as subject); a
 * committee member's read is 'committee.file_viewed' alone. The Audit Log filters them by action and
 * its CSV carries them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditLog } from '../../domain/api/admin.ts';
import { sectionSlugs } from '../../domain/sections/section-catalog.ts';
import {
  createTestApp,
  grantAdmin,
  signUpAndSignIn,
  signUpStaff,
  type TestApp,
} from '../../tests/harness.ts';
import {
  committeeMember,
  medicalDirector,
  reviewedFile,
  sendForDecision,
} from '../committee/testing/decide.ts';
import { completedApplication } from '../review/testing/completed-review-application.ts';
import { listSectionFixtures } from '../sections/testing/list-section-fixtures.ts';

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
}, 60_000);

afterAll(async () => {
  await app?.close();
});

interface AuditRow {
  action: string;
  actor_user_id: string | null;
  subject_user_id: string | null;
  resource_id: string | null;
  ip_address: string | null;
  details: Record<string, unknown> | null;
}

/** The audit rows of `action` on `applicationId`, oldest first. */
async function auditOf(action: string, applicationId: string): Promise<AuditRow[]> {
  const { rows } = await app.runtime.deps.database.pool.query<AuditRow>(
    `select action, actor_user_id, subject_user_id, resource_id, ip_address, details
       from audit_log where action = $1 and resource_id = $2 order by id`,
    [action, applicationId],
  );
  return rows;
}

describe('PHI access is audited (issue 51 item 5)', () => {
  it("records each of the provider's section saves in its transaction, never the values", async () => {
    const provider = await signUpAndSignIn(app);
    const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
    const applicationId = created.body.id;
    const base = `/api/applications/${applicationId}/sections`;

    const npi = '1234567893';
    expect(
      (
        await provider.json('PUT', `${base}/personal-information`, {
          npiNumber: npi,
          addressLine2: 'Apt 12B',
        })
      ).status,
    ).toBe(200);
    const payor = await provider.json<{ id: string }>(
      'POST',
      `${base}/${sectionSlugs.payors}`,
      listSectionFixtures.payors.full,
    );
    expect(payor.status).toBe(201);
    const licenses = await provider.json<{ rows: { id: string }[] }>(
      'PUT',
      `${base}/${sectionSlugs.professionalLicenses}`,
      {
        rows: [listSectionFixtures.professionalLicenses.full],
      },
    );
    expect(licenses.status).toBe(200);
    expect((await provider.request('DELETE', `${base}/${sectionSlugs.payors}/${payor.body.id}`)).status).toBe(
      204,
    );
    // A refused save (a value outside the option list) writes nothing, and no audit row.
    const { field, value } = listSectionFixtures.professionalLicenses.wrong;
    const refused = await provider.json('PUT', `${base}/${sectionSlugs.professionalLicenses}`, {
      rows: [{ ...listSectionFixtures.professionalLicenses.full, [field]: value }],
    });
    expect(refused.status).toBe(400);

    const saves = await auditOf('application.section_saved', applicationId);
    expect(saves.map((r) => r.details)).toEqual([
      { section: 'personalInformation', change: 'saved', rows: 1 },
      { section: 'payors', change: 'row_added', rows: 1 },
      { section: 'professionalLicenses', change: 'rows_saved', rows: 1 },
      { section: 'payors', change: 'row_deleted', rows: 1 },
    ]);
    for (const row of saves) {
      expect(row).toMatchObject({ actor_user_id: provider.userId, subject_user_id: provider.userId });
      expect(row.ip_address).toMatch(/127\.0\.0\.1/);
      const text = JSON.stringify(row);
      for (const secret of [npi, 'Apt 12B', listSectionFixtures.payors.full.payorName as string]) {
        expect(text).not.toContain(secret);
      }
    }
  }, 60_000);

  it('records staff reads of the review page and of a version, filterable and in the CSV', async () => {
    const { provider, applicationId } = await completedApplication(app);
    const specialist = await signUpStaff(app, 'specialist');
    expect((await specialist.json('GET', `/api/admin/applications/${applicationId}/review`)).status).toBe(
      200,
    );
    expect((await specialist.json('GET', `/api/admin/applications/${applicationId}/versions/1`)).status).toBe(
      200,
    );
    // An unknown file is not a read of anything: 404 and no row.
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await specialist.json('GET', `/api/admin/applications/${unknown}/review`)).status).toBe(404);
    expect(await auditOf('review.file_viewed', unknown)).toEqual([]);

    const views = await auditOf('review.file_viewed', applicationId);
    expect(views).toEqual([
      expect.objectContaining({
        actor_user_id: specialist.userId,
        subject_user_id: provider.userId,
        details: { what: 'review' },
      }),
      expect.objectContaining({
        actor_user_id: specialist.userId,
        subject_user_id: provider.userId,
        details: { what: 'version', version: 1 },
      }),
    ]);

    // The Audit Log filters them by action, and its CSV carries them.
    const admin = await signUpAndSignIn(app);
    await grantAdmin(app, admin);
    const log = await admin.json<AuditLog>(
      'GET',
      `/api/admin/audit-log?action=review.file_viewed&subjectUserId=${provider.userId}`,
    );
    expect(log.status).toBe(200);
    expect(log.body.events.filter((e) => e.action === 'review.file_viewed')).toHaveLength(2);
    expect(log.body.actions).toEqual(
      expect.arrayContaining(['review.file_viewed', 'application.section_saved']),
    );
    const csv = await admin.request(
      'GET',
      `/api/admin/audit-log/export?action=review.file_viewed&subjectUserId=${provider.userId}`,
    );
    expect(csv.status).toBe(200);
    const text = await csv.text();
    expect(text.match(/review\.file_viewed,File viewed/g)).toHaveLength(2);
  }, 120_000);

  it("records a committee member's read once, as the committee's", async () => {
    const specialist = await signUpStaff(app, 'specialist');
    const { applicationId } = await reviewedFile(app, specialist);
    const director = await medicalDirector(app);
    const member = await committeeMember(app);
    const sent = await sendForDecision(specialist, applicationId);
    if (sent.track === 'clean_files') {
      await director.json('POST', `/api/admin/applications/${applicationId}/send-to-committee`, {
        note: 'x',
      });
    }
    const meeting = await director.json<{ meetingId: string }>('POST', '/api/committee/meetings', {
      scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
      memberIds: [director.userId, member.userId],
    });
    expect(meeting.status).toBe(200);
    const added = await director.json('POST', `/api/committee/meetings/${meeting.body.meetingId}/agenda`, {
      applicationId,
    });
    expect(added.status).toBe(200);
    const before = (await auditOf('review.file_viewed', applicationId)).length;
    expect((await member.json('GET', `/api/admin/applications/${applicationId}/review`)).status).toBe(200);
    expect(await auditOf('committee.file_viewed', applicationId)).toEqual([
      expect.objectContaining({ actor_user_id: member.userId, details: { what: 'review' } }),
    ]);
    expect(await auditOf('review.file_viewed', applicationId)).toHaveLength(before);
  }, 120_000);
});
