import { describe, expect, it } from 'vitest';
import { buildPnlCalendar, getCalendarRowCount, shiftCalendarMonth, type PnlCalendar } from './pnl-calendar';

const rowDates = (calendar: PnlCalendar) => calendar.weeks.map((w) => `${w.cells[0]?.date}..${w.cells[6]?.date}`);
const cell = (calendar: PnlCalendar, date: string) => calendar.weeks.flatMap((w) => w.cells).find((c) => c.date === date);

describe('PnL calendar grid (Sunday-start weeks, 5 or 6 rows)', () => {
  it('February 2026 starts on a Sunday and fits in 4 rows; a fifth row of March days keeps the 5-row minimum', () => {
    const calendar = buildPnlCalendar({ year: 2026, month: 2, days: [] });
    expect(rowDates(calendar)).toEqual([
      '2026-02-01..2026-02-07',
      '2026-02-08..2026-02-14',
      '2026-02-15..2026-02-21',
      '2026-02-22..2026-02-28',
      '2026-03-01..2026-03-07',
    ]);
    expect(calendar.weeks[4]?.cells.every((c) => !c.inMonth)).toBe(true);
  });

  it('March 2026 starts on a Sunday: 5 rows, the last holding Mar 29-31 and Apr 1-4', () => {
    const calendar = buildPnlCalendar({ year: 2026, month: 3, days: [] });
    expect(calendar.weeks).toHaveLength(5);
    expect(calendar.weeks[4]?.cells.map((c) => [c.dayOfMonth, c.inMonth])).toEqual([
      [29, true],
      [30, true],
      [31, true],
      [1, false],
      [2, false],
      [3, false],
      [4, false],
    ]);
  });

  it('August 2026 starts on a Saturday: a sixth row keeps Aug 30 and 31 (the literal 4-day rule would drop them)', () => {
    const calendar = buildPnlCalendar({ year: 2026, month: 8, days: [] });
    expect(rowDates(calendar)[0]).toBe('2026-07-26..2026-08-01');
    expect(calendar.weeks).toHaveLength(6);
    expect(calendar.weeks[5]?.cells.filter((c) => c.inMonth).map((c) => c.date)).toEqual(['2026-08-30', '2026-08-31']);
  });

  it('November 2025 starts on a Saturday with 30 days: 6 rows, the last holding only Nov 30', () => {
    expect(getCalendarRowCount(2025, 11)).toBe(6);
  });

  it('February 2028 (leap year, starts Tuesday) has 5 rows and a Feb 29 cell', () => {
    const calendar = buildPnlCalendar({ year: 2028, month: 2, days: [{ date: '2028-02-29', pnlCents: 1000, trades: 1, wins: 1 }] });
    expect(rowDates(calendar)).toEqual([
      '2028-01-30..2028-02-05',
      '2028-02-06..2028-02-12',
      '2028-02-13..2028-02-19',
      '2028-02-20..2028-02-26',
      '2028-02-27..2028-03-04',
    ]);
    expect(cell(calendar, '2028-02-29')).toMatchObject({ inMonth: true, pnlCents: 1000, tint: 'green' });
  });

  it('numbers rows by month position and by US week of year (Sunday start, week 1 holds 1 January)', () => {
    expect(buildPnlCalendar({ year: 2026, month: 2, days: [] }).weeks.map((w) => [w.weekOfMonth, w.weekOfYear])).toEqual([
      [1, 6],
      [2, 7],
      [3, 8],
      [4, 9],
      [5, 10],
    ]);
    // December 2026: the last row Dec 27 .. Jan 2 holds 1 January 2027, so it is week 1.
    expect(buildPnlCalendar({ year: 2026, month: 12, days: [] }).weeks.map((w) => w.weekOfYear)).toEqual([49, 50, 51, 52, 1]);
  });

  it('moves to the previous and next month across years', () => {
    expect(shiftCalendarMonth(2026, 1, -1)).toEqual({ year: 2025, month: 12 });
    expect(shiftCalendarMonth(2026, 12, 1)).toEqual({ year: 2027, month: 1 });
    expect(shiftCalendarMonth(2026, 3, -14)).toEqual({ year: 2025, month: 1 });
  });
});

describe('PnL calendar cells, week column and month summary', () => {
  const august = buildPnlCalendar({
    year: 2026,
    month: 8,
    days: [
      { date: '2026-08-03', pnlCents: 30025, trades: 2, wins: 1, losses: 1 },
      { date: '2026-08-03', pnlCents: 20000, trades: 1, wins: 1 }, // a second entry for the same day is added
      { date: '2026-08-04', pnlCents: -12000, trades: 1, losses: 1 },
      { date: '2026-08-05', pnlCents: 0, trades: 1, breakEvens: 1 },
      { date: '2026-08-06', pnlCents: null, trades: 4 }, // null pnl: ignored
      { date: null, pnlCents: 99999, trades: 9 }, // no date: ignored
      { pnlCents: 99999 }, // no date: ignored
      { date: '2026-07-31', pnlCents: 5000, trades: 1, wins: 1 }, // July, shown only as an empty leading cell
      { date: '2026-08-31', pnlCents: 7500, trades: 1, wins: 1 },
    ],
  });

  it('Aug 3: +$500.25 over 3 trades, 2 wins 1 loss = 66.7 %, green', () => {
    expect(cell(august, '2026-08-03')).toEqual({
      date: '2026-08-03',
      dayOfMonth: 3,
      inMonth: true,
      pnlCents: 50025,
      trades: 3,
      winRate: 66.7,
      tint: 'green',
    });
  });

  it('Aug 4 is red, the Aug 5 scratch is grey, Aug 6 with null pnl and Aug 7 without trades are blank', () => {
    expect(cell(august, '2026-08-04')).toMatchObject({ pnlCents: -12000, winRate: 0, tint: 'red' });
    // Break-even only: no win rate at all (shown as '—', not '0%').
    expect(cell(august, '2026-08-05')).toMatchObject({ pnlCents: 0, trades: 1, winRate: null, tint: 'grey' });
    expect(cell(august, '2026-08-06')).toMatchObject({ pnlCents: null, trades: 0, winRate: null, tint: null });
    expect(cell(august, '2026-08-07')).toMatchObject({ pnlCents: null, tint: null });
  });

  it('leaves the July 31 leading cell empty', () => {
    expect(cell(august, '2026-07-31')).toMatchObject({ inMonth: false, pnlCents: null, trades: 0, tint: null });
    expect(august.weeks[0]).toMatchObject({ pnlCents: 0, trades: 0, tradingDays: 0 });
  });

  it('the week of Aug 2-8 totals +$380.25 over 5 trades on 3 trading days', () => {
    expect(august.weeks[1]).toMatchObject({ weekStart: '2026-08-02', weekOfMonth: 2, weekOfYear: 32, pnlCents: 38025, trades: 5, tradingDays: 3 });
    expect(august.weeks[5]).toMatchObject({ weekStart: '2026-08-30', pnlCents: 7500, trades: 1, tradingDays: 1 });
  });

  it('the month sums to +$455.25 over 6 trades: 3 wins, 2 losses, 1 BE, 60 %, 2 green, 1 red, 1 flat day', () => {
    expect(august.summary).toEqual({
      pnlCents: 45525,
      trades: 6,
      wins: 3,
      losses: 2,
      breakEvens: 1,
      winRate: 60,
      tradingDays: 4,
      greenDays: 2,
      redDays: 1,
      flatDays: 1,
    });
    expect(august.weeks.reduce((sum, w) => sum + w.pnlCents, 0)).toBe(august.summary.pnlCents);
  });

  it('sums 31 days of +$0.10, +$0.20 ... to the cent', () => {
    const days = Array.from({ length: 31 }, (_, i) => ({
      date: `2026-08-${String(i + 1).padStart(2, '0')}`,
      pnlCents: (i + 1) * 10,
      trades: 1,
      wins: 1,
    }));
    // 10 x (1 + ... + 31) = 10 x 496 = 4960 cents
    expect(buildPnlCalendar({ year: 2026, month: 8, days }).summary.pnlCents).toBe(4960);
  });

  it('refuses month 13', () => {
    expect(() => buildPnlCalendar({ year: 2026, month: 13, days: [] })).toThrow(RangeError);
  });
});
