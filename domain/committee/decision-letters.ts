/**
 * Decision letters (issue 32 item 6): every decision produces a letter to the provider, kept as a PDF
 * the provider downloads from the dashboard, and emailed with the same text. An approval gives the
 * credential's dates (and the committee's conditions); a denial gives the reason and the appeal rights
 * (an appeal may be requested in the product within APPEAL_WINDOW_DAYS; a later meeting of the
 * committee hears it, and its decision is final, NCQA CR 2 and the fair-hearing practice of
 * credentialing bylaws). Pure text: the server renders the PDF and the email from it.
 */
import { addDays, formatIsoDay } from '../calendar.ts';
import type { Decider } from './committee-decisions.ts';

/** Days after a denial within which the provider may request an appeal (issue 32 item 6). */
export const APPEAL_WINDOW_DAYS = 30;

/** Longest appeal statement, in characters. */
export const APPEAL_STATEMENT_MAX = 4000;

/**
 * Most files an appeal carries (issue 50 item 8). Each is a PDF within the documents' 10 MB limit
 * (domain/sections/documents.ts MAX_DOCUMENT_BYTES).
 */
export const APPEAL_ATTACHMENTS_MAX = 5;

/** The 415 of an attachment that is not a PDF. */
export const APPEAL_ATTACHMENT_PDF_MESSAGE = 'An appeal takes PDF files only. Choose a PDF.';

/** The 409 of one attachment too many. */
export const APPEAL_ATTACHMENTS_FULL_MESSAGE = `An appeal takes at most ${APPEAL_ATTACHMENTS_MAX} files. Remove one to attach another.`;

/** What a letter is about. */
export const letterKinds = ['approval', 'denial', 'appeal_upheld', 'appeal_approved'] as const;
export type LetterKind = (typeof letterKinds)[number];

/** Each kind's title: the PDF's title and the dashboard's link text. */
export const letterTitle: Record<LetterKind, string> = {
  approval: 'Approval Letter',
  denial: 'Denial Letter',
  appeal_upheld: 'Appeal Decision: Denial Upheld',
  appeal_approved: 'Appeal Decision: Approved',
};

/** The last day an appeal of a denial decided on `decidedOn` (YYYY-MM-DD) may be requested. */
export function appealDeadline(decidedOn: string): string {
  return addDays(decidedOn, APPEAL_WINDOW_DAYS);
}

/** Whether an appeal may still be requested on `today` (both YYYY-MM-DD), deadline day included. */
export function appealOpen(decidedOn: string, today: string): boolean {
  return today <= appealDeadline(decidedOn);
}

/** The facts a letter states. */
export interface LetterFacts {
  kind: LetterKind;
  /** The provider's name as on their profile. */
  providerName: string;
  /** Who decided (the medical director of a clean file, or the committee). */
  by: Decider;
  /** The decision's day, YYYY-MM-DD. */
  decidedOn: string;
  /** Approvals: the credential's first and last day, YYYY-MM-DD. */
  effectiveDate?: string | null;
  endsOn?: string | null;
  /** 'Approve with Conditions': the conditions. */
  conditions?: string | null;
  /** Denials: the reason. */
  reason?: string | null;
  /**
   * Who decided, named (issue 50 item 7): 'Mae Director, Medical Director', or the committee's
   * vote ('by a vote of 2 to 0: Mae Director, Cal Member'); absent from letters before it.
   */
  decider?: string | null;
  /** The organization's name and postal address (its settings when the letter was written). */
  organization?: { name: string; address: string } | null;
  /** Who signs the letter, and their title (the organization's settings). */
  signer?: { name: string; title: string } | null;
}

/** A letter as text: a subject (the email's) and its paragraphs (the PDF's and the email's body). */
export interface Letter {
  subject: string;
  title: string;
  paragraphs: string[];
}

const deciderName: Record<Decider, string> = {
  administrator: 'The credentialing team',
  medical_director: 'The Medical Director',
  committee: 'The Credentialing Committee',
  integration: 'The credentialing team',
};

/**
 * The letter of a decision.
 * @example decisionLetter({ kind: 'denial', providerName: 'Ann Lee', by: 'committee', decidedOn: '2026-12-01', reason: 'x' }).paragraphs[3]
 *   // 'Your right to appeal: you may request an appeal until Dec 31, 2026 (30 days) ...'
 */
export function decisionLetter(facts: LetterFacts): Letter {
  const greeting = `Dear ${facts.providerName || 'Provider'},`;
  const on = formatIsoDay(facts.decidedOn);
  // Issue 50 item 7: the decider by name (the medical director) or with the committee's vote.
  const who =
    facts.decider && facts.by === 'medical_director'
      ? `${deciderName[facts.by]}, ${facts.decider},`
      : deciderName[facts.by];
  const vote = facts.decider && facts.by === 'committee' ? ` ${facts.decider}` : '';
  const credential =
    facts.effectiveDate && facts.endsOn
      ? `Your credential is effective from ${formatIsoDay(facts.effectiveDate)} through ${formatIsoDay(facts.endsOn)}. Recredentialing is due before it ends; the portal will remind you.`
      : null;
  const conditions = facts.conditions ? `It is granted on these conditions: ${facts.conditions}` : null;
  const org = facts.organization?.name.trim() ? facts.organization : null;
  const signer = facts.signer?.name.trim() ? facts.signer : null;
  const closing = [
    'Sincerely,',
    ...(signer ? [signer.name, signer.title].filter((l) => l.trim()) : ['The Credentialing Team']),
    ...(org ? [org.name] : []),
  ].join('\n');
  const letterhead = org ? [org.name, org.address].filter((l) => l.trim()).join('\n') : null;
  const title = letterTitle[facts.kind];
  const lines = (...paragraphs: (string | null)[]) => paragraphs.filter((p): p is string => p !== null);
  switch (facts.kind) {
    case 'approval':
      return {
        subject: 'Your credentialing application was approved',
        title,
        paragraphs: lines(
          letterhead,
          greeting,
          `${who} approved your credentialing application on ${on}${vote}.`,
          credential,
          conditions,
          closing,
        ),
      };
    case 'denial':
      return {
        subject: 'A decision on your credentialing application',
        title,
        paragraphs: lines(
          letterhead,
          greeting,
          `${who} denied your credentialing application on ${on}${vote}.`,
          `Reason: ${facts.reason ?? ''}`,
          `Your right to appeal: you may request an appeal until ${formatIsoDay(appealDeadline(facts.decidedOn))} (${APPEAL_WINDOW_DAYS} days). Sign in to the portal and choose 'Request Appeal' on your dashboard, with a statement of why the decision should change. A later meeting of the Credentialing Committee hears the appeal, and its decision is final.`,
          closing,
        ),
      };
    case 'appeal_upheld':
      return {
        subject: 'The decision on your appeal',
        title,
        paragraphs: lines(
          letterhead,
          greeting,
          `The Credentialing Committee heard your appeal on ${on} and upheld the denial of your credentialing application${vote}.`,
          `Reason: ${facts.reason ?? ''}`,
          'This decision is final.',
          closing,
        ),
      };
    case 'appeal_approved':
      return {
        subject: 'The decision on your appeal',
        title,
        paragraphs: lines(
          letterhead,
          greeting,
          `The Credentialing Committee heard your appeal on ${on} and approved your credentialing application${vote}.`,
          credential,
          conditions,
          'This decision is final.',
          closing,
        ),
      };
  }
}

/** The letter as plain text (the email's body): paragraphs separated by a blank line. */
export function letterText(letter: Letter): string {
  return letter.paragraphs.join('\n\n');
}
