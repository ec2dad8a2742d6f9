import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

interface Application {
  id: string;
  applicationStatus: string;
  progress: number;
  completeSections: string[];
}

describe('/api/applications', () => {
  it('starts a draft at 0%, lists newest first, refuses a second draft', async () => {
    const alice = await signUpAndSignIn(app);
    expect(
      (await alice.json<{ applications: Application[] }>('GET', '/api/applications')).body.applications,
    ).toEqual([]);
    const created = await alice.json<Application>('POST', '/api/applications', {});
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ applicationStatus: 'draft', progress: 0, completeSections: [] });
    const second = await alice.json<{ code: string }>('POST', '/api/applications', {});
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('conflict');
    const list = await alice.json<{ applications: Application[] }>('GET', '/api/applications');
    expect(list.body.applications.map((a) => a.id)).toEqual([created.body.id]);
  });

  it('lets a provider start again once the current application is no longer a draft', async () => {
    const alice = await signUpAndSignIn(app);
    const first = await alice.json<Application>('POST', '/api/applications', {});
    await app.runtime.deps.database.pool.query(
      `update provider_applications set application_status = 'approved' where id = $1`,
      [first.body.id],
    );
    const second = await alice.json<Application>('POST', '/api/applications', {});
    expect(second.status).toBe(201);
    const list = await alice.json<{ applications: Application[] }>('GET', '/api/applications');
    expect(list.body.applications.map((a) => a.id)).toEqual([second.body.id, first.body.id]);
  });

  it("never shows provider A's application to provider B", async () => {
    // First, Alice starts an application.
    const alice = await signUpAndSignIn(app);
    const created = await alice.json<Application>('POST', '/api/applications', {});
    // Second, Bob signs in and tries to read it.
    const bob = await signUpAndSignIn(app);
    const read = await bob.json('GET', `/api/applications/${created.body.id}`);
    expect(read.status).toBe(404);
    const bobList = await bob.json<{ applications: Application[] }>('GET', '/api/applications');
    expect(bobList.body.applications).toEqual([]);
  });

  it('lets an admin read any application but not use the provider endpoints', async () => {
    const alice = await signUpAndSignIn(app);
    const created = await alice.json<Application>('POST', '/api/applications', {});
    const admin = await signUpAndSignIn(app);
    await grantAdmin(app, admin);
    expect((await admin.json('GET', `/api/applications/${created.body.id}`)).status).toBe(200);
    expect((await admin.json('POST', '/api/applications', {})).status).toBe(403);
  });

  it('requires a session', async () => {
    const anonymous = new Client(app);
    expect((await anonymous.json('GET', '/api/applications')).status).toBe(401);
    expect((await anonymous.json('POST', '/api/applications', {})).status).toBe(401);
    expect((await anonymous.json('GET', '/api/me')).status).toBe(401);
  });

  it('blocks a cross-site POST that carries the session cookie', async () => {
    const alice = await signUpAndSignIn(app);
    const forged = await alice.request('POST', '/api/applications', {}, { origin: 'https://evil.example' });
    expect(forged.status).toBe(403);
    expect(
      (await alice.json<{ applications: Application[] }>('GET', '/api/applications')).body.applications,
    ).toEqual([]);
  });

  it('answers an unknown id format with 404, not 500', async () => {
    const alice = await signUpAndSignIn(app);
    expect((await alice.json('GET', '/api/applications/not-a-uuid')).status).toBe(404);
  });
});
