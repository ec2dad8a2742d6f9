/** Gap detection of work history (issue 29 item 7, NCQA CR 3), with today passed in. */
import { describe, expect, it } from 'vitest';
import {
  type GapPosition,
  gapDescription,
  gapInputOfSnapshot,
  gapReviewLine,
  unexplainedGapMessage,
  unexplainedGaps,
  wholeMonthsBetween,
  workHistoryGapLines,
  workHistoryGaps,
} from './work-history-gaps.ts';

const today = '2026-11-26';
const job = (startDate: string, endDate: string | null, extra: Partial<GapPosition> = {}): GapPosition => ({
  startDate,
  endDate,
  isCurrentPosition: false,
  ...extra,
});
const current = (startDate: string, extra: Partial<GapPosition> = {}): GapPosition => ({
  startDate,
  endDate: null,
  isCurrentPosition: true,
  ...extra,
});

describe('workHistoryGaps', () => {
  it('finds an 8-month gap between positions, explained on the position after it', () => {
    // The second card is listed first: order on screen does not matter, start dates do.
    const positions = [current('2024-09-30'), job('2020-03-01', '2024-01-31')];
    const gaps = workHistoryGaps(positions, [], today);
    expect(gaps).toEqual([
      {
        kind: 'between_positions',
        from: '2024-01-31',
        to: '2024-09-30',
        months: 8,
        yearOrMore: false,
        explainedBy: 0,
      },
    ]);
    expect(gapDescription(gaps[0]!)).toBe(
      '8-month gap: Jan 2024 to Sep 2024. Explain it (NCQA asks for it in writing for a gap of a year or more).',
    );
    expect(unexplainedGapMessage(gaps[0]!)).toBe(
      'Work history: explain the gap from 2024-01-31 to 2024-09-30 (8 months) in Work History before completing.',
    );
    // Explained on that row: nothing left for completion to refuse.
    expect(unexplainedGaps(positions, [], today)).toHaveLength(1);
    positions[0] = { ...positions[0]!, gapExplanation: '  Family leave ' };
    expect(unexplainedGaps(positions, [], today)).toEqual([]);
    expect(gapReviewLine(gaps[0]!, 'Family leave')).toBe(
      'Gap 2024-01-31 to 2024-09-30 (8 months): Explanation: Family leave',
    );
  });

  it('asks nothing for a 5-month gap, and asks for exactly 6 months', () => {
    expect(workHistoryGaps([job('2020-01-01', '2024-01-31'), current('2024-06-30')], [], today)).toEqual([]);
    const six = workHistoryGaps([job('2020-01-01', '2024-01-31'), current('2024-07-31')], [], today);
    expect(six.map((g) => g.months)).toEqual([6]);
  });

  it('asks about the time from the end of training to the first position', () => {
    // The latest graduation before the first position is the end of training; a later one is not.
    const gaps = workHistoryGaps([current('2023-03-01')], ['2015-05-20', '2022-06-15', '2024-05-01'], today);
    expect(gaps).toEqual([
      {
        kind: 'after_training',
        from: '2022-06-15',
        to: '2023-03-01',
        months: 8,
        yearOrMore: false,
        explainedBy: 0,
      },
    ]);
    expect(gapDescription(gaps[0]!)).toBe(
      '8-month gap: end of training (Jun 2022) to Mar 2023. Explain it (NCQA asks for it in writing for a gap of a year or more).',
    );
    // No graduation date before the first position: no gap before it.
    expect(workHistoryGaps([current('2023-03-01')], ['2024-05-01', null, ''], today)).toEqual([]);
  });

  it('merges overlapping positions: a long position covers a shorter one inside it', () => {
    const positions = [
      job('2018-01-01', '2025-01-31'), // covers the next one entirely
      job('2019-01-01', '2019-06-30'),
      current('2025-03-01'),
    ];
    expect(workHistoryGaps(positions, [], today)).toEqual([]);
    // Overlap, then a 9-month gap after the later-ending one: explained on the position after it.
    const gaps = workHistoryGaps(
      [job('2018-01-01', '2022-12-31'), job('2022-06-01', '2023-05-31'), current('2024-02-29')],
      [],
      today,
    );
    expect(gaps.map((g) => [g.from, g.to, g.months, g.explainedBy])).toEqual([
      ['2023-05-31', '2024-02-29', 9, 2],
    ]);
  });

  it('runs a current position to today, and asks about the time since the last position ended', () => {
    expect(workHistoryGaps([job('2015-01-01', '2020-12-31'), current('2021-01-04')], [], today)).toEqual([]);
    // Nothing current, last position ended 10 months ago: a trailing gap, explained on that position.
    const trailing = workHistoryGaps(
      [job('2024-02-01', '2025-12-31'), job('2019-01-01', '2024-01-31')],
      [],
      today,
    );
    expect(trailing).toEqual([
      {
        kind: 'since_last_position',
        from: '2025-12-31',
        to: today,
        months: 10,
        yearOrMore: false,
        explainedBy: 0,
      },
    ]);
    expect(unexplainedGapMessage(trailing[0]!)).toBe(
      'Work history: explain the gap from 2025-12-31 to today, 2026-11-26 (10 months) in Work History before completing.',
    );
    // A blank end date on a position not marked current does not run to today.
    expect(workHistoryGaps([job('2024-01-01', null)], [], today).map((g) => g.kind)).toEqual([
      'since_last_position',
    ]);
  });

  it('flags a 13-month gap as a year or more (in writing)', () => {
    const gaps = workHistoryGaps([job('2020-01-01', '2023-01-31'), current('2024-02-29')], [], today);
    expect(gaps.map((g) => [g.months, g.yearOrMore])).toEqual([[13, true]]);
    expect(gapDescription(gaps[0]!)).toBe(
      '13-month gap: Jan 2023 to Feb 2024. A gap of a year or more must be explained in writing: explain it here.',
    );
    expect(gapReviewLine(gaps[0]!, '')).toBe(
      'Gap 2023-01-31 to 2024-02-29 (13 months, a year or more: in writing): not explained',
    );
    // 11 months is not a year.
    expect(
      workHistoryGaps([job('2020-01-01', '2023-01-31'), current('2023-12-31')], [], today)[0]!.yearOrMore,
    ).toBe(false);
  });

  it('asks only about gaps ending in the last 5 years, reported whole', () => {
    // Ends 2021-11-25: more than 5 years before today. Not asked.
    expect(workHistoryGaps([job('2010-01-01', '2019-12-31'), current('2021-11-25')], [], today)).toEqual([]);
    // Ends 2021-11-27, inside the window: asked, from its real start.
    expect(
      workHistoryGaps([job('2010-01-01', '2019-12-31'), current('2021-11-27')], [], today).map((g) => g.from),
    ).toEqual(['2019-12-31']);
  });

  it('ignores positions without a start date, and has no gaps without positions', () => {
    expect(workHistoryGaps([], ['2020-01-01'], today)).toEqual([]);
    expect(workHistoryGaps([job('', null, { isCurrentPosition: false })], ['2020-01-01'], today)).toEqual([]);
  });

  it('counts whole calendar months, month ends clamped', () => {
    expect(wholeMonthsBetween('2024-01-31', '2024-09-30')).toBe(8);
    expect(wholeMonthsBetween('2024-01-31', '2024-09-29')).toBe(7);
    expect(wholeMonthsBetween('2024-03-15', '2024-03-20')).toBe(0);
  });
});

describe('gapInputOfSnapshot', () => {
  it('reads snapshot rows (snake_case) and the education graduation dates', () => {
    const input = gapInputOfSnapshot({
      workHistory: [
        { start_date: '2024-09-30', end_date: null, is_current_position: true, gap_explanation: 'Leave' },
        {
          start_date: '2022-03-01',
          end_date: '2024-01-31',
          is_current_position: false,
          gap_explanation: null,
        },
      ],
      education: [{ graduation_date: '2021-05-01' }, { graduation_date: null }],
    });
    expect(input.graduationDates).toEqual(['2021-05-01', '']);
    const gaps = workHistoryGaps(input.positions, input.graduationDates, today);
    expect(gaps.map((g) => [g.kind, g.months])).toEqual([
      ['after_training', 10],
      ['between_positions', 8],
    ]);
    expect(unexplainedGaps(input.positions, input.graduationDates, today).map((g) => g.kind)).toEqual([
      'after_training',
    ]);
  });

  it('gives the review item one line per gap, with its explanation or "not explained"', () => {
    const lists = {
      workHistory: [
        {
          start_date: '2022-03-01',
          end_date: '2024-01-31',
          is_current_position: false,
          gap_explanation: null,
        },
        {
          start_date: '2024-09-30',
          end_date: null,
          is_current_position: true,
          gap_explanation: 'Family leave',
        },
      ],
      education: [{ graduation_date: '2021-05-01' }],
    };
    expect(workHistoryGapLines(lists, today)).toEqual([
      'Gap after training 2021-05-01 to 2022-03-01 (10 months): not explained',
      'Gap 2024-01-31 to 2024-09-30 (8 months): Explanation: Family leave',
    ]);
    expect(workHistoryGapLines({ workHistory: [], education: [] }, today)).toEqual([]);
  });
});
