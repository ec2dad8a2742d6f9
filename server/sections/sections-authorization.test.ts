/**
 * Spec §6 on the server, for every section endpoint and every section: provider B gets 404 on
 * provider A's application (read and write), an admin reads but gets 403 on every write, anonymous
 * gets 401; and none of the refused calls changes anything.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { storedListSections } from './list-sections.service.ts';

let app: TestApp;
type Provider = Awaited<ReturnType<typeof signUpAndSignIn>>;
let alice: Provider;
let bob: Provider;
let admin: Provider;
let base: string;
/** One saved row id per section of Alice's application, by slug. */
const rowIdBySlug = new Map<string, string>();

/** A valid write body per layout (every section accepts a row with no fields except the required ones). */
const validRow: Record<string, Record<string, unknown>> = {
  payors: { payorName: 'Intruder Health' },
  certifications: { certificationKind: 'other', certificationName: 'Intruder', certifyingBody: 'Nobody' },
  cme: { activityTitle: 'Intruder', providerName: 'Nobody' },
  'peer-references': { referenceName: 'Intruder' },
  // Issue 31: cards with required fields. Secondary, so that saving it again next to the saved one
  // (Alice's first, primary: exactly one primary specialty, issue 51 item 4) breaks no rule.
  specialties: { specialtyRank: 'secondary', taxonomyCode: '207R00000X' },
  'practice-locations': { practiceName: 'Intruder Clinic' },
  'hospital-affiliations': { facilityName: 'Intruder Hospital' },
  training: { trainingType: 'residency', institutionName: 'Intruder University' },
  'malpractice-claims': { status: 'dismissed', claimDate: '2020-01-01' },
};
const writeOf = (slug: string, layout: string) =>
  layout === 'repeatable-cards'
    ? { method: 'PUT', path: `${base}/${slug}`, body: { rows: [validRow[slug] ?? {}] } }
    : { method: 'POST', path: `${base}/${slug}`, body: validRow[slug] };

/** Every row of Alice's application, to prove refused calls change nothing. */
async function snapshot(): Promise<unknown> {
  const rows: unknown[] = [];
  for (const section of storedListSections) {
    rows.push((await alice.json('GET', `${base}/${section.slug}`)).body);
  }
  rows.push((await alice.json('GET', `${base}/personal-information`)).body);
  return rows;
}

beforeAll(async () => {
  app = await createTestApp();
  // First, Alice fills personal information and one row of every list section.
  alice = await signUpAndSignIn(app, { firstName: 'Alice' });
  const application = await alice.json<{ id: string }>('POST', '/api/applications', {});
  base = `/api/applications/${application.body.id}/sections`;
  expect(
    (await alice.json('PUT', `${base}/personal-information`, { ssn: '123-45-6789', city: 'Austin' })).status,
  ).toBe(200);
  for (const section of storedListSections) {
    const write = writeOf(section.slug, section.layout);
    // Her first specialty is the primary one (issue 51 item 4: exactly one when any are listed).
    if (section.slug === 'specialties')
      write.body = { rows: [{ ...validRow.specialties, specialtyRank: 'primary' }] };
    const saved = await alice.json<{ id: string; rows?: { id: string }[] }>(
      write.method,
      write.path,
      write.body,
    );
    expect(saved.status).toBeLessThan(300);
    rowIdBySlug.set(section.slug, saved.body.rows ? saved.body.rows[0]!.id : saved.body.id);
  }
  // Second, Bob (a provider with his own draft) and an admin.
  bob = await signUpAndSignIn(app, { firstName: 'Bob' });
  await bob.json('POST', '/api/applications', {});
  admin = await signUpAndSignIn(app, { firstName: 'Ada' });
  await grantAdmin(app, admin);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

/** Every section endpoint on Alice's application: method, path, body, and whether it writes. */
interface Endpoint {
  method: string;
  path: string;
  body?: unknown;
  writes: boolean;
  /** What the owner gets when it is not a success (a refusal about the application, not the caller). */
  ownerStatus?: number;
}
function endpoints(): Endpoint[] {
  const list: Endpoint[] = [
    { method: 'GET', path: `${base}/personal-information`, writes: false },
    { method: 'PUT', path: `${base}/personal-information`, body: { city: 'Intruder' }, writes: true },
    // 'Review and Confirm' (issue 29 item 6): Alice's draft is not a copy, so the owner gets 409.
    { method: 'POST', path: `${base}/personal-information/confirm`, writes: true, ownerStatus: 409 },
  ];
  for (const section of storedListSections) {
    const write = writeOf(section.slug, section.layout);
    list.push(
      { method: 'GET', path: `${base}/${section.slug}`, writes: false },
      { ...write, writes: true },
      { method: 'DELETE', path: `${base}/${section.slug}/${rowIdBySlug.get(section.slug)}`, writes: true },
      { method: 'POST', path: `${base}/${section.slug}/confirm`, writes: true, ownerStatus: 409 },
    );
  }
  return list;
}

describe('section authorization', () => {
  it('covers every registered section route (method and URL pattern)', () => {
    // Every route under .../sections/, whichever feature registered it (collected at registration).
    const routes = app.runtime.app.routeTable.filter((r) => r.url.includes('/sections/'));
    expect(routes.length).toBeGreaterThan(0);
    const patternOf = (url: string) =>
      new RegExp(
        '^' +
          url
            .split('/')
            .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^$(){}|[\]\\]/g, '\\$&')))
            .join('/') +
          '$',
      );
    const paramCount = (url: string) => url.split('/').filter((part) => part.startsWith(':')).length;
    // Each endpoint counts for the route the router picks: a static segment wins over `:slug`.
    const covered = new Set<string>();
    for (const { method, path } of endpoints()) {
      const [route] = routes
        .filter((r) => r.method === method && patternOf(r.url).test(path))
        .sort((a, b) => paramCount(a.url) - paramCount(b.url));
      if (route) covered.add(`${route.method} ${route.url}`);
    }
    expect(routes.map((r) => `${r.method} ${r.url}`).filter((name) => !covered.has(name))).toEqual([]);
  });

  it("gives provider B 404 on every section endpoint of A's application, and changes nothing", async () => {
    const before = await snapshot();
    for (const { method, path, body } of endpoints()) {
      const response = await bob.json<{ code: string }>(method, path, body);
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.code).toBe('not_found');
    }
    expect(await snapshot()).toEqual(before);
  });

  it('lets an admin read every section and refuses every write with 403', async () => {
    const before = await snapshot();
    for (const { method, path, body, writes } of endpoints()) {
      const response = await admin.request(method, path, body);
      expect(response.status, `${method} ${path}`).toBe(writes ? 403 : 200);
      if (!writes) expect(response.headers.get('cache-control')).toBe('no-store');
      const text = await response.text();
      expect(text).not.toContain('123-45-6789');
    }
    expect(await snapshot()).toEqual(before);
  });

  it('answers 401 to anonymous callers on every section endpoint, before looking at the input', async () => {
    const anonymous = new Client(app);
    for (const { method, path, body } of endpoints()) {
      expect((await anonymous.json(method, path, body)).status, `${method} ${path}`).toBe(401);
    }
    expect((await anonymous.json('POST', `${base}/payors`, 'not even an object')).status).toBe(401);
    expect((await anonymous.json('GET', `${base}/no-such-section`)).status).toBe(401);
  });

  it('still lets the owner read and write (the refusals above are about the caller)', async () => {
    for (const { method, path, body, ownerStatus } of endpoints()) {
      const response = await alice.json(method, path, body);
      if (ownerStatus) expect(response.status, `${method} ${path}`).toBe(ownerStatus);
      else expect(response.status, `${method} ${path}`).toBeLessThan(300);
    }
  });
});
