/**
 * The credentialing committee in Chromium (issue 32 items 4 and 5 acceptance): a provider discloses a
 * Yes, so once a specialist has verified every item 'Send for Decision' puts the file on 'Ready for
 * Committee'; the medical director plans a meeting with a committee member, adds the file to its
 * agenda and, after the member has read its summary, records the committee's denial with its reason
 * and votes; closing the meeting freezes the minutes, whose PDF says what was decided; the provider's
 * dashboard shows the decision, its reason and its letter (item 6), and the provider requests an
 * appeal, which the next meeting hears and upholds: final, in a second letter. And a clean file: the
 * specialist sends it for decision, the medical director approves it from 'Clean Files', and the
 * provider reads the approval letter.
 */
import fs from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { disclosureQuestions } from '../../domain/attestation.ts';
import { pdfText } from '../../server/pdf/pdf-text.ts';
import {
  completedApplicationInBrowser,
  completionReceiverForSpec,
  expectNoAxeViolations,
  signInAsNewStaff,
  toast,
  verifyEveryItemThroughApi,
} from './helpers.ts';

completionReceiverForSpec();

const EXPLANATION = 'License on probation in 2019 for record keeping; completed in 2021.';
const REASON = 'The probation terms were not shown to be met.';
const STATEMENT = 'The board lifted the probation in March 2021; its letter is in my documents.';
const UPHELD = 'The board letter does not show the terms were met.';

test('a file that is not clean is denied at a meeting; the provider reads the letter and appeals; the next meeting upholds it', async ({
  browser,
  page,
}) => {
  // Four people, a completed application, a verified checklist and a meeting: minutes, not seconds.
  test.setTimeout(300_000);
  const provider = await (await browser.newContext()).newPage();
  const { applicationId } = await completedApplicationInBrowser(
    provider,
    { firstName: 'Paz', lastName: 'Ortega', emailPrefix: 'paz-committee' },
    { explanation: EXPLANATION },
  );

  // The specialist verifies every item, then sends the file for decision from its review page.
  const specialist = await (await browser.newContext()).newPage();
  await signInAsNewStaff(
    specialist,
    { firstName: 'Sid', lastName: 'Specialist', emailPrefix: 'sid-committee' },
    'specialist',
  );
  await verifyEveryItemThroughApi(specialist, applicationId);
  await specialist.goto(`/admin/applications/${applicationId}`);
  await expect(specialist.getByRole('heading', { level: 1, name: 'Paz Ortega' })).toBeVisible();
  await expect(specialist.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await specialist.getByRole('button', { name: 'Send for Decision' }).click();
  const routed = specialist.getByRole('alert').filter({ hasText: "On 'Ready for Committee'" });
  await expect(routed).toContainText(`Yes to: ${disclosureQuestions[0]!.text}`);
  await expect(routed).toContainText('It waits for a committee meeting.');

  // The medical director (the test's own page: a failure's snapshot shows the meeting) and a member.
  const director = page;
  await signInAsNewStaff(
    director,
    { firstName: 'Mae', lastName: 'Director', emailPrefix: 'mae-committee' },
    'medical-director',
  );
  const member = await (await browser.newContext()).newPage();
  await signInAsNewStaff(
    member,
    { firstName: 'Cal', lastName: 'Member', emailPrefix: 'cal-committee' },
    'committee',
  );
  // A committee member sees only the Committee tab.
  await expect(member.getByRole('tab')).toHaveText(['Committee']);

  // 'New Meeting': tomorrow at 17:00, the two of them.
  await director.getByRole('tab', { name: 'Committee' }).click();
  await director.getByRole('button', { name: 'New Meeting' }).click();
  const form = director.getByRole('dialog', { name: 'New Meeting' });
  await form.getByRole('button', { name: 'Create Meeting' }).click();
  await expect(form.getByText('Enter the date and time of the meeting')).toBeVisible();
  await form
    .getByLabel('Date and time')
    .fill(`${new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)}T17:00`);
  await form.getByRole('checkbox', { name: /Mae Director/ }).check();
  await form.getByRole('checkbox', { name: /Cal Member/ }).check();
  await expectNoAxeViolations(director);
  await form.getByRole('button', { name: 'Create Meeting' }).click();
  await expect(toast(director, 'Meeting created')).toBeVisible();
  await expect(form).toHaveCount(0);
  await expect(director).toHaveURL(/\/admin\/meetings\/[0-9a-f-]{36}$/);

  // Its agenda: the file from 'Ready for Committee'.
  await director.getByRole('combobox', { name: 'File ready for the committee' }).click();
  await director.getByRole('option', { name: /^Paz Ortega/ }).click();
  await director.getByRole('button', { name: 'Add File' }).click();
  await expect(toast(director, 'File added to the agenda')).toBeVisible();
  const row = director.getByRole('row').filter({ hasText: 'Paz Ortega' });
  await expect(row).toContainText(`Yes to: ${disclosureQuestions[0]!.text}`);
  await expectNoAxeViolations(director);

  // The member reads the file's summary: the disclosure and its explanation.
  // (Their tab was open before the meeting existed: a reload lists it; a member sees only theirs.)
  await member.reload();
  const meetings = member.getByRole('region', { name: 'Committee Meetings' });
  await expect(meetings.getByRole('link')).toHaveCount(1);
  await meetings.getByRole('link').click();
  await member.getByRole('button', { name: /^Summary/ }).click();
  const summary = member.getByRole('dialog', { name: 'File Summary' });
  await expect(summary).toContainText(EXPLANATION);
  await expectNoAxeViolations(member);
  await member.keyboard.press('Escape');
  await expect(member.getByRole('button', { name: 'Record Decision' })).toHaveCount(0);

  // 'Record Decision': Deny, with the reason, both members present and for it.
  await row.getByRole('button', { name: /^Record Decision/ }).click();
  const decision = director.getByRole('dialog', { name: 'Record Decision' });
  await decision.getByRole('radio', { name: 'Deny' }).check();
  await decision.getByLabel('Reason').fill(REASON);
  await decision.getByLabel('For').fill('1');
  await decision
    .getByLabel('Discussion Summary')
    .fill('The committee read the board order and the explanation.');
  await decision.getByRole('button', { name: 'Record Decision' }).click();
  await expect(
    decision.getByText(/^Count every member present and not recused once: 2 present, 1 counted/),
  ).toBeVisible();
  await decision.getByLabel('For').fill('2');
  await expectNoAxeViolations(director);
  await decision.getByRole('button', { name: 'Record Decision' }).click();
  await expect(toast(director, 'Decision recorded')).toBeVisible();
  await expect(row).toContainText('Deny');
  await expect(row).toContainText('For 2 · Against 0 · Abstained 0');

  // 'Close Meeting' freezes it; the minutes say what was decided.
  await director.getByRole('button', { name: 'Close Meeting' }).click();
  await director
    .getByRole('dialog', { name: 'Close Meeting' })
    .getByRole('button', { name: 'Close Meeting' })
    .click();
  await expect(toast(director, 'Meeting closed')).toBeVisible();
  await expect(director.getByRole('button', { name: /^Record Decision/ })).toHaveCount(0);
  const download = director.waitForEvent('download');
  await director.getByRole('link', { name: 'Download Minutes (PDF)' }).click();
  const minutes = await (await download).path();
  const text = (await pdfText(new Uint8Array(fs.readFileSync(minutes)))).replace(/\s+/g, ' ');
  expect(text).toContain('Credentialing Committee Minutes');
  expect(text).toContain('Decision Deny');
  expect(text).toContain(`Reason ${REASON}`);
  expect(text).toContain('Votes For 2 · Against 0 · Abstained 0');

  // The provider's dashboard: the decision, its reason and its letter (issue 32 item 6).
  await provider.goto('/dashboard');
  await expect(provider.getByText('Rejected', { exact: true })).toBeVisible();
  await expect(provider.getByText(`Reason: ${REASON}`)).toBeVisible();
  const denialLetter = await pdfOf(provider, 'Denial Letter (PDF)');
  expect(denialLetter).toContain('Dear Paz Ortega,');
  expect(denialLetter).toContain('The Credentialing Committee denied your credentialing application on');
  expect(denialLetter).toContain(`Reason: ${REASON}`);
  expect(denialLetter).toContain('Your right to appeal: you may request an appeal until');

  // 'Request Appeal' with a statement.
  await provider.getByRole('button', { name: 'Request Appeal' }).click();
  const appealDialog = provider.getByRole('dialog', { name: 'Request Appeal' });
  await appealDialog.getByRole('button', { name: 'Request Appeal' }).click();
  await expect(appealDialog.getByText('Say why the decision should change')).toBeVisible();
  await appealDialog.getByLabel('Statement').fill(STATEMENT);
  await expectNoAxeViolations(provider);
  await appealDialog.getByRole('button', { name: 'Request Appeal' }).click();
  await expect(toast(provider, 'Appeal Requested')).toBeVisible();
  await expect(provider.getByText(/^Appeal requested on /)).toBeVisible();
  await expect(provider.getByRole('button', { name: 'Request Appeal' })).toHaveCount(0);

  // The next meeting hears the appeal, with the provider's statement, and upholds the denial.
  await director.goto('/admin?tab=committee');
  await director.getByRole('button', { name: 'New Meeting' }).click();
  const next = director.getByRole('dialog', { name: 'New Meeting' });
  await next
    .getByLabel('Date and time')
    .fill(`${new Date(Date.now() + 8 * 86_400_000).toISOString().slice(0, 10)}T17:00`);
  await next.getByRole('checkbox', { name: /Mae Director/ }).check();
  await next.getByRole('checkbox', { name: /Cal Member/ }).check();
  await next.getByRole('button', { name: 'Create Meeting' }).click();
  await expect(director).toHaveURL(/\/admin\/meetings\/[0-9a-f-]{36}$/);
  await director.getByRole('combobox', { name: 'File ready for the committee' }).click();
  await director.getByRole('option', { name: /^Paz Ortega/ }).click();
  await director.getByRole('button', { name: 'Add File' }).click();
  const appealRow = director.getByRole('row').filter({ hasText: 'Paz Ortega' });
  await expect(appealRow).toContainText('Appeal (its decision is final)');
  await appealRow.getByRole('button', { name: /^Summary/ }).click();
  await expect(director.getByRole('dialog', { name: 'File Summary' })).toContainText(STATEMENT);
  await director.keyboard.press('Escape');
  await appealRow.getByRole('button', { name: /^Record Decision/ }).click();
  const appealDecision = director.getByRole('dialog', { name: 'Record Decision' });
  await expect(appealDecision).toContainText('An appeal: Approve reverses the denial, Deny upholds it');
  await appealDecision.getByRole('radio', { name: 'Deny' }).check();
  await appealDecision.getByLabel('Reason').fill(UPHELD);
  await appealDecision.getByLabel('For').fill('2');
  await appealDecision
    .getByLabel('Discussion Summary')
    .fill('The statement does not show the terms were met.');
  await appealDecision.getByRole('button', { name: 'Record Decision' }).click();
  await expect(toast(director, 'Decision recorded')).toBeVisible();

  // Final: the provider reads the outcome and its letter; no second appeal.
  await provider.reload();
  await expect(provider.getByText(/the denial was upheld\. This decision is final\./)).toBeVisible();
  await expect(provider.getByRole('button', { name: 'Request Appeal' })).toHaveCount(0);
  const upheldLetter = await pdfOf(provider, 'Appeal Decision: Denial Upheld (PDF)');
  expect(upheldLetter).toContain('heard your appeal on');
  expect(upheldLetter).toContain(`Reason: ${UPHELD}`);
  expect(upheldLetter).toContain('This decision is final.');
});

test('a specialist sends a clean file for decision, the medical director approves it, and the provider reads the approval letter', async ({
  browser,
  page,
}) => {
  test.setTimeout(240_000);
  const provider = await (await browser.newContext()).newPage();
  const { applicationId } = await completedApplicationInBrowser(provider, {
    firstName: 'Cleo',
    lastName: 'Clean',
    emailPrefix: 'cleo-clean',
  });
  const specialist = await (await browser.newContext()).newPage();
  await signInAsNewStaff(
    specialist,
    { firstName: 'Sue', lastName: 'Specialist', emailPrefix: 'sue-clean' },
    'specialist',
  );
  await verifyEveryItemThroughApi(specialist, applicationId);
  await specialist.goto(`/admin/applications/${applicationId}`);
  await specialist.getByRole('button', { name: 'Send for Decision' }).click();
  await expect(specialist.getByText("On 'Clean Files'")).toBeVisible();
  // The specialist prepares; the decision is not theirs.
  await expect(specialist.getByRole('button', { name: 'Approve' })).toHaveCount(0);

  const director = page;
  await signInAsNewStaff(
    director,
    { firstName: 'Max', lastName: 'Director', emailPrefix: 'max-clean' },
    'medical-director',
  );
  await director.getByRole('tab', { name: 'Decisions' }).click();
  const row = director
    .getByRole('region', { name: 'Clean Files' })
    .getByRole('row')
    .filter({ hasText: 'Cleo Clean' });
  await expect(row).toContainText('by Sue Specialist');
  await row.getByRole('button', { name: 'Approve Cleo Clean' }).click();
  await director
    .getByRole('dialog', { name: 'Approve Clean File' })
    .getByRole('button', { name: 'Approve' })
    .click();
  await expect(toast(director, 'File approved')).toBeVisible();
  await expect(row).toHaveCount(0);

  await provider.goto('/dashboard');
  await expect(provider.getByText(/^Approved on /)).toBeVisible();
  const letter = await pdfOf(provider, 'Approval Letter (PDF)');
  expect(letter).toContain('Dear Cleo Clean,');
  expect(letter).toContain('The Medical Director, Max Director, approved your credentialing application on');
  expect(letter).toMatch(
    /Your credential is effective from \w{3} \d{1,2}, \d{4} through \w{3} \d{1,2}, \d{4}\./,
  );
});

/** The text of the PDF a link named `name` downloads on `page`, whitespace collapsed. */
async function pdfOf(page: Page, name: string): Promise<string> {
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name }).click();
  const file = await (await download).path();
  return (await pdfText(new Uint8Array(fs.readFileSync(file)))).replace(/\s+/g, ' ');
}
