/**
 * `/dashboard` rendered by the server with the provider's own data (issue 35 goal 3, decision 033):
 * the page load's HTML already holds the provider's screen, dates in the browser's time zone; the
 * browser hydrates it without a console error or warning (a hydration mismatch is one) and without
 * re-reading what came with the page; the controls work afterwards. Each provider's HTML holds only
 * their own data, and without the time zone cookie or a session the page is the app's own, as before.
 */
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { TIME_ZONE_COOKIE } from '../../domain/rendered-page.ts';
import { newProviderWithApplication } from './helpers.ts';

/** Far from UTC, so a date rendered in the wrong zone shows (the application is created "now"). */
const ZONE = 'Pacific/Kiritimati';
test.use({ timezoneId: ZONE });

/** Every console error and warning and every uncaught page error, as readable lines. */
function consoleProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return;
    problems.push(`${message.type()}: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  return problems;
}

/**
 * GET /dashboard with the context's cookies, as a page load asks for it; the HTML without the empty
 * comments React puts between adjacent texts (`Welcome, <!-- -->Ana`).
 */
async function dashboardDocument(context: BrowserContext) {
  const response = await context.request.get('/dashboard', { headers: { accept: 'text/html' } });
  expect(response.status()).toBe(200);
  return { html: (await response.text()).replaceAll('<!-- -->', ''), headers: response.headers() };
}

test('a provider’s dashboard comes rendered with their data and hydrates cleanly', async ({ browser }) => {
  const ana = await browser.newContext({ timezoneId: ZONE });
  const ben = await browser.newContext({ timezoneId: ZONE });
  try {
    const anaPage = await ana.newPage();
    const benPage = await ben.newPage();
    await newProviderWithApplication(anaPage, 'Ana', 'Quintero');
    await newProviderWithApplication(benPage, 'Ben', 'Okafor');

    // The HTML of Ana's page load holds her screen (the welcome line, the status card with the day
    // the application was created in her zone), never Ben's, and is stored by no cache.
    const today = new Intl.DateTimeFormat('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      timeZone: ZONE,
    }).format(new Date());
    const { html, headers } = await dashboardDocument(ana);
    expect(html).toContain('data-prerendered="/dashboard"');
    expect(html).toContain('Welcome, Ana Quintero');
    expect(html).toContain(`Created ${today}`);
    expect(html).toContain('<title>Dashboard - Credentialing</title>');
    expect(html).not.toContain('Okafor');
    // Until hydrated, the shell says its controls are unavailable.
    const shell = /<div[^>]*mantine-AppShell-root[^>]*>/.exec(html)?.[0] ?? '';
    expect(shell).toContain('role="group"');
    expect(shell).toContain('aria-disabled="true"');
    expect(headers['cache-control']).toBe('no-store');
    expect(headers.vary).toMatch(/cookie/i);
    const benHtml = (await dashboardDocument(ben)).html;
    expect(benHtml).toContain('Welcome, Ben Okafor');
    expect(benHtml).not.toContain('Quintero');

    // Loaded in the browser: no console problem, and none of the reads that came with the page is
    // made again while it hydrates.
    const problems = consoleProblems(anaPage);
    const reads: string[] = [];
    anaPage.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (['/api/session', '/api/applications', '/api/profile'].includes(pathname)) reads.push(pathname);
    });
    await anaPage.goto('/dashboard');
    await expect(anaPage.getByRole('heading', { name: 'Welcome, Ana Quintero' })).toBeVisible();
    await expect(anaPage.getByText(`Created ${today}`)).toBeVisible();
    // Hydrated: 'Withdraw' opens its confirmation (a click before hydration would do nothing).
    await expect(async () => {
      await anaPage.getByRole('button', { name: 'Withdraw' }).click();
      await expect(anaPage.getByRole('dialog')).toBeVisible({ timeout: 500 });
    }).toPass({ timeout: 10_000 });
    await expect(anaPage.locator('.mantine-AppShell-root')).not.toHaveAttribute('aria-disabled', 'true');
    await anaPage.keyboard.press('Escape');
    await expect(anaPage.getByRole('dialog')).toBeHidden();
    expect(reads.filter((path) => path === '/api/session')).toEqual([]);
    await anaPage.waitForLoadState('networkidle');
    expect(problems).toEqual([]);
  } finally {
    await ana.close();
    await ben.close();
  }
});

test('without the time zone cookie or a session, /dashboard is the app’s own page', async ({ browser }) => {
  const context = await browser.newContext({ timezoneId: ZONE });
  try {
    const page = await context.newPage();
    await newProviderWithApplication(page, 'Chidi', 'Eze');
    expect((await dashboardDocument(context)).html).toContain('Welcome, Chidi Eze');

    // The browser has not said its zone: the server would have to guess the dates, so it does not
    // render; the browser renders the page from the app, as before, and sets the cookie again.
    await context.clearCookies({ name: TIME_ZONE_COOKIE });
    const withoutZone = (await dashboardDocument(context)).html;
    expect(withoutZone).not.toContain('data-prerendered');
    expect(withoutZone).not.toContain('Chidi');
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { name: 'Welcome, Chidi Eze' })).toBeVisible();
    expect((await context.cookies()).some((cookie) => cookie.name === TIME_ZONE_COOKIE)).toBe(true);

    // Signed out: the app's own page, which sends the visitor to sign in.
    await context.clearCookies({ name: /^(?!tz$)/ });
    const signedOut = (await dashboardDocument(context)).html;
    expect(signedOut).not.toContain('data-prerendered');
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/auth$/);
  } finally {
    await context.close();
  }
});
