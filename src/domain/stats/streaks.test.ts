import { describe, expect, it } from 'vitest';
import { calculateStreaks, calculateTradeStreaks } from './streaks';

describe('win and loss streaks', () => {
  it('W W L L L BE W: longest win run 2, loss run 3, on a 1-win run now', () => {
    expect(calculateStreaks(['Win', 'Win', 'Loss', 'Loss', 'Loss', 'BE', 'Win'])).toEqual({
      maxWinStreak: 2,
      maxLossStreak: 3,
      current: { result: 'Win', length: 1 },
    });
  });

  it('a BE between wins ends the run: W W BE W W W is a max of 3', () => {
    expect(calculateStreaks(['Win', 'Win', 'BE', 'Win', 'Win', 'Win']).maxWinStreak).toBe(3);
  });

  it('no trades: zeros and no current run', () => {
    expect(calculateStreaks([])).toEqual({ maxWinStreak: 0, maxLossStreak: 0, current: { result: null, length: 0 } });
  });

  it('reads API order (newest first) chronologically: 4 losses from 03-02 to 03-05 then 2 wins', () => {
    const newestFirst = [
      { tradeDate: '2026-03-06', status: 'Win', createdAt: '2026-03-06T15:10:00Z' },
      { tradeDate: '2026-03-06', status: 'Win', createdAt: '2026-03-06T14:40:00Z' },
      { tradeDate: '2026-03-05', status: 'Loss' },
      { tradeDate: '2026-03-04', status: 'Loss' },
      { tradeDate: '2026-03-03', status: 'Loss' },
      { tradeDate: '2026-03-02', status: 'Loss' },
    ];
    expect(calculateTradeStreaks(newestFirst)).toEqual({ maxWinStreak: 2, maxLossStreak: 4, current: { result: 'Win', length: 2 } });
  });

  it('orders same-day trades by createdAt: L at 10:00 then W at 11:00 ends on a win', () => {
    const trades = [
      { tradeDate: '2026-03-06', status: 'Win', createdAt: '2026-03-06T16:00:00Z' },
      { tradeDate: '2026-03-06', status: 'Loss', createdAt: '2026-03-06T15:00:00Z' },
    ];
    expect(calculateTradeStreaks(trades).current).toEqual({ result: 'Win', length: 1 });
  });
});
