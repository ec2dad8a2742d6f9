/**
 * End-to-end helpers: accessibility checks with axe, the provider's sign-up walk through the real UI
 * and the development mail page, and the second factor (issue 16): enrolment and codes computed from
 * the key the page shows, as an authenticator app would.
 */

import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, test } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { evidenceRequiredMessage } from '../../domain/review/verification-checklist.ts';
import { exclusionSources } from '../../domain/screening/exclusion-formats.ts';
import { WebhookReceiver } from '../../server/notifications/testing/webhook-receiver.ts';
import { linkFromOutbox } from '../http-client.ts';
import { e2ePorts } from './ports.ts';

export const STRONG_PASSWORD = 'correct horse battery staple 42!';

/**
 * Fail with the list of WCAG A/AA violations on the current page. Waits first for running finite
 * transitions: a toast caught half faded in has blended colours, and axe would judge those.
 */
export async function expectNoAxeViolations(page: Page) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      // Endless ones (spinners) never settle; only finite transitions are waited for.
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
  );
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const summary = results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
  expect(summary).toEqual([]);
}

/** Holds back the answers to requests for `url` (a glob) until the function returned is called. */
export async function holdBack(page: Page, url: string): Promise<() => void> {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/**
 * The toast titled `title` (spec §8: every message is a toast with a title and a description).
 * Scoped to alerts and matched whole: a bare `getByText('Appeal Requested')` also matches the page's
 * own "Appeal requested on …" once the refetch lands beside the toast, a strict-mode failure that
 * depends on timing.
 */
export function toast(page: Page, title: string): Locator {
  return page.getByRole('alert').filter({ has: page.getByText(title, { exact: true }) });
}

export function uniqueEmail(prefix: string): string {
  return `${prefix}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.test`;
}

/**
 * Sign up through /auth, then open the confirmation link from /dev/mail: the walk a person makes, for
 * the specs about signing up (provider-signs-up, new-user-papercuts, two-factor, admin-role).
 */
export async function signUpAndConfirmInBrowser(
  page: Page,
  user: { firstName: string; lastName: string; email: string; password?: string },
) {
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  const form = page.getByRole('form', { name: 'Sign up' });
  await waitForHydratedForm(form, 'Create Account');
  await form.getByLabel('First Name').fill(user.firstName);
  await form.getByLabel('Last Name').fill(user.lastName);
  await form.getByLabel('Email').fill(user.email);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(user.password ?? STRONG_PASSWORD);
  await form.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Please check your email to confirm your account.')).toBeVisible();
  const message = page
    .getByRole('listitem')
    .filter({ hasText: user.email })
    .filter({ hasText: 'Confirm' })
    .first();
  // The server sends mail in the background: reload the mailbox until the message is there.
  await expect(async () => {
    await page.goto('/dev/mail');
    await expect(message).toBeVisible({ timeout: 250 });
  }).toPass({ timeout: 10_000 });
  await message.getByRole('link').first().click();
  await expect(page).toHaveURL(/\/auth\?confirmed=1/);
}

/** Our origin, which every state-changing API call sends (the server's CSRF guard). */
export function e2eOrigin(): string {
  return `http://localhost:${e2ePorts().server}`;
}

/**
 * Sign up through the API the Sign Up form calls and open the confirmation link the server mailed
 * (the e2e server's outbox, DATA_DIR/mail, which /dev/mail lists), all in `page`'s cookie jar: the
 * state `signUpAndConfirmInBrowser` leaves, in a fraction of its time (issue 54 item 7). For specs
 * whose subject begins after sign-up; the sign-up screens have their own specs.
 * @throws when the server refuses the sign-up or no confirmation mail arrives within 10 s
 */
export async function signUpAndConfirm(
  page: Page,
  user: { firstName: string; lastName: string; email: string; password?: string },
) {
  const signUp = await page.request.post('/api/auth/sign-up/email', {
    headers: { origin: e2eOrigin() },
    data: {
      email: user.email,
      password: user.password ?? STRONG_PASSWORD,
      name: `${user.firstName} ${user.lastName}`,
      firstName: user.firstName,
      lastName: user.lastName,
      callbackURL: '/auth?confirmed=1',
    },
  });
  expect(signUp.status(), await signUp.text()).toBe(200);
  const outbox = path.resolve(`.data-test/e2e-${e2ePorts().server}/mail`);
  const link = new URL(await linkFromOutbox(outbox, { timeoutMs: 10_000 })(user.email));
  const confirmed = await page.request.get(`${link.pathname}${link.search}`);
  expect(confirmed.status()).toBeLessThan(400);
}

/**
 * Wait until a prerendered form of /auth has hydrated: its submit button is disabled until then
 * (issue 51 item 6), and what is typed before it may be lost to hydration. Fill only after this.
 */
export async function waitForHydratedForm(form: Locator, submit: 'Sign In' | 'Create Account') {
  await expect(form.getByRole('button', { name: submit, exact: true })).toBeEnabled();
}

export async function signIn(page: Page, email: string, password = STRONG_PASSWORD) {
  await page.goto('/auth');
  const form = page.getByRole('form', { name: 'Sign in' });
  await waitForHydratedForm(form, 'Sign In');
  await form.getByLabel('Email').fill(email);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await form.getByRole('button', { name: 'Sign In' }).click();
}

/** Run `npm run admin -- <command> <email> [--role ROLE]` against the e2e server's data (embedded or external). */
export async function adminCli(command: 'grant' | 'revoke', email: string, role?: string): Promise<string> {
  const { execFile } = await import('node:child_process');
  const fs = await import('node:fs');
  const path = await import('node:path');
  const dataDir = path.resolve(`.data-test/e2e-${e2ePorts().server}`);
  const urlFile = path.join(dataDir, 'e2e-database-url');
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  if (fs.existsSync(urlFile)) env.DATABASE_URL = fs.readFileSync(urlFile, 'utf8').trim();
  else delete env.DATABASE_URL;
  return new Promise((resolve, reject) => {
    const args = ['run', '--silent', 'admin', '--', command, email, ...(role ? ['--role', role] : [])];
    execFile('npm', args, { env }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    );
  });
}

/**
 * Run SQL on the e2e server's database (external or embedded), for the one thing a browser cannot
 * do: move a recorded time into the past (e.g. an approval 34 months ago). Without `params` the
 * text may hold several statements (one session: a `set` applies to the statements after it).
 */
export async function e2eSql(statement: string, params: unknown[] = []): Promise<void> {
  const fs = await import('node:fs');
  const path = await import('node:path');
  const pg = await import('pg');
  const { runningEmbeddedUrl } = await import('../../server/db/embedded-postgres.ts');
  const dataDir = path.resolve(`.data-test/e2e-${e2ePorts().server}`);
  const urlFile = path.join(dataDir, 'e2e-database-url');
  const url = fs.existsSync(urlFile) ? fs.readFileSync(urlFile, 'utf8').trim() : runningEmbeddedUrl(dataDir);
  if (!url) throw new Error(`No database of the e2e server found in ${dataDir}`);
  const client = new pg.default.Client({ connectionString: url });
  await client.connect();
  try {
    await (params.length > 0 ? client.query(statement, params) : client.query(statement));
  } finally {
    await client.end();
  }
}

/** The 6-digit TOTP code (RFC 6238, 30-second steps) of the base32 `secret` at `timestamp` (ms). */
export function totpCode(secret: string, timestamp = Date.now()): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp,
  });
}

/** The last 30-second step whose code a test sent, per secret: the server accepts each code once. */
const lastStepSent = new Map<string, number>();

/**
 * A TOTP code of `secret` not sent before: the current step's, else the next step's (the server
 * accepts the neighbouring steps), else it waits for the next step. Each code works once (RFC 6238).
 */
export async function freshTotpCode(secret: string): Promise<string> {
  for (;;) {
    const now = Date.now();
    const step = Math.floor(now / 30_000);
    const candidate = Math.max(step, (lastStepSent.get(secret) ?? step - 1) + 1);
    if (candidate <= step + 1) {
      lastStepSent.set(secret, candidate);
      return totpCode(secret, candidate * 30_000 + 1_000);
    }
    await new Promise((resolve) => setTimeout(resolve, (step + 1) * 30_000 - now + 100));
  }
}

/**
 * On the set-up page (where an administrator lands after the password step): confirm the password,
 * read the setup key shown as text, confirm with a code computed from it, read the ten backup codes,
 * then 'Continue'. @returns the key (base32, no spaces) and the backup codes
 */
export async function enrolSecondFactorInBrowser(
  page: Page,
  password = STRONG_PASSWORD,
): Promise<{ secret: string; backupCodes: string[] }> {
  await expect(page).toHaveURL(/\/account\/two-factor$/);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Continue' }).click();
  const key = page.getByRole('region', { name: 'Setup key' }).locator('code');
  await expect(key).toHaveText(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
  const secret = (await key.innerText()).replace(/\s+/g, '');
  await page.getByLabel('Authentication code').fill(await freshTotpCode(secret));
  await page.getByRole('button', { name: 'Confirm' }).click();
  const codes = page.getByRole('list', { name: 'Backup codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const backupCodes = (await codes.allInnerTexts()).map((code) => code.trim());
  await page.getByRole('button', { name: 'Continue' }).click();
  return { secret, backupCodes };
}

/** The code step of a sign-in (after `signIn`): a code from `secret`, or a backup code. */
export async function enterSecondFactor(page: Page, factor: { secret: string } | { backupCode: string }) {
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
  if ('secret' in factor) {
    await page.getByLabel('Authentication code').fill(await freshTotpCode(factor.secret));
  } else {
    await page.getByRole('button', { name: 'Use a backup code instead' }).click();
    await page.getByLabel('Backup code').fill(factor.backupCode);
  }
  await page.getByRole('button', { name: 'Verify' }).click();
}

/** The test-only webhook secret start-server.sh gives the server (receivers in the specs verify with it). */
export const E2E_WEBHOOK_SECRET = 'whsec_pBPvcKLMACQL4VARJRDbv+AcGGhWm0/Z+vRh9SuUCrQ=';

/** A minimal PDF (passes the server's file-type check). */
export const PDF_BYTES = Buffer.from(
  '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\n' +
    'trailer <</Root 1 0 R>>\n%%EOF\n',
);

/**
 * From the signed-in provider's dashboard: 'Start New Application' in the browser. Returns the new
 * application's id, its API path and the headers a state-changing API call from the page needs
 * (our Origin: the CSRF guard).
 */
export async function startApplication(
  page: Page,
): Promise<{ applicationId: string; base: string; headers: Record<string, string> }> {
  await page.getByRole('button', { name: 'Start New Application' }).click();
  await expect(page.getByText('New credentialing application started')).toBeVisible();
  const { applications } = (await (await page.request.get('/api/applications')).json()) as {
    applications: { id: string }[];
  };
  const applicationId = applications[0]!.id;
  return {
    applicationId,
    base: `/api/applications/${applicationId}`,
    headers: { origin: new URL(page.url()).origin },
  };
}

/**
 * The completion receiver of this spec file, listening where playwright.config.ts points the server
 * (NOTIFY_WEBHOOK_URL, a free port picked for the run) from before the file's first test to after
 * its last.
 */
export function completionReceiverForSpec(): WebhookReceiver {
  const receiver = new WebhookReceiver({ secret: E2E_WEBHOOK_SECRET });
  test.beforeAll(async () => {
    await receiver.listen(e2ePorts().completionReceiver);
  });
  test.afterAll(async () => {
    await receiver.close();
  });
  return receiver;
}

/**
 * From the signed-in provider's dashboard: 'Start New Application', then every section (the sixteen,
 * issue 31) and a PDF through the API (for specs whose point is not the section screens). Returns the
 * application id.
 */
export async function startAndFillApplication(page: Page): Promise<string> {
  const { applicationId, base, headers } = await startApplication(page);
  const saves = [
    page.request.put(`${base}/sections/personal-information`, {
      headers,
      data: { providerType: 'MD', ssn: '123-45-6789', npiNumber: '1234567893', city: 'Boston', state: 'MA' },
    }),
    page.request.put(`${base}/sections/professional-licenses`, {
      headers,
      data: { rows: [{ licenseNumber: 'L-1' }] },
    }),
    page.request.put(`${base}/sections/education`, { headers, data: { rows: [{ institutionName: 'Uni' }] } }),
    page.request.put(`${base}/sections/work-history`, {
      headers,
      data: { rows: [{ employerName: 'Clinic' }] },
    }),
    page.request.put(`${base}/sections/malpractice-insurance`, {
      headers,
      data: { rows: [{ insuranceCompany: 'MedPro' }] },
    }),
    page.request.put(`${base}/sections/vaccinations`, {
      headers,
      data: { rows: [{ vaccineName: 'influenza' }] },
    }),
    page.request.post(`${base}/sections/payors`, { headers, data: { payorName: 'Medicare' } }),
    page.request.post(`${base}/sections/certifications`, {
      headers,
      data: { certificationKind: 'board', certificationName: 'Board Certified', certifyingBody: 'ABIM' },
    }),
    page.request.post(`${base}/sections/cme`, {
      headers,
      data: { activityTitle: 'Sepsis', providerName: 'ACP' },
    }),
    page.request.post(`${base}/sections/peer-references`, { headers, data: { referenceName: 'Dr. Ada' } }),
    page.request.post(`${base}/documents`, {
      headers,
      multipart: {
        documentType: 'cv_resume',
        file: { name: 'cv.pdf', mimeType: 'application/pdf', buffer: PDF_BYTES },
      },
    }),
    // Issue 31: the 'Additional Information' sections (the none answers where the section has one).
    page.request.put(`${base}/sections/specialties`, {
      headers,
      data: { rows: [{ specialtyRank: 'primary', taxonomyCode: '207R00000X' }] },
    }),
    page.request.put(`${base}/sections/practice-locations`, {
      headers,
      data: { rows: [{ practiceName: 'Main Street Clinic', isPrimaryLocation: true }] },
    }),
    page.request.put(`${base}/sections/hospital-affiliations`, {
      headers,
      data: { rows: [{ privilegeStatus: 'active', facilityName: 'General Hospital' }] },
    }),
    page.request.put(`${base}/sections/training`, { headers, data: { rows: [{ noTraining: true }] } }),
    page.request.put(`${base}/sections/malpractice-claims`, {
      headers,
      data: { rows: [{ noClaims: true }] },
    }),
  ];
  for (const save of saves) {
    const response = await save;
    expect(response.status(), await response.text()).toBeLessThan(300);
  }
  return applicationId;
}

/**
 * A new staff member: signed up and confirmed (`signUpAndConfirm`), granted `role` with the CLI
 * (`administrator` by default; issue 32 `--role`), signed in and second factor set up through the API
 * the sign-in and set-up pages call (issue 16), then on /admin in the browser. The screens of that
 * walk have their own specs (two-factor, admin-role); here they would only cost time (issue 54 item 7).
 * Returns the email.
 */
export async function signInAsNewStaff(
  page: Page,
  name: { firstName: string; lastName: string; emailPrefix: string },
  role?: 'specialist' | 'medical-director' | 'committee' | 'auditor',
): Promise<string> {
  const email = uniqueEmail(name.emailPrefix);
  await signUpAndConfirm(page, { firstName: name.firstName, lastName: name.lastName, email });
  expect(await adminCli('grant', email, role)).toMatch(/now has the role/);
  const headers = { origin: e2eOrigin() };
  const signedIn = await page.request.post('/api/auth/sign-in/email', {
    headers,
    data: { email, password: STRONG_PASSWORD },
  });
  expect(signedIn.status(), await signedIn.text()).toBe(200);
  const enabled = await page.request.post('/api/auth/two-factor/enable', {
    headers,
    data: { password: STRONG_PASSWORD },
  });
  expect(enabled.status(), await enabled.text()).toBe(200);
  const { totpURI } = (await enabled.json()) as { totpURI: string };
  const secret = OTPAuth.URI.parse(totpURI).secret.base32;
  const verified = await page.request.post('/api/auth/two-factor/verify-totp', {
    headers,
    data: { code: await freshTotpCode(secret) },
  });
  expect(verified.status(), await verified.text()).toBe(200);
  staffSecrets.set(page, secret);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin$/);
  return email;
}

/** The authenticator secret of the staff member signed in on each page (`signInAsNewStaff`). */
const staffSecrets = new WeakMap<Page, string>();

/**
 * A decider's signature for the staff member signed in on `page` (issue 50 item 7): 'I reviewed this
 * file' with the current code of their authenticator.
 * @throws Error when `page` was not signed in with `signInAsNewStaff`
 */
export function signatureOf(page: Page): { reviewed: true; code: string } {
  const secret = staffSecrets.get(page);
  if (!secret) throw new Error('signatureOf: this page was not signed in with signInAsNewStaff');
  return { reviewed: true, code: totpCode(secret) };
}

/** The authenticator secret of the staff member signed in on `page`, for screens that ask for a code. */
export function staffSecretOf(page: Page): string {
  const secret = staffSecrets.get(page);
  if (!secret) throw new Error('staffSecretOf: this page was not signed in with signInAsNewStaff');
  return secret;
}

/** A new administrator (`signInAsNewStaff` with the Administrator role). */
export function signInAsNewAdmin(
  page: Page,
  name: { firstName: string; lastName: string; emailPrefix: string },
): Promise<string> {
  return signInAsNewStaff(page, name);
}

/**
 * A new provider, signed up, confirmed and signed in, who pressed 'Start New Application' on the
 * dashboard; returns the application id read from the dashboard's Personal Information link.
 */
export async function newProviderWithApplication(
  page: Page,
  firstName: string,
  lastName: string,
): Promise<string> {
  const email = uniqueEmail(firstName.toLowerCase());
  await signUpAndConfirm(page, { firstName, lastName, email });
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('button', { name: 'Start New Application' }).click();
  await expect(page.getByText('New credentialing application started')).toBeVisible();
  const href = await page.getByRole('link', { name: /^Personal Information:/ }).getAttribute('href');
  const applicationId = href?.split('/').pop() ?? '';
  expect(applicationId).toMatch(/^[0-9a-f-]{36}$/);
  return applicationId;
}

/**
 * In the attestation dialog that 'Application Completed' opened (issue 14): answer every disclosure
 * question No (or the first one Yes, with `yes.explanation`: a file that is not clean, issue 32), type
 * `fullName` in 'Full name (signature)' and press 'Sign and Complete'.
 */
export async function signAttestation(page: Page, fullName: string, yes?: { explanation: string }) {
  const dialog = page.getByRole('dialog', { name: 'Attestation' });
  await expect(dialog).toBeVisible();
  for (const [index, group] of (await dialog.getByRole('radiogroup').all()).entries()) {
    await group.getByRole('radio', { name: yes && index === 0 ? 'Yes' : 'No' }).check();
  }
  if (yes) await dialog.getByLabel('Explanation').fill(yes.explanation);
  await dialog.getByLabel('Full name (signature)').fill(fullName);
  await dialog.getByRole('button', { name: 'Sign and Complete' }).click();
}

/**
 * A new provider (signed up, confirmed, signed in on `page`) who filled every section
 * (startAndFillApplication) and completed the application with a signed attestation.
 * @returns the provider's email and the completed application's id
 */
export async function completedApplicationInBrowser(
  page: Page,
  name: { firstName: string; lastName: string; emailPrefix: string },
  yes?: { explanation: string },
): Promise<{ email: string; applicationId: string }> {
  const email = uniqueEmail(name.emailPrefix);
  await signUpAndConfirm(page, { firstName: name.firstName, lastName: name.lastName, email });
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  const applicationId = await startAndFillApplication(page);
  await page.reload();
  await page.getByRole('button', { name: 'Application Completed' }).click();
  await signAttestation(page, `${name.firstName} ${name.lastName}`, yes);
  await expect(page.getByRole('button', { name: 'Completed ✓' })).toBeDisabled();
  return { email, applicationId };
}

/** A checklist item as the review answer gives it (the fields the helpers below read). */
export interface ChecklistItemRef {
  id: string;
  kind: keyof typeof evidenceRequiredMessage;
  primarySource: string;
}

/**
 * Every exclusion list current on the e2e server (issue 51 item 1: the screening is verified only
 * against lists imported within 35 days): a source with no apply in the last day gets an applied
 * import of an empty full file, as server/screening/testing/current-lists.ts does for the server's
 * tests. The list rows other specs imported stay. Specs about screening import real files instead.
 */
export async function currentExclusionLists(): Promise<void> {
  await e2eSql(
    `insert into exclusion_imports (source, kind, status, file_name, encoding, row_count, staged_at, applied_at,
       rows_before, rows_after, changed_rows)
     select s, 'full', 'applied', s || '-e2e.csv', 'utf-8', 0, now(), now(), 0, 0, 0
     from unnest($1::text[]) as s
     where not exists (select 1 from exclusion_imports i
                       where i.source = s and i.status = 'applied' and i.applied_at > now() - interval '1 day')`,
    [exclusionSources.map((source) => source.id)],
  );
}

/**
 * Every exclusion list applied so far made older than the 35-day monitoring period (issue 51 item 1),
 * so a spec starts from lists that cover nobody, whatever the specs before it imported. The rows stay.
 */
export async function staleExclusionLists(): Promise<void> {
  await e2eSql(
    `update exclusion_imports set applied_at = applied_at - interval '40 days', staged_at = staged_at - interval '40 days'
     where status = 'applied' and applied_at > now() - interval '40 days'`,
  );
}

/**
 * 'Verify' one checklist item through the API the review page calls (source: its primary source,
 * date: today). An item of a kind that needs evidence first (issue 31: the claims history and its
 * NPDB query result) gets a PDF attached before, as the reviewer attaches the query result; the
 * exclusion screening's lists are made current first (`currentExclusionLists`).
 */
export async function verifyItemThroughApi(
  admin: Page,
  applicationId: string,
  item: ChecklistItemRef,
): Promise<void> {
  const headers = { origin: new URL(admin.url()).origin };
  const reviewBase = `/api/admin/applications/${applicationId}`;
  if (evidenceRequiredMessage[item.kind]) {
    const attached = await admin.request.post(`${reviewBase}/verification-items/${item.id}/evidence`, {
      headers,
      multipart: {
        file: { name: 'npdb-query-result.pdf', mimeType: 'application/pdf', buffer: PDF_BYTES },
      },
    });
    expect(attached.status(), await attached.text()).toBe(201);
  }
  if (item.kind === 'exclusions') await currentExclusionLists();
  const saved = await admin.request.patch(`${reviewBase}/verification-items/${item.id}`, {
    headers,
    data: {
      status: 'verified',
      source: item.primarySource,
      verifiedAt: new Date().toISOString().slice(0, 10),
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
}

/**
 * The administrator or specialist signed in on `reviewer` starts the review of `applicationId` and
 * verifies every checklist item today against its primary source, through the API the review page
 * uses (issue 13).
 */
export async function verifyEveryItemThroughApi(reviewer: Page, applicationId: string): Promise<void> {
  const headers = { origin: new URL(reviewer.url()).origin };
  const reviewBase = `/api/admin/applications/${applicationId}`;
  const started = await reviewer.request.post(`${reviewBase}/start-review`, { headers, data: {} });
  expect(started.status(), await started.text()).toBe(200);
  const review = (await (await reviewer.request.get(`${reviewBase}/review`)).json()) as {
    checklist: ChecklistItemRef[];
  };
  expect(review.checklist.length).toBeGreaterThan(0);
  for (const item of review.checklist) await verifyItemThroughApi(reviewer, applicationId, item);
}

/**
 * `applicationId` approved through the API the review page uses (issue 13; issue 32 item 4): the
 * administrator signed in on `admin` verifies every item (`verifyEveryItemThroughApi`) and sends the
 * file for decision (a clean file); the medical director signed in on `director` approves it. For
 * specs whose subject begins after an approval (issue 29).
 */
export async function approveThroughApi(admin: Page, applicationId: string, director: Page): Promise<void> {
  await verifyEveryItemThroughApi(admin, applicationId);
  const reviewBase = `/api/admin/applications/${applicationId}`;
  const sent = await admin.request.post(`${reviewBase}/send-for-decision`, {
    headers: { origin: new URL(admin.url()).origin },
    data: {},
  });
  expect(sent.status(), await sent.text()).toBe(200);
  expect(((await sent.json()) as { track: string }).track).toBe('clean_files');
  const approved = await director.request.post(`${reviewBase}/approve`, {
    headers: { origin: new URL(director.url()).origin },
    data: signatureOf(director),
  });
  expect(approved.status(), await approved.text()).toBe(200);
}

/**
 * Move an approval `months` into the past, the way the clock would (issue 14 due dates, issue 29
 * credential end): the application's decision time and the credential's end date together.
 */
export async function moveApprovalBack(applicationId: string, months: number): Promise<void> {
  await e2eSql(
    `update provider_applications set decided_at = decided_at - make_interval(months => $2) where id = $1`,
    [applicationId, months],
  );
  await e2eSql(
    `update provider_credentials set ends_on = ends_on - make_interval(months => $2) where application_id = $1`,
    [applicationId, months],
  );
}
