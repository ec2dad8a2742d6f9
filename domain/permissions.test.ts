/**
 * The permission table (issue 32 item 1), every role × every permission written out: a change to who
 * may do what fails here first, and has to be made on purpose.
 */
import { describe, expect, it } from 'vitest';
import { hasPermission, type Permission, permissions, rolesNeedSecondFactor } from './permissions.ts';
import { type AccessRole, accessRoles, staffRoleOfCliName, staffRoles } from './roles.ts';

/** One row per permission, one column per role: user, admin, specialist, medical director, committee, auditor. */
// biome-ignore format: a table, aligned by hand
const table: Record<Permission, string> = {
  'read:application:own':     'Y . . . . .',
  'create:application:own':   'Y . . . . .',
  'withdraw:application:own': 'Y . . . . .',
  'appeal:application:own':   'Y . . . . .',
  'write:section:own':        'Y . . . . .',
  'read:section:own':         'Y . . . . .',
  'write:document:own':       'Y . . . . .',
  'read:document:own':        'Y . . . . .',
  'send:notification:own':    'Y . . . . .',
  'read:application:any':     '. Y Y Y . Y',
  'read:section:any':         '. Y Y Y . Y',
  'read:document:any':        '. Y Y Y . Y',
  'read:provider:any':        '. Y Y Y . Y',
  'read:audit:any':           '. Y . . . Y',
  'send:notification:any':    '. Y Y . . .',
  'review:application:any':   '. Y Y . . .',
  'decide:application:any':   '. . . Y . .',
  'read:meeting:any':         '. Y Y Y . Y',
  'read:meeting:member':      '. . . . Y .',
  'vote:meeting:member':      '. . . Y Y .',
  'manage:meeting:any':       '. Y Y Y . .',
  'manage:staff:any':         '. Y . . . .',
  'manage:api_client:any':    '. Y . . . .',
  'read:report:any':          '. Y . Y . Y',
};
const columns: AccessRole[] = ['user', 'admin', 'specialist', 'medical_director', 'committee', 'auditor'];

describe('permission table', () => {
  it('gives each role exactly the permissions of the table', () => {
    expect([...permissions].sort()).toEqual(Object.keys(table).sort());
    for (const permission of permissions) {
      const marks = table[permission].split(/\s+/);
      columns.forEach((role, i) => {
        expect(hasPermission([role], permission), `${role} ${permission}`).toBe(marks[i] === 'Y');
      });
    }
  });

  it('adds up the permissions of several roles, and a provider is never also staff', () => {
    expect(hasPermission(['specialist', 'medical_director'], 'decide:application:any')).toBe(true);
    expect(hasPermission(['specialist', 'medical_director'], 'review:application:any')).toBe(true);
    expect(hasPermission(['auditor'], 'review:application:any')).toBe(false);
    // A staff member acts with their staff roles only: no provider permission comes along.
    expect(accessRoles('user', ['auditor'])).toEqual(['auditor']);
    expect(hasPermission(accessRoles('user', ['auditor']), 'create:application:own')).toBe(false);
    expect(accessRoles('admin', ['committee', 'specialist'])).toEqual(['admin', 'specialist', 'committee']);
    expect(accessRoles('user', [])).toEqual(['user']);
  });

  it('asks every staff role, and no provider, for a second factor', () => {
    for (const role of staffRoles) expect(rolesNeedSecondFactor([role]), role).toBe(true);
    expect(rolesNeedSecondFactor(['user'])).toBe(false);
  });

  it('reads the command line role names of issue 32', () => {
    expect(
      ['administrator', 'specialist', 'medical-director', 'committee', 'auditor'].map(staffRoleOfCliName),
    ).toEqual(['admin', 'specialist', 'medical_director', 'committee', 'auditor']);
    expect(staffRoleOfCliName('admin')).toBeUndefined();
  });
});
