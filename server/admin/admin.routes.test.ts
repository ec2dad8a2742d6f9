/**
 * /api/admin (issue 6): admin-only on the server, counters, paged and searched provider cards, one
 * provider's details with the SSN masked by the server and the view audited, all documents, the audit
 * log, and the append-only audit table.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sections } from '../../domain/sections/registry.ts';
import { Client, createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { documents } from '../db/schema/documents.ts';
import {
  certifications,
  cme,
  education,
  hospitalAffiliations,
  malpracticeClaims,
  malpracticeInsurance,
  payors,
  peerReferences,
  personalInformation,
  practiceLocations,
  professionalLicenses,
  specialties,
  training,
  vaccinations,
  workHistory,
} from '../db/schema/sections.ts';
import { profileMatches } from './admin-list-query.ts';

/** A plaintext SSN that must never leave the server. */
const CANARY_SSN = '987-65-4329';

let app: TestApp;
let admin: Awaited<ReturnType<typeof signUpAndSignIn>>;
beforeAll(async () => {
  app = await createTestApp();
  admin = await signUpAndSignIn(app, { firstName: 'Ada', lastName: 'Reviewer' });
  await grantAdmin(app, admin);
});
afterAll(async () => {
  await app?.close();
});

const db = () => app.runtime.deps.db;
const pool = () => app.runtime.deps.database.pool;

/** A provider with a draft application (through the API). */
async function providerWithApplication(
  overrides: { firstName?: string; lastName?: string; email?: string } = {},
) {
  const provider = await signUpAndSignIn(app, overrides);
  const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
  expect(created.status).toBe(201);
  return Object.assign(provider, { applicationId: created.body.id });
}

/** Rows in every section of `applicationId`, written as the section services would store them. */
async function fillEverySection(userId: string, applicationId: string, marker: string) {
  await db()
    .insert(personalInformation)
    .values({
      applicationId,
      providerType: 'MD',
      gender: 'F',
      ssnEncrypted: app.runtime.deps.cipher.encrypt(CANARY_SSN),
      ssnLast4: '4329',
      npiNumber: '1234567893',
      addressLine1: '1 Main Street',
      addressLine2: `Suite ${marker}`,
      city: 'Boston',
      state: 'MA',
    });
  await db()
    .insert(professionalLicenses)
    .values({ applicationId, licenseType: 'medical_license', licenseNumber: `LIC-${marker}` });
  await db()
    .insert(education)
    .values({ applicationId, institutionName: `University ${marker}`, degreeType: 'doctorate' });
  await db()
    .insert(workHistory)
    .values({ applicationId, employerName: `Hospital ${marker}`, isCurrentPosition: true });
  await db()
    .insert(malpracticeInsurance)
    .values({ applicationId, insuranceCompany: `Insurer ${marker}` });
  await db()
    .insert(vaccinations)
    .values({ applicationId, vaccineName: 'influenza', lotNumber: `LOT-${marker}` });
  await db()
    .insert(payors)
    .values({ applicationId, payorName: `Payor ${marker}`, credentialingStatus: 'approved' });
  await db()
    .insert(certifications)
    .values({ applicationId, certificationName: `Cert ${marker}`, certifyingBody: 'ABIM' });
  await db()
    .insert(cme)
    .values({ applicationId, activityTitle: `CME ${marker}`, providerName: 'Institute', creditHours: 1.5 });
  await db()
    .insert(peerReferences)
    .values({ applicationId, referenceName: `Dr. ${marker}`, yearsKnown: 4 });
  // Issue 31: the five sections of 'Additional Information' (progress counts all 16).
  await db().insert(specialties).values({ applicationId, taxonomyCode: '207R00000X' });
  await db()
    .insert(practiceLocations)
    .values({ applicationId, practiceName: `Practice ${marker}` });
  await db()
    .insert(hospitalAffiliations)
    .values({ applicationId, facilityName: `Facility ${marker}` });
  await db().insert(training).values({ applicationId, noTraining: true });
  await db().insert(malpracticeClaims).values({ applicationId, noClaims: true });
  return addDocument(userId, applicationId, `cv-${marker}.pdf`);
}

async function addDocument(userId: string, applicationId: string, documentName: string) {
  const [row] = await db()
    .insert(documents)
    .values({
      applicationId,
      userId,
      documentName,
      documentType: 'cv_resume',
      filePath: `${userId}/cv_resume/${Date.now()}${randomBytes(3).toString('hex')}.pdf`,
      fileSize: 2048,
      mimeType: 'application/pdf',
      sha256: '0'.repeat(64),
    })
    .returning({ id: documents.id });
  return row!.id;
}

interface ProviderCard {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  role: string;
  currentApplication: { id: string; applicationStatus: string } | null;
  applicationCount: number;
  documentCount: number;
  documents: { id: string; documentName: string }[];
}
interface ProviderPage {
  providers: ProviderCard[];
  total: number;
  totalCapped: boolean;
  page: number;
  pageSize: number;
}
interface Details {
  profile: { userId: string; email: string };
  applications: { id: string; applicationStatus: string; progress: number }[];
  selectedApplicationId: string | null;
  sections: { key: string; title: string; rows: Record<string, unknown>[] }[];
}

describe('access', () => {
  it('answers 401 without a session and 403 for a provider on every registered admin route', async () => {
    // Every route declared admin-only, whichever feature registered it (collected at registration).
    const routes = app.runtime.app.routeTable.filter((r) => r.access === 'admin');
    // Nothing under /api/admin escapes the admin declaration, and the dashboard's five routes are there.
    expect(
      app.runtime.app.routeTable.filter((r) => r.url.startsWith('/api/admin/') && r.access !== 'admin'),
    ).toEqual([]);
    expect(routes.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining([
        'GET /api/admin/stats',
        'GET /api/admin/providers',
        'GET /api/admin/providers/:userId',
        'GET /api/admin/documents',
        'GET /api/admin/audit-log',
      ]),
    );
    const provider = await signUpAndSignIn(app);
    const anonymous = new Client(app);
    for (const route of routes) {
      const url = route.url
        .replace(':userId', provider.userId)
        .replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000');
      const name = `${route.method} ${route.url}`;
      expect((await anonymous.request(route.method, url)).status, `${name} anonymous`).toBe(401);
      expect((await provider.request(route.method, url)).status, `${name} provider`).toBe(403);
      // Invalid input does not get a provider further: authorization comes before validation.
      expect((await provider.request(route.method, `${url}?page=-1`)).status, `${name} provider`).toBe(403);
      // An admin gets past authorization (an unknown id may then be a 404), except on the decisions,
      // which are the medical director's (issue 32), and a member's joining and own vote (issue 50;
      // the authorization matrix checks every role).
      if (/\/(approve|send-to-committee|join|vote)$/.test(route.url)) continue;
      expect([401, 403], `${name} admin`).not.toContain((await admin.request(route.method, url)).status);
    }
  });
});

describe('GET /api/admin/stats', () => {
  it('counts users, applications and documents in the database', async () => {
    const before = await admin.json<Record<string, number>>('GET', '/api/admin/stats');
    expect(before.status).toBe(200);
    const counts = async () =>
      (
        await pool().query<Record<string, number>>(
          `select (select count(*)::int from profiles) as "totalUsers",
                  (select count(*)::int from provider_applications) as "totalApplications",
                  (select count(*)::int from documents) as "totalDocuments"`,
        )
      ).rows[0];
    expect(before.body).toEqual(await counts());
    // Adding a provider, an application and a document moves each counter by one.
    const p = await providerWithApplication();
    await addDocument(p.userId, p.applicationId, 'license.pdf');
    const after = await admin.json<Record<string, number>>('GET', '/api/admin/stats');
    expect(after.body).toEqual({
      totalUsers: before.body.totalUsers! + 1,
      totalApplications: before.body.totalApplications! + 1,
      totalDocuments: before.body.totalDocuments! + 1,
    });
    expect(after.body).toEqual(await counts());
  });
});

describe('GET /api/admin/providers', () => {
  it('lists users newest first, in pages, with a total', async () => {
    for (let i = 0; i < 3; i++) await signUpAndSignIn(app);
    const total = (await pool().query<{ n: number }>('select count(*)::int as n from profiles')).rows[0]!.n;
    const first = await admin.json<ProviderPage>('GET', '/api/admin/providers?pageSize=2');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total, totalCapped: false, page: 1, pageSize: 2 });
    expect(first.body.providers).toHaveLength(2);
    const second = await admin.json<ProviderPage>('GET', '/api/admin/providers?pageSize=2&page=2');
    expect(second.body.providers).toHaveLength(2);
    const all = await admin.json<ProviderPage>('GET', '/api/admin/providers?pageSize=100');
    const expected = (
      await pool().query<{ user_id: string }>('select user_id from profiles order by created_at desc')
    ).rows.map((r) => r.user_id);
    expect(all.body.providers.map((p) => p.userId)).toEqual(expected);
    expect([...first.body.providers, ...second.body.providers].map((p) => p.userId)).toEqual(
      expected.slice(0, 4),
    );
    // The default page size is 20; the maximum is 100.
    expect((await admin.json<ProviderPage>('GET', '/api/admin/providers')).body.pageSize).toBe(20);
    const tooBig = await admin.json<{ code: string; message: string }>(
      'GET',
      '/api/admin/providers?pageSize=101',
    );
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.message).toContain('pageSize may be at most 100');
  });

  it('finds a user by part of the email or of the name, case-insensitively', async () => {
    const tag = randomBytes(4).toString('hex');
    const zed = await providerWithApplication({
      firstName: 'Zephyrine',
      lastName: `Quillfeather${tag}`,
      email: `zq.${tag}@clinic.example`,
    });
    await signUpAndSignIn(app, { firstName: 'Zephyrine', lastName: 'Other' });
    const search = async (term: string) =>
      (await admin.json<ProviderPage>('GET', `/api/admin/providers?search=${encodeURIComponent(term)}`)).body;
    for (const term of [
      `zq.${tag}@clin`,
      tag.toUpperCase(),
      `quillfeather${tag}`,
      `Zephyrine Quillfeather${tag}`,
    ]) {
      const found = await search(term);
      expect(
        found.providers.map((p) => p.userId),
        term,
      ).toEqual([zed.userId]);
      expect(found.total).toBe(1);
    }
    expect((await search('zephyrine')).total).toBe(2);
    // LIKE wildcards in the term are taken literally.
    expect((await search('%')).total).toBe(0);
    expect((await search('_')).total).toBe(0);
    expect((await search('nobody-by-this-name')).providers).toEqual([]);
  });

  it("shows each card's current application, document count and documents", async () => {
    const p = await providerWithApplication({ lastName: `Cardholder${randomBytes(3).toString('hex')}` });
    const older = await addDocument(p.userId, p.applicationId, 'older.pdf');
    // The first application is approved; a newer draft becomes current (spec §4: first draft, else newest).
    await pool().query(`update provider_applications set application_status = 'approved' where id = $1`, [
      p.applicationId,
    ]);
    const draft = await p.json<{ id: string }>('POST', '/api/applications', {});
    const newer = await addDocument(p.userId, draft.body.id, 'newer.pdf');
    const noApplication = await signUpAndSignIn(app, { lastName: `Noapp${randomBytes(3).toString('hex')}` });

    const card = (
      await admin.json<ProviderPage>('GET', `/api/admin/providers?search=${encodeURIComponent(p.email)}`)
    ).body.providers[0]!;
    expect(card).toMatchObject({
      userId: p.userId,
      email: p.email,
      role: 'user',
      currentApplication: { id: draft.body.id, applicationStatus: 'draft' },
      applicationCount: 2,
      documentCount: 2,
    });
    expect(card.documents.map((d) => d.id)).toEqual([newer, older]);
    const empty = (
      await admin.json<ProviderPage>(
        'GET',
        `/api/admin/providers?search=${encodeURIComponent(noApplication.email)}`,
      )
    ).body.providers[0]!;
    expect(empty).toMatchObject({
      currentApplication: null,
      applicationCount: 0,
      documentCount: 0,
      documents: [],
    });
  });

  it('serves the search from the trigram index (the WHERE uses the indexed expression)', async () => {
    const client = await pool().connect();
    try {
      await client.query('begin');
      // Tiny test tables would be scanned; forbid that to see whether the index can serve the query.
      await client.query('set local enable_seqscan = off');
      const query = app.runtime.deps.db
        .select({ n: sql`count(*)` })
        .from(sql`profiles`)
        .where(profileMatches('quill'))
        .toSQL();
      const plan = await client.query(`explain ${query.sql}`, query.params);
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('profiles_search_trgm_idx');
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});

describe('GET /api/admin/providers/:userId', () => {
  it('returns every section of the current application with the SSN masked, and audits the view', async () => {
    const marker = randomBytes(3).toString('hex');
    const p = await providerWithApplication({ lastName: `Detail${marker}` });
    const documentId = await fillEverySection(p.userId, p.applicationId, marker);

    const response = await admin.request('GET', `/api/admin/providers/${p.userId}`, undefined, {
      'x-forwarded-for': '203.0.113.9',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const text = await response.text();
    // The plaintext SSN (in any format) and its ciphertext never leave the server.
    expect(text).not.toContain(CANARY_SSN);
    expect(text).not.toContain(CANARY_SSN.replaceAll('-', ''));
    expect(text).not.toContain('v1:');
    const details = JSON.parse(text) as Details;
    expect(details.profile).toMatchObject({ userId: p.userId, email: p.email });
    expect(details.selectedApplicationId).toBe(p.applicationId);
    expect(details.applications).toEqual([expect.objectContaining({ id: p.applicationId, progress: 100 })]);
    expect(details.sections.map((s) => s.key)).toEqual(sections.map((s) => s.key));
    const rowsOf = (key: string) => details.sections.find((s) => s.key === key)!.rows;
    expect(rowsOf('personalInformation')).toEqual([
      expect.objectContaining({ ssn: '***-**-4329', addressLine2: `Suite ${marker}`, providerType: 'MD' }),
    ]);
    expect(rowsOf('personalInformation')[0]).not.toHaveProperty('ssnEncrypted');
    expect(rowsOf('personalInformation')[0]).not.toHaveProperty('ssnLast4');
    expect(rowsOf('professionalLicenses')[0]).toMatchObject({
      licenseNumber: `LIC-${marker}`,
      status: 'active',
    });
    expect(rowsOf('education')[0]).toMatchObject({ institutionName: `University ${marker}` });
    expect(rowsOf('workHistory')[0]).toMatchObject({
      employerName: `Hospital ${marker}`,
      isCurrentPosition: true,
    });
    expect(rowsOf('malpracticeInsurance')[0]).toMatchObject({ insuranceCompany: `Insurer ${marker}` });
    expect(rowsOf('vaccinations')[0]).toMatchObject({ vaccineName: 'influenza', lotNumber: `LOT-${marker}` });
    expect(rowsOf('payors')[0]).toMatchObject({
      payorName: `Payor ${marker}`,
      credentialingStatus: 'approved',
    });
    expect(rowsOf('certifications')[0]).toMatchObject({
      certificationName: `Cert ${marker}`,
      certifyingBody: 'ABIM',
    });
    expect(rowsOf('cme')[0]).toMatchObject({ activityTitle: `CME ${marker}`, creditHours: 1.5 });
    expect(rowsOf('peerReferences')[0]).toMatchObject({ referenceName: `Dr. ${marker}`, yearsKnown: 4 });
    expect(rowsOf('documents')).toEqual([
      expect.objectContaining({ id: documentId, documentName: `cv-${marker}.pdf`, fileSize: 2048 }),
    ]);
    expect(rowsOf('practiceLocations')[0]).toMatchObject({ practiceName: `Practice ${marker}` });
    expect(rowsOf('training')[0]).toMatchObject({ noTraining: true, trainingType: null });

    // The view is in the audit log: who, which provider, which application, from where; no PHI.
    const audit = await pool().query(
      `select * from audit_log where action = 'admin.view_provider' and subject_user_id = $1`,
      [p.userId],
    );
    expect(audit.rows).toEqual([
      expect.objectContaining({
        actor_user_id: admin.userId,
        resource_type: 'application',
        resource_id: p.applicationId,
        ip_address: '127.0.0.1',
        details: null,
      }),
    ]);
    expect(JSON.stringify(audit.rows)).not.toContain('4329');
  });

  it("opens a previous application on request and refuses another user's application", async () => {
    const p = await providerWithApplication();
    await pool().query(`update provider_applications set application_status = 'approved' where id = $1`, [
      p.applicationId,
    ]);
    await db().insert(payors).values({ applicationId: p.applicationId, payorName: 'Old Payor' });
    // The new draft starts as a copy (issue 14); the provider then changes its payor.
    const draft = await p.json<{ id: string }>('POST', '/api/applications', {});
    await pool().query(`update payors set payor_name = 'New Payor' where application_id = $1`, [
      draft.body.id,
    ]);

    const current = await admin.json<Details>('GET', `/api/admin/providers/${p.userId}`);
    expect(current.body.selectedApplicationId).toBe(draft.body.id);
    expect(current.body.applications.map((a) => a.id)).toEqual([draft.body.id, p.applicationId]);
    expect(current.body.sections.find((s) => s.key === 'payors')!.rows).toEqual([
      expect.objectContaining({ payorName: 'New Payor' }),
    ]);

    const previous = await admin.json<Details>(
      'GET',
      `/api/admin/providers/${p.userId}?applicationId=${p.applicationId}`,
    );
    expect(previous.body.selectedApplicationId).toBe(p.applicationId);
    expect(previous.body.sections.find((s) => s.key === 'payors')!.rows).toEqual([
      expect.objectContaining({ payorName: 'Old Payor', credentialingStatus: 'pending' }),
    ]);

    const other = await providerWithApplication();
    const foreign = await admin.json<{ code: string }>(
      'GET',
      `/api/admin/providers/${p.userId}?applicationId=${other.applicationId}`,
    );
    expect(foreign.status).toBe(404);
    const unknown = await admin.json<{ code: string; message: string }>(
      'GET',
      '/api/admin/providers/no-such-user',
    );
    expect(unknown.status).toBe(404);
    const badId = await admin.json<{ code: string }>(
      'GET',
      `/api/admin/providers/${p.userId}?applicationId=nope`,
    );
    expect(badId.status).toBe(400);
  });

  it('shows a user without applications with empty sections', async () => {
    const p = await signUpAndSignIn(app);
    const details = await admin.json<Details>('GET', `/api/admin/providers/${p.userId}`);
    expect(details.status).toBe(200);
    expect(details.body).toMatchObject({ applications: [], selectedApplicationId: null, sections: [] });
  });
});

describe('GET /api/admin/documents', () => {
  it('lists every document newest first, filtered by the owner name or email', async () => {
    const tag = randomBytes(3).toString('hex');
    const p = await providerWithApplication({ lastName: `Docowner${tag}` });
    const first = await addDocument(p.userId, p.applicationId, 'first.pdf');
    const second = await addDocument(p.userId, p.applicationId, 'second.pdf');
    const all = await admin.json<{ documents: { id: string }[]; total: number }>(
      'GET',
      '/api/admin/documents?pageSize=100',
    );
    const expected = (
      await pool().query<{ id: string }>('select id from documents order by uploaded_at desc')
    ).rows;
    expect(all.body.documents.map((d) => d.id)).toEqual(expected.map((r) => r.id));
    expect(all.body.total).toBe(expected.length);
    const mine = await admin.json<{
      documents: { id: string; owner: { email: string }; applicationId: string }[];
      total: number;
    }>('GET', `/api/admin/documents?search=docowner${tag}`);
    expect(mine.body.documents.map((d) => d.id)).toEqual([second, first]);
    expect(mine.body.documents[0]).toMatchObject({
      owner: { email: p.email },
      applicationId: p.applicationId,
    });
    expect(mine.body.total).toBe(2);
  });
});

describe('GET /api/admin/audit-log', () => {
  it('lists events newest first with the actor, filtered by action and subject', async () => {
    const p = await providerWithApplication();
    await admin.request('GET', `/api/admin/providers/${p.userId}`);
    const log = await admin.json<{
      events: { action: string; actor: { email: string } | null; subject: { userId: string } | null }[];
      actions: string[];
    }>('GET', `/api/admin/audit-log?action=admin.view_provider&subjectUserId=${p.userId}`);
    expect(log.status).toBe(200);
    expect(log.body.events).toEqual([
      expect.objectContaining({
        action: 'admin.view_provider',
        actor: expect.objectContaining({ email: admin.email }),
        subject: expect.objectContaining({ userId: p.userId }),
      }),
    ]);
    expect(log.body.actions).toEqual(expect.arrayContaining(['admin.view_provider', 'document.download']));
    const everything = await admin.json<{ events: { id: number }[] }>(
      'GET',
      '/api/admin/audit-log?pageSize=100',
    );
    const ids = everything.body.events.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
    expect((await admin.json('GET', '/api/admin/audit-log?action=drop.table')).status).toBe(400);
  });
});

describe('audit_log is append-only', () => {
  it('refuses UPDATE, DELETE and TRUNCATE', async () => {
    const before = (await pool().query<{ n: number }>('select count(*)::int as n from audit_log')).rows[0]!.n;
    expect(before).toBeGreaterThan(0);
    await expect(pool().query(`update audit_log set action = 'tampered'`)).rejects.toThrow(/append-only/);
    await expect(pool().query('delete from audit_log')).rejects.toThrow(/append-only/);
    await expect(pool().query('truncate audit_log')).rejects.toThrow(/append-only/);
    const after = await pool().query<{ n: number; tampered: number }>(
      `select count(*)::int as n, count(*) filter (where action = 'tampered')::int as tampered from audit_log`,
    );
    expect(after.rows[0]).toEqual({ n: before, tampered: 0 });
  });
});
