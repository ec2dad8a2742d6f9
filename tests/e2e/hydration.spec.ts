/**
 * The prerendered public pages (`/`, `/auth`; decision 033) after hydration (web/app/hydration.ts,
 * web/main.tsx): a page reached within the app once the first one has hydrated is usable from its
 * first frame, and a signed-in caller on /auth is sent home whether the session check answers
 * before or after React has hydrated the page (the page subscribes to the session only then).
 */
import { expect, test } from '@playwright/test';
import { holdBack, newProviderWithApplication } from './helpers.ts';

test('/auth reached within the app after hydrating /auth never shows its tabs as unavailable', async ({
  page,
}) => {
  await page.goto('/auth');
  // Hydrated: the tabs no longer say they are unavailable.
  await expect(page.getByRole('tab', { name: 'Sign Up' })).not.toHaveAttribute('aria-disabled', 'true');

  // From here on, any tab shown as unavailable is counted, and a full page load would reset the mark.
  await page.evaluate(() => {
    const state = window as unknown as { sameDocument: boolean; unavailableTabs: number };
    state.sameDocument = true;
    state.unavailableTabs = 0;
    new MutationObserver(() => {
      state.unavailableTabs += document.querySelectorAll('[role="tab"][aria-disabled="true"]').length;
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByRole('link', { name: 'Back to Sign In' }).click();
  await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await expect(page.getByRole('form', { name: 'Sign up' })).toBeVisible();

  const state = await page.evaluate(() => {
    const { sameDocument, unavailableTabs } = window as unknown as {
      sameDocument?: boolean;
      unavailableTabs?: number;
    };
    return { sameDocument, unavailableTabs };
  });
  expect(state.sameDocument).toBe(true);
  expect(state.unavailableTabs).toBe(0);
});

test('a signed-in caller opening /auth goes home, whether the session answers before or after hydration', async ({
  page,
}) => {
  await newProviderWithApplication(page, 'Hana', 'Hydrate');

  // First, the usual order: the session check answers while the page's code loads.
  await page.goto('/auth');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Hana Hydrate' })).toBeVisible();

  // Then the answer comes only once the page has hydrated (its tabs are usable).
  const release = await holdBack(page, '**/api/session');
  await page.goto('/auth');
  await expect(page.getByRole('tab', { name: 'Sign Up' })).not.toHaveAttribute('aria-disabled', 'true');
  await expect(page).toHaveURL(/\/auth$/);
  release();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Hana Hydrate' })).toBeVisible();
});

test('before it has hydrated, /auth cannot be submitted as bare HTML: nothing reloads, nothing typed is lost (issue 51 item 6)', async ({
  page,
}) => {
  // The page's code never arrives (a slow phone, frozen): the prerendered HTML is all there is.
  await page.route('**/*', (route) =>
    route.request().resourceType() === 'script' ? route.abort() : route.continue(),
  );
  await page.goto('/auth');
  const signIn = page.getByRole('form', { name: 'Sign in' });
  const button = signIn.getByRole('button', { name: 'Sign In', exact: true });
  await expect(button).toBeVisible();
  await expect(button).toBeDisabled();
  await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-disabled', 'true');

  // A fast person types and submits: Enter in the password field (implicit submission), then a tap.
  await signIn.getByLabel('Email').fill('fast@example.test');
  const password = signIn.getByRole('textbox', { name: 'Password', exact: true });
  await password.fill('typed before the code arrived');
  await password.press('Enter');
  await button.click({ force: true });
  // The form may not be sent as `/auth?` (which reloaded the page and dropped what was typed); a
  // submission would have navigated within this time.
  await page.waitForTimeout(500);
  await expect(page).toHaveURL(/\/auth$/);
  await expect(signIn.getByLabel('Email')).toHaveValue('fast@example.test');
  await expect(password).toHaveValue('typed before the code arrived');

  // The sign-up form is not in the prerendered page: its tab opens it only once hydrated.
  await expect(page.locator('form[aria-label="Sign up"]')).toHaveCount(0);
});
