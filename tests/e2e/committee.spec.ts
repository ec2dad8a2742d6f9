/**
 * The credentialing committee in Chromium (issue 32 items 4 and 5; issue 50 acceptance): a provider
 * discloses a Yes, so once a specialist has verified every item 'Send for Decision' puts the file on
 * 'Ready for Committee'; the medical director plans a meeting that has just started with two committee
 * members and adds the file; the specialist, as secretary, cannot record a decision nobody voted for;
 * each of the three members joins, reads the whole file read-only and casts their own vote, signed
 * with their authenticator, in their own browser; the secretary records the tally; the minutes PDF
 * names each vote; the provider reads the denial letter naming the vote and requests an appeal (the
 * hearing itself: server/committee/appeals.test.ts). And a clean file: the specialist sends it for
 * decision, the medical director approves it from 'Clean Files' with a signature, and the provider
 * reads the approval letter.
 */
import fs from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { disclosureQuestions } from '../../domain/attestation.ts';
import { APPEAL_ATTACHMENT_PDF_MESSAGE } from '../../domain/committee/decision-letters.ts';
import { pdfText } from '../../server/pdf/pdf-text.ts';
import { minimalPdf } from '../fixtures/files.ts';
import {
  completedApplicationInBrowser,
  completionReceiverForSpec,
  expectNoAxeViolations,
  signInAsNewStaff,
  staffSecretOf,
  toast,
  totpCode,
  verifyEveryItemThroughApi,
} from './helpers.ts';

completionReceiverForSpec();

const EXPLANATION = 'License on probation in 2019 for record keeping; completed in 2021.';
const REASON = 'The probation terms were not shown to be met.';
const STATEMENT = 'The board lifted the probation in March 2021; its letter is in my documents.';

test('a file that is not clean is decided by three members voting in their own browsers; a recorder alone cannot; the minutes name each vote; the provider appeals', async ({
  browser,
  page,
}) => {
  // Five people, a completed application, a verified checklist and a meeting: minutes, not seconds.
  test.setTimeout(360_000);
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

  // The medical director (the test's own page) and two committee members, each in their own browser.
  const director = page;
  await signInAsNewStaff(
    director,
    { firstName: 'Mae', lastName: 'Director', emailPrefix: 'mae-committee' },
    'medical-director',
  );
  const cal = await (await browser.newContext()).newPage();
  await signInAsNewStaff(
    cal,
    { firstName: 'Cal', lastName: 'Member', emailPrefix: 'cal-committee' },
    'committee',
  );
  const dee = await (await browser.newContext()).newPage();
  await signInAsNewStaff(
    dee,
    { firstName: 'Dee', lastName: 'Member', emailPrefix: 'dee-committee' },
    'committee',
  );
  // A committee member sees only the Committee tab.
  await expect(cal.getByRole('tab')).toHaveText(['Committee']);

  // 'New Meeting': it has just started (issue 50 item 3: nothing is decided before a meeting starts).
  await director.getByRole('tab', { name: 'Committee' }).click();
  await director.getByRole('button', { name: 'New Meeting' }).click();
  const form = director.getByRole('dialog', { name: 'New Meeting' });
  await form.getByRole('button', { name: 'Create Meeting' }).click();
  await expect(form.getByText('Enter the date and time of the meeting')).toBeVisible();
  await form.getByLabel('Date and time').fill(localMinute(new Date(Date.now() - 2 * 60_000)));
  for (const name of [/Mae Director/, /Cal Member/, /Dee Member/]) {
    await form.getByRole('checkbox', { name }).check();
  }
  await expectNoAxeViolations(director);
  await form.getByRole('button', { name: 'Create Meeting' }).click();
  await expect(toast(director, 'Meeting created')).toBeVisible();
  await expect(director).toHaveURL(/\/admin\/meetings\/[0-9a-f-]{36}$/);
  const meetingUrl = new URL(director.url()).pathname;
  const meetingId = meetingUrl.split('/').pop()!;

  // Its agenda: the file from 'Ready for Committee'.
  await director.getByRole('combobox', { name: 'File ready for the committee' }).click();
  await director.getByRole('option', { name: /^Paz Ortega/ }).click();
  await director.getByRole('button', { name: 'Add File' }).click();
  await expect(toast(director, 'File added to the agenda')).toBeVisible();
  const row = director.getByRole('row').filter({ hasText: 'Paz Ortega' });
  await expect(row).toContainText(`Yes to: ${disclosureQuestions[0]!.text}`);

  // The specialist, the meeting's secretary, cannot record a decision nobody voted for.
  await specialist.goto(meetingUrl);
  const specialistRow = specialist.getByRole('row').filter({ hasText: 'Paz Ortega' });
  await specialistRow.getByRole('button', { name: /^Record Decision/ }).click();
  const empty = specialist.getByRole('dialog', { name: 'Record Decision' });
  await expect(empty).toContainText(/No quorum: 0 members present and not recused/);
  await expect(empty.getByRole('button', { name: 'Record Decision' })).toBeDisabled();
  await specialist.keyboard.press('Escape');
  const itemId = (
    (await (await specialist.request.get(`/api/committee/meetings/${meetingId}`)).json()) as {
      agenda: { itemId: string }[];
    }
  ).agenda[0]!.itemId;
  const alone = await specialist.request.post(
    `/api/committee/meetings/${meetingId}/agenda/${itemId}/decision`,
    {
      headers: { origin: new URL(specialist.url()).origin },
      data: { text: REASON, discussion: 'Recorded alone.' },
    },
  );
  expect(alone.status()).toBe(409);

  // Each member joins, opens the whole file read-only, and votes in their own browser.
  for (const [member, name] of [
    [director, 'Mae Director'],
    [cal, 'Cal Member'],
    [dee, 'Dee Member'],
  ] as const) {
    await member.goto(meetingUrl);
    await member.getByRole('button', { name: 'Join Meeting' }).click();
    await expect(toast(member, 'Joined')).toBeVisible();
    const file = member.getByRole('row').filter({ hasText: 'Paz Ortega' });
    if (member !== director) {
      await file.getByRole('link', { name: /^Open File/ }).click();
      await expect(member.getByRole('heading', { level: 1, name: 'Paz Ortega' })).toBeVisible();
      // What the reviewer read, read-only: the checklist with its sources; no review buttons.
      await expect(member.getByText('Verified', { exact: true }).first()).toBeVisible();
      await expect(member.getByRole('button', { name: /^Verify/ })).toHaveCount(0);
      await expect(member.getByRole('button', { name: 'Start Review' })).toHaveCount(0);
      await member.goBack();
    }
    await file.getByRole('button', { name: /^Vote on/ }).click();
    const ballot = member.getByRole('dialog', { name: 'Your Vote' });
    await ballot.getByRole('radio', { name: 'Vote to Deny' }).check();
    await ballot.getByRole('checkbox', { name: 'I reviewed this file' }).check();
    await ballot.getByLabel('Authentication code').fill(totpCode(staffSecretOf(member)));
    if (member === cal) await expectNoAxeViolations(member);
    await ballot.getByRole('button', { name: 'Cast Vote' }).click();
    await expect(toast(member, 'Vote recorded')).toBeVisible();
    await expect(file).toContainText(`${name}: Vote to Deny`);
  }

  // The secretary records what the members decided: the tally carries 'Deny'.
  await specialist.reload();
  await specialistRow.getByRole('button', { name: /^Record Decision/ }).click();
  const decision = specialist.getByRole('dialog', { name: 'Record Decision' });
  await expect(decision).toContainText("The members' votes carry: Deny.");
  await decision.getByLabel('Reason').fill(REASON);
  await decision
    .getByLabel('Discussion Summary')
    .fill('The committee read the board order and the explanation.');
  await expectNoAxeViolations(specialist);
  await decision.getByRole('button', { name: 'Record Decision' }).click();
  await expect(toast(specialist, 'Decision recorded')).toBeVisible();
  await expect(specialistRow).toContainText('Deny');
  await expect(specialistRow).toContainText('For 3 · Against 0 · Abstained 0');

  // 'Close Meeting' freezes it; the minutes name each member's vote.
  await director.reload();
  await director.getByRole('button', { name: 'Close Meeting' }).click();
  await director
    .getByRole('dialog', { name: 'Close Meeting' })
    .getByRole('button', { name: 'Close Meeting' })
    .click();
  await expect(toast(director, 'Meeting closed')).toBeVisible();
  const download = director.waitForEvent('download');
  await director.getByRole('link', { name: 'Download Minutes (PDF)' }).click();
  const minutes = await (await download).path();
  const text = (await pdfText(new Uint8Array(fs.readFileSync(minutes)))).replace(/\s+/g, ' ');
  expect(text).toContain('Credentialing Committee Minutes');
  expect(text).toContain('Decision Deny');
  expect(text).toContain(`Reason ${REASON}`);
  expect(text).toContain('Votes For 3 · Against 0 · Abstained 0');
  for (const name of ['Mae Director', 'Cal Member', 'Dee Member'])
    expect(text).toContain(`${name}: Vote to Deny (signed`);
  expect(text).toContain('by Sid Specialist');

  // The provider's dashboard: the decision, its reason and its letter naming the vote (issue 50 item 7).
  await provider.goto('/dashboard');
  await expect(provider.getByText('Rejected', { exact: true })).toBeVisible();
  await expect(provider.getByText(`Reason: ${REASON}`)).toBeVisible();
  const denialLetter = await pdfOf(provider, 'Denial Letter (PDF)');
  expect(denialLetter).toContain('Dear Paz Ortega,');
  expect(denialLetter).toContain('The Credentialing Committee denied your credentialing application on');
  expect(denialLetter).toContain('by a vote of 3 to 0: Cal Member, Dee Member, Mae Director');
  expect(denialLetter).toContain(`Reason: ${REASON}`);
  expect(denialLetter).toContain('Your right to appeal: you may request an appeal until');

  // 'Request Appeal' with a statement: the file waits for a later meeting, as an appeal.
  await provider.getByRole('button', { name: 'Request Appeal' }).click();
  const appealDialog = provider.getByRole('dialog', { name: 'Request Appeal' });
  await appealDialog.getByRole('button', { name: 'Request Appeal' }).click();
  await expect(appealDialog.getByText('Say why the decision should change')).toBeVisible();
  await appealDialog.getByLabel('Statement').fill(STATEMENT);
  // Issue 50 item 8: a PDF goes with it; anything else is refused with the server's message.
  const attachInput = appealDialog.locator('input[type="file"]');
  await attachInput.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
  await expect(appealDialog.getByRole('alert')).toHaveText(APPEAL_ATTACHMENT_PDF_MESSAGE);
  await attachInput.setInputFiles({
    name: 'board-letter.pdf',
    mimeType: 'application/pdf',
    buffer: minimalPdf('The probation ended'),
  });
  await expect(toast(provider, 'File Attached')).toBeVisible();
  await expect(appealDialog.getByRole('link', { name: 'Download board-letter.pdf' })).toBeVisible();
  await expectNoAxeViolations(provider);
  await appealDialog.getByRole('button', { name: 'Request Appeal' }).click();
  await expect(toast(provider, 'Appeal Requested')).toBeVisible();
  await expect(provider.getByText(/^Appeal requested on /)).toBeVisible();
  await expect(provider.getByRole('link', { name: 'Download board-letter.pdf' })).toBeVisible();
  await expect(provider.getByRole('button', { name: 'Request Appeal' })).toHaveCount(0);
  await director.goto('/admin?tab=decisions');
  const waiting = director
    .getByRole('region', { name: 'Ready for Committee' })
    .getByRole('row')
    .filter({ hasText: 'Paz Ortega' });
  await expect(waiting).toContainText('Appeal');
  for (const p of [cal, dee, specialist, provider]) await p.context().close();
});

/** `date` as a datetime-local input's value in the browser's (and this machine's) time zone. */
function localMinute(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

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
  // Issue 50 item 7: the director signs 'I reviewed this file' with their authenticator's code.
  const approval = director.getByRole('dialog', { name: 'Approve Clean File' });
  await approval.getByRole('button', { name: 'Approve' }).click();
  await expect(approval.getByText('Confirm that you reviewed this file')).toBeVisible();
  await approval.getByRole('checkbox', { name: 'I reviewed this file' }).check();
  await approval.getByLabel('Authentication code').fill(totpCode(staffSecretOf(director)));
  await approval.getByRole('button', { name: 'Approve' }).click();
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
