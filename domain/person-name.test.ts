/**
 * Names are names (issue 49 item 4): the account's names (sign-up, update-user) and the sections'
 * person names refuse line breaks, tabs, NUL and other control characters with a message that says
 * so, and accept the names people have (accents, apostrophes, hyphens, spaces).
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { signUpFormSchema, updateUserBodySchema } from './account.ts';
import { controlCharacterMessage, hasControlCharacter } from './person-name.ts';
import { peerReferenceSchema } from './sections/peer-references.ts';
import { workHistorySchema } from './sections/work-history.ts';

const injected = [
  'Gus\nStatus   Approved',
  'Gus\rX',
  'Gus\tX',
  'Gus\u0000',
  'Gus\u0085X',
  'Gus\u2028X',
  'Gus\n',
];
const real = ["D'Angelo", 'Núñez', 'Mary-Jane', 'van der Berg', '李', 'Zoë'];

describe('hasControlCharacter', () => {
  it.each(injected)('finds the control character in %j', (name) => {
    expect(hasControlCharacter(name)).toBe(true);
  });
  it.each(real)('accepts %s', (name) => {
    expect(hasControlCharacter(name)).toBe(false);
  });
});

describe('the schemas that take a name', () => {
  const signUp = { firstName: 'Gus', lastName: 'Fring', email: 'gus@example.com', password: 'x' };

  it.each(injected)('sign-up refuses the first name %j with a message that says why', (firstName) => {
    const result = z.safeParse(signUpFormSchema, { ...signUp, firstName });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toContain(controlCharacterMessage('First name'));
  });

  it('update-user refuses a last name with a newline, and accepts a real one', () => {
    expect(z.safeParse(updateUserBodySchema, { lastName: 'Fring\nApproved' }).success).toBe(false);
    expect(z.safeParse(updateUserBodySchema, { name: 'Gus\tFring' }).success).toBe(false);
    for (const lastName of real) expect(z.safeParse(updateUserBodySchema, { lastName }).success).toBe(true);
  });

  it("a peer reference's and a supervisor's name are one line too", () => {
    const reference = peerReferenceSchema.safeParse({ referenceName: 'Dr. Grey\nTrusted' });
    expect(reference.error?.issues[0]?.message).toBe(controlCharacterMessage('Reference name'));
    expect(peerReferenceSchema.safeParse({ referenceName: 'Dr. Núñez' }).success).toBe(true);
    const work = workHistorySchema.safeParse({ employerName: 'Clinic', supervisorName: 'Ann\tLee' });
    expect(work.error?.issues.map((i) => i.message)).toContain(controlCharacterMessage('Supervisor name'));
  });
});
