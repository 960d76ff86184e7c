import { describe, expect, it } from 'vitest';
import { computeMonthlyReview, defaultReviewMonth, monthDays, rankByNet, shiftMonth } from './monthly-review';
import { createTradeSet, type ReportTrade } from './report-trade';

let seq = 0;
const trade = (tradeDate: string, symbol: string, pnlCents: number, tags: string[] = []): ReportTrade => ({
  id: `t${++seq}`,
  tradeDate,
  accountId: 'a',
  symbol,
  contract: null,
  side: 'Long',
  setup: '',
  session: 'AM',
  tags,
  status: pnlCents > 0 ? 'Win' : pnlCents < 0 ? 'Loss' : 'BE',
  pnlCents,
  commissionCents: 0,
  entryMs: null,
  exitMs: null,
  quantity: 1,
});

describe('the review month', () => {
  it('spans the whole month, February of a leap year to its 29th', () => {
    expect(monthDays('2028-02')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(monthDays('2026-12')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(() => monthDays('2026-13')).toThrow(RangeError);
  });

  it('steps across a year end', () => {
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
  });

  it('opens on the month just closed in the first three days of a month, else on the month under way', () => {
    expect(defaultReviewMonth('2027-01-01')).toBe('2026-12');
    expect(defaultReviewMonth('2026-12-03')).toBe('2026-11');
    expect(defaultReviewMonth('2026-12-04')).toBe('2026-12');
    expect(defaultReviewMonth('2026-12-31')).toBe('2026-12');
  });
});

describe('ranking by net P&L', () => {
  it('keeps the best that made money and the worst that lost it, a flat row in neither', () => {
    const rows = [
      { label: 'A', netCents: 500 },
      { label: 'B', netCents: -100 },
      { label: 'C', netCents: 0 },
      { label: 'D', netCents: 900 },
      { label: 'E', netCents: 500 },
      { label: 'F', netCents: -700 },
      { label: 'G', netCents: 10 },
    ];
    const { top, bottom } = rankByNet(rows, 3);
    expect(top.map((r) => r.label)).toEqual(['D', 'A', 'E']);
    expect(bottom.map((r) => r.label)).toEqual(['F', 'B']);
  });
});

describe('the monthly review of a month of NQ and ES trades', () => {
  it('gives the month its days, curve, ranked instruments, streaks and mistakes', () => {
    const set = createTradeSet([
      trade('2026-03-02', 'NQ', 40_000),
      trade('2026-03-02', 'ES', -10_000, ['fomo']),
      trade('2026-03-03', 'NQ', 5_000),
      trade('2026-03-04', 'ES', -20_000, ['FOMO', 'late']),
    ]);
    const review = computeMonthlyReview(set, {
      month: '2026-03',
      timeZone: 'America/New_York',
      accountName: () => undefined,
      risk: set.columns.ownRisk,
      markets: null,
      openingBalanceCents: null,
      mistakeTags: ['FOMO', 'Oversized'],
      playbooks: [
        { key: 'p1', label: 'Opening drive', trades: 2, winRate: 50, netCents: 30_000 },
        { key: 'p2', label: 'Unused', trades: 0, winRate: null, netCents: 0 },
      ],
    });
    expect(review.overview).toMatchObject({ trades: 4, netCents: 15_000, bestDay: { tradeDate: '2026-03-02', pnlCents: 30_000 } });
    expect(review.days.map((d) => [d.tradeDate, d.netCents])).toEqual([
      ['2026-03-02', 30_000],
      ['2026-03-03', 5_000],
      ['2026-03-04', -20_000],
    ]);
    expect(review.equity.map((p) => p.equityCents)).toEqual([30_000, 35_000, 15_000]);
    expect(review.instruments.top.map((r) => [r.key, r.netCents])).toEqual([['NQ', 45_000]]);
    expect(review.instruments.bottom.map((r) => [r.key, r.netCents])).toEqual([['ES', -30_000]]);
    expect(review.streaks).toEqual({ longestWinningDays: 2, longestLosingDays: 1, current: { kind: 'losing', days: 1 } });
    // 'fomo' is FOMO; a mistake no trade carries is left out.
    expect(review.mistakes).toEqual({
      rows: [{ tag: 'FOMO', trades: 2, netCents: -30_000, totalR: null, tradesWithoutRisk: 2 }],
      tradesWithMistakes: 2,
    });
    expect(review.playbooks).toEqual({ top: [{ key: 'p1', label: 'Opening drive', trades: 2, winRate: 50, netCents: 30_000 }], bottom: [] });
  });
});
