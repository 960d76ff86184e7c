import { describe, expect, it } from 'vitest';
import { groupTradesIntoDays } from './group-trades-into-days';
import { buildPnlCalendar } from './pnl-calendar';

const NEW_YORK = 'America/New_York';

describe('grouping timestamped trades into days in the user zone (DESIGN: each user has a zone)', () => {
  it('the spring-forward week of 2026-03-08 in New York', () => {
    const days = groupTradesIntoDays(
      [
        { date: '2026-03-08T04:30:00Z', status: 'Win', pnlCents: 10000 }, // Sat 03-07 23:30 EST
        { date: '2026-03-09T03:30:00Z', status: 'Loss', pnlCents: -2500 }, // Sun 03-08 23:30 EDT
        { date: '2026-03-09T13:45:00Z', status: 'Win', pnlCents: 42050 }, // Mon 03-09 09:45 EDT
        { date: '2026-03-10T03:59:59Z', status: 'BE', pnlCents: 0 }, // Mon 03-09 23:59:59 EDT
      ],
      NEW_YORK,
    );
    expect(days.map((d) => [d.date, d.trades, d.pnlCents])).toEqual([
      ['2026-03-07', 1, 10000],
      ['2026-03-08', 1, -2500],
      ['2026-03-09', 2, 42050],
    ]);
    const calendar = buildPnlCalendar({ year: 2026, month: 3, days });
    expect(calendar.weeks[0]).toMatchObject({ weekStart: '2026-03-01', pnlCents: 10000, tradingDays: 1 });
    expect(calendar.weeks[1]).toMatchObject({ weekStart: '2026-03-08', pnlCents: 39550, trades: 3, tradingDays: 2 });
  });

  it('the fall-back week of 2026-11-01 in New York (a 25-hour Sunday)', () => {
    const days = groupTradesIntoDays(
      [
        { date: '2026-11-01T03:30:00Z', status: 'Win', pnlCents: 1000 }, // Sat 10-31 23:30 EDT
        { date: '2026-11-01T04:30:00Z', status: 'Win', pnlCents: 2000 }, // Sun 11-01 00:30 EDT
        { date: '2026-11-02T04:30:00Z', status: 'Loss', pnlCents: -500 }, // Sun 11-01 23:30 EST
        { date: '2026-11-02T05:30:00Z', status: 'Win', pnlCents: 700 }, // Mon 11-02 00:30 EST
      ],
      NEW_YORK,
    );
    expect(days.map((d) => [d.date, d.trades, d.pnlCents])).toEqual([
      ['2026-10-31', 1, 1000],
      ['2026-11-01', 2, 1500],
      ['2026-11-02', 1, 700],
    ]);
    // In UTC the same trades land on other days: the zone matters.
    expect(groupTradesIntoDays([{ date: '2026-11-02T04:30:00Z', status: 'Loss', pnlCents: -500 }], 'UTC')[0]?.date).toBe('2026-11-02');
  });

  it('keeps stored 12:00 UTC dates on their day in any zone and drops undated or null-pnl trades', () => {
    const days = groupTradesIntoDays(
      [
        { date: '2026-03-09T12:00:00.000Z', status: 'Win', pnlCents: 100 },
        { date: '2026-03-09', status: 'Loss', pnlCents: -40 },
        { date: null, status: 'Win', pnlCents: 999 },
        { date: 'Mar 9', status: 'Win', pnlCents: 999 },
        { date: '2026-03-09', status: 'Win', pnlCents: null },
      ],
      'Pacific/Kiritimati',
    );
    expect(days).toEqual([
      { date: '2026-03-09', trades: 2, wins: 1, losses: 1, breakEvens: 0, pnlCents: 60, grossProfitCents: 100, grossLossCents: -40 },
    ]);
  });
});
