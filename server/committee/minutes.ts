/**
 * The minutes of a closed committee meeting as a PDF (issue 32 item 5; NCQA CR 2: the committee
 * documents the reasoning of its decisions): who sat, the quorum, and per file the decision, its
 * conditions, reason or what is missing, the votes, the recusals, the effective date and the
 * discussion. Built from the frozen meeting; the layout is server/pdf's.
 */
import type { Meeting } from '../../domain/api/committee.ts';
import {
  committeeDecisionLabel,
  committeeDecisionTextLabel,
} from '../../domain/committee/committee-decisions.ts';
import { type PdfBlock, renderPdf } from '../pdf/pdf-document.ts';

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

/** 'December 1, 2026 at 5:00 PM UTC'. */
export const meetingTime = (iso: string) => `${when.format(new Date(iso))} UTC`;

/** The minutes' title: 'Credentialing Committee Minutes: <date and time>'. */
export const minutesTitle = (meeting: Pick<Meeting, 'scheduledAt'>) =>
  `Credentialing Committee Minutes: ${meetingTime(meeting.scheduledAt)}`;

/** The minutes as blocks (what the PDF says, testable without reading a PDF). */
export function minutesBlocks(meeting: Meeting): PdfBlock[] {
  const nameOf = new Map(meeting.members.map((m) => [m.userId, m.name]));
  const names = (ids: readonly string[]) =>
    ids.length ? ids.map((id) => nameOf.get(id) ?? 'Former member').join(', ') : 'None';
  const blocks: PdfBlock[] = [
    {
      kind: 'facts',
      rows: [
        { label: 'Meeting', value: meetingTime(meeting.scheduledAt) },
        { label: 'Members', value: names(meeting.members.map((m) => m.userId)) },
        { label: 'Quorum', value: `${meeting.quorum} members present and not recused` },
        { label: 'Closed', value: meeting.closedAt ? meetingTime(meeting.closedAt) : 'Open' },
        { label: 'Files decided', value: String(meeting.agenda.length) },
      ],
    },
  ];
  for (const item of meeting.agenda) {
    const d = item.decision;
    blocks.push({
      kind: 'heading',
      level: 2,
      text: `${item.position}. ${item.providerName || 'File (recused)'}`,
    });
    if (!d) {
      blocks.push({ kind: 'paragraph', text: 'No decision recorded.' });
      continue;
    }
    const textLabel = committeeDecisionTextLabel[d.decision];
    blocks.push({
      kind: 'facts',
      rows: [
        { label: 'Decision', value: committeeDecisionLabel[d.decision] },
        ...(textLabel ? [{ label: textLabel, value: d.text }] : []),
        ...(d.effectiveDate ? [{ label: 'Effective date', value: d.effectiveDate }] : []),
        {
          label: 'Votes',
          value: `For ${d.votesFor} · Against ${d.votesAgainst} · Abstained ${d.votesAbstained}`,
        },
        { label: 'Present', value: names(d.presentMemberIds) },
        { label: 'Recused', value: names(item.recusedMemberIds) },
        ...(item.reasons.length ? [{ label: 'Not a clean file', value: item.reasons.join('; ') }] : []),
        { label: 'Discussion', value: d.discussion },
      ],
    });
  }
  return blocks;
}

/** The minutes PDF of a closed meeting; `now` is its creation date. */
export function renderMinutes(meeting: Meeting, now: Date): Promise<Buffer> {
  return renderPdf({
    title: minutesTitle(meeting),
    subject: 'Credentialing committee minutes',
    createdAt: now,
    header: 'Credentialing Committee: confidential peer review record',
    blocks: minutesBlocks(meeting),
  });
}
