/**
 * The 'Staff' tab's API (issue 32 item 2) on a real database: an administrator lists the staff and
 * finds anyone by name, sets a person's roles (audited, applied from their next request; a Medical
 * Director or Committee Member grant emailed to every administrator, issue 50 item 5), never their
 * own (issue 50 item 5), and cannot remove the last administrator, not even with two removals at
 * once; nobody else may.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWN_ROLES_MESSAGE, type StaffList, type StaffMember } from '../../domain/api/staff.ts';
import {
  createTestApp,
  grantAdmin,
  signUpAndSignIn,
  signUpStaff,
  type TestApp,
} from '../../tests/harness.ts';

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
}, 60_000);

afterAll(async () => {
  await app?.close();
});

describe('Staff tab', () => {
  it('lists the staff, finds a provider by name, grants roles that apply at once, and audits each', async () => {
    const ada = await signUpAndSignIn(app, { firstName: 'Ada', lastName: 'Admin' });
    await grantAdmin(app, ada);
    const sam = await signUpStaff(app, 'specialist', { firstName: 'Samir', lastName: 'Specialist' });
    const pat = await signUpAndSignIn(app, { firstName: 'Patience', lastName: 'Provider' });

    const listed = await ada.json<StaffList>('GET', '/api/admin/staff');
    expect(listed.status).toBe(200);
    const byEmail = (list: StaffList) => new Map(list.people.map((p) => [p.email, p.roles]));
    expect(byEmail(listed.body).get(ada.email)).toEqual(['admin']);
    expect(byEmail(listed.body).get(sam.email)).toEqual(['specialist']);
    expect(byEmail(listed.body).has(pat.email)).toBe(false);

    const found = await ada.json<StaffList>('GET', '/api/admin/staff?search=patience%20PROV');
    expect(found.body.people).toEqual([
      { userId: pat.userId, name: 'Patience Provider', email: pat.email, roles: [] },
    ]);

    const set = await ada.json<StaffMember>('PUT', `/api/admin/staff/${pat.userId}/roles`, {
      roles: ['auditor', 'medical_director'],
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.roles).toEqual(['medical_director', 'auditor']);
    // Every administrator is told of a grant of a role that decides files, naming who and by whom.
    const notice = app.mail.find(
      (m) => m.to === ada.email && m.subject === 'Staff role granted: Medical Director',
    );
    expect(notice?.text).toMatch(/^Patience Provider \(.+\) was granted Medical Director by Ada Admin on /);
    // Her next request acts with them (before a second factor, only her own account answers).
    expect((await pat.json<{ roles: string[] }>('GET', '/api/me')).body.roles).toEqual([
      'medical_director',
      'auditor',
    ]);
    expect((await pat.json('GET', '/api/applications')).status).toBe(403);

    expect(
      (await ada.json<StaffMember>('PUT', `/api/admin/staff/${pat.userId}/roles`, { roles: ['auditor'] }))
        .body.roles,
    ).toEqual(['auditor']);
    const audit = await app.runtime.deps.database.pool.query<{ actor_user_id: string; details: unknown }>(
      `select actor_user_id, details from audit_log where action = 'auth.role_changed' and subject_user_id = $1 order by id`,
      [pat.userId],
    );
    expect(audit.rows).toEqual([
      {
        actor_user_id: ada.userId,
        details: { role: 'medical_director', change: 'granted', via: 'staff_tab' },
      },
      { actor_user_id: ada.userId, details: { role: 'auditor', change: 'granted', via: 'staff_tab' } },
      {
        actor_user_id: ada.userId,
        details: { role: 'medical_director', change: 'revoked', via: 'staff_tab' },
      },
    ]);

    // Bad input: a 400 that names the roles, and nothing changes; an unknown user 404.
    const bad = await ada.json<{ message: string }>('PUT', `/api/admin/staff/${pat.userId}/roles`, {
      roles: ['chief'],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('admin, specialist, medical_director, committee, auditor');
    expect((await ada.json('PUT', '/api/admin/staff/nobody/roles', { roles: [] })).status).toBe(404);
    // Nobody else manages roles: the specialist is refused.
    expect((await sam.json('GET', '/api/admin/staff')).status).toBe(403);
    expect((await sam.json('PUT', `/api/admin/staff/${sam.userId}/roles`, { roles: ['admin'] })).status).toBe(
      403,
    );
  });

  it('never removes the last administrator, even when two remove each other at once', async () => {
    const fresh = await createTestApp();
    try {
      const one = await signUpAndSignIn(fresh, { firstName: 'Uno' });
      await grantAdmin(fresh, one);
      // Issue 50 item 5: nobody changes their own roles on the tab (the last administrator least of all).
      const alone = await one.json<{ message: string }>('PUT', `/api/admin/staff/${one.userId}/roles`, {
        roles: ['specialist'],
      });
      expect(alone.status).toBe(403);
      expect(alone.body.message).toBe(OWN_ROLES_MESSAGE);
      // Nothing of the refused change was kept: no specialist role either.
      expect((await one.json<{ roles: string[] }>('GET', '/api/me')).body.roles).toEqual(['admin']);

      const two = await signUpAndSignIn(fresh, { firstName: 'Dos' });
      await grantAdmin(fresh, two);
      const [a, b] = await Promise.all([
        one.json('PUT', `/api/admin/staff/${two.userId}/roles`, { roles: [] }),
        two.json('PUT', `/api/admin/staff/${one.userId}/roles`, { roles: [] }),
      ]);
      // One removal wins; the other is refused: it would leave nobody (409), or its maker is no
      // longer an administrator by the time it is checked (403).
      const statuses = [a.status, b.status];
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect([409, 403]).toContain(statuses.find((status) => status !== 200));
      const admins = await fresh.runtime.deps.database.pool.query(
        `select user_id from user_roles where role = 'admin'`,
      );
      expect(admins.rowCount).toBe(1);
    } finally {
      await fresh.close();
    }
  });
});
