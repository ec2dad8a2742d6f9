/**
 * Account fields at sign-up, sign-in and name changes (issue 10 item 5): the same zod schemas bound
 * the web forms and the server, which validates every /api/auth body with them before better-auth
 * sees it. Lengths: names 100 characters (a generous bound for any legal name), email 254 (RFC 5321
 * path limit), password PASSWORD_MAX_LENGTH (spec §5 leaves the rules to us; decision 003).
 *
 * Written with `zod/mini` (the same engine as the rest of the schemas, a functional API that bundles
 * only what it uses): the sign-in page validates with these, and its first load should not carry all
 * of zod (issue 18, decision 021).
 */
import * as z from 'zod/mini';
import { PASSWORD_MAX_LENGTH } from './password-policy.ts';
import { controlCharacterMessage, hasControlCharacter } from './person-name.ts';

/** Longest first or last name, in characters. */
export const NAME_MAX_LENGTH = 100;
/** What an email field says when the address is not one (issue 17). */
export const INVALID_EMAIL_MESSAGE = 'Enter a valid email address';

/** Longest email address, in characters (RFC 5321). */
export const EMAIL_MAX_LENGTH = 254;

const personName = (label: string) =>
  z.string({ error: `${label} is required` }).check(
    // Before trimming: a trailing newline is a control character too (issue 49 item 4).
    z.refine((value) => !hasControlCharacter(value), controlCharacterMessage(label)),
    z.trim(),
    z.minLength(1, `${label} is required`),
    z.maxLength(NAME_MAX_LENGTH, `${label} may be at most ${NAME_MAX_LENGTH} characters`),
  );

const email = z.pipe(
  z
    .string({ error: 'Email is required' })
    .check(
      z.trim(),
      z.minLength(1, 'Email is required'),
      z.maxLength(EMAIL_MAX_LENGTH, `Email may be at most ${EMAIL_MAX_LENGTH} characters`),
    ),
  // The check better-auth applies (z.email()), with a message for people (issue 17).
  z.email({ error: INVALID_EMAIL_MESSAGE }),
);

const password = z
  .string({ error: 'Password is required' })
  .check(
    z.minLength(1, 'Password is required'),
    z.maxLength(PASSWORD_MAX_LENGTH, `Password may be at most ${PASSWORD_MAX_LENGTH} characters`),
  );

const displayName = z.string().check(
  z.refine((value) => !hasControlCharacter(value), controlCharacterMessage('Name')),
  z.trim(),
  z.maxLength(NAME_MAX_LENGTH * 2 + 1, `Name may be at most ${NAME_MAX_LENGTH * 2 + 1} characters`),
);

/** The sign-up form (spec §2 /auth: firstName, lastName, email, password, all required). */
export const signUpFormSchema = z.object({
  firstName: personName('First name'),
  lastName: personName('Last name'),
  email,
  password,
});

/** The sign-in form (spec §2 /auth: email and password, both required). */
export const signInFormSchema = z.object({ email, password });

/** Body of POST /api/auth/sign-in/email: the form; other keys (`rememberMe`, `callbackURL`) pass to better-auth. */
export const signInBodySchema = z.looseObject({ email, password });

/** Body of POST /api/auth/sign-up/email: the form plus better-auth's display `name` and callback. */
export const signUpBodySchema = z.pipe(
  z.extend(signUpFormSchema, {
    name: z.optional(displayName),
    callbackURL: z.optional(z.string().check(z.maxLength(2000))),
  }),
  z.transform((body) => ({ ...body, name: body.name || `${body.firstName} ${body.lastName}` })),
);

/** Body of POST /api/auth/update-user: only the names can change through the auth API. */
export const updateUserBodySchema = z.strictObject(
  {
    firstName: z.optional(personName('First name')),
    lastName: z.optional(personName('Last name')),
    name: z.optional(displayName),
  },
  { error: 'Only firstName, lastName and name can be changed here.' },
);

/** Body of a request naming an email (password reset, verification re-send). */
export const emailBodySchema = z.looseObject({ email });

/**
 * A provider's name as the screens, lists, letters and minutes show it: first and last name from the
 * profile, '' when there is no profile (the caller says 'Provider without a profile' where it shows one).
 */
export function providerFullName(
  profile: { firstName: string | null; lastName: string | null } | undefined,
): string {
  return profile ? `${profile.firstName ?? ''} ${profile.lastName ?? ''}`.trim() : '';
}
