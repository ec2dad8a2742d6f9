/**
 * Attestations on the review page (issue 14): the signed attestation shown to the reviewer, a fresh
 * one asked for once it is older than ATTESTATION_VALID_DAYS (the clock driven, not slept), and the
 * provider's re-attestation while the file is reviewed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminReview, ProviderReview } from '../../domain/api/review.ts';
import { disclosureQuestions } from '../../domain/attestation.ts';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { signedAttestation } from '../../tests/http-client.ts';
import { reattestationDue } from '../attestations/attestation.service.ts';
import { ageAttestations } from '../attestations/testing/age-attestations.ts';
import { getAdminReview } from './review-reads.service.ts';
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

const day = 24 * 60 * 60 * 1000;

async function review(applicationId: string) {
  const response = await admin.json<AdminReview>('GET', adminPath(applicationId, 'review'));
  expect(response.status).toBe(200);
  return response.body;
}

describe('attestations on the review page (issue 14)', () => {
  it('shows the signed attestation, and asks for a fresh one once it is older than ATTESTATION_VALID_DAYS', async () => {
    const { applicationId } = await completedApplication();
    const view = await review(applicationId);
    expect(view.attestations).toHaveLength(1);
    const [signed] = view.attestations;
    expect(signed).toMatchObject({
      kind: 'completion',
      snapshotVersion: 1,
      snapshotSha256: view.versions[0]!.sha256,
    });
    expect(signed!.answers.map((a) => a.answer)).toEqual(disclosureQuestions.map(() => 'no'));
    expect(view.reattestationRequired).toBe(false);

    // The clock, not a sleep: 120 days after signing it still holds, a day later it does not.
    const deps = app.runtime.deps;
    const signedAt = new Date(signed!.signedAt).getTime();
    const at = (days: number) =>
      getAdminReview(deps.db, applicationId, {
        cipher: deps.cipher,
        validDays: 120,
        now: new Date(signedAt + days * day),
      });
    expect((await at(120)).reattestationRequired).toBe(false);
    expect((await at(121)).reattestationRequired).toBe(true);

    // Under review it is still due; once decided, none is, however old the attestation.
    expect((await admin.json('POST', adminPath(applicationId, 'start-review'), {})).status).toBe(200);
    expect((await at(121)).reattestationRequired).toBe(true);
    await deps.database.pool.query(
      `update provider_applications set application_status = 'rejected', decided_at = now() where id = $1`,
      [applicationId],
    );
    expect((await at(121)).reattestationRequired).toBe(false);
  });

  it('lets the provider attest again while reviewed: a re-attestation of the newest snapshot, which resets the clock', async () => {
    const { provider, applicationId } = await completedApplication();
    const deps = app.runtime.deps;
    const providerView = await provider.json<ProviderReview>(
      'GET',
      `/api/applications/${applicationId}/review`,
    );
    expect(providerView.body.reattestationRequired).toBe(false);
    const [first] = (await review(applicationId)).attestations;
    const firstSignedAt = new Date(first!.signedAt).getTime();
    const submitted = { id: applicationId, applicationStatus: 'submitted' as const };
    expect(await reattestationDue(deps.db, submitted, 120, new Date(firstSignedAt + 121 * day))).toBe(true);

    // A name that is not hers is refused; her own is refused while the attestation is current (issue
    // 28), and once it is 121 days old stored as a re-attestation of version 1.
    const signed = await signedAttestation(provider);
    const url = `/api/applications/${applicationId}/attestation`;
    const wrong = await provider.json('POST', url, { ...signed, signature: 'Someone Else' });
    expect(wrong.status).toBe(400);
    expect((await provider.json('POST', url, signed)).status).toBe(409);
    await ageAttestations(deps.database.pool, applicationId, 121);
    const again = await provider.json<{ kind: string; snapshotVersion: number; signedAt: string }>(
      'POST',
      url,
      signed,
    );
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ kind: 're_attestation', snapshotVersion: 1 });
    const againAt = new Date(again.body.signedAt).getTime();
    expect(await reattestationDue(deps.db, submitted, 120, new Date(againAt + 100 * day))).toBe(false);
    expect(await reattestationDue(deps.db, submitted, 120, new Date(againAt + 121 * day))).toBe(true);

    // The reviewer sees both, and the timeline says who attested again.
    const view = await review(applicationId);
    expect(view.attestations.map((a) => a.kind)).toEqual(['completion', 're_attestation']);
    expect(view.timeline.map((t) => t.action)).toContain('review.reattested');
    // An administrator cannot attest for the provider.
    expect((await admin.json('POST', url, signed)).status).toBe(403);
  });
});
