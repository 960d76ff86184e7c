import { describe, expect, it } from 'vitest';
import { computeMistakes } from './mistakes';
import { computeRiskColumn } from './r-multiples';
import { allTrades, buildTradeColumns, type ReportTrade } from './report-trade';

const trade = (id: string, pnlCents: number, tags: string[], riskCents: number | null = null): ReportTrade => ({
  id,
  tradeDate: '2026-03-02',
  accountId: null,
  symbol: 'NQ',
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
  riskCents,
});

describe('what mistakes cost', () => {
  it("each mistake's trades and net P&L, and the net without any trade tagged with one", () => {
    const columns = buildTradeColumns([
      trade('a', 30_000, ['A+']),
      trade('b', -20_000, ['fomo'], 10_000),
      // Two mistakes on one trade: in both rows, once in the count of trades with a mistake.
      trade('c', -45_000, ['FOMO', 'Moved stop'], 15_000),
      trade('d', 12_500, ['Oversized']),
      trade('e', -5_000, []),
    ]);
    const report = computeMistakes(allTrades(columns), ['FOMO', 'Moved stop', 'Oversized', 'Revenge'], computeRiskColumn(columns, []));
    expect(report.mistakes).toEqual([
      // -$200 on $100 risked is -2R, -$450 on $150 is -3R.
      { tag: 'FOMO', trades: 2, netCents: -65_000, totalR: -5, tradesWithoutRisk: 0 },
      { tag: 'Moved stop', trades: 1, netCents: -45_000, totalR: -3, tradesWithoutRisk: 0 },
      { tag: 'Oversized', trades: 1, netCents: 12_500, totalR: null, tradesWithoutRisk: 1 },
      { tag: 'Revenge', trades: 0, netCents: 0, totalR: null, tradesWithoutRisk: 0 },
    ]);
    // Net -$275.00 with them; $300 - $50 = $250.00 without the three trades that carry a mistake.
    expect(report).toMatchObject({ tradesWithMistakes: 3, netCents: -27_500, netWithoutMistakesCents: 25_000, tradesWithoutMistakes: 2 });
  });

  it('with no mistake marked, every trade is without one', () => {
    const report = computeMistakes(allTrades(buildTradeColumns([trade('a', 100, ['FOMO'])])), []);
    expect(report).toEqual({ mistakes: [], tradesWithMistakes: 0, netCents: 100, netWithoutMistakesCents: 100, tradesWithoutMistakes: 1 });
  });
});
