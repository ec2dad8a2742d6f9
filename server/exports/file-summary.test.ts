/**
 * The Credentialing File Summary by API (issue 33 item 1): real PostgreSQL, real HTTP, the PDF read
 * back as text. Every checklist item appears with its status, source, date and verifier; the SSN only
 * masked; waivers and discrepancies with their reasons; the screening; the attestation; the decision;
 * the snapshot's version and SHA-256 in the footer of every page; the download audited.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminReview } from '../../domain/api/review.ts';
import { formatIsoDay } from '../../domain/calendar.ts';
import { verificationStatusLabel } from '../../domain/review/verification-checklist.ts';
import { createTestApp, signUpAndSignIn, signUpStaff, type TestApp } from '../../tests/harness.ts';
import { approveCleanFile, committeeMember, reviewedFile } from '../committee/testing/decide.ts';
import { auditLog } from '../db/schema/audit.ts';
import { FACTORY_SSN } from '../notifications/testing/completed-application.ts';
import { pdfInfo, pdfText } from '../pdf/pdf-text.ts';

let app: TestApp;
let specialist: Awaited<ReturnType<typeof signUpStaff>>;
let auditor: Awaited<ReturnType<typeof signUpStaff>>;

beforeAll(async () => {
  app = await createTestApp();
  specialist = await signUpStaff(app, 'specialist', { firstName: 'Sam', lastName: 'Verifier' });
  auditor = await signUpStaff(app, 'auditor');
}, 60_000);

afterAll(async () => {
  await app?.close();
});

const summaryPath = (applicationId: string) => `/api/admin/applications/${applicationId}/file-summary.pdf`;

async function review(applicationId: string): Promise<AdminReview> {
  const got = await specialist.json<AdminReview>('GET', `/api/admin/applications/${applicationId}/review`);
  expect(got.status).toBe(200);
  return got.body;
}

async function download(client: typeof specialist, applicationId: string) {
  const response = await client.request('GET', summaryPath(applicationId));
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { response, bytes };
}

/** The text with every run of whitespace one space: table cells wrap where the PDF's columns end. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

describe('GET /api/admin/applications/:applicationId/file-summary.pdf', () => {
  it('writes every checklist item with its status, source, date and verifier, the decision and the snapshot footer', async () => {
    const { applicationId } = await reviewedFile(app, specialist);
    const director = await approveCleanFile(app, specialist, applicationId);
    const file = await review(applicationId);
    expect(file.applicationStatus).toBe('approved');

    const { response, bytes } = await download(director, applicationId);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="credentialing-file-summary-${applicationId.slice(0, 8)}-v1.pdf"`,
    );
    const text = flat(await pdfText(bytes));
    const { pages, title } = await pdfInfo(bytes);
    expect(title).toBe('Credentialing File Summary');

    for (const heading of [
      'Identity',
      'Verification Checklist',
      'Discrepancies and Waivers',
      'Exclusion Screening',
      'Attestation',
      'Decision',
    ]) {
      expect(text).toContain(` ${heading} `);
    }
    expect(file.checklist.length).toBeGreaterThan(5);
    for (const item of file.checklist) {
      const row = [
        item.target,
        verificationStatusLabel[item.status],
        item.source ?? '—',
        item.verifiedAt ? formatIsoDay(item.verifiedAt) : '—',
        item.validatorId ? file.people[item.validatorId] : 'Automated',
      ].join(' ');
      expect(text, `checklist row of ${item.target}`).toContain(row);
    }
    // Verified by the specialist, by name.
    expect(text).toContain('Sam Verifier');
    // The SSN only masked.
    expect(text).toContain(`***-**-${FACTORY_SSN.slice(-4)}`);
    const digits = FACTORY_SSN.replaceAll('-', '');
    expect(text).not.toMatch(
      new RegExp(`\\b${digits.slice(0, 3)}-?${digits.slice(3, 5)}-?${digits.slice(5)}\\b`),
    );
    // The attestation: its signature and answers.
    const attestation = file.attestations.at(-1)!;
    expect(text).toContain(`Signature ${attestation.signature}`);
    expect(text).toContain(`${attestation.answers[0]!.question} No`);
    // The decision.
    expect(text).toContain('Decision Approved Decided by the Medical Director (clean file)');
    // Footer on every page: the snapshot's version and hash, and the page number.
    const version = file.versions.at(-1)!;
    const footer = `Snapshot version 1 · SHA-256 ${version.sha256}`;
    expect(text.split(footer).length - 1).toBe(pages);
    expect(text).toContain(`Page ${pages} of ${pages}`);

    const audits = await app.runtime.deps.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.action, 'export.file_summary_downloaded'), eq(auditLog.resourceId, applicationId)),
      );
    expect(audits).toHaveLength(1);
    expect(audits[0]!.actorUserId).toBe(director.userId);
    expect(audits[0]!.subjectUserId).toBe(file.userId);
    expect(audits[0]!.details).toEqual({ version: 1 });
  });

  it('lists discrepancies and waivers with their reasons; an undecided file says why it goes to the committee', async () => {
    const { applicationId } = await reviewedFile(app, specialist);
    const [first, second] = (await review(applicationId)).checklist;
    const itemPath = (id: string) => `/api/admin/applications/${applicationId}/verification-items/${id}`;
    const waived = await specialist.json('PATCH', itemPath(first!.id), {
      status: 'waived',
      waiverReason: 'Board letter on file instead of the primary source.',
    });
    expect(waived.status, JSON.stringify(waived.body)).toBe(200);
    const flagged = await specialist.json('PATCH', itemPath(second!.id), {
      status: 'discrepancy',
      note: 'The license number differs from the state board record.',
    });
    expect(flagged.status, JSON.stringify(flagged.body)).toBe(200);

    const { response, bytes } = await download(auditor, applicationId);
    expect(response.status).toBe(200);
    const text = flat(await pdfText(bytes));
    expect(text).toContain(
      `${first!.target}: Waived. Reason: Board letter on file instead of the primary source.`,
    );
    expect(text).toContain(
      `${second!.target}: Discrepancy. The license number differs from the state board record.`,
    );
    expect(text).toContain('Not decided yet.');
    expect(text).toContain(`Discrepancy: ${second!.target}`);
  });

  it('refuses a file never completed (409), callers who may not read files (403) and anonymous (401)', async () => {
    const provider = await signUpAndSignIn(app);
    const draft = await provider.json<{ id: string }>('POST', '/api/applications', {});
    const early = await specialist.json('GET', summaryPath(draft.body.id));
    expect(early.status).toBe(409);
    expect((early.body as { message: string }).message).toMatch(/has not been completed yet/);

    const { applicationId } = await reviewedFile(app, specialist);
    const member = await committeeMember(app);
    expect((await member.request('GET', summaryPath(applicationId))).status).toBe(403);
    expect((await provider.request('GET', summaryPath(applicationId))).status).toBe(403);
    expect((await fetch(`${app.baseUrl}${summaryPath(applicationId)}`)).status).toBe(401);
    expect((await specialist.json('GET', summaryPath('not-a-uuid'))).status).toBe(404);
  });
});
