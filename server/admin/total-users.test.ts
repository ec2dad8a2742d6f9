/**
 * Issue 17: the admin dashboard's 'Total Users' says it counts "All accounts: providers and
 * administrators" (web/features/admin/admin-page.tsx). This checks that the count is exactly that:
 * every account, administrators included, unconfirmed sign-ups included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  createTestApp,
  grantAdmin,
  STRONG_PASSWORD,
  signUpAndSignIn,
  type TestApp,
} from '../../tests/harness.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

describe("'Total Users' on the admin dashboard", () => {
  it('counts every account: providers, administrators and not yet confirmed sign-ups', async () => {
    // First, Ada becomes an administrator; then Ben signs up as a provider; Cy signs up, unconfirmed.
    const ada = await signUpAndSignIn(app, { firstName: 'Ada', lastName: 'Admin' });
    await grantAdmin(app, ada);
    await signUpAndSignIn(app, { firstName: 'Ben', lastName: 'Provider' });
    const cy = await new Client(app).json('POST', '/api/auth/sign-up/email', {
      email: `cy.${Date.now()}@example.test`,
      password: STRONG_PASSWORD,
      name: 'Cy Pending',
      firstName: 'Cy',
      lastName: 'Pending',
    });
    expect(cy.status).toBe(200);

    const stats = await ada.json<{ totalUsers: number }>('GET', '/api/admin/stats');
    expect(stats.status).toBe(200);
    const { rows } = await app.runtime.deps.database.pool.query<{ accounts: number; admins: number }>(
      `select (select count(*)::int from "user") as accounts,
              (select count(*)::int from user_roles where role = 'admin') as admins`,
    );
    expect(rows[0]!.admins).toBe(1);
    expect(stats.body.totalUsers).toBe(rows[0]!.accounts);
    expect(stats.body.totalUsers).toBe(3);
  });
});
