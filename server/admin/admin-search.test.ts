/**
 * The admin search by identifier (issue 28 item 15): an exact NPI or license number finds the provider
 * in 'Users & Applications' and 'All Documents', through btree indexes; a prefix finds nobody; the
 * identifiers leave the server neither in the answer nor in the log; a provider gets no admin search.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { profiles } from '../db/schema/core.ts';
import { documents } from '../db/schema/documents.ts';
import { providerMatches } from './admin-list-query.ts';

/** A valid NPI (Luhn check digit with the 80840 prefix) and a license number, both unique here. */
const NPI = '1234567893';
const LICENSE = 'MD-778899';
const OTHER_NPI = '1245319599';

let app: TestApp;
let admin: Awaited<ReturnType<typeof signUpAndSignIn>>;
let grace: Awaited<ReturnType<typeof signUpAndSignIn>>;
let other: Awaited<ReturnType<typeof signUpAndSignIn>>;

/** A provider's draft application with its NPI and one license, saved through the section routes. */
async function providerWithIdentifiers(
  names: { firstName: string; lastName: string },
  npiNumber: string,
  licenseNumber: string,
) {
  const provider = await signUpAndSignIn(app, names);
  const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
  expect(created.status).toBe(201);
  const base = `/api/applications/${created.body.id}/sections`;
  expect((await provider.json('PUT', `${base}/personal-information`, { npiNumber })).status).toBe(200);
  const licenses = { rows: [{ licenseType: 'medical_license', licenseNumber, issuingState: 'MA' }] };
  expect((await provider.json('PUT', `${base}/professional-licenses`, licenses)).status).toBe(200);
  await app.runtime.deps.db.insert(documents).values({
    applicationId: created.body.id,
    userId: provider.userId,
    documentName: `license-${names.lastName}.pdf`,
    documentType: 'cv_resume',
    filePath: `${provider.userId}/cv_resume/${names.lastName}.pdf`,
    fileSize: 2048,
    mimeType: 'application/pdf',
    sha256: '0'.repeat(64),
  });
  return Object.assign(provider, { applicationId: created.body.id });
}

beforeAll(async () => {
  app = await createTestApp();
  admin = await signUpAndSignIn(app, { firstName: 'Ada', lastName: 'Reviewer' });
  await grantAdmin(app, admin);
  // First, Grace and another provider each save an NPI and a license number.
  grace = await providerWithIdentifiers({ firstName: 'Grace', lastName: 'Hopper' }, NPI, LICENSE);
  other = await providerWithIdentifiers({ firstName: 'Otto', lastName: 'Other' }, OTHER_NPI, 'RN-5511');
});
afterAll(async () => {
  await app?.close();
});

interface ProviderPage {
  providers: { userId: string; firstName: string; lastName: string }[];
  total: number;
}
interface DocumentPage {
  documents: { documentName: string; owner: { userId: string } | null }[];
  total: number;
}

const search = (term: string) => `/api/admin/providers?search=${encodeURIComponent(term)}`;

describe('admin search by identifier', () => {
  it('finds the provider by exact NPI and by license number (any case), in both searched tabs', async () => {
    // Second, the admin types Grace's NPI, then her license number in another case and with spaces around.
    for (const term of [NPI, LICENSE.toLowerCase(), ` ${LICENSE} `]) {
      const found = await admin.json<ProviderPage>('GET', search(term));
      expect(found.status, term).toBe(200);
      expect(
        found.body.providers.map((p) => p.userId),
        term,
      ).toEqual([grace.userId]);
      expect(found.body.total, term).toBe(1);
    }
    // The other provider's NPI finds only him.
    expect((await admin.json<ProviderPage>('GET', search(OTHER_NPI))).body.providers).toEqual([
      expect.objectContaining({ userId: other.userId }),
    ]);
    // 'All Documents' uses the same search.
    const docs = await admin.json<DocumentPage>('GET', `/api/admin/documents?search=${NPI}`);
    expect(docs.status).toBe(200);
    expect(docs.body.documents.map((d) => d.owner?.userId)).toEqual([grace.userId]);
    // Name search still works as before.
    expect((await admin.json<ProviderPage>('GET', search('grace hop'))).body.providers).toEqual([
      expect.objectContaining({ userId: grace.userId }),
    ]);
  });

  it('matches identifiers exactly: a prefix or a fragment lists nobody', async () => {
    for (const term of [NPI.slice(0, 9), NPI.slice(1), `${NPI}0`, 'MD-7788', '778899']) {
      const found = await admin.json<ProviderPage>('GET', search(term));
      expect(found.status, term).toBe(200);
      expect(found.body.providers, term).toEqual([]);
    }
  });

  it('answers cards only: the identifiers searched for are neither in the answer nor in the log', async () => {
    const logStart = app.logs.length;
    for (const term of [NPI, LICENSE]) {
      const response = await admin.request('GET', search(term));
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toContain(grace.userId);
      expect(text).not.toContain(NPI);
      expect(text.toLowerCase()).not.toContain(LICENSE.toLowerCase());
    }
    const logged = app.logs.slice(logStart).join('\n');
    expect(logged).toContain('/api/admin/providers');
    expect(logged).not.toContain(NPI);
    expect(logged.toLowerCase()).not.toContain(LICENSE.toLowerCase());
  });

  it('gives a provider no admin search, whatever the term', async () => {
    for (const url of [search(NPI), `/api/admin/documents?search=${NPI}`]) {
      const response = await grace.request('GET', url);
      expect(response.status).toBe(403);
      const text = await response.text();
      expect(text).not.toContain(NPI);
      expect(text).not.toContain(other.userId);
    }
  });

  it('serves each identifier from its btree index', async () => {
    const client = await app.runtime.deps.database.pool.connect();
    try {
      await client.query('begin');
      // Tiny test tables would be scanned; forbid that to see whether the indexes can serve the query.
      await client.query('set local enable_seqscan = off');
      for (const [term, index] of [
        [NPI, 'personal_information_npi_number_idx'],
        [LICENSE.toLowerCase(), 'professional_licenses_license_number_idx'],
      ] as const) {
        const query = app.runtime.deps.db
          .select({ n: sql`count(*)` })
          .from(profiles)
          .where(providerMatches(term))
          .toSQL();
        const plan = await client.query(`explain ${query.sql}`, query.params);
        const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(text).toContain(index);
        expect(text).toContain('profiles_search_trgm_idx');
      }
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});
