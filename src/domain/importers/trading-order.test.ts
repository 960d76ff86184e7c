import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { summarizeTrades, type StatTrade } from '../stats';
import { sortByTradingOrder } from '../trades';
import { parseImport } from './index';
import { expectPreview } from './testing';

const own = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

/**
 * Fixtures/trading-order-day.csv is one trading day (Tuesday 10 June 2025, New York times) of 14
 * round trips (13 MNQ, one MES) whose results alternate Loss, Win, Loss ... in the order they were entered, listed in
 * the file in another order; two share an entry time (10:30, MNQ and MES) and are told apart by their exits. In the
 * trading order there is no streak longer than one, and the day ends on a win.
 */
describe('a day of alternating wins and losses, read in the trading order', () => {
  const preview = expectPreview(parseImport(own('trading-order-day.csv'), { timeZone: 'America/New_York' }));
  const stats: StatTrade[] = preview.trades.map((t) => ({
    tradeDate: t.tradingDay,
    status: t.result,
    pnlCents: t.netPnl,
    entryTime: t.entryTime,
    exitTime: t.exitTime,
  }));

  it('the file lists the trades out of their entry order', () => {
    expect(preview.trades).toHaveLength(14);
    expect(new Set(preview.trades.map((t) => t.tradingDay))).toEqual(new Set(['2025-06-10']));
    const entries = own('trading-order-day.csv')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',')[10]!);
    expect(entries).toHaveLength(14);
    expect(entries).not.toEqual([...entries].sort());
  });

  it('in the trading order the results alternate, starting with the 02:15 loss and ending with the 16:30 win', () => {
    const ordered = sortByTradingOrder(stats);
    expect(ordered.map((t) => t.status)).toEqual(Array.from({ length: 14 }, (_, i) => (i % 2 === 0 ? 'Loss' : 'Win')));
    // 10:30 -> 10:31 (win) before 10:30 -> 10:45 (loss): the exit breaks the tie.
    expect(ordered.slice(5, 7).map((t) => [t.entryTime, t.exitTime, t.status])).toEqual([
      ['2025-06-10T14:30:00.000Z', '2025-06-10T14:31:00.000Z', 'Win'],
      ['2025-06-10T14:30:00.000Z', '2025-06-10T14:45:00.000Z', 'Loss'],
    ]);
  });

  it('streaks, the current streak and the score come from the trading order, not from the file order', () => {
    const summary = summarizeTrades(stats);
    expect(summary.streaks).toEqual({ maxWinStreak: 1, maxLossStreak: 1, current: { result: 'Win', length: 1 } });
    // Read in the file's order (the rows' order, as stored: what an order without the entry time can give), the same
    // trades make other streaks.
    const byRow = preview.trades.map((t, i) => ({ row: t.rows[0]!, stat: stats[i]! })).sort((a, b) => a.row - b.row);
    const fileOrder = summarizeTrades(byRow.map(({ stat: { tradeDate, status, pnlCents } }) => ({ tradeDate, status, pnlCents })));
    expect(fileOrder.streaks).not.toEqual(summary.streaks);
    expect(fileOrder.score.consistency).not.toBe(summary.score.consistency);
  });

  it("labels each trade with the exchange's session of its entry", () => {
    const sessions = sortByTradingOrder(preview.trades.map((t) => ({ ...t, tradeDate: t.tradingDay }))).map((t) => t.session);
    expect(sessions).toEqual(['Overnight', 'AM', 'AM', 'AM', 'AM', 'AM', 'AM', 'AM', 'Lunch', 'Lunch', 'PM', 'PM', 'PM', 'After Hours']);
  });
});
