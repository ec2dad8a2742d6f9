/**
 * The published credential end to end (issue 49 items 1-3), real PostgreSQL and HTTP, as an integrator
 * reads it: a provider approved through the product; then, without 'Submit Update', the provider
 * changes the NPI and DEA number, adds a license and tries to rename the account: FHIR and both
 * roster formats say what was approved. A legal name change goes as a credential update with its
 * document and reaches the directory and the account only when the reviewer completes the update.
 * An OIG LEIE file listing the provider's NPI suspends the credential (FHIR inactive, the exclusion
 * VerificationResult val-fail naming the list, the roster's status, the dashboard); a reinstatement
 * accepted by a person restores it. Nothing a reviewer typed, no claim or policy detail and no DEA
 * number reaches any FHIR resource or NDJSON line.
 */
import type { Bundle, Practitioner, Resource, VerificationResult } from '@medplum/fhirtypes';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApplicationList } from '../../domain/api/applications.ts';
import type { AdminReview } from '../../domain/api/review.ts';
import type { ScreeningQueue, StagedImport } from '../../domain/api/screening.ts';
import { isoDay } from '../../domain/calendar.ts';
import { legalNameChangeTexts } from '../../domain/credentials/credential-updates.ts';
import { verificationKindLabel } from '../../domain/review/verification-checklist.ts';
import { LEIE_COLUMNS } from '../../domain/screening/exclusion-formats.ts';
import { minimalPdf } from '../../tests/fixtures/files.ts';
import {
  createTestApp,
  grantAdmin,
  signUpAndSignIn,
  signUpStaff,
  type TestApp,
} from '../../tests/harness.ts';
import { clientWithToken } from '../api-clients/testing.ts';
import { approveCleanFile, reviewedFile } from '../committee/testing/decide.ts';
import { FACTORY_ADDITIONAL } from '../notifications/testing/completed-application.ts';
import { verifyEveryItem } from '../review/testing/verify-items.ts';

let app: TestApp;
let token: string;
let specialist: Awaited<ReturnType<typeof signUpStaff>>;
let admin: Awaited<ReturnType<typeof signUpAndSignIn>>;
let provider: Awaited<ReturnType<typeof reviewedFile>>['provider'];
let applicationId: string;
const NPI = '1234567893';
const TYPED_SOURCE = 'Called Dr Wu at the board, ref 55-TYPED';

beforeAll(async () => {
  app = await createTestApp();
  specialist = await signUpStaff(app, 'specialist', { firstName: 'Sam' });
  admin = await signUpAndSignIn(app, { firstName: 'Ada', lastName: 'Admin' });
  await grantAdmin(app, admin);
  // First, a specialist reviews a complete application, typing a source of their own on every item,
  // and the medical director approves it.
  const reviewed = await reviewedFile(app, specialist);
  provider = reviewed.provider;
  applicationId = reviewed.applicationId;
  await verifyEveryItem(specialist, applicationId, {
    verifiedAt: isoDay(new Date()),
    source: TYPED_SOURCE,
  });
  await approveCleanFile(app, specialist, applicationId);
  // Then a payer's client gets a token for every FHIR type.
  token = (await clientWithToken(app, ['system/*.read'])).accessToken;
}, 180_000);

afterAll(async () => {
  await app?.close();
});

async function fhir<T = Resource>(path: string): Promise<T> {
  const response = await fetch(`${app.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

const practitioner = () => fhir<Practitioner>(`/fhir/Practitioner/${provider.userId}`);
const entries = <T extends Resource>(bundle: Bundle) => (bundle.entry ?? []).map((e) => e.resource as T);

/** Every FHIR resource about the provider, as one text (search pages and the Bulk Data NDJSON). */
async function everythingPublished(): Promise<string> {
  const parts: string[] = [];
  for (const type of ['Practitioner', 'PractitionerRole', 'Location', 'Organization', 'VerificationResult']) {
    parts.push(JSON.stringify(await fhir<Bundle>(`/fhir/${type}?_count=100`)));
  }
  const kickoff = await fetch(`${app.baseUrl}/fhir/$export`, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/fhir+json', prefer: 'respond-async' },
  });
  expect(kickoff.status).toBe(202);
  // The links name APP_URL's origin; the test server listens elsewhere.
  const local = (url: string) => url.replace(/^https?:\/\/[^/]+/, app.baseUrl);
  const status = local(kickoff.headers.get('content-location')!);
  for (let i = 0; i < 100; i++) {
    const poll = await fetch(status, { headers: { authorization: `Bearer ${token}` } });
    if (poll.status === 200) {
      const manifest = (await poll.json()) as { output: { url: string }[] };
      for (const file of manifest.output) {
        const ndjson = await fetch(local(file.url), {
          headers: { authorization: `Bearer ${token}`, accept: 'application/fhir+ndjson' },
        });
        parts.push(await ndjson.text());
      }
      return parts.join('\n');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the export did not finish');
}

/** The roster as CSV and XLSX-free text rows: the provider's row, by header. */
async function rosterRow(): Promise<Record<string, string>> {
  const response = await specialist.request('GET', '/api/admin/roster.csv');
  expect(response.status).toBe(200);
  const text = Buffer.from(await response.arrayBuffer())
    .subarray(3)
    .toString('utf8');
  const [header, ...rows] = parse(text) as string[][];
  expect(rows).toHaveLength(1);
  return Object.fromEntries(header!.map((h, i) => [h, rows[0]![i]!]));
}

/** Checklist kinds whose facts are not directory facts (a Practitioner publishes licenses, boards, degrees). */
const privateKinds = [
  'claims_history',
  'malpractice',
  'work_history',
  'work_history_gap',
  'hospital_privileges',
];

describe('what the directory publishes about a provider', () => {
  it('changes a provider saves without sending them are not published', async () => {
    const before = { practitioner: await practitioner(), roster: await rosterRow() };
    expect(before.practitioner.active).toBe(true);
    expect(before.roster).toMatchObject({ NPI, 'Credential Status': 'Active' });

    // The provider changes the NPI and DEA number, adds a license and renames the account.
    const path = `/api/applications/${applicationId}/sections/personal-information`;
    const current = await provider.json<{ personalInformation: Record<string, unknown> }>('GET', path);
    const { id: _id, applicationId: _app, updatedAt: _u, ...fields } = current.body.personalInformation;
    const saved = await provider.json('PUT', path, {
      ...fields,
      npiNumber: '1245319599',
      deaNumber: 'BB1234563',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const license = await provider.json(
      'PUT',
      `/api/applications/${applicationId}/sections/professional-licenses`,
      {
        // A new card beside the approved ones (cards left out of a whole-screen save are kept).
        rows: [
          {
            licenseType: 'medical_license',
            licenseNumber: 'CA-FAKE-001',
            issuingState: 'CA',
            status: 'active',
          },
        ],
      },
    );
    expect(license.status, JSON.stringify(license.body)).toBe(200);
    const renamed = await provider.json('POST', '/api/auth/update-user', { firstName: 'Gus' });
    expect(renamed.status).toBe(409);
    expect(renamed.body).toMatchObject({ message: legalNameChangeTexts.accountRefusal });

    // Nobody reviewed any of it: FHIR and the roster say what was approved.
    const after = await practitioner();
    expect(after).toEqual(before.practitioner);
    expect(JSON.stringify(after)).not.toContain('1245319599');
    expect(JSON.stringify(await fhir<Bundle>('/fhir/Practitioner?_count=100'))).not.toContain('CA-FAKE-001');
    expect(await rosterRow()).toEqual(before.roster);
  });

  it('publishes nothing a reviewer typed, no claim or policy detail and no DEA number', async () => {
    const review = await specialist.json<AdminReview>(
      'GET',
      `/api/admin/applications/${applicationId}/review`,
    );
    const published = await everythingPublished();
    const secrets = [
      TYPED_SOURCE,
      'AB1234563',
      'us-dea',
      FACTORY_ADDITIONAL.malpracticeClaim.description,
      FACTORY_ADDITIONAL.malpracticeClaim.insurer,
      '125000',
      'NPDB',
      // What the items a directory has no business with name in words ('Claims history: 1 claim…',
      // the malpractice policy, employers), beyond their kind's name.
      ...review.body.checklist
        .filter((item) => privateKinds.includes(item.kind))
        .map((item) => item.target)
        .filter((target) => !Object.values(verificationKindLabel).includes(target)),
      ...review.body.checklist
        .filter((item) => privateKinds.includes(item.kind))
        .map((item) => item.primarySource),
    ];
    for (const secret of secrets) expect(published, secret).not.toContain(secret);
    // What is there: the kind of item, its status, the source's type.
    const results = entries<VerificationResult>(await fhir<Bundle>('/fhir/VerificationResult?_count=100'));
    expect(results.length).toBe(review.body.checklist.length);
    expect(results.map((r) => r.status)).toEqual(results.map(() => 'validated'));
    expect(results.map((r) => r.target?.[0]?.display)).toContain('Claims history');
  });

  it('a legal name change is a credential update with a document, published once the reviewer accepts it', async () => {
    // First, the provider uploads the court order and sends the new name with it.
    const form = new FormData();
    form.append('documentType', 'other');
    form.append(
      'file',
      new Blob([new Uint8Array(minimalPdf('Court order'))], { type: 'application/pdf' }),
      'court-order.pdf',
    );
    const uploaded = await provider.request('POST', `/api/applications/${applicationId}/documents`, form);
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const documentId = ((await uploaded.json()) as { id: string }).id;
    const sent = await provider.json('POST', `/api/applications/${applicationId}/legal-name`, {
      firstName: 'Alicia',
      lastName: 'Renamed',
      documentId,
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    // The account and the directory keep the approved name until the review.
    const me = await provider.json<{ profile: { firstName: string } }>('GET', '/api/profile');
    expect(me.body.profile.firstName).not.toBe('Alicia');
    expect((await practitioner()).name?.[0]?.given).not.toEqual(['Alicia']);

    // Then the specialist verifies what the update flagged and completes its review: the NPI change,
    // the license and the name are published together.
    await verifyEveryItem(specialist, applicationId, { verifiedAt: isoDay(new Date()) });
    const completed = await specialist.json(
      'POST',
      `/api/admin/applications/${applicationId}/credential-update/complete`,
      {},
    );
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    const now = await practitioner();
    expect(now.name?.[0]).toMatchObject({ given: ['Alicia'], family: 'Renamed' });
    expect(JSON.stringify(now)).toContain('1245319599');
    expect(JSON.stringify(now)).toContain('CA-FAKE-001');
    expect(
      (await provider.json<{ profile: { firstName: string } }>('GET', '/api/profile')).body.profile.firstName,
    ).toBe('Alicia');
    expect(await rosterRow()).toMatchObject({ NPI: '1245319599', 'First Name': 'Alicia' });
  });
});

describe('ongoing monitoring (NCQA CR5)', () => {
  const leieRow = (npi: string) =>
    [
      'RENAMED',
      'ALICIA',
      '',
      '',
      'IND- LIC HC SERV PRO',
      'MD',
      '',
      npi,
      '',
      '1 INVENTED ROAD',
      'SPRINGFIELD',
      'IL',
      '62701',
      '1128b4',
      '20261101',
      '00000000',
      '00000000',
      '',
    ]
      .map((v) => `"${v}"`)
      .join(',');
  const header = LEIE_COLUMNS.map((c) => `"${c}"`).join(',');
  const filler = Array.from({ length: 5 }, (_, i) =>
    leieRow(`10000000${String(i).padStart(2, '0')}`).replace('RENAMED', `OTHER${i}`),
  );

  async function stageAndApply(csv: string, reason?: string) {
    const form = new FormData();
    form.append('file', new Blob([csv]), 'UPDATED.csv');
    const staged = await admin.request('POST', '/api/admin/exclusions/imports', form);
    const body = (await staged.json()) as StagedImport;
    expect(staged.status, JSON.stringify(body)).toBe(200);
    const applied = await admin.json(
      'POST',
      `/api/admin/exclusions/imports/${body.id}/apply`,
      reason ? { reason } : {},
    );
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
  }

  it('an OIG match suspends the credential at once; a reinstatement a person accepts restores it', async () => {
    // First, the OIG list names the provider by NPI.
    await stageAndApply(`${header}\r\n${[...filler, leieRow('1245319599')].join('\r\n')}\r\n`);
    const today = isoDay(new Date());
    const suspended = await practitioner();
    expect(suspended.active).toBe(false);
    const roles = entries(
      await fhir<Bundle>(`/fhir/PractitionerRole?practitioner=Practitioner/${provider.userId}`),
    );
    expect(roles.map((r) => (r as { active?: boolean }).active)).toEqual(roles.map(() => false));
    expect((await rosterRow())['Credential Status']).toBe(`Suspended (exclusion: OIG LEIE, ${today})`);
    const exclusion = entries<VerificationResult>(
      await fhir<Bundle>('/fhir/VerificationResult?_count=100'),
    ).find((r) => r.target?.[0]?.display === 'Exclusion screening');
    expect(exclusion).toMatchObject({
      status: 'val-fail',
      primarySource: [{ who: { display: 'OIG LEIE' }, validationDate: today }],
    });
    // The approved file's item is a discrepancy (decision 027), and the provider is told.
    const review = await specialist.json<AdminReview>(
      'GET',
      `/api/admin/applications/${applicationId}/review`,
    );
    expect(review.body.checklist.find((i) => i.kind === 'exclusions')?.status).toBe('discrepancy');
    const mine = await provider.json<ApplicationList>('GET', '/api/applications');
    expect(mine.body.credential).toMatchObject({
      state: 'credentialed',
      standing: 'suspended',
      findings: [{ kind: 'exclusion', detail: 'OIG LEIE', foundOn: today }],
    });

    // Then OIG reinstates: the next full list no longer names the provider; a person accepts the change.
    await stageAndApply(`${header}\r\n${filler.join('\r\n')}\r\n`, 'Reinstated by OIG this month');
    expect((await practitioner()).active).toBe(false);
    const queue = await admin.json<ScreeningQueue>('GET', '/api/admin/screening-matches');
    const finding = queue.body.findings.find((f) => f.applicationId === applicationId);
    expect(finding?.pendingChange).toBe('no_longer_listed');
    const accepted = await admin.json('POST', `/api/admin/screening-matches/${finding!.id}/decision`, {
      decision: 'accept_change',
      reason: 'OIG reinstated the provider on the November list',
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(204);
    expect((await practitioner()).active).toBe(true);
    expect((await rosterRow())['Credential Status']).toBe('Active');
    const after = await provider.json<ApplicationList>('GET', '/api/applications');
    expect(after.body.credential).toMatchObject({ standing: 'active', findings: [] });
  });
});
