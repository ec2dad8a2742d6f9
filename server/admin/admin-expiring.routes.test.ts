/**
 * The admin 'Expiring' tab (issue 14, decision 023) on the real server and PostgreSQL:
 * GET /api/admin/expiring-credentials (windows, kinds, date order, paging, current applications
 * only) and GET /api/admin/expiring-credentials/export (the same filter as CSV: header, RFC 4180
 * quoting, formula injection, audited). Administrators only; "now" is the service's parameter.
 * Hospital privileges' end dates are listed too (issue 31 item 5), never an admitting arrangement's.
 */
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExpiringList } from '../../domain/api/admin.ts';
import { Client, createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { expiringCredentialBatches } from '../credentials/current-credentials.ts';
import { auditLog } from '../db/schema/audit.ts';
import { providerApplications } from '../db/schema/core.ts';
import {
  certifications,
  hospitalAffiliations,
  malpracticeInsurance,
  payors,
  personalInformation,
  professionalLicenses,
  vaccinations,
} from '../db/schema/sections.ts';
import { EXPIRING_COUNT_CAP, listExpiringCredentials } from './admin-expiring.service.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const HEADER =
  'Provider,Email,NPI,Credential type,Credential,State,Number,Section,Expires on,Days left,Status,Link\r\n';

/** The body's text, after checking it starts with the UTF-8 byte order mark (fetch's text() drops it). */
async function csvText(response: Response): Promise<string> {
  const bytes = Buffer.from(await response.arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return bytes.subarray(3).toString('utf8');
}
/** Today (UTC) plus `offset` days, `YYYY-MM-DD`. */
const isoDay = (offset: number, from = new Date()) =>
  new Date(from.getTime() + offset * DAY_MS).toISOString().slice(0, 10);

let app: TestApp;
let admin: Awaited<ReturnType<typeof signUpAndSignIn>>;
const db = () => app.runtime.deps.db;

/** Ids the tests look for. */
const seen: Record<string, string> = {};

/** An application of `userId` with `status`, created `daysAgo` days ago. */
async function application(
  userId: string,
  status: 'draft' | 'submitted' | 'under_review' | 'approved' | 'rejected',
  daysAgo: number,
) {
  const [row] = await db()
    .insert(providerApplications)
    .values({ userId, applicationStatus: status, createdAt: new Date(Date.now() - daysAgo * DAY_MS) })
    .returning({ id: providerApplications.id });
  return row!.id;
}

beforeAll(async () => {
  app = await createTestApp();
  admin = await signUpAndSignIn(app, { firstName: 'Ada', lastName: 'Reviewer' });
  await grantAdmin(app, admin);

  // First, Alice: her current application is the submitted one (a later draft does not replace a
  // completed application); an older approved one and the new draft are not listed.
  const alice = await signUpAndSignIn(app, { firstName: 'Alice', lastName: 'Smith, MD' });
  const aliceOld = await application(alice.userId, 'approved', 400);
  const aliceCurrent = await application(alice.userId, 'submitted', 30);
  const aliceDraft = await application(alice.userId, 'draft', 1);
  seen.aliceCurrent = aliceCurrent;
  // Her NPI, which the CSV carries (issue 33 item 2).
  await db().insert(personalInformation).values({ applicationId: aliceCurrent, npiNumber: '1234567893' });
  await db()
    .insert(professionalLicenses)
    .values([
      {
        applicationId: aliceCurrent,
        licenseType: 'medical_license',
        licenseNumber: 'IL-20',
        issuingState: 'IL',
        expirationDate: isoDay(20),
      },
      {
        applicationId: aliceOld,
        licenseType: 'medical_license',
        licenseNumber: 'OLD-1',
        expirationDate: isoDay(5),
      },
      {
        applicationId: aliceDraft,
        licenseType: 'medical_license',
        licenseNumber: 'NEW-1',
        expirationDate: isoDay(6),
      },
    ]);
  // A certification whose name a spreadsheet would run as a formula, expired ten days ago.
  await db()
    .insert(certifications)
    .values({
      applicationId: aliceCurrent,
      certificationName: '=HYPERLINK("http://evil.example","ACLS")',
      certifyingBody: 'AHA',
      expirationDate: isoDay(-10),
    });
  // A payor contract whose name needs quoting, ending in 7 days; a policy beyond 90 days.
  await db()
    .insert(payors)
    .values({ applicationId: aliceCurrent, payorName: 'Blue "Cross", Inc.', contractEndDate: isoDay(7) });
  await db()
    .insert(malpracticeInsurance)
    .values({
      applicationId: aliceCurrent,
      insuranceCompany: 'MedPro',
      policyNumber: 'P-1',
      expirationDate: isoDay(91),
    });

  // Second, Bob: his only application was rejected; nothing of his is listed.
  const bob = await signUpAndSignIn(app, { firstName: 'Bob', lastName: 'Rejected' });
  const bobRejected = await application(bob.userId, 'rejected', 10);
  await db()
    .insert(professionalLicenses)
    .values({ applicationId: bobRejected, licenseNumber: 'REJ-1', expirationDate: isoDay(3) });

  // Third, Carol: a draft only (her current application), with a vaccination in 60 days, a driver's
  // license in 45 days and a second vaccination on the same day as the first (date tie).
  const carol = await signUpAndSignIn(app, { firstName: 'Carol', lastName: 'Jones' });
  const carolDraft = await application(carol.userId, 'draft', 5);
  seen.carolDraft = carolDraft;
  await db()
    .insert(vaccinations)
    .values([
      { applicationId: carolDraft, vaccineName: 'influenza', expirationDate: isoDay(60) },
      { applicationId: carolDraft, vaccineName: 'hepatitis-b', expirationDate: isoDay(60) },
    ]);
  await db()
    .insert(personalInformation)
    .values({ applicationId: carolDraft, driverLicenseState: 'OH', driverLicenseExpiration: isoDay(45) });
}, 60_000);

afterAll(async () => {
  await app?.close();
});

const list = (query = '') => admin.json<ExpiringList>('GET', `/api/admin/expiring-credentials${query}`);
const names = (body: ExpiringList) => body.credentials.map((c) => c.name);

describe('GET /api/admin/expiring-credentials', () => {
  it('lists expired and within-90-day credentials of current applications only, soonest first', async () => {
    const answer = await list();
    expect(answer.status).toBe(200);
    // Not listed: Alice's old and draft applications' licenses, Bob's rejected one, the policy at 91 days.
    expect(names(answer.body).slice(0, 4)).toEqual([
      '=HYPERLINK("http://evil.example","ACLS")',
      'Blue "Cross", Inc.',
      'Medical License IL-20 (IL)',
      "Driver's license OH",
    ]);
    expect(new Set(names(answer.body).slice(4))).toEqual(new Set(['Influenza', 'Hepatitis B']));
    expect(answer.body).toMatchObject({ total: 6, totalCapped: false, page: 1, pageSize: 20 });
    const [expired, contract, license] = answer.body.credentials;
    expect(expired).toMatchObject({
      kind: 'certification',
      sectionKey: 'certifications',
      applicationId: seen.aliceCurrent,
      expiresOn: isoDay(-10),
      daysLeft: -10,
      urgency: 'expired',
      provider: { firstName: 'Alice', lastName: 'Smith, MD' },
    });
    expect(expired!.provider.email).toContain('@');
    expect(contract).toMatchObject({ kind: 'payor_contract', daysLeft: 7, urgency: 'within_7' });
    expect(license).toMatchObject({ kind: 'professional_license', daysLeft: 20, urgency: 'within_30' });
    // A draft is the current application of a provider who has nothing else.
    expect(answer.body.credentials[3]).toMatchObject({
      kind: 'drivers_license',
      sectionKey: 'personalInformation',
      applicationId: seen.carolDraft,
      urgency: 'within_60',
    });
    // Ties on the date are broken by the row id, so pages never shuffle.
    const tied = answer.body.credentials.slice(4).map((c) => c.rowId);
    expect(tied).toEqual([...tied].sort());
  });

  it('filters by window (each window includes what has expired) and by kind', async () => {
    expect(names((await list('?window=expired')).body)).toEqual(['=HYPERLINK("http://evil.example","ACLS")']);
    expect(names((await list('?window=7')).body)).toEqual([
      '=HYPERLINK("http://evil.example","ACLS")',
      'Blue "Cross", Inc.',
    ]);
    expect((await list('?window=30')).body.total).toBe(3);
    expect((await list('?window=60')).body.total).toBe(6);
    expect(names((await list('?kind=professional_license')).body)).toEqual(['Medical License IL-20 (IL)']);
    expect(names((await list('?window=7&kind=vaccination')).body)).toEqual([]);
    expect((await list('?kind=vaccination&window=60')).body.total).toBe(2);
  });

  it('pages on the server', async () => {
    const first = await list('?pageSize=4');
    const second = await list('?pageSize=4&page=2');
    expect(first.body).toMatchObject({ total: 6, page: 1, pageSize: 4 });
    expect(second.body).toMatchObject({ total: 6, page: 2, pageSize: 4 });
    expect(first.body.credentials).toHaveLength(4);
    expect(second.body.credentials).toHaveLength(2);
    expect([...names(first.body), ...names(second.body)]).toEqual(names((await list()).body));
    // Past the count cap there is nothing to page to.
    const beyond = await list(`?pageSize=100&page=${EXPIRING_COUNT_CAP / 100 + 1}`);
    expect(beyond.body.credentials).toEqual([]);
  });

  it('refuses a bad query with a message saying what is allowed', async () => {
    const badWindow = await list('?window=14');
    expect(badWindow.status).toBe(400);
    expect(JSON.stringify(badWindow.body)).toContain('window must be one of expired, 7, 30, 60, 90');
    const badKind = await list('?kind=passport');
    expect(badKind.status).toBe(400);
    expect(JSON.stringify(badKind.body)).toContain('kind must be one of professional_license');
    const badSize = await list('?pageSize=500');
    expect(badSize.status).toBe(400);
    expect(JSON.stringify(badSize.body)).toContain('pageSize may be at most 100');
  });

  it('is for administrators only', async () => {
    const provider = await signUpAndSignIn(app);
    const anonymous = new Client(app);
    for (const path of ['/api/admin/expiring-credentials', '/api/admin/expiring-credentials/export']) {
      expect((await anonymous.request('GET', path)).status).toBe(401);
      expect((await provider.request('GET', path)).status).toBe(403);
      // Authorization comes before validation.
      expect((await provider.request('GET', `${path}?window=bogus`)).status).toBe(403);
    }
  });
});

describe('listExpiringCredentials (the clock is a parameter)', () => {
  it('counts days and windows from the given now', async () => {
    // Thirty days from now, the license (20 days today) has expired and the vaccinations are 30 days out.
    const later = new Date(Date.now() + 30 * DAY_MS);
    const page = await listExpiringCredentials(db(), { window: 'expired', page: 1, pageSize: 20 }, later);
    expect(page.items.map((c) => [c.name, c.daysLeft, c.urgency])).toEqual([
      ['=HYPERLINK("http://evil.example","ACLS")', -40, 'expired'],
      ['Blue "Cross", Inc.', -23, 'expired'],
      ['Medical License IL-20 (IL)', -10, 'expired'],
    ]);
    const soon = await listExpiringCredentials(
      db(),
      { window: '30', kind: 'vaccination', page: 1, pageSize: 20 },
      later,
    );
    expect(soon.items.map((c) => [c.daysLeft, c.urgency])).toEqual([
      [30, 'within_30'],
      [30, 'within_30'],
    ]);
    // The policy at 91 days is inside the 90-day window a day later.
    const nextDay = new Date(Date.now() + DAY_MS);
    const policies = await listExpiringCredentials(
      db(),
      { window: '90', kind: 'malpractice_insurance', page: 1, pageSize: 20 },
      nextDay,
    );
    expect(policies.items.map((c) => [c.name, c.daysLeft])).toEqual([['MedPro P-1', 90]]);
  });
});

describe('GET /api/admin/expiring-credentials/export', () => {
  it('streams the filter as CSV with a header, RFC 4180 quoting and formula cells defused, and audits it', async () => {
    const response = await admin.request('GET', '/api/admin/expiring-credentials/export?window=30');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="expiring-credentials-30-days-all-${isoDay(0)}.csv"; filename*=UTF-8''expiring-credentials-30-days-all-${isoDay(0)}.csv`,
    );
    const text = await csvText(response);
    expect(text.startsWith(HEADER)).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    // Quoted exactly as RFC 4180 says: the comma and the doubled quotes.
    expect(text).toContain('"Blue ""Cross"", Inc."');
    expect(text).toContain(`"Alice Smith, MD"`);
    const records = parse(text) as string[][];
    expect(records[0]).toEqual([
      'Provider',
      'Email',
      'NPI',
      'Credential type',
      'Credential',
      'State',
      'Number',
      'Section',
      'Expires on',
      'Days left',
      'Status',
      'Link',
    ]);
    // Issue 33 item 2: the NPI, the license's state and number, and the link to the file.
    const review = `${app.runtime.deps.env.appUrl}/admin/applications/${seen.aliceCurrent}`;
    expect(records.slice(1).map((r) => [r[2], r[5], r[6], r[11]])).toEqual([
      ['1234567893', '', '', review],
      ['1234567893', '', '', review],
      ['1234567893', 'IL', 'IL-20', review],
    ]);
    expect(records.slice(1).map((r) => [r[0], r[3], r[4], r[7], r[8], r[9], r[10]])).toEqual([
      [
        'Alice Smith, MD',
        'Certification',
        `'=HYPERLINK("http://evil.example","ACLS")`,
        'Certifications',
        isoDay(-10),
        '-10',
        'Expired',
      ],
      ['Alice Smith, MD', 'Payor contract', 'Blue "Cross", Inc.', 'Payors', isoDay(7), '7', '7 days left'],
      [
        'Alice Smith, MD',
        'Professional license',
        'Medical License IL-20 (IL)',
        'Professional Licenses',
        isoDay(20),
        '20',
        '20 days left',
      ],
    ]);

    const events = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'admin.export_expiring_credentials'));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorUserId: admin.userId, details: { window: '30', kind: 'all' } });
  });

  it('reads every row in keyset batches, in the tab order', async () => {
    const batches: string[][] = [];
    for await (const batch of expiringCredentialBatches(db(), { window: '90' }, new Date(), 2)) {
      batches.push(batch.map((c) => c.name));
    }
    expect(batches.map((b) => b.length)).toEqual([2, 2, 2]);
    expect(batches.flat()).toEqual(names((await list()).body));
    // One kind, as the tab filters it; a header only when nothing matches.
    const none = await admin.request(
      'GET',
      '/api/admin/expiring-credentials/export?window=expired&kind=vaccination',
    );
    expect(await csvText(none)).toBe(HEADER);
  });
});

describe('hospital privileges (issue 31 item 5)', () => {
  it("lists privileges' end dates, not an admitting arrangement's, in the tab and its CSV", async () => {
    // Erin: a submitted application with active privileges ending in 15 days, courtesy privileges
    // without an end date, and an admitting arrangement (status 'none') given an end date anyway.
    const erin = await signUpAndSignIn(app, { firstName: 'Erin', lastName: 'Hall' });
    const applicationId = await application(erin.userId, 'submitted', 3);
    await db()
      .insert(hospitalAffiliations)
      .values([
        {
          applicationId,
          privilegeStatus: 'active',
          facilityName: 'Mercy Hospital',
          city: 'Chicago',
          state: 'IL',
          endDate: isoDay(15),
        },
        { applicationId, privilegeStatus: 'courtesy', facilityName: 'Lakeside Clinic' },
        {
          applicationId,
          privilegeStatus: 'none',
          admittingArrangement: 'hospitalist_group',
          arrangementName: 'Northside Hospitalists',
          endDate: isoDay(10),
        },
      ]);
    try {
      const answer = await list('?kind=hospital_privileges');
      expect(answer.status).toBe(200);
      expect(answer.body.credentials).toEqual([
        expect.objectContaining({
          kind: 'hospital_privileges',
          sectionKey: 'hospitalAffiliations',
          applicationId,
          name: 'Mercy Hospital (Chicago, IL)',
          expiresOn: isoDay(15),
          daysLeft: 15,
          urgency: 'within_30',
        }),
      ]);
      // All kinds: listed among the others, in date order.
      expect(names((await list('?window=30')).body)).toEqual([
        '=HYPERLINK("http://evil.example","ACLS")',
        'Blue "Cross", Inc.',
        'Mercy Hospital (Chicago, IL)',
        'Medical License IL-20 (IL)',
      ]);

      const response = await admin.request(
        'GET',
        '/api/admin/expiring-credentials/export?window=30&kind=hospital_privileges',
      );
      expect(response.status).toBe(200);
      const records = parse(await csvText(response)) as string[][];
      expect(records.slice(1)).toEqual([
        [
          'Erin Hall',
          erin.email,
          '',
          'Hospital privileges',
          'Mercy Hospital (Chicago, IL)',
          'IL',
          '',
          'Hospital Affiliations',
          isoDay(15),
          '15',
          '15 days left',
          `${app.runtime.deps.env.appUrl}/admin/applications/${applicationId}`,
        ],
      ]);
    } finally {
      await db().delete(hospitalAffiliations).where(eq(hospitalAffiliations.applicationId, applicationId));
    }
  });
});
