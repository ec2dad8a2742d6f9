/**
 * 'Check NPPES' (issue 15) against a local fake NPPES server answering in the registry's 2.1 shape
 * (no network): found and matching, found with mismatches, not found, 500 (retried once), timeout
 * (retried once, then a clear 503), the day-long cache; and the route on a real app, which keeps the
 * raw record on the NPI item.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NppesCheck } from '../../domain/api/nppes.ts';
import type { AdminReview } from '../../domain/api/review.ts';
import { AppError } from '../../domain/app-error.ts';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { compareWithApplication, createNppesClient, readNppesResult } from './nppes.ts';
import { completedApplication } from './testing/completed-review-application.ts';

/** An NPPES 2.1 answer for one individual provider (shape as the registry returns it). */
function registryAnswer(
  npi: string,
  person: { first: string; last: string },
  license = { state: 'IL', number: 'MD-1' },
) {
  return {
    result_count: 1,
    results: [
      {
        created_epoch: '1176249600000',
        enumeration_type: 'NPI-1',
        last_updated_epoch: '1700000000000',
        number: npi,
        addresses: [
          {
            country_code: 'US',
            address_purpose: 'LOCATION',
            address_type: 'DOM',
            address_1: '1200 BAYSHORE BLVD',
            city: 'TAMPA',
            state: 'FL',
            postal_code: '336061234',
            telephone_number: '813-555-0142',
          },
          {
            address_purpose: 'MAILING',
            address_1: 'PO BOX 1',
            city: 'TAMPA',
            state: 'FL',
            postal_code: '33601',
          },
        ],
        basic: {
          first_name: person.first.toUpperCase(),
          last_name: person.last.toUpperCase(),
          credential: 'M.D.',
          sole_proprietor: 'NO',
          gender: 'F',
          enumeration_date: '2007-04-11',
          last_updated: '2023-11-14',
          status: 'A',
        },
        taxonomies: [
          {
            code: '207R00000X',
            taxonomy_group: '',
            desc: 'Internal Medicine',
            state: license.state,
            license: license.number,
            primary: true,
          },
        ],
        identifiers: [],
        endpoints: [],
        other_names: [],
        practiceLocations: [],
      },
    ],
  };
}

type Script = { status: number; body?: unknown } | 'hang';

let server: http.Server;
let baseUrl: string;
const script: Script[] = [];
const requests: string[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    requests.push(request.url ?? '');
    const next = script.shift() ?? { status: 200, body: { result_count: 0, results: [] } };
    if (next === 'hang') return; // never answers; the client's timeout ends it
    response.writeHead(next.status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(next.body ?? { error: 'boom' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const now = new Date('2026-11-24T10:00:00Z');

describe('the NPPES client', () => {
  it('reads a found record, asks for version 2.1, and caches it for a day', async () => {
    const client = createNppesClient({ baseUrl, timeoutMs: 500 });
    script.push({ status: 200, body: registryAnswer('1234567893', { first: 'Jane', last: 'Doe' }) });
    const before = requests.length;
    const found = await client.lookup('1234567893', now);
    expect(requests[before]).toMatch(/version=2\.1/);
    expect(requests[before]).toMatch(/number=1234567893/);
    expect(found.record).toMatchObject({
      npi: '1234567893',
      name: 'JANE DOE',
      credential: 'M.D.',
      status: 'Active',
      enumerationDate: '2007-04-11',
      practiceLocation: '1200 BAYSHORE BLVD, TAMPA, FL, 33606',
      taxonomies: [
        { code: '207R00000X', description: 'Internal Medicine', primary: true, state: 'IL', license: 'MD-1' },
      ],
    });
    // Within a day: no second request. After a day: asked again.
    await client.lookup('1234567893', new Date(now.getTime() + 23 * 3600 * 1000));
    expect(requests.length).toBe(before + 1);
    script.push({ status: 200, body: registryAnswer('1234567893', { first: 'Jane', last: 'Doe' }) });
    await client.lookup('1234567893', new Date(now.getTime() + 25 * 3600 * 1000));
    expect(requests.length).toBe(before + 2);
  });

  it('says when NPPES has no such NPI', async () => {
    const client = createNppesClient({ baseUrl, timeoutMs: 500 });
    script.push({ status: 200, body: { result_count: 0, results: [] } });
    await expect(client.lookup('1245319599', now)).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringMatching(/no provider with the NPI 1245319599/),
    });
  });

  it('retries a 500 once, then gives a clear 503', async () => {
    const client = createNppesClient({ baseUrl, timeoutMs: 500 });
    script.push(
      { status: 500 },
      { status: 200, body: registryAnswer('1234567893', { first: 'A', last: 'B' }) },
    );
    await expect(client.lookup('1234567893', now)).resolves.toMatchObject({ record: { name: 'A B' } });
    const fresh = createNppesClient({ baseUrl, timeoutMs: 500 });
    script.push({ status: 500 }, { status: 503 });
    const error = await fresh.lookup('1234567893', now).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'service_unavailable',
      message: expect.stringMatching(/did not answer/),
    });
  });

  it('gives up after a timeout and one retry', async () => {
    const client = createNppesClient({ baseUrl, timeoutMs: 150 });
    script.push('hang', 'hang');
    const started = Date.now();
    await expect(client.lookup('1234567893', now)).rejects.toMatchObject({ code: 'service_unavailable' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
  });
});

describe('compareWithApplication', () => {
  const snapshot = {
    applicationId: 'a',
    userId: 'u',
    personalInformation: { npi_number: '1234567893' },
    profile: { first_name: 'Jane', last_name: 'Doe' },
    lists: { licenses: [{ issuing_state: 'IL', license_number: 'MD-1' }] },
    documents: [],
  };
  it('finds nothing when the name, the state licenses and the status agree (case and punctuation aside)', () => {
    const raw = registryAnswer('1234567893', { first: 'Jane', last: 'Doe' }).results[0]!;
    expect(compareWithApplication(readNppesResult(raw), raw, snapshot)).toEqual([]);
  });
  it('lists each disagreement', () => {
    const raw = registryAnswer('1234567893', { first: 'Janet', last: 'Doe' }, { state: 'CA', number: 'A1' })
      .results[0]!;
    const inactive = { ...raw, basic: { ...raw.basic, status: 'D' } };
    expect(compareWithApplication(readNppesResult(inactive), inactive, snapshot)).toEqual([
      'Name: NPPES has JANET DOE, the application Jane Doe',
      'License: NPPES lists CA A1 (Internal Medicine), which is not in the application',
      'Status: NPPES says Deactivated, not Active',
    ]);
  });
});

describe("POST .../verification-items/:itemId/nppes ('Check NPPES')", () => {
  let app: TestApp;
  let admin: Awaited<ReturnType<typeof signUpAndSignIn>>;

  beforeAll(async () => {
    app = await createTestApp({ NPPES_API_URL: baseUrl });
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

  it('maps not found to 404 and unreachable to 503, then shows the record with highlighted mismatches and keeps it', async () => {
    const { provider, item, other, path } = await npiItem();
    script.push({ status: 200, body: { result_count: 0, results: [] } });
    const missing = await admin.json<{ message: string }>('POST', path(item.id), {});
    expect(missing.status).toBe(404);
    expect(missing.body.message).toMatch(/NPPES has no provider with the NPI 1234567893/);
    script.push({ status: 500 }, { status: 500 });
    const down = await admin.json<{ message: string }>('POST', path(item.id), {});
    expect(down.status).toBe(503);
    expect(down.body.message).toMatch(/record the result by hand/);

    script.push({
      status: 200,
      body: registryAnswer(
        '1234567893',
        { first: 'Alicia', last: 'Someone' },
        { state: 'TX', number: 'Q99999' },
      ),
    });
    const checked = await admin.json<NppesCheck>('POST', path(item.id), {});
    expect(checked.status).toBe(200);
    expect(checked.body.record.name).toBe('ALICIA SOMEONE');
    expect(checked.body.mismatches).toEqual([
      expect.stringMatching(/^Name: NPPES has ALICIA SOMEONE/),
      expect.stringMatching(/^License: NPPES lists TX Q99999/),
    ]);
    const stored = await app.runtime.deps.database.pool.query(
      'select source_record from verification_items where id = $1',
      [item.id],
    );
    expect(stored.rows[0].source_record).toMatchObject({ number: '1234567893' });
    // Only the NPI item, only administrators.
    expect((await admin.json('POST', path(other.id), {})).status).toBe(409);
    expect((await provider.json('POST', path(item.id), {})).status).toBe(403);
  });
});
