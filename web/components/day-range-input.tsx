/**
 * 'Dates (UTC)': a range of UTC days (YYYY-MM-DD, both included) picked with Mantine's range picker,
 * for the filters of the 'Audit Log' and 'Reports' tabs. The range reaches `onChange` once both ends
 * are picked and `check` (when given) accepts it; until then the picked days stay here, with
 * `check`'s message under the field. Cleared: `onChange({})` (each tab says what no range means
 * through `placeholder`).
 */
import '@mantine/dates/styles.css';
import { DatePickerInput } from '@mantine/dates';
import dayjs from 'dayjs';
import { useState } from 'react';
import { FILTER_FIRST_DAY } from '../../domain/api/date-range.ts';

/** A range as the filters keep it: either end may be absent. */
export interface DayRange {
  from?: string;
  to?: string;
}

type Picked = [string | null, string | null];

const dayOf = (value: string | Date | null) => (value ? dayjs(value).format('YYYY-MM-DD') : null);

export function DayRangeInput({
  value,
  onChange,
  placeholder,
  description,
  maxDate,
  check,
  width,
}: {
  value: DayRange;
  onChange: (range: DayRange) => void;
  /** What an empty field means, e.g. 'Any date' or 'Last 12 months'. */
  placeholder: string;
  description: string;
  /** The last day offered (YYYY-MM-DD); the first is FILTER_FIRST_DAY. */
  maxDate?: string;
  /** Why a complete range cannot be used (e.g. the server's schema refuses it), or null when it can. */
  check?: (range: DayRange) => string | null;
  /** Width from Mantine's `sm` breakpoint up, in px; full width below it. */
  width: number;
}) {
  const [pending, setPending] = useState<Picked | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <DatePickerInput
      type="range"
      label="Dates (UTC)"
      placeholder={placeholder}
      description={description}
      clearable
      clearButtonProps={{ 'aria-label': 'Clear dates' }}
      // Mantine's placeholder grey is below WCAG AA contrast on a button (axe reads it, unlike ::placeholder).
      styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
      allowSingleDateInRange
      w={{ base: '100%', sm: width }}
      minDate={FILTER_FIRST_DAY}
      maxDate={maxDate}
      valueFormat="MMM D, YYYY"
      value={pending ?? [value.from ?? null, value.to ?? null]}
      error={error}
      onChange={([start, end]) => {
        const from = dayOf(start);
        const to = dayOf(end);
        if (from && !to) {
          setPending([from, null]);
          setError(null);
          return;
        }
        const range = { from: from ?? undefined, to: to ?? undefined };
        const problem = check?.(range) ?? null;
        if (problem) {
          setPending([from, to]);
          setError(problem);
          return;
        }
        setPending(null);
        setError(null);
        onChange(range);
      }}
    />
  );
}
