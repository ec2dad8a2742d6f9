/**
 * The FHIR R4 directory API end to end (issue 33 items 3 and 5, the acceptance's integration test):
 * a provider with every section filled is reviewed, verified and approved through the product; an
 * API client gets a token from POST /oauth/token, reads the provider by NPI with its roles, follows
 * with PractitionerRole?practitioner=… and its includes, reads every type, and runs a Bulk Data
 * $export whose NDJSON lines each validate. Everything the API returns is validated against the R4
 * base definitions (zero errors). A provider session and a revoked client get 401.
 */
import type { Bundle, CapabilityStatement, OperationOutcome, Resource } from '@medplum/fhirtypes';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../tests/harness.ts';
import { revokeApiClient } from '../api-clients/api-clients.service.ts';
import { clientWithToken } from '../api-clients/testing.ts';
import { auditLog } from '../db/schema/audit.ts';
import { FACTORY_ADDITIONAL, FACTORY_SSN } from '../notifications/testing/completed-application.ts';
import { NEW_PATIENTS_EXTENSION, NPI_SYSTEM, NUCC_SYSTEM } from './fhir-resources.ts';
import { type DirectoryApp, fhirFetcher, startDirectoryApp } from './testing/directory-app.ts';
import { fhirValidationErrors } from './testing/validate-fhir.ts';

let directory: DirectoryApp;
let app: TestApp;
let provider: DirectoryApp['provider'];
let token: string;
const NPI = '1234567893';

beforeAll(async () => {
  directory = await startDirectoryApp();
  ({ app, provider, token } = directory);
}, 120_000);

afterAll(async () => {
  await directory?.app.close();
});

const fhir = fhirFetcher(() => directory);

/** Validate a resource and, for a Bundle, every entry's resource; returns every error. */
function allErrors(resource: Resource): string[] {
  const errors = fhirValidationErrors(resource);
  if (resource.resourceType === 'Bundle') {
    for (const e of (resource as Bundle).entry ?? [])
      if (e.resource) errors.push(...fhirValidationErrors(e.resource));
  }
  return errors;
}

const resources = (bundle: Bundle) => (bundle.entry ?? []).map((e) => e.resource!);

describe('FHIR directory API', () => {
  it('states its capabilities truthfully at /fhir/metadata, without a token', async () => {
    const answer = await fhir<CapabilityStatement>('/fhir/metadata', { token: null });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/fhir\+json/);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(allErrors(answer.body)).toEqual([]);
    const rest = answer.body.rest![0]!;
    expect(rest.resource!.map((r) => r.type)).toEqual([
      'Practitioner',
      'PractitionerRole',
      'Location',
      'Organization',
      'VerificationResult',
    ]);
    expect(rest.operation).toEqual([expect.objectContaining({ name: 'export' })]);
    expect(JSON.stringify(rest.security)).toContain('/oauth/token');
    // No profile is claimed that the tests do not check.
    for (const r of rest.resource!) expect(r.supportedProfile).toBeUndefined();
  });

  it('finds the provider by NPI with its roles, then the roles with their practitioner and location', async () => {
    // First, the payer looks the provider up by NPI, with the roles that point at them.
    const byNpi = await fhir<Bundle>(
      `/fhir/Practitioner?identifier=${encodeURIComponent(`${NPI_SYSTEM}|${NPI}`)}&_revinclude=PractitionerRole:practitioner`,
    );
    expect(byNpi.status).toBe(200);
    expect(allErrors(byNpi.body)).toEqual([]);
    expect(byNpi.body).toMatchObject({ type: 'searchset', total: 1 });
    const [practitioner, ...included] = resources(byNpi.body);
    expect(practitioner).toMatchObject({
      resourceType: 'Practitioner',
      id: provider.userId,
      active: true,
      identifier: expect.arrayContaining([{ use: 'official', system: NPI_SYSTEM, value: NPI }]),
    });
    expect(included.map((r) => r.resourceType)).toEqual(['PractitionerRole']);
    expect(byNpi.body.entry!.map((e) => e.search?.mode)).toEqual(['match', 'include']);
    // Nothing of the SSN, date of birth or home address is published.
    const text = JSON.stringify(byNpi.body);
    for (const secret of [FACTORY_SSN, '1980-02-29', 'Suite 2', '(555) 010-2000', 'D1234567'])
      expect(text).not.toContain(secret);

    // Second, the roles of that practitioner with their practitioner and location.
    const roles = await fhir<Bundle>(
      `/fhir/PractitionerRole?practitioner=Practitioner/${provider.userId}&_include=PractitionerRole:practitioner&_include=PractitionerRole:location`,
    );
    expect(roles.status).toBe(200);
    expect(allErrors(roles.body)).toEqual([]);
    const [role, ...rest] = resources(roles.body);
    expect(role).toMatchObject({
      resourceType: 'PractitionerRole',
      practitioner: { reference: `Practitioner/${provider.userId}` },
      specialty: [{ coding: [{ system: NUCC_SYSTEM, code: FACTORY_ADDITIONAL.specialty.taxonomyCode }] }],
      extension: [{ url: NEW_PATIENTS_EXTENSION }],
    });
    expect(rest.map((r) => r.resourceType).sort()).toEqual(['Location', 'Practitioner']);
  });

  it('reads and searches every type, and every resource validates', async () => {
    for (const type of [
      'Practitioner',
      'PractitionerRole',
      'Location',
      'Organization',
      'VerificationResult',
    ]) {
      const search = await fhir<Bundle>(`/fhir/${type}?_count=1000`);
      expect(search.status, type).toBe(200);
      expect(allErrors(search.body)).toEqual([]);
      expect(search.body.entry?.length, type).toBeGreaterThan(0);
      for (const resource of resources(search.body)) {
        const read = await fhir(`/fhir/${type}/${resource.id}`);
        expect(read.status).toBe(200);
        expect(read.body).toEqual(resource);
      }
    }
    const org = await fhir<Bundle>(
      `/fhir/Organization?identifier=${FACTORY_ADDITIONAL.practiceLocation.groupNpi}`,
    );
    expect(resources(org.body)).toEqual([
      expect.objectContaining({ id: `group-${FACTORY_ADDITIONAL.practiceLocation.groupNpi}` }),
    ]);
    // One VerificationResult per checklist item, all verified.
    const results = await fhir<Bundle>(`/fhir/VerificationResult?target=${provider.userId}`);
    const items = resources(results.body) as { status: string }[];
    expect(items.length).toBeGreaterThan(5);
    expect(new Set(items.map((i) => i.status))).toEqual(new Set(['validated']));
  });

  it('pages with an opaque next link until the last page, and filters by _lastUpdated', async () => {
    const all = resources((await fhir<Bundle>('/fhir/VerificationResult')).body).map((r) => r.id);
    const seen: string[] = [];
    let next: string | undefined = '/fhir/VerificationResult?_count=2';
    while (next) {
      const page: { body: Bundle } = await fhir<Bundle>(next);
      expect(page.body.total).toBeUndefined();
      seen.push(...resources(page.body).map((r) => r.id!));
      const link = page.body.link?.find((l) => l.relation === 'next')?.url;
      next = link ? link.replace(/^https?:\/\/[^/]+/, '') : undefined;
    }
    expect(seen).toEqual(all);
    expect(resources((await fhir<Bundle>('/fhir/Practitioner?_lastUpdated=gt2999-01-01')).body)).toEqual([]);
    expect(
      resources(
        (await fhir<Bundle>('/fhir/Practitioner?_lastUpdated=ge2000-01-01&_lastUpdated=lt2999-01-01')).body,
      ),
    ).toHaveLength(1);
    expect(resources((await fhir<Bundle>('/fhir/Practitioner?name=zzz')).body)).toEqual([]);
  });

  it('answers OperationOutcomes: 400 bad parameters, 401 no token or a session, 403 scope, 404 unknown', async () => {
    const cases: [string, number, { token?: string | null }?][] = [
      ['/fhir/Practitioner?family=Smith', 400],
      ['/fhir/Practitioner?_count=1001', 400],
      ['/fhir/Practitioner?identifier=http://example.org|1', 400],
      ['/fhir/Practitioner?_lastUpdated=yesterday', 400],
      ['/fhir/Practitioner?_cursor=bogus', 400],
      ['/fhir/Practitioner', 401, { token: null }],
      ['/fhir/Practitioner', 401, { token: 'not-a-token' }],
      ['/fhir/Patient', 404],
      ['/fhir/Practitioner/unknown-id', 404],
    ];
    for (const [path, status, options] of cases) {
      const answer = await fhir<OperationOutcome>(path, options);
      expect(answer.status, path).toBe(status);
      expect(answer.body.resourceType, path).toBe('OperationOutcome');
      expect(allErrors(answer.body)).toEqual([]);
    }
    // A provider's web session never reaches /fhir.
    const withSession = await provider.request('GET', '/fhir/Practitioner');
    expect(withSession.status).toBe(401);
    // A token for Location only cannot read Practitioners nor include them.
    const locationOnly = (await clientWithToken(app, ['system/Location.read'])).accessToken;
    expect((await fhir('/fhir/Practitioner', { token: locationOnly })).status).toBe(403);
    expect((await fhir('/fhir/Location', { token: locationOnly })).status).toBe(200);
    const roleOnly = (await clientWithToken(app, ['system/PractitionerRole.read'])).accessToken;
    expect(
      (await fhir('/fhir/PractitionerRole?_include=PractitionerRole:practitioner', { token: roleOnly }))
        .status,
    ).toBe(403);
  });

  it('refuses a revoked client with 401', async () => {
    const client = await clientWithToken(app, ['system/Practitioner.read']);
    expect((await fhir('/fhir/Practitioner', { token: client.accessToken })).status).toBe(200);
    await revokeApiClient(app.runtime.deps.db, { id: client.id }, { userId: null, via: 'cli' }, new Date());
    const refused = await fhir<OperationOutcome>('/fhir/Practitioner', { token: client.accessToken });
    expect(refused.status).toBe(401);
    expect(refused.body.resourceType).toBe('OperationOutcome');
  });

  it('audits every read with the client, the interaction, the type and the count', async () => {
    const rows = await app.runtime.deps.db.select().from(auditLog).where(eq(auditLog.action, 'fhir.read'));
    expect(rows.length).toBeGreaterThan(10);
    expect(rows[0]!.details).toMatchObject({
      interaction: expect.any(String),
      type: expect.any(String),
      count: expect.any(Number),
    });
    expect(JSON.stringify(rows)).not.toContain(NPI);
  });
});

describe('Bulk Data $export', () => {
  it('exports every type as NDJSON through the async pattern; every line validates', async () => {
    // First, the kick-off needs Prefer: respond-async.
    expect((await fhir('/fhir/$export')).status).toBe(400);
    expect(
      (await fhir('/fhir/$export?_outputFormat=text/csv', { headers: { prefer: 'respond-async' } })).status,
    ).toBe(400);
    expect((await fhir('/fhir/$export?_type=Patient', { headers: { prefer: 'respond-async' } })).status).toBe(
      400,
    );
    const kickOff = await fhir('/fhir/$export?_outputFormat=application/fhir%2Bndjson', {
      headers: { prefer: 'respond-async', accept: 'application/fhir+json' },
    });
    expect(kickOff.status).toBe(202);
    const statusUrl = kickOff.headers.get('content-location')!;
    expect(statusUrl).toMatch(/\/fhir\/\$export-status\/[0-9a-f-]{36}$/);
    const statusPath = new URL(statusUrl).pathname;
    // Then it is polled until the manifest is there.
    let manifest: { status: number; headers: Headers; body: Record<string, unknown> } | undefined;
    for (let i = 0; i < 100; i++) {
      const polled = await fhir<Record<string, unknown>>(statusPath);
      if (polled.status === 200) {
        manifest = polled;
        break;
      }
      expect(polled.status).toBe(202);
      expect(polled.headers.get('retry-after')).toBeTruthy();
      expect(polled.headers.get('x-progress')).toBeTruthy();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(manifest?.body).toMatchObject({
      requiresAccessToken: true,
      error: [],
      transactionTime: expect.any(String),
    });
    const output = manifest!.body.output as { type: string; url: string; count: number }[];
    expect(output.map((o) => o.type)).toEqual([
      'Practitioner',
      'PractitionerRole',
      'Location',
      'Organization',
      'VerificationResult',
    ]);
    // Every file downloads with the token and every line validates.
    for (const file of output) {
      const response = await fetch(file.url.replace(/^https?:\/\/[^/]+/, app.baseUrl), {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/fhir+ndjson');
      const lines = (await response.text()).split('\n').filter(Boolean);
      expect(lines).toHaveLength(file.count);
      for (const line of lines) {
        const resource = JSON.parse(line) as Resource;
        expect(resource.resourceType).toBe(file.type);
        expect(fhirValidationErrors(resource)).toEqual([]);
      }
      // Without the token, or with another client's, the file is not served.
      const bare = await fetch(file.url.replace(/^https?:\/\/[^/]+/, app.baseUrl));
      expect(bare.status).toBe(401);
    }
    const other = (await clientWithToken(app, ['system/*.read'])).accessToken;
    expect((await fhir(statusPath, { token: other })).status).toBe(404);
    // Finally, DELETE removes the export: its status is gone.
    expect((await fhir(statusPath, { method: 'DELETE' })).status).toBe(202);
    expect((await fhir(statusPath)).status).toBe(404);
    const audits = await app.runtime.deps.db
      .select()
      .from(auditLog)
      .where(inArray(auditLog.action, ['fhir.export_requested', 'fhir.export_downloaded']));
    expect(audits.filter((a) => a.action === 'fhir.export_downloaded')).toHaveLength(output.length);
  });

  it('exports only the types asked for, changed since _since; each type needs its scope', async () => {
    const locationOnly = (await clientWithToken(app, ['system/Location.read'])).accessToken;
    expect(
      (
        await fhir('/fhir/$export?_type=Practitioner', {
          token: locationOnly,
          headers: { prefer: 'respond-async' },
        })
      ).status,
    ).toBe(403);
    const future = await fhir('/fhir/$export?_type=Location&_since=2999-01-01T00:00:00Z', {
      token: locationOnly,
      headers: { prefer: 'respond-async' },
    });
    expect(future.status).toBe(202);
    const statusPath = new URL(future.headers.get('content-location')!).pathname;
    let body: Record<string, unknown> | undefined;
    for (let i = 0; i < 100 && !body; i++) {
      const polled = await fhir<Record<string, unknown>>(statusPath, { token: locationOnly });
      if (polled.status === 200) body = polled.body;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(body).toMatchObject({ output: [], error: [] });
  });
});
