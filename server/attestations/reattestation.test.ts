/**
 * Re-attestation only when due (issue 28 item 4: 30 in a row were accepted), real PostgreSQL and real
 * HTTP. A new attestation is accepted when the latest is older than ATTESTATION_VALID_DAYS (120
 * here), never before, whatever the order or timing of the requests; each provider has
 * REATTESTATION_ATTEMPTS attempts an hour.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attestationMessages } from '../../domain/attestation.ts';
import { createTestApp, type TestApp } from '../../tests/harness.ts';
import { signedAttestation } from '../../tests/http-client.ts';
import type { Actor } from '../auth/actor.ts';
import { completedApplication } from '../review/testing/completed-review-application.ts';
import { listAttestations, reattest } from './attestation.service.ts';
import { REATTESTATION_ATTEMPTS } from './reattestation-limit.ts';
import { ageAttestations } from './testing/age-attestations.ts';

const day = 24 * 60 * 60 * 1000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ ATTESTATION_VALID_DAYS: '120' });
}, 60_000);
afterAll(async () => {
  await app?.close();
});

async function attestationCount(applicationId: string): Promise<number> {
  const { rows } = await app.runtime.deps.database.pool.query<{ n: number }>(
    'select count(*)::int as n from application_attestations where application_id = $1',
    [applicationId],
  );
  return rows[0]!.n;
}

describe('POST /api/applications/:applicationId/attestation', () => {
  it('follows the clock it is given: refused until the attestation is older than 120 days, then once', async () => {
    // First, a completed application: its completion attestation was signed at `signedAt`.
    const { provider, applicationId } = await completedApplication(app);
    const deps = app.runtime.deps;
    const [completion] = await listAttestations(deps.db, deps.cipher, applicationId);
    const signedAt = new Date(completion!.signedAt).getTime();
    const actor: Actor = {
      userId: provider.userId,
      email: provider.email,
      role: 'user',
      roles: ['user'],
      sessionId: 'driven-clock',
      sessionExpiresAt: new Date(signedAt + day),
      emailVerified: true,
      twoFactorEnabled: false,
      ipAddress: '127.0.0.1',
    };
    const input = await signedAttestation(provider);
    const at = (ms: number) =>
      reattest(deps.db, deps.cipher, actor, applicationId, input, 'vitest', {
        validDays: 120,
        now: new Date(ms),
      });

    // Second, a day later and at exactly 120 days it is current: refused, naming the day it is due.
    const notDue = attestationMessages.reattestationNotDue(isoDay(signedAt), isoDay(signedAt + 120 * day));
    await expect(at(signedAt + day)).rejects.toMatchObject({ code: 'conflict', message: notDue });
    await expect(at(signedAt + 120 * day)).rejects.toMatchObject({ code: 'conflict' });

    // Third, a minute past 120 days it is due: stored, signed at the clock's time; then current again.
    const dueAt = signedAt + 120 * day + 60_000;
    const again = await at(dueAt);
    expect(again).toMatchObject({ kind: 're_attestation', signedAt: new Date(dueAt).toISOString() });
    await expect(at(dueAt + 60_000)).rejects.toMatchObject({
      code: 'conflict',
      message: attestationMessages.reattestationNotDue(isoDay(dueAt), isoDay(dueAt + 120 * day)),
    });
    await expect(at(dueAt + 120 * day)).rejects.toMatchObject({ code: 'conflict' });
    expect(await at(dueAt + 121 * day)).toMatchObject({ kind: 're_attestation' });
    expect(await attestationCount(applicationId)).toBe(3);
  });

  it('accepts one of several sequential requests once one is due, and refuses the rest with 409', async () => {
    const { provider, applicationId } = await completedApplication(app);
    const url = `/api/applications/${applicationId}/attestation`;
    const input = await signedAttestation(provider);
    // Just completed: nothing to sign.
    const early = await provider.json<{ code: string; message: string }>('POST', url, input);
    expect(early).toMatchObject({ status: 409, body: { code: 'conflict' } });
    expect(early.body.message).toMatch(/^Your attestation of \d{4}-\d{2}-\d{2} is still current/);
    // 121 days later, three in a row: the first is stored, the others refused.
    await ageAttestations(app.runtime.deps.database.pool, applicationId, 121);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await provider.json('POST', url, input)).status);
    expect(statuses).toEqual([201, 409, 409]);
    expect(await attestationCount(applicationId)).toBe(2);
  });

  it('stores at most one of concurrent requests', async () => {
    const { provider, applicationId } = await completedApplication(app);
    const url = `/api/applications/${applicationId}/attestation`;
    const input = await signedAttestation(provider);
    await ageAttestations(app.runtime.deps.database.pool, applicationId, 121);
    const answers = await Promise.all(Array.from({ length: 6 }, () => provider.json('POST', url, input)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    expect(await attestationCount(applicationId)).toBe(2);
  });

  it(`allows ${REATTESTATION_ATTEMPTS.perUser} attempts an hour per provider, then answers 429 with Retry-After`, async () => {
    const { provider, applicationId } = await completedApplication(app);
    const url = `/api/applications/${applicationId}/attestation`;
    const input = await signedAttestation(provider);
    for (let i = 0; i < REATTESTATION_ATTEMPTS.perUser; i += 1) {
      expect((await provider.json('POST', url, input)).status).toBe(409);
    }
    const limited = await provider.request('POST', url, input);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await limited.json()) as { message: string }).message).toMatch(
      /^Too many attestation attempts\. Try again in \d+ (minutes?|seconds?)\.$/,
    );
    // Even once due, the limit holds: nothing is stored.
    await ageAttestations(app.runtime.deps.database.pool, applicationId, 121);
    expect((await provider.json('POST', url, input)).status).toBe(429);
    expect(await attestationCount(applicationId)).toBe(1);
  });
});
