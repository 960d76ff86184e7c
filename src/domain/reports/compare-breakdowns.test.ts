import { describe, expect, it } from 'vitest';
import { computeBreakdown } from './breakdown';
import { alignBreakdowns } from './compare-breakdowns';
import { createTradeSet, type ReportTrade } from './report-trade';

const NY = 'America/New_York';
let seq = 0;
/** A trade on Monday March 2, 2026 (New York is UTC-5), entered at `at` New York time. */
const trade = (pnlCents: number, symbol: string, at: string): ReportTrade => ({
  id: `t${++seq}`,
  tradeDate: '2026-03-02',
  accountId: 'a',
  symbol,
  contract: null,
  side: 'Long',
  setup: '',
  session: 'AM',
  tags: [],
  status: pnlCents > 0 ? 'Win' : pnlCents < 0 ? 'Loss' : 'BE',
  pnlCents,
  commissionCents: 0,
  entryMs: Date.parse(`2026-03-02T${at}:00Z`) + 5 * 3_600_000,
  exitMs: null,
  quantity: 1,
});

describe("Compare's breakdowns side by side", () => {
  // Set A traded NQ at 09:xx and 14:xx; set B ES at 10:xx and NQ at 09:xx twice.
  const a = createTradeSet([trade(15_000, 'NQ', '09:35'), trade(-6_000, 'NQ', '14:10')]);
  const b = createTradeSet([trade(2_500, 'ES', '10:05'), trade(-1_000, 'NQ', '09:40'), trade(4_000, 'NQ', '09:55')]);

  it('puts the hours of both sets in clock order, each set’s own row in its column and none where it did not trade', () => {
    const sets = [computeBreakdown(a, 'hour', { timeZone: NY }), computeBreakdown(b, 'hour', { timeZone: NY })];
    const rows = alignBreakdowns('hour', sets);
    expect(rows.map((r) => r.key)).toEqual(['9', '10', '14']);
    expect(rows.map((r) => r.sets.map((cell) => cell && [cell.trades, cell.netCents]))).toEqual([
      [
        [1, 15_000],
        [2, 3_000],
      ],
      [null, [1, 2_500]],
      [[1, -6_000], null],
    ]);
    // The cells are the sets' own rows, not copies worked out again.
    expect(rows[0]!.sets[1]).toBe(sets[1]!.rows.find((r) => r.key === '9'));
  });

  it('orders instruments by their trades in all the sets together', () => {
    const rows = alignBreakdowns('instrument', [
      computeBreakdown(a, 'instrument', { timeZone: NY }),
      computeBreakdown(b, 'instrument', { timeZone: NY }),
    ]);
    expect(rows.map((r) => [r.key, r.trades])).toEqual([
      ['NQ', 4],
      ['ES', 1],
    ]);
  });
});
