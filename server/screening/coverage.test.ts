/**
 * Screening verdicts name what was screened (issue 51 item 1), real PostgreSQL and HTTP, real list
 * files (tests/fixtures/exclusions/): with no list imported the 'Exclusion screening' item cannot be
 * verified and says why; each import narrows what is missing; once every list the provider needs is
 * current, the item's source is the product's, naming each list with its day and rows; a list that
 * goes stale blocks 'Send for Decision' and is a clean-file reason; a provider licensed in New York
 * needs the New York OMIG list, and one practising in California is told the product has no list.
 */
import fs from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminReview } from '../../domain/api/review.ts';
import type { ExclusionsOverview, StagedImport } from '../../domain/api/screening.ts';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { signedAttestation } from '../../tests/http-client.ts';
import { exclusionImports } from '../db/schema/screening.ts';
import { practiceLocations, professionalLicenses } from '../db/schema/sections.ts';
import { createCompletedApplication } from '../notifications/testing/completed-application.ts';
import { verifyEveryItem } from '../review/testing/verify-items.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../tests/fixtures/exclusions');

let app: TestApp;
let admin: Awaited<ReturnType<typeof signUpAndSignIn>>;

beforeAll(async () => {
  app = await createTestApp();
  admin = await signUpAndSignIn(app, { firstName: 'Coverage', lastName: 'Admin' });
  await grantAdmin(app, admin);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

const adminPath = (applicationId: string, rest: string) => `/api/admin/applications/${applicationId}/${rest}`;
const today = () => new Date().toISOString().slice(0, 10);

async function importList(fixture: string) {
  const form = new FormData();
  const name = path.basename(fixture);
  form.append('file', new Blob([new Uint8Array(fs.readFileSync(path.join(FIXTURES, fixture)))]), name);
  const staged = await admin.request('POST', '/api/admin/exclusions/imports', form);
  const body = (await staged.json()) as StagedImport;
  expect(staged.status, JSON.stringify(body)).toBe(200);
  const applied = await admin.json<{ rowsAfter: number }>(
    'POST',
    `/api/admin/exclusions/imports/${body.id}/apply`,
    {},
  );
  expect(applied.status, JSON.stringify(applied.body)).toBe(200);
  return applied.body.rowsAfter;
}

/** A provider's completed application (licensed and practising in IL unless given), under review. */
async function underReview(states: { license?: string; practice?: string } = {}) {
  const provider = await signUpAndSignIn(app);
  const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
  const applicationId = created.body.id;
  const db = app.runtime.deps.db;
  await createCompletedApplication({ ...app.runtime.deps, userId: provider.userId, applicationId });
  if (states.license) {
    await db
      .update(professionalLicenses)
      .set({ issuingState: states.license })
      .where(eq(professionalLicenses.applicationId, applicationId));
  }
  if (states.practice) {
    await db
      .update(practiceLocations)
      .set({ state: states.practice })
      .where(eq(practiceLocations.applicationId, applicationId));
  }
  const completed = await provider.json(
    'POST',
    `/api/applications/${applicationId}/completion`,
    await signedAttestation(provider),
  );
  expect([200, 202]).toContain(completed.status);
  const started = await admin.json('POST', adminPath(applicationId, 'start-review'), {});
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return applicationId;
}

async function review(applicationId: string) {
  const read = await admin.json<AdminReview>('GET', adminPath(applicationId, 'review'));
  expect(read.status).toBe(200);
  return read.body;
}

const exclusionsItem = async (applicationId: string) =>
  (await review(applicationId)).checklist.find((i) => i.kind === 'exclusions')!;

function verify(applicationId: string, itemId: string, source = 'I looked it up') {
  return admin.json<{ message: string; source: string | null }>(
    'PATCH',
    adminPath(applicationId, `verification-items/${itemId}`),
    { status: 'verified', source, verifiedAt: today() },
  );
}

describe('exclusion screening coverage (issue 51 item 1)', () => {
  it('verifies only against every current list, names each with its day and rows, and blocks a stale one', async () => {
    const applicationId = await underReview();
    let item = await exclusionsItem(applicationId);
    expect(item.status).toBe('pending');

    // Nothing imported: 'Verify' is refused, naming both federal lists.
    let refused = await verify(applicationId, item.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain(
      "import OIG LEIE (never imported), SAM.gov exclusions (never imported) on the 'Exclusions' tab",
    );

    // The OIG LEIE alone: screened, but not verified, and SAM.gov is still named.
    const leieRows = await importList('leie/UPDATED.csv');
    item = await exclusionsItem(applicationId);
    expect(item.status).toBe('pending');
    expect(item.source).toBe(`OIG LEIE of ${today()} (${leieRows.toLocaleString('en-US')} rows)`);
    expect(item.note).toContain('Not current: SAM.gov exclusions (never imported)');
    refused = await verify(applicationId, item.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('import SAM.gov exclusions (never imported) on');
    expect(refused.body.message).not.toContain('OIG LEIE');

    // SAM.gov too: the product verifies 'No match' and writes the source from the lists screened.
    const samRows = await importList('sam/SAM_Exclusions_Public_Extract_V2_23326.CSV');
    const screened = `OIG LEIE of ${today()} (${leieRows.toLocaleString('en-US')} rows), SAM.gov exclusions of ${today()} (${samRows.toLocaleString('en-US')} rows)`;
    item = await exclusionsItem(applicationId);
    expect(item).toMatchObject({ status: 'verified', source: screened, validatorId: null });
    // A reviewer's 'Verify' keeps the product's source, not what was typed.
    const verified = await verify(applicationId, item.id, 'OIG LEIE / SAM.gov');
    expect(verified.status, verified.body.message).toBe(200);
    expect(verified.body.source).toBe(screened);
    expect((await review(applicationId)).committeeReview.reasons).not.toContainEqual(
      expect.stringContaining('Exclusion screening'),
    );

    // Every item verified, then SAM.gov's import ages past 35 days: 'Send for Decision' is refused.
    await verifyEveryItem(admin, applicationId, { verifiedAt: today() });
    const old = new Date(Date.now() - 40 * 24 * 60 * 60 * 1000);
    await app.runtime.deps.db
      .update(exclusionImports)
      .set({ appliedAt: old })
      .where(and(eq(exclusionImports.source, 'sam'), eq(exclusionImports.status, 'applied')));
    const stale = `SAM.gov exclusions (last imported ${old.toISOString().slice(0, 10)})`;
    const sent = await admin.json<{ message: string }>(
      'POST',
      adminPath(applicationId, 'send-for-decision'),
      {},
    );
    expect(sent.status).toBe(409);
    expect(sent.body.message).toContain(`import ${stale} on the 'Exclusions' tab`);
    expect((await review(applicationId)).committeeReview.reasons).toContain(
      `Exclusion screening incomplete: ${stale}`,
    );
    refused = await verify(applicationId, item.id);
    expect(refused.status).toBe(409);

    // Imported again: the file goes for decision.
    await importList('sam/SAM_Exclusions_Public_Extract_V2_23326.CSV');
    const resent = await admin.json('POST', adminPath(applicationId, 'send-for-decision'), {});
    expect(resent.status, JSON.stringify(resent.body)).toBe(200);
  });

  it('needs the state list of a state the provider is licensed in, and names states the product has no list for', async () => {
    const applicationId = await underReview({ license: 'NY', practice: 'CA' });
    const item = await exclusionsItem(applicationId);
    const refused = await verify(applicationId, item.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('New York OMIG (never imported)');
    expect(refused.body.message).not.toContain('Pennsylvania');

    await importList('ny/exclusion-list.txt');
    const now = await exclusionsItem(applicationId);
    expect(now.note).toContain('No state exclusion list in the product for: CA');
    expect((await verify(applicationId, item.id)).status).toBe(200);

    // The 'Exclusions' tab says which states have a list, and which providers' states lack one.
    const overview = await admin.json<ExclusionsOverview>('GET', '/api/admin/exclusions');
    expect(overview.body.stateCoverage).toMatchObject({ statesWithList: ['NY', 'PA'] });
    expect(overview.body.stateCoverage.statesWithoutList).toContainEqual({ state: 'CA', providers: 1 });
    expect(overview.body.stateCoverage.statesWithoutList.map((s) => s.state)).not.toContain('NY');
  });
});
