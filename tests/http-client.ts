/**
 * The one HTTP client of the test harness, the benchmarks and the scripts (no vitest import: the
 * benchmarks and scripts run under plain tsx), and the one sign-up -> confirm -> sign-in flow.
 *
 * The caller says where the confirmation mail arrives: `linkFromMessages` (a captured-mailer array or
 * messages received over IPC) or `linkFromOutbox` (the `.eml` files of the file mailer). Both poll
 * their source until the link appears or the timeout passes: the server sends mail in the background,
 * after answering the sign-up.
 */
import * as OTPAuth from 'otpauth';
import { type AttestationInput, disclosureQuestions, profileFullName } from '../domain/attestation.ts';
import { readOutbox } from '../server/mail/outbox.ts';

export interface HttpClientOptions {
  /** Where requests go, e.g. `http://127.0.0.1:38211` (no trailing slash). */
  baseUrl: string;
  /**
   * The `Origin` header sent on every request: the server's APP_URL origin, which its CSRF guard and
   * auth trust. Default: the origin of `baseUrl`.
   */
  origin?: string;
}

/** A JSON answer: the HTTP status and the parsed body (`undefined` when the body is empty). */
export interface JsonResponse<T> {
  status: number;
  body: T;
}

/**
 * A cookie-keeping HTTP client: sends `Origin` and the cookies it was given on every request, never
 * follows redirects (a 302 is an answer to check), and keeps the cookies the server sets (a cookie
 * set to '' or with `Max-Age=0` is dropped). `cookie` is the `Cookie` header value
 * (`name=value; name2=value2`), and may be read or replaced (`''` signs the client out locally).
 */
export class HttpClient {
  cookie = '';
  /** The second factor `enrolSecondFactor` set up for this client's user, if any (signatures use it). */
  secondFactor?: SecondFactor;
  readonly baseUrl: string;
  readonly origin: string;

  constructor(options: HttpClientOptions) {
    this.baseUrl = options.baseUrl;
    this.origin = options.origin ?? new URL(options.baseUrl).origin;
  }

  /**
   * Send one request to `baseUrl + urlPath` (path and query, e.g. `/api/applications?page=2`).
   * `body`: a `FormData` is sent as multipart, anything else but `undefined` as JSON. `headers` are
   * added last and win over the defaults. The caller reads (or discards) the response body.
   * @throws TypeError from fetch when the server cannot be reached
   */
  async request(
    method: string,
    urlPath: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    const isForm = body instanceof FormData;
    const response = await fetch(`${this.baseUrl}${urlPath}`, {
      method,
      redirect: 'manual',
      headers: {
        origin: this.origin,
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
    this.keepCookies(response.headers.getSetCookie());
    return response;
  }

  /**
   * `request`, then the whole body parsed as JSON.
   * @throws SyntaxError when the body is neither empty nor JSON
   */
  async json<T = unknown>(
    method: string,
    urlPath: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<JsonResponse<T>> {
    const response = await this.request(method, urlPath, body, headers);
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  /** The cookies held now, name -> value (e.g. to put them in a browser's cookie jar). */
  cookies(): Map<string, string> {
    return new Map((this.cookie ? this.cookie.split('; ') : []).map(splitPair));
  }

  /** Merge `Set-Cookie` headers into `cookie` (attributes other than a zero Max-Age are ignored). */
  private keepCookies(setCookies: string[]): void {
    if (setCookies.length === 0) return;
    const jar = this.cookies();
    for (const setCookie of setCookies) {
      const [name, value] = splitPair(setCookie.split(';')[0]!);
      if (value === '' || /;\s*max-age=0\s*(;|$)/i.test(setCookie)) jar.delete(name);
      else jar.set(name, value);
    }
    this.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** `name=value` -> [name, value], splitting at the first `=` only (values may contain `=`). */
function splitPair(pair: string): [string, string] {
  const at = pair.indexOf('=');
  return at < 0 ? [pair.trim(), ''] : [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
}

/** How long the link finders wait, and how often they look. */
export interface PollOptions {
  /** Give up after this many milliseconds (default 10,000). */
  timeoutMs?: number;
  /** Look again after this many milliseconds (default 20). */
  intervalMs?: number;
}

/**
 * Call `probe` until it returns a value other than `undefined`, and return that value.
 * @throws Error `Timed out after <timeoutMs> ms waiting for <what>`
 */
export async function pollFor<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  { timeoutMs = 10_000, intervalMs = 20 }: PollOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() >= deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Finds the confirmation link sent to an address: resolves with the absolute URL, or rejects. */
export type ConfirmationLinkFinder = (email: string) => Promise<string>;

/** The email-confirmation link among `links` (better-auth's `/api/auth/verify-email?token=…`). */
function confirmationLink(links: Iterable<string>): string | undefined {
  for (const link of links) if (link.includes('/verify-email')) return link;
  return undefined;
}

/**
 * Finder over messages that something keeps appending to `messages` (a capturing mailer, mail sent
 * over IPC by a server in a child process): the newest message to exactly `email` with a
 * confirmation link in its text.
 * @throws Error (from the returned finder) when none arrives within `options.timeoutMs`
 */
export function linkFromMessages(
  messages: readonly { to: string; text: string }[],
  options?: PollOptions,
): ConfirmationLinkFinder {
  return (email) =>
    pollFor(
      () => {
        for (let i = messages.length - 1; i >= 0; i--) {
          const message = messages[i]!;
          const link = message.to === email && confirmationLink(message.text.match(/https?:\/\/\S+/g) ?? []);
          if (link) return link;
        }
        return undefined;
      },
      `the confirmation mail to ${email}`,
      options,
    );
}

/**
 * Finder over the file mailer's outbox (`<DATA_DIR>/mail/*.eml`, read with `readOutbox`): the newest
 * message addressed to `email` with a confirmation link.
 * @throws Error (from the returned finder) when none arrives within `options.timeoutMs`
 */
export function linkFromOutbox(outboxDir: string, options?: PollOptions): ConfirmationLinkFinder {
  return (email) =>
    pollFor(
      async () => {
        for (const message of await readOutbox(outboxDir)) {
          const link = message.to.includes(email) && confirmationLink(message.links);
          if (link) return link;
        }
        return undefined;
      },
      `the confirmation mail to ${email} in ${outboxDir}`,
      options,
    );
}

/** Who signs up. `password` must pass the server's password policy. */
export interface SignUpDetails {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

/**
 * Sign up through `/api/auth/sign-up/email`, open the confirmation link that `findConfirmationLink`
 * returns for `details.email`, then sign in with a clean cookie jar: `client` ends up holding only
 * the new session. Returns the signed-in user's id.
 * @throws Error `sign-up failed: <status> <body>`, `verification failed: <status>` or
 *   `sign-in failed: <status> <body>`; whatever `findConfirmationLink` throws (e.g. its timeout)
 */
export async function signUpConfirmSignIn(
  client: HttpClient,
  details: SignUpDetails,
  findConfirmationLink: ConfirmationLinkFinder,
): Promise<{ userId: string }> {
  const { email, password, firstName, lastName } = details;
  const signUp = await client.json('POST', '/api/auth/sign-up/email', {
    email,
    password,
    name: `${firstName} ${lastName}`,
    firstName,
    lastName,
    callbackURL: '/auth?confirmed=1',
  });
  if (signUp.status !== 200)
    throw new Error(`sign-up failed: ${signUp.status} ${JSON.stringify(signUp.body)}`);
  const link = new URL(await findConfirmationLink(email));
  const verify = await client.request('GET', `${link.pathname}${link.search}`);
  await verify.arrayBuffer();
  if (verify.status >= 400) throw new Error(`verification failed: ${verify.status}`);
  client.cookie = '';
  const signIn = await client.json<{ user: { id: string } }>('POST', '/api/auth/sign-in/email', {
    email,
    password,
  });
  if (signIn.status !== 200)
    throw new Error(`sign-in failed: ${signIn.status} ${JSON.stringify(signIn.body)}`);
  return { userId: signIn.body.user.id };
}

/** What an enrolment through the real API gave: the otpauth:// URI (holding the secret) and the backup codes. */
export interface SecondFactor {
  totpURI: string;
  backupCodes: string[];
}

/** The current TOTP code of `totpURI` (RFC 6238, as an authenticator app computes it). */
export function totpCode(totpURI: string, timestamp = Date.now()): string {
  return (OTPAuth.URI.parse(totpURI) as OTPAuth.TOTP).generate({ timestamp });
}

/**
 * Set up a second factor for the signed-in `client` through the real API (issue 16): enable with the
 * password, then confirm with a code computed from the URI.
 * @throws Error when a step does not answer 200
 */
export async function enrolSecondFactor(client: HttpClient, password: string): Promise<SecondFactor> {
  const enabled = await client.json<SecondFactor>('POST', '/api/auth/two-factor/enable', { password });
  if (enabled.status !== 200)
    throw new Error(`two-factor enable failed: ${enabled.status} ${JSON.stringify(enabled.body)}`);
  const verified = await client.json('POST', '/api/auth/two-factor/verify-totp', {
    code: totpCode(enabled.body.totpURI),
  });
  if (verified.status !== 200)
    throw new Error(`two-factor verify failed: ${verified.status} ${JSON.stringify(verified.body)}`);
  client.secondFactor = enabled.body;
  return enabled.body;
}

/**
 * A decider's signature (issue 50 item 7): 'I reviewed this file' with the current code of the
 * client's second factor (`enrolSecondFactor` must have run for it).
 * @throws Error when the client has no second factor
 */
export function reviewSignature(client: Pick<HttpClient, 'secondFactor'>): { reviewed: true; code: string } {
  if (!client.secondFactor) throw new Error('reviewSignature: this client has no second factor set up');
  return { reviewed: true, code: totpCode(client.secondFactor.totpURI) };
}

/**
 * A signed attestation (issue 14, domain/attestation.ts) for the provider `client` is signed in as:
 * every disclosure question answered No, and the profile's full name (GET /api/profile) typed as
 * the signature. The body POST /api/applications/:applicationId/completion needs.
 * @throws Error when the profile cannot be read
 */
export async function signedAttestation(client: Pick<HttpClient, 'json'>): Promise<AttestationInput> {
  const answer = await client.json<{ profile: { firstName: string; lastName: string } | null }>(
    'GET',
    '/api/profile',
  );
  const profile = answer.body?.profile;
  if (answer.status !== 200 || !profile)
    throw new Error(`GET /api/profile answered ${answer.status}, no profile`);
  return {
    answers: Object.fromEntries(
      disclosureQuestions.map((q) => [q.id, { answer: 'no' }]),
    ) as AttestationInput['answers'],
    signature: profileFullName(profile),
  };
}
