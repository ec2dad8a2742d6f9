/**
 * Work-history gaps (issue 29 item 7; NCQA CR 3: "an explanation of gaps of 6 months or more, in writing
 * for a gap of a year or more"). Pure: today is passed in. One source of truth for the work-history
 * screen (live, from the cards on screen and the education section), the completion check
 * (server/applications/work-history-gaps.ts), and the review checklist's work-history item
 * (domain/review/verification-checklist.ts). Decision 026 (docs/decisions/026-work-history-gaps.md).
 *
 * Rules:
 * - Positions are taken by start date (a position with no start date is ignored); overlapping positions
 *   are merged; a current position runs to today; a position with no end date that is not marked
 *   current counts as ending on its start date (blank end dates cannot hide a gap).
 * - A gap is the time between the end of what is covered and the next position's start, when it is
 *   `WORK_GAP_MONTHS` (6) whole months or more; `WRITTEN_GAP_MONTHS` (12) or more is "a year or more".
 * - Before the first position: from the end of training, the latest education graduation date before
 *   the first position's start. Without such a date there is no gap before the first position.
 * - After the last position: from its end to today (a trailing gap), when nothing is current.
 * - Lookback: only gaps that end within the last `GAP_LOOKBACK_YEARS` (5) years (NCQA: 5 years of work
 *   history) are asked; such a gap is reported whole, with its real start, even if that is older.
 * - Each gap is explained on one row's `gapExplanation`: the position that follows it, or for a
 *   trailing gap the position that ended last. One row may so explain two gaps (the one before it and
 *   the one since it ended): its one explanation covers both.
 */
import { addMonths } from '../calendar.ts';

/** Gaps of this many whole months or more need an explanation (NCQA CR 3). */
export const WORK_GAP_MONTHS = 6;
/** Gaps of this many whole months or more need it in writing (NCQA CR 3: a year or more). */
export const WRITTEN_GAP_MONTHS = 12;
/** Only gaps ending in this many years up to today are asked (NCQA: 5 years of work history). */
export const GAP_LOOKBACK_YEARS = 5;

/** The label of the explanation field, on the screen and in messages. */
export const GAP_EXPLANATION_LABEL = 'Gap explanation';

/**
 * The dashboard's Work History card while a gap needs an explanation, instead of the green check
 * (issue 51 item 6: the section has rows, so it counts towards progress, spec §4, but it is not done).
 */
export const GAP_TO_EXPLAIN_LABEL = 'Gap to explain';

/** One position as the gap rules read it (web form values, API rows and snapshot rows map to it). */
export interface GapPosition {
  /** YYYY-MM-DD, or empty / null when not given. */
  startDate: string | null | undefined;
  endDate: string | null | undefined;
  isCurrentPosition: boolean | null | undefined;
  gapExplanation?: string | null | undefined;
}

/** Where a gap sits: between two positions, from the end of training, or since the last position. */
export type WorkHistoryGapKind = 'between_positions' | 'after_training' | 'since_last_position';

export interface WorkHistoryGap {
  kind: WorkHistoryGapKind;
  /** YYYY-MM-DD: the last covered day (an end date, a graduation date). */
  from: string;
  /** YYYY-MM-DD: the next position's start date, or today for a trailing gap. */
  to: string;
  /** Whole calendar months from `from` to `to` (at least WORK_GAP_MONTHS). */
  months: number;
  /** A year or more: NCQA asks for the explanation in writing. */
  yearOrMore: boolean;
  /** Index (in the positions given) of the row whose `gapExplanation` explains this gap. */
  explainedBy: number;
}

const day = (value: string | null | undefined): string => (value ?? '').trim();

/** Whole calendar months from `from` to `to` (YYYY-MM-DD, `from` <= `to`), the day clamped like addMonths. */
export function wholeMonthsBetween(from: string, to: string): number {
  const [fy, fm] = from.split('-').map(Number) as [number, number];
  const [ty, tm] = to.split('-').map(Number) as [number, number];
  let months = (ty - fy) * 12 + (tm - fm);
  while (months > 0 && addMonths(from, months) > to) months -= 1;
  return Math.max(months, 0);
}

function gapOf(
  kind: WorkHistoryGapKind,
  from: string,
  to: string,
  explainedBy: number,
): WorkHistoryGap | null {
  if (!(from < to)) return null;
  const months = wholeMonthsBetween(from, to);
  if (months < WORK_GAP_MONTHS) return null;
  return { kind, from, to, months, yearOrMore: months >= WRITTEN_GAP_MONTHS, explainedBy };
}

/**
 * The gaps of `positions` as of `today` (YYYY-MM-DD), oldest first (see the module's rules).
 * @param graduationDates the education section's graduation dates (empty ones ignored)
 */
export function workHistoryGaps(
  positions: readonly GapPosition[],
  graduationDates: readonly (string | null | undefined)[],
  today: string,
): WorkHistoryGap[] {
  const spans = positions
    .map((p, index) => {
      const start = day(p.startDate);
      const end = p.isCurrentPosition === true ? today : day(p.endDate);
      return { index, start, end: end && end > start ? end : start };
    })
    .filter((s) => s.start)
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.index - b.index));
  const first = spans[0];
  if (!first) return [];
  const gaps: WorkHistoryGap[] = [];
  const trainingEnd = graduationDates
    .map(day)
    .filter((d) => d && d < first.start)
    .sort()
    .at(-1);
  if (trainingEnd) {
    const gap = gapOf('after_training', trainingEnd, first.start, first.index);
    if (gap) gaps.push(gap);
  }
  let covered = first.end;
  let coveredBy = first.index;
  for (const span of spans.slice(1)) {
    if (span.start > covered) {
      const gap = gapOf('between_positions', covered, span.start, span.index);
      if (gap) gaps.push(gap);
    }
    if (span.end >= covered) {
      covered = span.end;
      coveredBy = span.index;
    }
  }
  if (covered < today) {
    const gap = gapOf('since_last_position', covered, today, coveredBy);
    if (gap) gaps.push(gap);
  }
  const windowStart = addMonths(today, -12 * GAP_LOOKBACK_YEARS);
  return gaps.filter((gap) => gap.to > windowStart);
}

/** The explanation a gap has (trimmed; '' when none). */
export function gapExplanationOf(gap: WorkHistoryGap, positions: readonly GapPosition[]): string {
  return day(positions[gap.explainedBy]?.gapExplanation);
}

/** The gaps with no explanation on their row: completion refuses these (issue 29 item 7). */
export function unexplainedGaps(
  positions: readonly GapPosition[],
  graduationDates: readonly (string | null | undefined)[],
  today: string,
): WorkHistoryGap[] {
  return workHistoryGaps(positions, graduationDates, today).filter(
    (gap) => !gapExplanationOf(gap, positions),
  );
}

const monthFormat = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
/** '2024-01-31' -> 'Jan 2024'. */
export function monthYear(isoDate: string): string {
  return monthFormat.format(new Date(`${isoDate}T00:00:00Z`));
}

/** 'Jan 2024 to Sep 2024', 'May 2023 to today', with what the ends are for the two outer kinds. */
function span(gap: WorkHistoryGap): string {
  if (gap.kind === 'after_training')
    return `end of training (${monthYear(gap.from)}) to ${monthYear(gap.to)}`;
  if (gap.kind === 'since_last_position')
    return `${monthYear(gap.from)} to today (since this position ended)`;
  return `${monthYear(gap.from)} to ${monthYear(gap.to)}`;
}

/**
 * What the work-history card after a gap says above its 'Gap explanation' field, e.g. "8-month gap:
 * Jan 2024 to Sep 2024. Explain it (NCQA asks for it in writing for a gap of a year or more)."
 */
export function gapDescription(gap: WorkHistoryGap): string {
  return gap.yearOrMore
    ? `${gap.months}-month gap: ${span(gap)}. A gap of a year or more must be explained in writing: explain it here.`
    : `${gap.months}-month gap: ${span(gap)}. Explain it (NCQA asks for it in writing for a gap of a year or more).`;
}

/**
 * The completion's refusal of an unexplained gap (409), e.g. "Work history: explain the gap from
 * 2024-01-31 to 2024-09-30 (8 months) in Work History before completing."
 */
export function unexplainedGapMessage(gap: WorkHistoryGap): string {
  const to = gap.kind === 'since_last_position' ? `today, ${gap.to}` : gap.to;
  return `Work history: explain the gap from ${gap.from} to ${to} (${gap.months} months) in Work History before completing.`;
}

/**
 * The completion's refusal (issue 29 item 7): the oldest unexplained gap named, and how many more
 * there are: "Work history: explain the gap from … (8 months) in Work History before completing. 1
 * more gap needs an explanation too."
 */
export function unexplainedGapsMessage(first: WorkHistoryGap, others: number): string {
  const more =
    others === 0 ? '' : ` ${others} more ${others === 1 ? 'gap needs' : 'gaps need'} an explanation too.`;
  return `${unexplainedGapMessage(first)}${more}`;
}

/**
 * One line of the review checklist's work-history item per gap (issue 29 item 7), e.g.
 * "Gap 2024-01-31 to 2024-09-30 (8 months): Explanation: Family leave." or "…: not explained."
 */
export function gapReviewLine(gap: WorkHistoryGap, explanation: string): string {
  const where =
    gap.kind === 'after_training'
      ? ' after training'
      : gap.kind === 'since_last_position'
        ? ' since the last position'
        : '';
  const written = gap.yearOrMore ? ', a year or more: in writing' : '';
  return `Gap${where} ${gap.from} to ${gap.to} (${gap.months} months${written}): ${
    explanation ? `Explanation: ${explanation}` : 'not explained'
  }`;
}

/** Snapshot rows (snake_case, domain/review/application-snapshot.ts) as the gap rules read them. */
export function gapInputOfSnapshot(lists: Record<string, readonly Record<string, unknown>[]>): {
  positions: GapPosition[];
  graduationDates: string[];
} {
  const text = (v: unknown): string => (typeof v === 'string' ? v : '');
  return {
    positions: (lists.workHistory ?? []).map((r) => ({
      startDate: text(r.start_date),
      endDate: text(r.end_date),
      isCurrentPosition: r.is_current_position === true,
      gapExplanation: text(r.gap_explanation),
    })),
    graduationDates: (lists.education ?? []).map((r) => text(r.graduation_date)),
  };
}

/**
 * The lines the review checklist's work-history item shows (issue 29 item 7): one per gap of the
 * snapshot's work history as of `today`, with its explanation or 'not explained'; [] when none.
 * @param lists a snapshot's lists (domain/review/application-snapshot.ts, `workHistory` and `education`)
 */
export function workHistoryGapLines(
  lists: Record<string, readonly Record<string, unknown>[]>,
  today: string,
): string[] {
  const { positions, graduationDates } = gapInputOfSnapshot(lists);
  return workHistoryGaps(positions, graduationDates, today).map((gap) =>
    gapReviewLine(gap, gapExplanationOf(gap, positions)),
  );
}
