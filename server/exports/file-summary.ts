/**
 * The Credentialing File Summary (issue 33 item 1): one PDF of a file as the committee and a surveyor
 * read it. Everything in it comes from what the review page shows (`getAdminReview`, the newest
 * snapshot, the screening lists), so the PDF and the page never disagree:
 *
 * - the provider's identity from the newest snapshot, SSN masked (`***-**-1234`, spec §6);
 * - every checklist item with its status, source, date and who verified it ('Automated' for the
 *   checks the product records itself: NPPES, exclusion screening);
 * - discrepancies and waivers with their reasons;
 * - exclusion screening: the result, when it last ran, each list's applied file date and size, and
 *   the list rows found for this file;
 * - the latest attestation's answers and signature;
 * - the decision, when made (who, when, effective date, conditions, reason).
 *
 * Rendered by server/pdf (pdfkit, tagged; decision 030 says why pdfkit), with 'Page N of M' and the
 * snapshot's version and SHA-256 in every page's footer.
 */

import { eq } from 'drizzle-orm';
import { AppError } from '../../domain/app-error.ts';
import { applicationStatusLabel } from '../../domain/application-status.ts';
import { formatIsoDay } from '../../domain/calendar.ts';
import { deciderLabel } from '../../domain/committee/committee-decisions.ts';
import { applicationCycleLabel } from '../../domain/credentials/provider-credential.ts';
import { describeSnapshot } from '../../domain/review/snapshot-labels.ts';
import { verificationStatusLabel } from '../../domain/review/verification-checklist.ts';
import type { AccessRole } from '../../domain/roles.ts';
import { gapsText, screenedListsText, statesWithoutListText } from '../../domain/screening/coverage.ts';
import { screeningOutcomeLabel } from '../../domain/screening/matching.ts';
import type { Database } from '../db/client.ts';
import { providerApplications } from '../db/schema/core.ts';
import { screeningFindings } from '../db/schema/screening.ts';
import type { PdfBlock } from '../pdf/pdf-document.ts';
import { renderPdf } from '../pdf/pdf-document.ts';
import { getAdminReview } from '../review/review-reads.service.ts';
import { newestVersion } from '../review/verification-binding.ts';
import { appliedLists, coverageOf } from '../screening/coverage.ts';
import { sourceLabel } from '../screening/exclusion-imports.ts';
import { listRowName } from '../screening/exclusion-rows.ts';
import type { FieldCipher } from '../security/field-cipher.ts';

/** What the summary needs besides the database: the review's settings and the time it is made. */
export interface FileSummaryOptions {
  cipher: FieldCipher;
  /** ATTESTATION_VALID_DAYS and VERIFICATION_MAX_AGE_DAYS, as the review page uses them. */
  validDays: number;
  verificationMaxAgeDays: number;
  now: Date;
  /** The caller's roles (the review reads them for its actions; the PDF shows none). */
  callerRoles: readonly AccessRole[];
}

/** The PDF, its download name, the snapshot it was written from, and whose file it is. */
export interface FileSummary {
  pdf: Buffer;
  fileName: string;
  version: number;
  /** The provider's user id (the audit event's subject). */
  providerUserId: string;
}

const NONE = '—';
const day = (iso: string | null | undefined) => (iso ? formatIsoDay(iso.slice(0, 10)) : NONE);
const instant = (iso: string | null | undefined) =>
  iso ? `${formatIsoDay(iso.slice(0, 10))}, ${iso.slice(11, 16)} UTC` : NONE;

/**
 * The file summary of `applicationId`. The caller has checked that the actor may read the file.
 * @throws AppError not_found (404) for an unknown application; conflict (409) for one never completed
 *   (no snapshot: nothing was attested or verified yet).
 */
export async function fileSummaryPdf(
  db: Database,
  applicationId: string,
  options: FileSummaryOptions,
): Promise<FileSummary> {
  const review = await getAdminReview(
    db,
    applicationId,
    {
      cipher: options.cipher,
      validDays: options.validDays,
      verificationMaxAgeDays: options.verificationMaxAgeDays,
      now: options.now,
    },
    options.callerRoles,
  );
  const [newest, lists, findings, [screening]] = await Promise.all([
    newestVersion(db, applicationId),
    appliedLists(db),
    db.select().from(screeningFindings).where(eq(screeningFindings.applicationId, applicationId)),
    db
      .select({
        standing: providerApplications.exclusionMatch,
        checkedAt: providerApplications.exclusionCheckedAt,
      })
      .from(providerApplications)
      .where(eq(providerApplications.id, applicationId)),
  ]);
  // Issue 51 item 1: a 'No match' stands only on every list the provider needs, each current.
  const coverage = await coverageOf(db, applicationId, options.now, lists);
  const version = review.versions.at(-1);
  if (!newest || !version) {
    throw new AppError(
      'conflict',
      'This application has not been completed yet: the file summary is written from the completed application. Download it once the provider has completed it.',
    );
  }

  const person = (id: string | null) => (id ? (review.people[id] ?? 'Removed account') : 'Automated');
  // The name the file was signed and reviewed under (issue 49 item 4): the snapshot's, not the
  // account's live profile, which a provider may have changed since.
  const signedName = [newest.snapshot.profile?.first_name, newest.snapshot.profile?.last_name]
    .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
    .map((part) => part.trim())
    .join(' ');
  const identity = describeSnapshot(newest.snapshot)[0]!.entries[0] ?? [];
  const blocks: PdfBlock[] = [
    {
      kind: 'facts',
      rows: [
        { label: 'Provider', value: signedName || review.providerName || NONE },
        { label: 'Cycle', value: applicationCycleLabel[review.cycle] },
        { label: 'Status', value: applicationStatusLabel[review.applicationStatus] },
        { label: 'Completed', value: instant(review.submittedAt) },
        { label: 'Snapshot', value: `Version ${version.version} of ${day(version.createdAt)}` },
        { label: 'Prepared', value: instant(options.now.toISOString()) },
      ],
    },
    { kind: 'heading', text: 'Identity' },
    { kind: 'facts', rows: identity.map((f) => ({ label: f.label, value: f.value || NONE })) },
    { kind: 'heading', text: 'Verification Checklist' },
    review.checklist.length
      ? {
          kind: 'table',
          columns: ['Item', 'Status', 'Source', 'Date', 'Verified by'],
          widths: [3, 1.5, 2.6, 1.3, 1.6],
          rows: review.checklist.map((item) => [
            item.target,
            verificationStatusLabel[item.status],
            item.source || NONE,
            day(item.verifiedAt),
            item.status === 'pending' ? NONE : person(item.validatorId),
          ]),
        }
      : { kind: 'paragraph', text: 'The checklist is made when the review starts; it has not started yet.' },
    { kind: 'heading', text: 'Discrepancies and Waivers' },
    ...discrepancies(review.checklist),
    { kind: 'heading', text: 'Exclusion Screening' },
    {
      kind: 'facts',
      rows: [
        {
          label: 'Result',
          value: screening?.standing
            ? screeningOutcomeLabel[screening.standing as 'match' | 'possible_match']
            : coverage.gaps.length
              ? `Incomplete: ${gapsText(coverage.gaps)}`
              : screening?.checkedAt
                ? screeningOutcomeLabel.no_match
                : 'Not screened yet',
        },
        { label: 'Lists screened', value: screenedListsText(lists, coverage.required) || NONE },
        ...(coverage.statesWithoutList.length
          ? [{ label: 'State lists', value: statesWithoutListText(coverage.statesWithoutList) }]
          : []),
        { label: 'Last screened', value: instant(screening?.checkedAt?.toISOString()) },
      ],
    },
    lists.length
      ? {
          kind: 'table',
          columns: ['List', 'File applied', 'File', 'Rows on the list'],
          widths: [2, 1.4, 2.6, 1.2],
          rows: lists.map((l) => [
            l.label,
            day(l.appliedAt.toISOString()),
            l.fileName,
            l.rows.toLocaleString('en-US'),
          ]),
        }
      : { kind: 'paragraph', text: 'No exclusion list has been imported yet.' },
    ...(findings.length
      ? [
          { kind: 'heading', text: 'List rows found for this file', level: 2 } as const,
          {
            kind: 'table',
            columns: ['List', 'Row', 'Match', 'Status', 'Found'],
            widths: [1.6, 3, 1.2, 1.2, 1.2],
            rows: findings.map((f) => [
              sourceLabel(f.source),
              listRowName(f.entry as Parameters<typeof listRowName>[0]),
              f.strength === 'match' ? 'Match' : 'Possible match',
              f.status === 'confirmed' ? 'Confirmed' : f.status === 'cleared' ? 'Cleared' : 'Open',
              day(f.foundAt.toISOString()),
            ]),
          } as const,
        ]
      : []),
    { kind: 'heading', text: 'Attestation' },
    ...attestation(review.attestations.at(-1)),
    { kind: 'heading', text: 'Decision' },
    ...decision(review),
  ];

  const pdf = await renderPdf({
    title: 'Credentialing File Summary',
    subject: `${signedName || review.providerName || 'Provider'}: ${applicationCycleLabel[review.cycle]}`,
    createdAt: options.now,
    header: 'Credentialing File Summary: confidential peer review document',
    footer: `Snapshot version ${version.version} · SHA-256 ${version.sha256}`,
    blocks,
  });
  return {
    pdf,
    fileName: `credentialing-file-summary-${applicationId.slice(0, 8)}-v${version.version}.pdf`,
    version: version.version,
    providerUserId: review.userId,
  };
}

type Review = Awaited<ReturnType<typeof getAdminReview>>;

function discrepancies(checklist: Review['checklist']): PdfBlock[] {
  const items = checklist
    .filter((i) => i.status === 'discrepancy' || i.status === 'waived')
    .map((i) =>
      i.status === 'waived'
        ? `${i.target}: Waived. Reason: ${i.waiverReason || NONE}`
        : `${i.target}: Discrepancy. ${i.note || 'No note recorded.'}`,
    );
  return items.length ? [{ kind: 'list', items }] : [{ kind: 'paragraph', text: 'None.' }];
}

function attestation(latest: Review['attestations'][number] | undefined): PdfBlock[] {
  if (!latest) return [{ kind: 'paragraph', text: 'Not signed yet.' }];
  return [
    {
      kind: 'facts',
      rows: [
        { label: 'Signature', value: latest.signature },
        { label: 'Signed', value: instant(latest.signedAt) },
        {
          label: 'Kind',
          value: latest.kind === 'completion' ? 'Signed with Sign and Complete' : 'Re-attestation',
        },
        { label: 'Snapshot signed', value: `Version ${latest.snapshotVersion}` },
      ],
    },
    {
      kind: 'table',
      columns: ['Question', 'Answer', 'Explanation'],
      widths: [4, 0.8, 3],
      rows: latest.answers.map((a) => [a.question, a.answer === 'yes' ? 'Yes' : 'No', a.explanation || NONE]),
    },
    { kind: 'paragraph', text: latest.statement },
  ];
}

function decision(review: Review): PdfBlock[] {
  const decided = review.applicationStatus === 'approved' || review.applicationStatus === 'rejected';
  if (!decided) {
    return [
      { kind: 'paragraph', text: 'Not decided yet.' },
      ...(review.committeeReview.reasons.length
        ? [
            { kind: 'paragraph', text: 'Why the file goes to the committee (not a clean file):' } as const,
            { kind: 'list', items: review.committeeReview.reasons } as const,
          ]
        : []),
    ];
  }
  return [
    {
      kind: 'facts',
      rows: [
        { label: 'Decision', value: applicationStatusLabel[review.applicationStatus] },
        {
          label: 'Decided by',
          value: review.decision
            ? `${deciderLabel[review.decision.by]}${review.decision.signedBy ? `: ${review.decision.signedBy}` : ''}`
            : NONE,
        },
        { label: 'Decided', value: instant(review.decision?.decidedAt) },
        { label: 'Decided', value: instant(review.decidedAt) },
        { label: 'Effective date', value: day(review.decision?.effectiveDate) },
        { label: 'Conditions', value: review.decision?.conditions || NONE },
        { label: 'Reason', value: review.decisionReason || NONE },
      ],
    },
  ];
}
