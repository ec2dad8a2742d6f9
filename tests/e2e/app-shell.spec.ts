/**
 * The app shell of the signed-in screens (issue 17 part A; web/components/app-shell.tsx): the product's
 * name, the user's name and Sign Out on every signed-in screen; on section screens the section
 * navigator with the current section marked and the completion marks, a 'Sections' menu on a phone;
 * a title of its own on every route (web/app/page-titles.ts); no axe violations at either size.
 */
import { expect, type Page, test } from '@playwright/test';
import { SECTION_COUNT } from '../../domain/sections/registry.ts';
import { expectNoAxeViolations, newProviderWithApplication } from './helpers.ts';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** The navigator's side list (desktop) or, on a phone, the open menu. */
const navigator = (page: Page) => page.getByRole('navigation', { name: 'Application sections' });

/** Nothing on the page scrolls sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

test('a provider moves between sections through the navigator, sees the marks, and signs out from a section', async ({
  page,
}) => {
  await page.setViewportSize(DESKTOP);
  // First, the pages before signing in have their own titles.
  await page.goto('/');
  await expect(page).toHaveTitle('Healthcare Provider Credentialing System');
  await page.goto('/auth');
  await expect(page).toHaveTitle('Sign In - Credentialing');
  await page.goto('/forgot-password');
  await expect(page).toHaveTitle('Forgot Password - Credentialing');

  // Second, Nadia signs up, starts an application: the dashboard sits in the shell.
  const applicationId = await newProviderWithApplication(page, 'Nadia', 'Okafor');
  await expect(page).toHaveTitle('Dashboard - Credentialing');
  const banner = page.getByRole('banner');
  await expect(banner.getByRole('link', { name: 'Healthcare Provider Credentialing System' })).toBeVisible();
  await expect(banner.getByText('Nadia Okafor')).toBeVisible();
  await expect(banner.getByRole('link', { name: 'Account', exact: true })).toBeVisible();
  await expect(banner.getByRole('button', { name: 'Sign Out' })).toBeVisible();
  // The spec's welcome line stays on the dashboard; no navigator there.
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Nadia Okafor' })).toBeVisible();
  await expect(navigator(page)).toHaveCount(0);
  await expectNoAxeViolations(page);

  // Third, she opens Payors from its card: the navigator lists every section (the spec's eleven,
  // then the five of 'Additional Information', issue 31), Payors current.
  await page.getByRole('link', { name: /^Payors:/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Payors' })).toBeVisible();
  await expect(page).toHaveTitle('Payors - Credentialing');
  const nav = navigator(page);
  await expect(nav.getByRole('link')).toHaveCount(SECTION_COUNT);
  await expect(nav.getByRole('list', { name: 'Application Sections' }).getByRole('link')).toHaveCount(11);
  await expect(nav.getByRole('list', { name: 'Additional Information' }).getByRole('link')).toHaveCount(5);
  await expect(nav.getByRole('link', { name: /^Payors/ })).toHaveAttribute('aria-current', 'page');
  await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
  await expect(nav.getByRole('link', { name: /^Payors/ })).not.toContainText('(complete)');
  await expectNoAxeViolations(page);

  // Fourth, she adds a payor: the section is complete, and the navigator's mark says so at once.
  await page.getByLabel('Payor Name').fill('Aetna');
  await page.getByRole('button', { name: 'Add Payor' }).click();
  await expect(page.getByText('Payor information saved successfully.')).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Payors (complete)' })).toBeVisible();
  await expect(nav.getByTestId('nav-cme')).not.toContainText('(complete)');

  // Fifth, she goes straight to CME Credits, then Documents, through the navigator.
  await nav.getByRole('link', { name: /^CME Credits/ }).click();
  await expect(page).toHaveURL(`/cme/${applicationId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'CME Credits' })).toBeVisible();
  await expect(page).toHaveTitle('CME Credits - Credentialing');
  await expect(nav.getByRole('link', { name: /^CME Credits/ })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: /^Payors/ })).not.toHaveAttribute('aria-current');
  await nav.getByRole('link', { name: /^Documents/ }).click();
  await expect(page).toHaveURL(`/documents/${applicationId}`);
  await expect(page).toHaveTitle('Documents - Credentialing');
  await expect(nav.getByRole('link', { name: /^Documents/ })).toHaveAttribute('aria-current', 'page');

  // Sixth, the account pages and an unknown path have their own titles too.
  await page.getByRole('banner').getByRole('link', { name: 'Account', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
  await expect(page).toHaveTitle('Account - Credentialing');
  await page.getByRole('link', { name: 'Set up' }).click();
  await expect(page).toHaveTitle('Two-factor authentication - Credentialing');
  await page.goto('/no-such-page');
  await expect(page.getByText('Oops! Page not found')).toBeVisible();
  await expect(page).toHaveTitle('Page not found - Credentialing');

  // Last, she signs out from a section screen and lands on the sign-in page.
  await page.goto(`/education/${applicationId}`);
  await expect(page).toHaveTitle('Education - Credentialing');
  await page.getByRole('banner').getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page).toHaveTitle('Sign In - Credentialing');
  await page.goto(`/education/${applicationId}`);
  await expect(page).toHaveURL(/\/auth$/);
});

test('on a phone the Sections menu reaches another section, and the shell fits the screen', async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  const applicationId = await newProviderWithApplication(page, 'Tomas', 'Lindqvist-Hargreaves');
  const banner = page.getByRole('banner');
  await expect(banner.getByRole('button', { name: 'Sign Out' })).toBeInViewport();
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page);

  await page.getByRole('link', { name: /^Vaccinations:/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Vaccinations' })).toBeVisible();
  // No side list on a phone: its links are hidden, not just moved off screen.
  await expect(navigator(page)).toHaveCount(0);
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page);

  const menuButton = banner.getByRole('button', { name: 'Sections' });
  await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
  await menuButton.click();
  const menu = page.getByRole('dialog', { name: 'Sections' });
  await expect(menu).toBeVisible();
  await expect(menuButton).toHaveAttribute('aria-expanded', 'true');
  await expect(menu.getByRole('link', { name: /^Vaccinations/ })).toHaveAttribute('aria-current', 'page');
  await expectNoAxeViolations(page);
  await menu.getByRole('link', { name: /^Work History/ }).click();
  await expect(page).toHaveURL(`/work-history/${applicationId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Work History' })).toBeVisible();
  await expect(page).toHaveTitle('Work History - Credentialing');
  await expect(menu).toBeHidden();
  for (const control of await banner.getByRole('button').all()) await expect(control).toBeInViewport();
  await expectNoSidewaysScroll(page);
});

test('the landing page keeps the spec texts and says what to expect, at both sizes', async ({ page }) => {
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await page.goto('/');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Healthcare Provider Credentialing System' }),
    ).toBeVisible();
    await expect(page.getByText('Secure healthcare onboarding platform')).toBeVisible();
    for (const name of ['Sign In', 'Provider Login']) {
      await expect(page.getByRole('link', { name, exact: true }).first()).toHaveAttribute('href', '/auth');
    }
    // Issue 28: a new provider's ways in open the Sign Up tab.
    for (const name of ['Get Started', 'Start Application']) {
      await expect(page.getByRole('link', { name, exact: true })).toHaveAttribute(
        'href',
        '/auth?tab=sign-up',
      );
    }
    // The steps list (and count, issue 28) the sections from the registry; the documents list the
    // document types.
    const steps = page.getByRole('region', { name: 'How it works' });
    await expect(steps).toContainText(`Complete the ${SECTION_COUNT} sections`);
    await expect(steps).toContainText('Personal Information');
    await expect(steps).toContainText('Peer References');
    await expect(page.getByRole('region', { name: 'Documents to have at hand' })).toContainText(
      'Malpractice Insurance',
    );
    await expect(page.getByRole('region', { name: 'How your data is protected' })).toContainText(
      'Social Security number is encrypted',
    );
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
  }
});
