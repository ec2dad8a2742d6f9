/**
 * How the committee's screens write a meeting's time and a vote (issue 32 item 5): dates and times in
 * the user's locale (the browser's), votes as the minutes count them.
 */
import type { RecordedDecision } from '../../../domain/api/committee.ts';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A meeting's time (ISO 8601) in the user's locale and zone, e.g. 'Mar 3, 2027, 2:00 PM' (issue 32 item 5). */
export function formatMeetingTime(iso: string): string {
  return dateTime.format(new Date(iso));
}

/** The votes of a recorded decision (issue 32 item 5): 'For 3 · Against 0 · Abstained 1'. */
export function votesText(decision: Pick<RecordedDecision, 'votesFor' | 'votesAgainst' | 'votesAbstained'>) {
  return `For ${decision.votesFor} · Against ${decision.votesAgainst} · Abstained ${decision.votesAbstained}`;
}

/** Today in the user's zone as `YYYY-MM-DD`: 'Effective Date''s default (issue 32 item 5). */
export function todayIsoDay(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
