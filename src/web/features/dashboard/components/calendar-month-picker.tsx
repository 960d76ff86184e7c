import '@mantine/dates/styles.css';
import { MonthPicker } from '@mantine/dates';
import { useEffect, useRef } from 'react';
import { formatCalendarDay, parseCalendarDay } from '../../../../domain/dates';

// The arrows' names; the year in the middle is named by its own text ('2026'), which opens the decade.
const ARIA_LABELS = {
  previousYear: 'Previous year',
  nextYear: 'Next year',
  previousDecade: 'Previous decade',
  nextDecade: 'Next decade',
};

/**
 * The PnL calendar's month and year picker (a month a year back took 19 clicks on the arrows): the months
 * of a year, the years of a decade one level up. Loaded when first opened, with Mantine's dates code.
 */
export default function CalendarMonthPicker({ year, month, onPick }: { year: number; month: number; onPick: (year: number, month: number) => void }) {
  const root = useRef<HTMLDivElement>(null);
  const value = formatCalendarDay(year, month, 1);
  // Opened from the keyboard or the mouse alike, the focus starts on the month shown.
  useEffect(() => {
    root.current?.querySelector<HTMLButtonElement>('button[data-selected]')?.focus();
  }, []);
  return (
    <MonthPicker
      ref={root}
      value={value}
      defaultDate={value}
      onChange={(picked) => {
        const parts = picked ? parseCalendarDay(picked.slice(0, 10)) : null;
        if (parts) onPick(parts.year, parts.month);
      }}
      ariaLabels={ARIA_LABELS}
      size="sm"
      data-testid="calendar-month-picker"
    />
  );
}
