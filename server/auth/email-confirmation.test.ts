/**
 * Issue 17 part C on the server: every confirmation link the server mails (sign-up, the resend on an
 * early sign-in, the resend endpoint) lands on `/auth?confirmed=1` whatever callbackURL the client
 * sent; a broken link lands there with better-auth's error code; an invalid email is a plain 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_CONFIRMED_PATH, withConfirmationLanding } from '../../domain/email-confirmation.ts';
import { Client, createTestApp, STRONG_PASSWORD, type TestApp } from '../../tests/harness.ts';

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

/** The confirmation links mailed to `email` so far, oldest first (waits until there are `count`). */
async function linksTo(email: string, count: number): Promise<URL[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const links = app.mail
      .filter((message) => message.to === email)
      .flatMap((message) => message.text.match(/https?:\/\/\S+verify-email\S*/g) ?? [])
      .map((link) => new URL(link));
    if (links.length >= count || Date.now() > deadline) return links;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('confirmation links (issue 17)', () => {
  it('land on the sign-in screen from sign-up, the sign-in resend and the resend endpoint', async () => {
    // First, Carla signs up naming another site as callback; the mailed link ignores it.
    const client = new Client(app);
    const email = `carla.${Date.now()}@example.test`;
    const signUp = await client.json('POST', '/api/auth/sign-up/email', {
      email,
      password: STRONG_PASSWORD,
      name: 'Carla Diaz',
      firstName: 'Carla',
      lastName: 'Diaz',
      callbackURL: '/somewhere-else',
    });
    expect(signUp.status).toBe(200);

    // Second, she signs in before confirming (better-auth's sendOnSignIn mails a new link: its
    // callbackURL would be '/' or whatever this body says).
    const signIn = await client.json<{ code: string }>('POST', '/api/auth/sign-in/email', {
      email,
      password: STRONG_PASSWORD,
      callbackURL: '/dashboard',
    });
    expect(signIn.status).toBe(403);
    expect(signIn.body.code).toBe('EMAIL_NOT_VERIFIED');

    // Third, she asks for a new link.
    const resend = await client.json('POST', '/api/auth/send-verification-email', {
      email,
      callbackURL: '/',
    });
    expect(resend.status).toBe(200);

    const links = await linksTo(email, 3);
    expect(links).toHaveLength(3);
    for (const link of links) {
      expect(link.searchParams.get('callbackURL')).toBe(EMAIL_CONFIRMED_PATH);
      // Opening it confirms and redirects to the sign-in screen's 'Email confirmed'.
      const opened = await new Client(app).request('GET', `${link.pathname}${link.search}`);
      expect(opened.status).toBe(302);
      expect(opened.headers.get('location')).toBe(EMAIL_CONFIRMED_PATH);
    }

    // Then she can sign in.
    const again = await client.json('POST', '/api/auth/sign-in/email', { email, password: STRONG_PASSWORD });
    expect(again.status).toBe(200);
  });

  it('sends a broken link to the sign-in screen with an error code', async () => {
    const opened = await new Client(app).request(
      'GET',
      `/api/auth/verify-email?token=not-a-token&callbackURL=${encodeURIComponent(EMAIL_CONFIRMED_PATH)}`,
    );
    expect(opened.status).toBe(302);
    const location = new URL(opened.headers.get('location') ?? '', 'http://x');
    expect(location.pathname).toBe('/auth');
    expect(location.searchParams.get('error')).toBeTruthy();
  });

  it('answers an invalid email with a plain 400 message on the email field', async () => {
    const answer = await new Client(app).json<{
      message: string;
      issues: { path: string[]; message: string }[];
    }>('POST', '/api/auth/sign-up/email', {
      email: 'carla.example.test',
      password: STRONG_PASSWORD,
      name: 'Carla Diaz',
      firstName: 'Carla',
      lastName: 'Diaz',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('Enter a valid email address');
    expect(answer.body.issues).toEqual([
      expect.objectContaining({ path: ['email'], message: 'Enter a valid email address' }),
    ]);
  });
});

describe('withConfirmationLanding', () => {
  it('replaces only the callbackURL of a link', () => {
    const link = new URL(
      withConfirmationLanding('http://localhost:3000/api/auth/verify-email?token=abc.def&callbackURL=%2F'),
    );
    expect(link.pathname).toBe('/api/auth/verify-email');
    expect(link.searchParams.get('token')).toBe('abc.def');
    expect(link.searchParams.get('callbackURL')).toBe('/auth?confirmed=1');
  });
});
