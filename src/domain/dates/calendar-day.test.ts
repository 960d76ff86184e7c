import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  differenceInDays,
  formatDay,
  formatTradeLogDay,
  formatWeekOfLabel,
  getDayName,
  getDaysInMonth,
  getIsoWeek,
  getStartOfWeekMonday,
  getStartOfWeekSunday,
  getWeekOfYear,
  parseCalendarDay,
} from './calendar-day';

describe('calendar days (yyyy-MM-dd)', () => {
  it('rejects impossible and malformed dates', () => {
    expect(parseCalendarDay('2026-02-29')).toBeNull();
    expect(parseCalendarDay('2028-02-29')).toEqual({ year: 2028, month: 2, day: 29 });
    expect(parseCalendarDay('2026-13-01')).toBeNull();
    expect(parseCalendarDay('2026-3-9')).toBeNull();
    expect(parseCalendarDay('09/03/2026')).toBeNull();
    expect(parseCalendarDay(20260309)).toBeNull();
  });

  it('names the day of 2026-03-09 Monday and 2026-03-08 Sunday (date change recomputes the day)', () => {
    expect(getDayName('2026-03-09')).toBe('Monday');
    expect(getDayName('2026-03-08')).toBe('Sunday');
    expect(getDayName('2026-03-14')).toBe('Saturday');
    expect(getDayName('2028-02-29')).toBe('Tuesday');
  });

  it('adds days across month, year and leap-day boundaries', () => {
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(differenceInDays('2026-03-09', '2026-02-27')).toBe(10);
  });

  it('adds months clamping to the month end', () => {
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
    expect(addMonths('2028-03-30', -1)).toBe('2028-02-29');
    expect(addMonths('2026-01-15', -1)).toBe('2025-12-15');
    expect(addMonths('2026-12-15', 1)).toBe('2027-01-15');
    expect(getDaysInMonth(2028, 2)).toBe(29);
    expect(getDaysInMonth(2026, 2)).toBe(28);
  });

  it('starts weeks on Monday for the trade log and on Sunday for the calendar', () => {
    expect(getStartOfWeekMonday('2026-03-08')).toBe('2026-03-02'); // a Sunday belongs to the week before
    expect(getStartOfWeekMonday('2026-03-09')).toBe('2026-03-09');
    expect(getStartOfWeekSunday('2026-03-08')).toBe('2026-03-08');
    expect(getStartOfWeekSunday('2026-03-14')).toBe('2026-03-08');
  });

  it('numbers US weeks (Sunday start, week 1 holds 1 January)', () => {
    expect(getWeekOfYear('2026-01-01')).toBe(1); // Thursday; week 1 is Dec 28 2025 .. Jan 3 2026
    expect(getWeekOfYear('2025-12-28')).toBe(1);
    expect(getWeekOfYear('2026-01-04')).toBe(2);
    expect(getWeekOfYear('2026-03-08')).toBe(11);
    expect(getWeekOfYear('2026-12-26')).toBe(52);
    expect(getWeekOfYear('2026-12-27')).toBe(1); // the row Dec 27 .. Jan 2 holds 1 January 2027
  });

  it('numbers ISO weeks (Monday start, first Thursday)', () => {
    expect(getIsoWeek('2026-01-01')).toBe(1);
    expect(getIsoWeek('2027-01-01')).toBe(53); // Friday of ISO week 2026-W53
    expect(getIsoWeek('2026-03-09')).toBe(11);
  });

  it('labels the Monday-start week of a Sunday with the Monday before', () => {
    expect(formatWeekOfLabel('2026-03-08')).toBe('Week of Mar 2, 2026');
    expect(formatWeekOfLabel('2027-01-01')).toBe('Week of Dec 28, 2026');
  });
});

describe('week numbers agree with date-fns on every day of 2024..2030', () => {
  it('US week-of-year and ISO week', async () => {
    const { getWeek, getISOWeek } = await import('date-fns');
    const { TZDate } = await import('@date-fns/tz');
    for (let day = '2024-01-01'; day <= '2030-12-31'; day = addDays(day, 1)) {
      const [y, m, d] = day.split('-').map(Number) as [number, number, number];
      const utc = new TZDate(y, m - 1, d, 'UTC');
      expect(getWeekOfYear(day), day).toBe(getWeek(utc, { weekStartsOn: 0, firstWeekContainsDate: 1 }));
      expect(getIsoWeek(day), day).toBe(getISOWeek(utc));
    }
    // 2,557 days and a cold import of date-fns: seconds on a busy 2-core machine, more than the default 5 s.
  }, 30_000);

  it("writes the Trade Log's date as 'MMM d', with the year for a day of another year than the trader's today", () => {
    expect(formatTradeLogDay('2026-03-09', '2026-11-30')).toBe('Mar 9');
    expect(formatTradeLogDay('2025-12-31', '2026-01-02')).toBe('Dec 31, 2025');
    expect(formatTradeLogDay('2027-01-04', '2026-12-31')).toBe('Jan 4, 2027');
  });

  it('writes a day from date-fns tokens, as the screens label days', () => {
    expect(formatDay('2026-03-09', 'EEE MMM d')).toBe('Mon Mar 9');
    expect(formatDay('2026-03-09', 'EEEE, MMMM d, yyyy')).toBe('Monday, March 9, 2026');
    expect(formatDay('2026-03-09', 'EEE dd MMM')).toBe('Mon 09 Mar');
    expect(formatDay('2026-12-25', 'EEE, MMM d')).toBe('Fri, Dec 25');
    expect(formatDay('2026-11-01', 'MMMM yyyy')).toBe('November 2026');
    expect(formatDay('2026-11-01', 'MMM')).toBe('Nov');
    expect(formatDay('2028-02-29', 'MM/dd/yyyy')).toBe('02/29/2028');
    expect(formatDay('2028-02-29', 'yyyy-MM-dd')).toBe('2028-02-29');
    expect(formatDay('2026-03-08', 'EEE MMM d, yyyy')).toBe('Sun Mar 8, 2026');
    expect(() => formatDay('2026-02-30', 'MMM d')).toThrow();
  });
});
