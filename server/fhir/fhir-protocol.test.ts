/**
 * The FHIR API's protocol details (issue 52 item 3), over real HTTP on a real database: content
 * negotiation (406 for XML only, FHIR R4 http.html#mime), a malformed `_cursor` (400, never 500),
 * the Bulk Data manifest's content type and the POST kick-off (Bulk Data IG 2.0), the SMART
 * configuration at the FHIR base, and the search features `_summary=count`, `_total`, `_sort`,
 * `_elements`, accent-blind `name`, `_lastUpdated=eq` at the stored precision and POST `_search`.
 */
import type { Bundle, OperationOutcome, Practitioner, Resource } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../tests/harness.ts';
import { encodeCursor } from './fhir-search.ts';
import { type DirectoryApp, fhirFetcher, startDirectoryApp } from './testing/directory-app.ts';
import { fhirValidationErrors } from './testing/validate-fhir.ts';

let directory: DirectoryApp;
let app: TestApp;
let provider: DirectoryApp['provider'];

beforeAll(async () => {
  directory = await startDirectoryApp();
  ({ app, provider } = directory);
}, 120_000);

afterAll(async () => {
  await directory?.app.close();
});

const fhir = fhirFetcher(() => directory);

const diagnostics = (body: unknown) => (body as OperationOutcome).issue?.[0]?.diagnostics ?? '';

describe('content negotiation (FHIR R4 http.html#mime)', () => {
  it('answers 406 with an OperationOutcome to a client that accepts only XML, JSON to anyone else', async () => {
    for (const accept of [
      'application/fhir+xml',
      'application/xml',
      'application/fhir+xml;q=0.9, text/xml',
    ]) {
      const answer = await fhir<OperationOutcome>('/fhir/Practitioner', { headers: { accept } });
      expect(answer.status, accept).toBe(406);
      expect(answer.headers.get('content-type'), accept).toMatch(/^application\/fhir\+json/);
      expect(answer.body.resourceType).toBe('OperationOutcome');
      expect(diagnostics(answer.body)).toMatch(/send Accept: application\/fhir\+json/);
    }
    for (const format of ['xml', 'application/fhir+xml']) {
      const answer = await fhir(`/fhir/Practitioner?_format=${encodeURIComponent(format)}`);
      expect(answer.status, format).toBe(406);
    }
    expect(
      (await fhir('/fhir/metadata', { token: null, headers: { accept: 'application/fhir+xml' } })).status,
    ).toBe(406);
    for (const accept of [
      '*/*',
      'application/json',
      'application/fhir+json',
      'application/fhir+xml, application/json;q=0.5',
    ]) {
      expect((await fhir('/fhir/Practitioner', { headers: { accept } })).status, accept).toBe(200);
    }
    expect((await fhir('/fhir/Practitioner?_format=json')).status).toBe(200);
    // _format overrides Accept.
    expect(
      (await fhir('/fhir/Practitioner?_format=json', { headers: { accept: 'application/fhir+xml' } })).status,
    ).toBe(200);
  });
});

describe('paging', () => {
  it('answers 400 with an OperationOutcome for a malformed _cursor, a NUL inside one included', async () => {
    const nul = Buffer.from(JSON.stringify(['\u0000', 0])).toString('base64url');
    const surrogate = Buffer.from(JSON.stringify(['\uD800x', 0])).toString('base64url');
    const quote = encodeCursor({ u: "x' or 1=1 --", s: 0 });
    for (const cursor of [
      nul,
      surrogate,
      quote,
      'garbage!!',
      '%00',
      'AAAA',
      encodeCursor({ u: 'a', s: 1e12 }),
    ]) {
      const answer = await fhir<OperationOutcome>(`/fhir/Practitioner?_cursor=${encodeURIComponent(cursor)}`);
      expect(answer.status, cursor).toBe(400);
      expect(answer.body.resourceType, cursor).toBe('OperationOutcome');
    }
    const answer = await fhir(`/fhir/Practitioner?_cursor=${nul}`);
    expect(diagnostics(answer.body)).toMatch(/follow the Bundle next link/);
  });
});

describe('SMART configuration', () => {
  it('is served at the FHIR base as application/json, without a token', async () => {
    const answer = await fhir<Record<string, unknown>>('/fhir/.well-known/smart-configuration', {
      token: null,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.body).toMatchObject({
      token_endpoint: expect.stringMatching(/\/oauth\/token$/),
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: expect.arrayContaining([
        'private_key_jwt',
        'client_secret_basic',
      ]),
      token_endpoint_auth_signing_alg_values_supported: ['RS384', 'ES384'],
      scopes_supported: expect.arrayContaining(['system/*.read', 'system/Practitioner.read']),
    });
    expect(answer.body.scopes_supported).not.toContain('roster.read');
  });
});

/** Poll the status URL of a kick-off until the manifest is there. */
async function manifestOf(kickOff: { headers: Headers }) {
  const statusPath = new URL(kickOff.headers.get('content-location')!).pathname;
  for (let i = 0; i < 100; i++) {
    const polled = await fhir<Record<string, unknown>>(statusPath);
    if (polled.status === 200) return polled;
    expect(polled.status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the export did not finish');
}

describe('Bulk Data $export (IG 2.0)', () => {
  it('sends the manifest as application/json, and takes a POST kick-off with a Parameters body or none', async () => {
    // First, a POST kick-off with a Parameters body naming two types.
    const posted = await fhir('/fhir/$export', {
      method: 'POST',
      headers: { prefer: 'respond-async', 'content-type': 'application/fhir+json' },
      body: JSON.stringify({
        resourceType: 'Parameters',
        parameter: [
          { name: '_type', valueString: 'Practitioner' },
          { name: '_type', valueString: 'Location' },
          { name: '_outputFormat', valueString: 'application/fhir+ndjson' },
        ],
      }),
    });
    expect(posted.status).toBe(202);
    const manifest = await manifestOf(posted);
    expect(manifest.headers.get('content-type')).toMatch(/^application\/json/);
    expect((manifest.body.output as { type: string }[]).map((o) => o.type)).toEqual([
      'Practitioner',
      'Location',
    ]);

    // Second, a POST without a body exports every type.
    const bare = await fhir('/fhir/$export', { method: 'POST', headers: { prefer: 'respond-async' } });
    expect(bare.status).toBe(202);
    const all = await manifestOf(bare);
    expect((all.body.output as { type: string }[]).map((o) => o.type)).toHaveLength(5);

    // A body that is not Parameters, or an unknown parameter, is a 400 saying what to send.
    const wrong = await fhir('/fhir/$export', {
      method: 'POST',
      headers: { prefer: 'respond-async', 'content-type': 'application/fhir+json' },
      body: JSON.stringify({ resourceType: 'Patient' }),
    });
    expect(wrong.status).toBe(400);
    expect(diagnostics(wrong.body)).toMatch(/must be a FHIR Parameters resource/);
    const unknown = await fhir('/fhir/$export', {
      method: 'POST',
      headers: { prefer: 'respond-async', 'content-type': 'application/fhir+json' },
      body: JSON.stringify({
        resourceType: 'Parameters',
        parameter: [{ name: 'patient', valueString: 'x' }],
      }),
    });
    expect(unknown.status).toBe(400);
    expect(diagnostics(unknown.body)).toMatch(/'patient' is not supported/);
  });
});

const resources = (bundle: Bundle) => (bundle.entry ?? []).map((e) => e.resource!);

/** Every match of a search, following its next links. */
async function everyPage(path: string): Promise<Resource[]> {
  const out: Resource[] = [];
  let next: string | undefined = path;
  while (next) {
    const page: { status: number; body: Bundle } = await fhir<Bundle>(next);
    expect(page.status).toBe(200);
    out.push(...resources(page.body));
    const url = page.body.link?.find((l) => l.relation === 'next')?.url;
    next = url ? url.replace(/^https?:\/\/[^/]+/, '') : undefined;
  }
  return out;
}

describe('search result parameters (FHIR R4 search.html)', () => {
  it('_summary=count gives the total without entries; _total=accurate counts past the first page, none leaves it out', async () => {
    const all = await everyPage('/fhir/VerificationResult?_count=1000');
    expect(all.length).toBeGreaterThan(2);
    const counted = await fhir<Bundle>('/fhir/VerificationResult?_summary=count');
    expect(counted.status).toBe(200);
    expect(counted.body).toMatchObject({ type: 'searchset', total: all.length });
    expect(counted.body.entry ?? []).toEqual([]);
    expect(fhirValidationErrors(counted.body)).toEqual([]);
    const accurate = await fhir<Bundle>('/fhir/VerificationResult?_count=1&_total=accurate');
    expect(accurate.body.total).toBe(all.length);
    expect(accurate.body.entry).toHaveLength(1);
    const none = await fhir<Bundle>('/fhir/Practitioner?_total=none');
    expect(none.body.total).toBeUndefined();
    expect(none.body.entry).toHaveLength(1);
    expect((await fhir('/fhir/Practitioner?_summary=text')).status).toBe(400);
  });

  it('_sort=_lastUpdated and -_lastUpdated order every page by meta.lastUpdated', async () => {
    const all = await everyPage('/fhir/VerificationResult?_count=1000');
    for (const [sort, direction] of [
      ['_lastUpdated', 1],
      ['-_lastUpdated', -1],
    ] as const) {
      const sorted = await everyPage(`/fhir/VerificationResult?_sort=${sort}&_count=2`);
      expect(sorted.map((r) => r.id).sort()).toEqual(all.map((r) => r.id).sort());
      const times = sorted.map((r) => Date.parse(r.meta!.lastUpdated!));
      for (let i = 1; i < times.length; i++)
        expect(direction * (times[i]! - times[i - 1]!)).toBeGreaterThanOrEqual(0);
    }
    expect((await fhir('/fhir/Practitioner?_sort=name')).status).toBe(400);
  });

  it('_elements keeps id, meta and the listed elements, tagged SUBSETTED', async () => {
    const answer = await fhir<Bundle>('/fhir/Practitioner?_elements=identifier,active');
    expect(answer.status).toBe(200);
    const [practitioner] = resources(answer.body) as Practitioner[];
    expect(Object.keys(practitioner!).sort()).toEqual(['active', 'id', 'identifier', 'meta', 'resourceType']);
    expect(practitioner!.meta?.tag).toContainEqual({
      system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationValue',
      code: 'SUBSETTED',
    });
    expect(fhirValidationErrors(practitioner!)).toEqual([]);
    expect(answer.body.link?.[0]?.url).toContain('_elements=identifier%2Cactive');
    expect((await fhir('/fhir/Practitioner?_elements=name.given')).status).toBe(400);
  });

  it('POST _search with a form body answers as GET', async () => {
    const got = await fhir<Bundle>(
      `/fhir/Practitioner?_id=${provider.userId}&_revinclude=PractitionerRole:practitioner`,
    );
    const posted = await fhir<Bundle>('/fhir/Practitioner/_search', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        _id: provider.userId,
        _revinclude: 'PractitionerRole:practitioner',
      }).toString(),
    });
    expect(posted.status).toBe(200);
    expect(resources(posted.body)).toEqual(resources(got.body));
    expect(posted.body.total).toBe(1);
    const bad = await fhir<OperationOutcome>('/fhir/Practitioner/_search', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'nonsense=1',
    });
    expect(bad.status).toBe(400);
    expect(diagnostics(bad.body)).toMatch(/Unknown search parameter 'nonsense'/);
  });
});

describe('search matching', () => {
  it('matches name without regard to accents or case: nunez and NÚÑEZ find Núñez', async () => {
    // The published record's family name, as a provider named Núñez would have it.
    await app.runtime.deps.database.pool.query(
      "update provider_credentials set family_name = 'Núñez' where user_id = $1",
      [provider.userId],
    );
    for (const name of ['nunez', 'NÚÑEZ', 'Núñez', 'nuñ']) {
      const answer = await fhir<Bundle>(`/fhir/Practitioner?name=${encodeURIComponent(name)}`);
      expect(answer.status, name).toBe(200);
      expect(
        resources(answer.body).map((r) => r.id),
        name,
      ).toEqual([provider.userId]);
    }
    expect(resources((await fhir<Bundle>('/fhir/Practitioner?name=nunezz')).body)).toEqual([]);
  });

  it("_lastUpdated=eq with a resource's own meta.lastUpdated finds it; gt does not, le does", async () => {
    // Stamps the database writes itself (defaultNow(), SQL backfills) hold microseconds, which
    // meta.lastUpdated (milliseconds) does not show.
    const { pool } = app.runtime.deps.database;
    await pool.query(
      "update provider_credentials set published_at = date_trunc('milliseconds', published_at) + interval '456 microseconds'",
    );
    await pool.query(
      "update verification_items set updated_at = date_trunc('milliseconds', updated_at) + interval '456 microseconds'",
    );
    for (const type of ['Practitioner', 'VerificationResult', 'Organization'] as const) {
      const [first] = resources((await fhir<Bundle>(`/fhir/${type}?_count=1`)).body);
      if (!first) continue;
      const stamp = encodeURIComponent(first.meta!.lastUpdated!);
      const ids = async (prefix: string) =>
        resources((await fhir<Bundle>(`/fhir/${type}?_lastUpdated=${prefix}${stamp}&_count=1000`)).body).map(
          (r) => r.id,
        );
      expect(await ids('eq'), type).toContain(first.id);
      expect(await ids(''), type).toContain(first.id);
      expect(await ids('le'), type).toContain(first.id);
      expect(await ids('ge'), type).toContain(first.id);
      expect(await ids('gt'), type).not.toContain(first.id);
      expect(await ids('lt'), type).not.toContain(first.id);
    }
  });
});
