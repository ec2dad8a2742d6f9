/**
 * End-to-end helpers: accessibility checks with axe, and the provider's sign-up walk through the
 * real UI and the development mail page.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

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

export function uniqueEmail(prefix: string): string {
  return `${prefix}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.test`;
}

/** Sign up through /auth, then open the confirmation link from /dev/mail. */
export async function signUpAndConfirm(
  page: Page,
  user: { firstName: string; lastName: string; email: string; password?: string },
) {
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  const form = page.getByRole('form', { name: 'Sign up' });
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

export async function signIn(page: Page, email: string, password = STRONG_PASSWORD) {
  await page.goto('/auth');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(email);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await form.getByRole('button', { name: 'Sign In' }).click();
}

/** Run `npm run admin -- <command> <email>` against the e2e server's data (embedded or external). */
export async function adminCli(command: 'grant' | 'revoke', email: string): Promise<string> {
  const { execFile } = await import('node:child_process');
  const fs = await import('node:fs');
  const path = await import('node:path');
  const dataDir = path.resolve(`.data-test/e2e-${process.env.E2E_PORT ?? 3100}`);
  const urlFile = path.join(dataDir, 'e2e-database-url');
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  if (fs.existsSync(urlFile)) env.DATABASE_URL = fs.readFileSync(urlFile, 'utf8').trim();
  else delete env.DATABASE_URL;
  return new Promise((resolve, reject) => {
    execFile('npm', ['run', '--silent', 'admin', '--', command, email], { env }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    );
  });
}
