/**
 * Issue 17 acceptance: every screen, provider and admin, with several rows in every list, at a phone
 * (390x844) and a desktop (1280x800) size. On each: nothing scrolls sideways, every visible button
 * and link lies within the viewport horizontally, no badge is cut ('Administr...'), axe finds no
 * violations; each route has its own document title. On the phone the lists are cards with their
 * actions, the details dialog is full-screen, and a toast covers neither the heading nor Sign Out.
 * With E2E_SCREENSHOTS=<folder>, screenshots of every screen at both sizes go there (to look at them).
 */
import fs from 'node:fs';
import { expect, type Locator, type Page, test } from '@playwright/test';
import {
  expectNoAxeViolations,
  signIn,
  signInAsNewAdmin,
  signUpAndConfirm,
  startApplication,
} from './helpers.ts';

/** Where screenshots go, when asked for (E2E_SCREENSHOTS); none in an ordinary run. */
const SHOTS = process.env.E2E_SCREENSHOTS;
const sizes = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

/** A small but real PDF (the server checks the file's bytes, not only its name). */
const PDF_BYTES = Buffer.from(
  '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\n' +
    'trailer <</Root 1 0 R>>\n%%EOF\n',
);

/** The title each route had, by route name (checked for uniqueness at the end). */
const titles = new Map<string, string>();

/** What breaks the layout on the current page: sideways scrolling, controls or badges out of view. */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = window.innerWidth;
    if (document.documentElement.scrollWidth > width) {
      // Name the innermost elements that stick out, to say where to look.
      const wide = [...document.body.querySelectorAll('*')].filter(
        (el) =>
          el.getBoundingClientRect().right > width + 0.5 &&
          ![...el.children].some((child) => child.getBoundingClientRect().right > width + 0.5),
      );
      const names = wide.slice(0, 3).map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
      problems.push(
        `page scrolls sideways: ${document.documentElement.scrollWidth} > ${width} (${names.join('; ')})`,
      );
    }
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`;
    for (const el of document.querySelectorAll('button, a[href], [role="button"], [role="tab"]')) {
      if (!el.checkVisibility({ visibilityProperty: true })) continue;
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      if (rect.left < -0.5 || rect.right > width + 0.5) {
        problems.push(`${describe(el)} lies outside [0, ${width}]: ${rect.left}..${rect.right}`);
      }
    }
    for (const label of document.querySelectorAll('.mantine-Badge-label')) {
      if (!label.checkVisibility()) continue;
      if (label.scrollWidth > label.clientWidth + 1) problems.push(`badge cut: ${describe(label)}`);
      const rect = label.getBoundingClientRect();
      if (rect.right > width + 0.5) problems.push(`badge off screen: ${describe(label)}`);
    }
    return problems;
  });
}

/**
 * At both sizes: wait for `ready`, check the layout, axe, take a screenshot; then record the title.
 * The desktop size is left set.
 */
async function checkScreen(page: Page, name: string, ready: (page: Page) => Promise<void>) {
  for (const size of sizes) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await ready(page);
    await expect(page.getByText('Loading...')).toHaveCount(0);
    // Retried briefly: a toast sliding in or out after the resize is not a layout fault.
    await expect(async () => {
      expect(await layoutProblems(page), `${name} at ${size.name}`).toEqual([]);
    }).toPass({ timeout: 5_000 });
    await expectNoAxeViolations(page);
    // A whole-page picture of an open dialog shows the page behind it stretched: the viewport then.
    const fullPage = (await page.getByRole('dialog').count()) === 0;
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}-${size.name}.png`, fullPage });
  }
  titles.set(name, await page.title());
}

/** Open `path` (a new route), wait until its title has changed from the previous route's. */
async function visit(page: Page, path: string) {
  const before = await page.title();
  await page.goto(path);
  // Section titles come from the lazily loaded registry: give them a moment, never fail here.
  await page
    .waitForFunction((previous) => document.title !== previous, before, { timeout: 3_000 })
    .catch(() => {});
}

/** The box of an element's text (not of the element, which may span the whole column). */
async function textBox(locator: Locator) {
  return locator.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const { x, y, width, height } = range.getBoundingClientRect();
    return { x, y, width, height };
  });
}

const heading = (name: string | RegExp) => async (page: Page) => {
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
};

test.beforeAll(() => {
  if (SHOTS) fs.mkdirSync(SHOTS, { recursive: true });
});

test('every screen at 390x844 and 1280x800: no sideways scrolling, controls in view, axe clean, own titles', async ({
  page,
}) => {
  // Sixteen section screens since issue 31, each checked at both sizes.
  test.setTimeout(420_000);
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

  // First, the signed-out screens.
  await visit(page, '/');
  await checkScreen(page, 'landing', heading('Healthcare Provider Credentialing System'));
  await visit(page, '/auth');
  await checkScreen(page, 'auth', async (p) => {
    await expect(p.getByRole('form', { name: 'Sign in' })).toBeVisible();
  });
  await visit(page, '/forgot-password');
  await checkScreen(page, 'forgot-password', async (p) => {
    await expect(p.getByRole('heading').first()).toBeVisible();
  });

  // Second, a provider with a long name signs up, starts an application, and fills every list with
  // several rows through the API.
  const providerEmail = `maximiliana.featherstonehaugh.${tag}@clinic.example`;
  await signUpAndConfirm(page, {
    firstName: 'Maximiliana Alexandrovna',
    lastName: 'Featherstonehaugh-Wolfeschlegel',
    email: providerEmail,
  });
  await signIn(page, providerEmail);
  await expect(page).toHaveURL(/\/dashboard$/);
  const { applicationId, base, headers } = await startApplication(page);
  const three = <T>(make: (n: number) => T) => [1, 2, 3].map(make);
  const saves = [
    page.request.put(`${base}/sections/personal-information`, {
      headers,
      data: { providerType: 'MD', ssn: '123-45-6789', npiNumber: '1234567893', city: 'Boston', state: 'MA' },
    }),
    page.request.put(`${base}/sections/professional-licenses`, {
      headers,
      data: { rows: three((n) => ({ licenseNumber: `L-${n}-${tag}` })) },
    }),
    page.request.put(`${base}/sections/education`, {
      headers,
      data: { rows: three((n) => ({ institutionName: `University of Somewhere Quite Far ${n}` })) },
    }),
    page.request.put(`${base}/sections/work-history`, {
      headers,
      data: { rows: three((n) => ({ employerName: `Tampa General Hospital Department ${n}` })) },
    }),
    page.request.put(`${base}/sections/malpractice-insurance`, {
      headers,
      data: { rows: three((n) => ({ insuranceCompany: `MedPro Group ${n}` })) },
    }),
    page.request.put(`${base}/sections/vaccinations`, {
      headers,
      data: { rows: [{ vaccineName: 'influenza' }, { vaccineName: 'hepatitis-b' }] },
    }),
  ];
  for (const n of [1, 2, 3]) {
    saves.push(
      page.request.post(`${base}/sections/payors`, {
        headers,
        data: {
          payorName: `Blue Cross Blue Shield of Florida ${n}`,
          contractType: 'Commercial PPO',
          contractStartDate: '2024-01-01',
          contractEndDate: '2026-12-31',
          credentialingStatus: n === 1 ? 'approved' : 'pending',
          notes: 'Group contract through TGH Physicians, renewed every two years',
        },
      }),
      page.request.post(`${base}/sections/certifications`, {
        headers,
        data: {
          certificationKind: 'other',
          certificationName: `Certified Registered Nurse Anesthetist ${n}`,
          certifyingBody: 'NBCRNA',
          certificationNumber: `CRNA-112233${n}`,
          issueDate: '2012-09-01',
          expirationDate: '2028-08-31',
        },
      }),
      page.request.post(`${base}/sections/cme`, {
        headers,
        data: {
          activityTitle: `Advanced Airway Management ${n}`,
          providerName: 'American Association of Nurse Anesthesiology',
        },
      }),
      page.request.post(`${base}/sections/peer-references`, {
        headers,
        data: {
          referenceName: `Dr. Alan Reyes ${n}`,
          email: `alan.reyes.${n}@tgh.example.test`,
          yearsKnown: 6,
        },
      }),
      page.request.post(`${base}/documents`, {
        headers,
        multipart: {
          documentType: 'cv_resume',
          file: { name: `curriculum-vitae-${n}-${tag}.pdf`, mimeType: 'application/pdf', buffer: PDF_BYTES },
        },
      }),
    );
  }
  for (const save of saves) {
    const response = await save;
    expect(response.status(), await response.text()).toBeLessThan(300);
  }

  // Third, every provider screen.
  await visit(page, '/dashboard');
  await checkScreen(page, 'dashboard', heading(/.+/));
  const sectionScreens: [slug: string, title: string][] = [
    ['personal-information', 'Personal Information'],
    ['professional-licenses', 'Professional Licenses'],
    ['education', 'Education'],
    ['work-history', 'Work History'],
    ['malpractice-insurance', 'Malpractice Insurance'],
    ['vaccinations', 'Vaccinations'],
    ['payors', 'Payors'],
    ['certifications', 'Certifications'],
    ['cme', 'CME Credits'],
    ['peer-references', 'Peer References'],
    ['documents', 'Documents'],
    // Issue 31: the 'Additional Information' sections.
    ['specialties', 'Specialties'],
    ['practice-locations', 'Practice Locations'],
    ['hospital-affiliations', 'Hospital Affiliations'],
    ['training', 'Training'],
    ['malpractice-claims', 'Malpractice Claims'],
  ];
  for (const [slug, title] of sectionScreens) {
    await visit(page, `/${slug}/${applicationId}`);
    await checkScreen(page, slug, heading(title));
  }

  // On a phone the payors are cards with their Delete buttons in view; on a desktop, table rows.
  await visit(page, `/payors/${applicationId}`);
  await page.setViewportSize({ width: 390, height: 844 });
  const payorCards = page.getByRole('list', { name: 'Your Payors' }).getByRole('listitem');
  await expect(payorCards).toHaveCount(3);
  await expect(page.getByRole('table')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Delete payor / })).toHaveCount(3);
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(4);
  await expect(page.getByRole('list', { name: 'Your Payors' })).toHaveCount(0);

  // A toast covers neither Sign Out nor the button just pressed, at either size, nor the page heading
  // on a desktop. On a phone it sits at the top (issue 28: at the bottom it covered the Save and Add
  // buttons), where it may cover the heading's text for its few seconds.
  for (const size of sizes) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.getByLabel('Payor Name').fill(`Aetna ${size.name}`);
    await page.getByRole('button', { name: 'Add Payor' }).click();
    const toast = page.getByRole('alert').filter({ hasText: 'Payor information saved successfully.' });
    await expect(toast).toBeVisible();
    const toastBox = (await toast.boundingBox())!;
    // The heading's text (its box spans the column) and the Sign Out button, where visible.
    const targets = [
      { name: 'Add Payor', box: await page.getByRole('button', { name: 'Add Payor' }).boundingBox() },
      { name: 'Sign Out', box: await page.getByRole('button', { name: 'Sign Out' }).boundingBox() },
    ];
    if (size.name === 'desktop') {
      targets.push({
        name: 'heading',
        box: await textBox(page.getByRole('heading', { level: 1, name: 'Payors' })),
      });
    }
    for (const { name, box } of targets) {
      if (!box || box.width === 0) continue;
      const overlaps =
        toastBox.x < box.x + box.width &&
        box.x < toastBox.x + toastBox.width &&
        toastBox.y < box.y + box.height &&
        box.y < toastBox.y + toastBox.height;
      expect(overlaps, `toast over ${name} at ${size.name}`).toBe(false);
    }
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/toast-${size.name}.png` });
    await toast.getByRole('button', { name: 'Close notification' }).click();
    await expect(toast).toHaveCount(0);
  }

  await visit(page, '/account');
  await checkScreen(page, 'account-provider', heading(/.+/));
  await page.getByRole('button', { name: 'Sign Out' }).first().click();
  await expect(page).toHaveURL(/\/auth$/);

  // Fourth, an administrator (made with the CLI, second factor set up) sees every admin screen.
  const adminEmail = await signInAsNewAdmin(page, {
    firstName: 'Rita',
    lastName: 'Reviewer',
    emailPrefix: 'responsive.admin',
  });
  const users = page.getByRole('list', { name: 'Users' }).getByRole('listitem');
  await checkScreen(page, 'admin-users', async (p) => {
    await expect(p.getByRole('list', { name: 'Users' }).getByRole('listitem').first()).toBeVisible();
  });
  // Her own card, whole badge included (other specs may have made administrators before this one).
  await expect(
    users.filter({ hasText: adminEmail }).getByText('Administrator', { exact: true }),
  ).toBeVisible();

  await page.getByRole('tab', { name: 'All Documents' }).click();
  await checkScreen(page, 'admin-documents', async (p) => {
    await expect(p.getByText(`curriculum-vitae-1-${tag}.pdf`).locator('visible=true')).toBeVisible();
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(
    page
      .getByRole('list', { name: 'All documents, newest first' })
      // This provider's three (other specs may have uploaded documents to the same server).
      .getByRole('button', { name: new RegExp(`^Download curriculum-vitae-\\d-${tag}\\.pdf`) }),
  ).toHaveCount(3);
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole('tab', { name: 'Audit Log' }).click();
  await checkScreen(page, 'admin-audit', async (p) => {
    // Role queries skip the hidden copy (the cards on a desktop, the table on a phone).
    await expect(
      p.getByRole('row').or(p.getByRole('listitem')).filter({ hasText: 'auth.sign_in' }).first(),
    ).toBeVisible();
  });

  // Issue 32: the 'Staff' tab, her own row with its five role checkboxes.
  await page.getByRole('tab', { name: 'Staff' }).click();
  await checkScreen(page, 'admin-staff', async (p) => {
    await expect(
      p
        .getByRole('group', { name: /^Roles of / })
        .filter({ has: p.getByRole('checkbox', { checked: true }) })
        .first(),
    ).toBeVisible();
  });

  await page.getByRole('tab', { name: 'Users & Applications' }).click();
  await users.filter({ hasText: providerEmail }).getByRole('button', { name: 'View Details' }).click();
  const dialog = page.getByRole('dialog', { name: /Maximiliana/ });
  await checkScreen(page, 'admin-details', async () => {
    await expect(dialog.getByRole('heading', { name: 'Documents', exact: true })).toBeVisible();
  });
  // Full-screen on a phone, a centred box on a desktop.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(async () => {
    const box = (await dialog.boundingBox())!;
    expect([box.x, box.y, box.width, box.height]).toEqual([0, 0, 390, 844]);
  }).toPass({ timeout: 5_000 });
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(async () => {
    expect((await dialog.boundingBox())!.width).toBeLessThan(1000);
  }).toPass({ timeout: 5_000 });
  await dialog.getByRole('button', { name: 'Close details' }).click();
  await expect(dialog).toBeHidden();

  await visit(page, '/account');
  await checkScreen(page, 'account-admin', heading(/.+/));

  // Last, every route has its own title (issue 17).
  const routesByTitle = new Map<string, string[]>();
  for (const [route, title] of titles) {
    // The same route as account-provider, and the admin's tabs and dialog are /admin.
    if (['account-admin', 'admin-documents', 'admin-audit', 'admin-staff', 'admin-details'].includes(route))
      continue;
    routesByTitle.set(title, [...(routesByTitle.get(title) ?? []), route]);
  }
  const shared = [...routesByTitle].filter(([, routes]) => routes.length > 1);
  expect(shared, JSON.stringify(Object.fromEntries(titles))).toEqual([]);
});
