/**
 * The volume seed (npm run seed:volume) writes files a real server reads: a seeded application's review
 * page answers 200 with its completion attestation decrypted (its answers were a placeholder no key
 * decrypted, so every seeded review page answered 500).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disclosureQuestions } from '../../domain/attestation.ts';
import { seedVolume } from '../../scripts/seed-volume/seed-database.ts';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../harness.ts';

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
}, 60_000);
afterAll(async () => {
  await app?.close();
});

describe('npm run seed:volume', () => {
  it("seeds files whose review page opens with the attestation's answers", async () => {
    const { database, cipher } = app.runtime.deps;
    await seedVolume(database.pool, { providers: 30, log: () => {}, cipher });
    const { rows } = await database.pool.query<{ id: string }>(
      `select a.id from provider_applications a
       where a.application_status = 'under_review'
         and exists (select 1 from application_attestations t where t.application_id = a.id)
       order by a.id limit 1`,
    );
    expect(rows).toHaveLength(1);
    const admin = await signUpAndSignIn(app);
    await grantAdmin(app, admin);
    const page = await admin.json<{ attestations: { answers: { answer: string }[] }[] }>(
      'GET',
      `/api/admin/applications/${rows[0]!.id}/review`,
    );
    expect(page.status).toBe(200);
    expect(page.body.attestations[0]!.answers).toHaveLength(disclosureQuestions.length);
    expect(page.body.attestations[0]!.answers.every((a) => a.answer === 'no')).toBe(true);
  }, 120_000);
});
