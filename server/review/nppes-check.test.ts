/**
 * 'Check NPPES' on a real app (issue 15; nppes-check.service.ts) against the fake registry
 * (testing/fake-nppes.ts): not found is a 404, a registry error a 502, no answer a 503, and nothing
 * is kept from them; a record is kept on the NPI item with its mismatches highlighted. Only the NPI
 * item, only administrators.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NppesCheck } from '../../domain/api/nppes.ts';
import type { AdminReview } from '../../domain/api/review.ts';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { approveCleanFile, reviewedFile } from '../committee/testing/decide.ts';
import { completedApplication } from './testing/completed-review-application.ts';
import { type FakeNppes, json, type Reply, registryAnswer, startFakeNppes } from './testing/fake-nppes.ts';

let fake: FakeNppes;
const script: Reply[] = [];

beforeAll(async () => {
  fake = await startFakeNppes(script, []);
});

beforeEach(() => {
  script.length = 0;
});

afterAll(async () => {
  await fake?.close();
});

const npi = '1234567893';

describe("POST .../verification-items/:itemId/nppes ('Check NPPES')", () => {
  let app: TestApp;
  let admin: Awaited<ReturnType<typeof signUpAndSignIn>>;

  beforeAll(async () => {
    app = await createTestApp({ NPPES_API_URL: fake.baseUrl });
    admin = await signUpAndSignIn(app, { firstName: 'Nadia' });
    await grantAdmin(app, admin);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  async function npiItem() {
    const { provider, applicationId } = await completedApplication(app);
    expect(
      (await admin.json('POST', `/api/admin/applications/${applicationId}/start-review`, {})).status,
    ).toBe(200);
    const review = await admin.json<AdminReview>('GET', `/api/admin/applications/${applicationId}/review`);
    const item = review.body.checklist.find((i) => i.kind === 'npi')!;
    const other = review.body.checklist.find((i) => i.kind === 'exclusions')!;
    const path = (id: string) => `/api/admin/applications/${applicationId}/verification-items/${id}/nppes`;
    return { provider, applicationId, item, other, path };
  }

  it('maps not found to 404, a registry error to 502 and unreachable to 503, then shows the record with highlighted mismatches and keeps it', async () => {
    const { provider, item, other, path } = await npiItem();
    script.push(json({ result_count: 0, results: [] }));
    const missing = await admin.json<{ message: string }>('POST', path(item.id), {});
    expect(missing.status).toBe(404);
    expect(missing.body.message).toMatch(/NPPES has no provider with the NPI 1234567893/);

    script.push(json({ Errors: [{ description: 'The NPI Registry is down for maintenance' }] }));
    const refused = await admin.json<{ code: string; message: string }>('POST', path(item.id), {});
    expect(refused.status).toBe(502);
    expect(refused.body).toMatchObject({
      code: 'bad_gateway',
      message: expect.stringMatching(/^NPPES answered: The NPI Registry is down for maintenance\. /),
    });

    script.push(json({ error: 'boom' }, 500), json({ error: 'boom' }, 500));
    const down = await admin.json<{ message: string }>('POST', path(item.id), {});
    expect(down.status).toBe(503);
    expect(down.body.message).toMatch(/record the result by hand/);

    // Nothing was kept from the failures.
    const before = await app.runtime.deps.database.pool.query(
      'select source_record from verification_items where id = $1',
      [item.id],
    );
    expect(before.rows[0].source_record).toBeNull();

    script.push(
      json(registryAnswer(npi, { first: 'Alicia', last: 'Someone' }, { state: 'TX', number: 'Q99999' })),
    );
    const checked = await admin.json<NppesCheck>('POST', path(item.id), {});
    expect(checked.status).toBe(200);
    expect(checked.body.record.name).toBe('ALICIA SOMEONE');
    expect(checked.body.record.practiceLocations).toEqual(['1200 BAYSHORE BLVD, TAMPA, FL, 33606']);
    expect(checked.body.mismatches).toEqual([
      expect.stringMatching(/^Name: NPPES has ALICIA SOMEONE/),
      expect.stringMatching(/^License: NPPES lists TX Q99999/),
    ]);
    const stored = await app.runtime.deps.database.pool.query(
      'select source_record from verification_items where id = $1',
      [item.id],
    );
    expect(stored.rows[0].source_record).toMatchObject({ number: npi });
    // Only the NPI item, only administrators.
    expect((await admin.json('POST', path(other.id), {})).status).toBe(409);
    expect((await provider.json('POST', path(item.id), {})).status).toBe(403);
  });
});

describe('a deactivated NPI (issue 52 item 2, issue 49 item 2)', () => {
  // Its own app: the NPPES client keeps records a day, and the factory's NPI was checked above.
  let app: TestApp;
  let admin: Awaited<ReturnType<typeof signUpAndSignIn>>;

  beforeAll(async () => {
    app = await createTestApp({ NPPES_API_URL: fake.baseUrl });
    admin = await signUpAndSignIn(app, { firstName: 'Dana' });
    await grantAdmin(app, admin);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  it('records a deactivated NPI (NPPES error 15) as a discrepancy, and suspends a running credential', async () => {
    // First, an approved provider whose credential update is open, so the NPI item can be checked.
    const reviewed = await reviewedFile(app, admin);
    await approveCleanFile(app, admin, reviewed.applicationId);
    const { applicationId, provider } = reviewed;
    const path = `/api/applications/${applicationId}/sections/personal-information`;
    const current = await provider.json<{ personalInformation: Record<string, unknown> }>('GET', path);
    const { id: _id, applicationId: _a, updatedAt: _u, ...fields } = current.body.personalInformation;
    expect((await provider.json('PUT', path, { ...fields, mobilePhone: '(555) 010-7777' })).status).toBe(200);
    expect((await provider.json('POST', `/api/applications/${applicationId}/credential-update`)).status).toBe(
      201,
    );
    const review = await admin.json<AdminReview>('GET', `/api/admin/applications/${applicationId}/review`);
    const item = review.body.checklist.find((i) => i.kind === 'npi')!;

    // Then NPPES answers that CMS deactivated the NPI.
    const said = `CMS deactivated NPI ${npi}. The provider can no longer use this NPI.`;
    script.push(json({ Errors: [{ field: 'number', number: '15', description: said }] }));
    const checked = await admin.json<NppesCheck>(
      'POST',
      `/api/admin/applications/${applicationId}/verification-items/${item.id}/nppes`,
      {},
    );
    expect(checked.status, JSON.stringify(checked.body)).toBe(200);
    expect(checked.body.record).toMatchObject({ status: 'Deactivated', statusNote: said });
    const after = await admin.json<AdminReview>('GET', `/api/admin/applications/${applicationId}/review`);
    const npiItem = after.body.checklist.find((i) => i.kind === 'npi')!;
    expect(npiItem).toMatchObject({ status: 'discrepancy' });
    expect(npiItem.note).toMatch(/^NPI deactivated on \w{3} \d{1,2}, \d{4} \(NPPES: CMS deactivated NPI/);
    expect(after.body.credential).toMatchObject({
      standing: 'suspended',
      findings: [{ kind: 'npi_deactivated', detail: npi }],
    });
  }, 120_000);
});
