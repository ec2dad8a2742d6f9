/**
 * Test helpers of the review's tests: record 'verified' on checklist items as a reviewer does, by API.
 * An item of a kind that needs evidence first (issue 31 item 4: the claims history and its NPDB query
 * result, domain `evidenceRequiredMessage`) gets a PDF attached before it is verified, as the
 * reviewer attaches the query result; the others are verified as they are.
 */
import { expect } from 'vitest';
import type { AdminReview } from '../../../domain/api/review.ts';
import { evidenceRequiredMessage } from '../../../domain/review/verification-checklist.ts';
import { minimalPdf } from '../../../tests/fixtures/files.ts';
import type { HttpClient } from '../../../tests/http-client.ts';

/** A signed-in administrator's client (tests/harness.ts `Client`, or any HttpClient). */
type Client = Pick<HttpClient, 'json' | 'request'>;

type Item = Pick<AdminReview['checklist'][number], 'id' | 'kind' | 'primarySource' | 'evidence'>;

const adminPath = (applicationId: string, rest: string) => `/api/admin/applications/${applicationId}/${rest}`;

/**
 * Attach a one-page PDF ('NPDB query result' by default) to `itemId` as evidence; expects 201.
 * @returns the evidence id
 */
export async function attachEvidence(
  admin: Client,
  applicationId: string,
  itemId: string,
  fileName = 'npdb-query-result.pdf',
): Promise<string> {
  const form = new FormData();
  form.append(
    'file',
    new Blob([new Uint8Array(minimalPdf('NPDB query result'))], { type: 'application/pdf' }),
    fileName,
  );
  const uploaded = await admin.request(
    'POST',
    adminPath(applicationId, `verification-items/${itemId}/evidence`),
    form,
  );
  expect(uploaded.status, await uploaded.clone().text()).toBe(201);
  return ((await uploaded.json()) as { id: string }).id;
}

/**
 * 'Verify' `item` (source: its primary source unless given; date: `verifiedAt`), attaching evidence
 * first when its kind needs it and it has none. Expects 200.
 */
export async function verifyItem(
  admin: Client,
  applicationId: string,
  item: Item,
  fields: { verifiedAt: string; source?: string; note?: string },
): Promise<void> {
  if (evidenceRequiredMessage[item.kind] && item.evidence.length === 0) {
    await attachEvidence(admin, applicationId, item.id);
  }
  const saved = await admin.json('PATCH', adminPath(applicationId, `verification-items/${item.id}`), {
    status: 'verified',
    source: fields.source ?? item.primarySource,
    verifiedAt: fields.verifiedAt,
    ...(fields.note ? { note: fields.note } : {}),
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
}

/** `verifyItem` on every item of the application's checklist as the review page has it now. */
export async function verifyEveryItem(
  admin: Client,
  applicationId: string,
  fields: { verifiedAt: string; source?: string; note?: string },
): Promise<void> {
  const review = await admin.json<AdminReview>('GET', adminPath(applicationId, 'review'));
  expect(review.status).toBe(200);
  for (const item of review.body.checklist) await verifyItem(admin, applicationId, item, fields);
}
