/**
 * The minutes of a closed committee meeting as a PDF (issue 32 item 5; NCQA CR 2: the committee
 * documents the reasoning of its decisions): when it was held and closed, who sat and who was
 * present, the quorum, and per file the decision, its conditions, reason or what is missing, each
 * member's own signed vote by name (issue 50), the recused and why, who recorded it and when, the
 * effective date and the discussion. A file the reader is recused from reads 'Recused' and nothing
 * more. Built from the frozen meeting as the reader may read it; the layout is server/pdf's.
 */
import type { Meeting } from '../../domain/api/committee.ts';
import {
  committeeDecisionTextLabel,
  decisionLabelFor,
  memberVoteLabel,
} from '../../domain/committee/committee-decisions.ts';
import { recusalLabel } from '../../domain/review/file-duties.ts';
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
  const present = meeting.members.filter((m) => m.presentAt).map((m) => m.userId);
  const blocks: PdfBlock[] = [
    {
      kind: 'facts',
      rows: [
        // Issue 50 item 3: when the meeting was held and when it was closed.
        { label: 'Held', value: meetingTime(meeting.scheduledAt) },
        { label: 'Members', value: names(meeting.members.map((m) => m.userId)) },
        { label: 'Present', value: names(present) },
        { label: 'Quorum', value: `${meeting.quorum} members present and not recused` },
        { label: 'Closed', value: meeting.closedAt ? meetingTime(meeting.closedAt) : 'Open' },
        { label: 'Files decided', value: String(meeting.agenda.filter((i) => i.decision).length) },
      ],
    },
  ];
  for (const item of meeting.agenda) {
    const d = item.decision;
    // Issue 50 item 4: a reader recused from the file sees 'Recused' and nothing of it.
    if (item.callerRecused) {
      blocks.push({ kind: 'heading', level: 2, text: `${item.position}. Recused` });
      blocks.push({
        kind: 'paragraph',
        text: 'You are recused from this file: its record is not shown to you.',
      });
      continue;
    }
    blocks.push({ kind: 'heading', level: 2, text: `${item.position}. ${item.providerName || 'File'}` });
    if (!d) {
      blocks.push({ kind: 'paragraph', text: 'No decision recorded.' });
      continue;
    }
    const textLabel = committeeDecisionTextLabel[d.decision];
    // Issue 50 items 2, 7: each member's own vote by name, the recused named as recused, and why.
    const recusal = new Map(item.recusals.map((r) => [r.memberId, recusalLabel[r.reason]]));
    const voteOf = new Map(item.votes.map((v) => [v.memberId, v]));
    const eachVote = meeting.members
      .map((m) => {
        const vote = voteOf.get(m.userId);
        const why = recusal.get(m.userId);
        if (why) return `${m.name}: ${why}`;
        if (vote) return `${m.name}: ${memberVoteLabel[vote.vote]} (signed ${meetingTime(vote.votedAt)})`;
        return `${m.name}: ${m.presentAt ? 'present, no vote' : 'absent'}`;
      })
      .join('; ');
    blocks.push({
      kind: 'facts',
      rows: [
        { label: 'Decision', value: decisionLabelFor(item.kind, d.decision) },
        ...(textLabel ? [{ label: textLabel, value: d.text }] : []),
        ...(d.effectiveDate ? [{ label: 'Effective date', value: d.effectiveDate }] : []),
        {
          label: 'Votes',
          value: `For ${d.votesFor} · Against ${d.votesAgainst} · Abstained ${d.votesAbstained}`,
        },
        { label: 'Each vote', value: eachVote },
        {
          label: 'Recorded',
          value: `${meetingTime(d.decidedAt)}${d.recordedBy ? ` by ${d.recordedBy}` : ''}`,
        },
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
