/**
 * The admin details dialog's data (GET /api/admin/providers/:userId) with the five sections of issue
 * 31: every section of the registry in order, a complete application at 100% of 16, and a specialty's
 * board certification named, not shown as a row id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sections } from '../../domain/sections/registry.ts';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import {
  createCompletedApplication,
  FACTORY_ADDITIONAL,
} from '../notifications/testing/completed-application.ts';

let app: TestApp;
let admin: Awaited<ReturnType<typeof signUpAndSignIn>>;
beforeAll(async () => {
  app = await createTestApp();
  admin = await signUpAndSignIn(app);
  await grantAdmin(app, admin);
});
afterAll(async () => {
  await app?.close();
});

interface Details {
  applications: { id: string; progress: number }[];
  sections: { key: string; title: string; rows: Record<string, unknown>[] }[];
}

async function details(userId: string): Promise<Details> {
  const answer = await admin.json<Details>('GET', `/api/admin/providers/${userId}`);
  expect(answer.status).toBe(200);
  return answer.body;
}

describe('GET /api/admin/providers/:userId with the sections of issue 31', () => {
  it('lists all 16 sections with their rows, and names the board certification of each specialty', async () => {
    const provider = await signUpAndSignIn(app);
    const { applicationId } = await createCompletedApplication({
      ...app.runtime.deps,
      userId: provider.userId,
    });
    // A secondary specialty that links no certification.
    await app.runtime.deps.database.pool.query(
      `insert into specialties (application_id, position, specialty_rank, taxonomy_code, classification)
       values ($1, 1, 'secondary', '207RC0000X', 'Internal Medicine')`,
      [applicationId],
    );

    const body = await details(provider.userId);
    expect(body.applications).toEqual([expect.objectContaining({ id: applicationId, progress: 100 })]);
    expect(body.sections.map((s) => [s.key, s.title])).toEqual(sections.map((s) => [s.key, s.title]));
    const rowsOf = (key: string) => body.sections.find((s) => s.key === key)!.rows;

    const [certification] = rowsOf('certifications');
    const { certificationName, certifyingBody, certificationNumber } = FACTORY_ADDITIONAL.certification;
    expect(rowsOf('specialties')).toEqual([
      {
        id: expect.any(String),
        specialtyRank: 'primary',
        taxonomyCode: '207R00000X',
        classification: 'Internal Medicine',
        specialization: null,
        boardCertificationId: certification!.id,
        boardCertification: `${certificationName} · ${certifyingBody} · ${certificationNumber}`,
      },
      expect.objectContaining({
        specialtyRank: 'secondary',
        boardCertificationId: null,
        boardCertification: null,
      }),
    ]);
    expect(rowsOf('practiceLocations')).toEqual([
      expect.objectContaining({ ...FACTORY_ADDITIONAL.practiceLocation, fax: null, email: null }),
    ]);
    expect(rowsOf('hospitalAffiliations')).toEqual([
      expect.objectContaining({ ...FACTORY_ADDITIONAL.hospitalAffiliation, endDate: null }),
    ]);
    expect(rowsOf('training')).toEqual([
      expect.objectContaining({ ...FACTORY_ADDITIONAL.training, noTraining: false }),
    ]);
    expect(rowsOf('malpracticeClaims')).toEqual([
      expect.objectContaining({ ...FACTORY_ADDITIONAL.malpracticeClaim, noClaims: false }),
    ]);

    // The certification deleted: the link is cleared, and so is the name.
    await app.runtime.deps.database.pool.query('delete from certifications where id = $1', [
      certification!.id,
    ]);
    const after = await details(provider.userId);
    expect(after.sections.find((s) => s.key === 'specialties')!.rows[0]).toMatchObject({
      boardCertificationId: null,
      boardCertification: null,
    });
    // The factory's ACLS (issue 51 item 4) is still listed: the section stays complete.
    expect(after.sections.find((s) => s.key === 'certifications')!.rows).toEqual([
      expect.objectContaining({
        certificationKind: 'other',
        certificationName: 'Advanced Cardiovascular Life Support',
      }),
    ]);
    expect(after.applications[0]!.progress).toBe(100);
  });
});
