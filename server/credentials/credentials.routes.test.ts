/**
 * GET /api/applications/:applicationId/expiring-credentials (issue 14) on the real server and
 * PostgreSQL: what expires within 90 days or has expired, named as the provider knows it, soonest
 * first (hospital privileges' end dates too, issue 31, never an admitting arrangement's); the owner
 * and administrators only (the authorization matrix checks every caller).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExpiringCredentials } from '../../domain/api/credentials.ts';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { certifications, hospitalAffiliations, professionalLicenses } from '../db/schema/sections.ts';
import { createCompletedApplication } from '../notifications/testing/completed-application.ts';

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
}, 60_000);

afterAll(async () => {
  await app?.close();
});

const isoDay = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);

describe('GET /api/applications/:applicationId/expiring-credentials', () => {
  it('lists what expires within 90 days or has expired, soonest first, with its section', async () => {
    const provider = await signUpAndSignIn(app);
    const { db } = app.runtime.deps;
    const { applicationId } = await createCompletedApplication({
      ...app.runtime.deps,
      userId: provider.userId,
    });
    // The factory's malpractice policy expired on 2025-01-01; its licenses and driver's license run to 2030.
    await db.insert(professionalLicenses).values({
      applicationId,
      licenseType: 'nursing_license',
      licenseNumber: 'RN-20',
      issuingState: 'OH',
      expirationDate: isoDay(20),
    });
    await db.insert(certifications).values({
      applicationId,
      certificationName: 'ACLS',
      certifyingBody: 'American Heart Association',
      expirationDate: isoDay(91),
    });
    // Issue 31 item 5: privileges ending in 45 days are listed; an admitting arrangement is not.
    await db.insert(hospitalAffiliations).values([
      {
        applicationId,
        privilegeStatus: 'provisional',
        facilityName: 'Mercy Hospital',
        state: 'OH',
        endDate: isoDay(45),
      },
      {
        applicationId,
        privilegeStatus: 'none',
        admittingArrangement: 'covering_physician',
        arrangementName: 'Dr. Lee',
        endDate: isoDay(5),
      },
    ]);

    const answer = await provider.json<ExpiringCredentials>(
      'GET',
      `/api/applications/${applicationId}/expiring-credentials`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.credentials.map((c) => [c.kind, c.sectionKey, c.name, c.daysLeft, c.urgency])).toEqual(
      [
        [
          'malpractice_insurance',
          'malpracticeInsurance',
          'MedPro P-9',
          answer.body.credentials[0]!.daysLeft,
          'expired',
        ],
        ['professional_license', 'professionalLicenses', 'Nursing License RN-20 (OH)', 20, 'within_30'],
        ['hospital_privileges', 'hospitalAffiliations', 'Mercy Hospital (OH)', 45, 'within_60'],
      ],
    );
    expect(answer.body.credentials[0]!.daysLeft).toBeLessThan(0);
    expect(answer.body.credentials[1]!.expiresOn).toBe(isoDay(20));

    // An administrator reads it too.
    const admin = await signUpAndSignIn(app, { firstName: 'Ada' });
    await grantAdmin(app, admin);
    const seen = await admin.json<ExpiringCredentials>(
      'GET',
      `/api/applications/${applicationId}/expiring-credentials`,
    );
    expect(seen.status).toBe(200);
    expect(seen.body.credentials).toHaveLength(3);
    // Another provider learns nothing, not even that it exists.
    const stranger = await signUpAndSignIn(app);
    expect(
      (await stranger.json('GET', `/api/applications/${applicationId}/expiring-credentials`)).status,
    ).toBe(404);
  });
});
