/**
 * Issue 4 end to end in Chromium: a provider uploads a real PDF (on a throttled link, to watch the
 * progress bar move) and a real PNG, sees them listed with their sizes, downloads the PDF and gets the
 * same bytes, deletes the PNG after confirming, and the dashboard's Documents card turns complete.
 */
import fs from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations, signIn, signUpAndConfirm, uniqueEmail } from './helpers.ts';

/** A valid PDF of about `size` bytes: one page whose content stream is padded with comments. */
function realPdf(size: number): Buffer {
  const padding = `% ${'credentialing '.repeat(Math.max(0, Math.ceil(size / 15)))}\n`;
  const content = `BT /F1 24 Tf 72 720 Td (Curriculum Vitae) Tj ET\n${padding}`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}endstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}
/** A valid RGB PNG of `width` x `height` pseudo-random pixels (noise barely compresses: a real size). */
function realPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type RGB
  const raw = Buffer.alloc((width * 3 + 1) * height);
  let seed = 42;
  for (let i = 0; i < raw.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    raw[i] = i % (width * 3 + 1) === 0 ? 0 : seed >>> 16;
  }
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(2)} MB`;

async function chooseFile(page: Page, file: string) {
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByRole('button', { name: 'Choose File' }).click(),
  ]);
  await chooser.setFiles(file);
}

async function chooseType(page: Page, label: string) {
  await page.getByRole('combobox', { name: 'Document Type' }).click();
  await page.getByRole('option', { name: label, exact: true }).click();
}

test('a provider uploads, lists, downloads and deletes documents', async ({ page }, testInfo) => {
  const pdf = realPdf(3 * 1024 * 1024);
  const png = realPng(320, 240);
  const pdfPath = testInfo.outputPath('Curriculum Vitae.pdf');
  const pngPath = testInfo.outputPath('flu-vaccine.png');
  fs.mkdirSync(path.dirname(pdfPath), { recursive: true });
  fs.writeFileSync(pdfPath, pdf);
  fs.writeFileSync(pngPath, png);

  // First, a provider signs up, signs in and starts an application.
  const email = uniqueEmail('docs');
  await signUpAndConfirm(page, { firstName: 'Rosa', lastName: 'Diaz', email });
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('button', { name: 'Start New Application' }).click();
  await page.getByRole('link', { name: /^Documents: supporting documentation/ }).click();
  await expect(page).toHaveURL(/\/documents\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Documents', level: 1 })).toBeVisible();
  await expect(page.getByText('Maximum file size: 10MB')).toBeVisible();
  await expect(page.getByText('Accepted file types: PDF, DOC, DOCX, JPG, JPEG, PNG')).toBeVisible();
  await expect(page.getByText('No documents uploaded yet.')).toBeVisible();
  await expectNoAxeViolations(page);

  // A file before a type is refused (spec §5): the toast 'Error' / 'Please select a document type first'.
  await chooseFile(page, pdfPath);
  const toast = page.getByRole('alert').filter({ hasText: /^Error/ });
  await expect(toast).toContainText('Please select a document type first');
  await expect(page.getByRole('alert', { name: 'The file was not uploaded' })).toContainText(
    'Please select a document type first',
  );
  await expect(page.getByText('No documents uploaded yet.')).toBeVisible();

  // Second, with a type chosen, the browser spares a round trip for a wrong extension or size
  // (the server enforces both anyway).
  await chooseType(page, 'CV / Resume');
  const notes = testInfo.outputPath('notes.txt');
  fs.writeFileSync(notes, 'not a document');
  await chooseFile(page, notes);
  await expect(page.getByRole('alert', { name: 'The file was not uploaded' })).toContainText(
    'Only PDF, DOC, DOCX, JPG, JPEG and PNG files can be uploaded.',
  );
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: /^Error/ })
      .last(),
  ).toContainText('Failed to upload document');
  const huge = testInfo.outputPath('huge.pdf');
  fs.writeFileSync(huge, realPdf(11 * 1024 * 1024));
  await chooseFile(page, huge);
  await expect(page.getByRole('alert', { name: 'The file was not uploaded' })).toContainText(
    'Choose a file of 10 MB or less.',
  );

  // Third, the PDF on a slow link: the progress bar moves through intermediate values.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 1024 * 1024,
  });
  await chooseFile(page, pdfPath);
  const progress = page.getByRole('progressbar', { name: /Curriculum Vitae\.pdf/ });
  await expect(progress).toBeVisible();
  const seen = new Set<number>();
  await expect
    .poll(
      async () => {
        seen.add(Number(await progress.getAttribute('aria-valuenow')));
        return seen.has(100);
      },
      { timeout: 30_000, intervals: [50] },
    )
    .toBe(true);
  expect(
    [...seen].some((v) => v > 0 && v < 100),
    `progress values seen: ${[...seen]}`,
  ).toBe(true);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await expect(page.getByText('Document uploaded successfully')).toBeVisible();
  const list = page.getByRole('region', { name: 'Uploaded Documents' });
  const pdfRow = list.getByRole('row', { name: /Curriculum Vitae\.pdf/ });
  await expect(pdfRow).toContainText('CV / Resume');
  await expect(pdfRow).toContainText(mb(pdf.length));

  // Then the PNG.
  await chooseType(page, 'Vaccination Record');
  await chooseFile(page, pngPath);
  const pngRow = list.getByRole('row', { name: /flu-vaccine\.png/ });
  await expect(pngRow).toContainText('Vaccination Record');
  await expect(pngRow).toContainText(mb(png.length));
  // Newest first.
  await expect(list.getByRole('row').nth(1)).toContainText('flu-vaccine.png');
  await expectNoAxeViolations(page);

  // The PDF downloads with the same bytes.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    pdfRow.getByRole('link', { name: 'Download Curriculum Vitae.pdf' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('Curriculum Vitae.pdf');
  expect(fs.readFileSync(await download.path()).equals(pdf)).toBe(true);

  // The PNG is deleted after confirming.
  await pngRow.getByRole('button', { name: 'Delete flu-vaccine.png' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete document' });
  await expect(dialog).toContainText('flu-vaccine.png');
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Document deleted successfully')).toBeVisible();
  await expect(pngRow).toHaveCount(0);
  await expect(pdfRow).toBeVisible();

  // Back on the dashboard the Documents card is complete.
  await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
  await page.getByRole('button', { name: 'Back to Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('complete-documents')).toBeVisible();
});
