import { compareTradingOrder } from '../trades/trading-order';
import type { StatTrade } from './trade-aggregate';

export interface Streaks {
  maxWinStreak: number;
  maxLossStreak: number;
  /** The run the trader is on now (last trades); BE or an empty list gives { result: null, length: 0 }. */
  current: { result: 'Win' | 'Loss' | null; length: number };
}

/**
 * Longest runs of consecutive Wins and Losses over results in chronological order. A BE (or any other status)
 * ends both runs: "consecutive" means nothing in between.
 */
export function calculateStreaks(results: Iterable<string>): Streaks {
  let maxWinStreak = 0;
  let maxLossStreak = 0;
  let runResult: 'Win' | 'Loss' | null = null;
  let runLength = 0;
  for (const result of results) {
    if (result === 'Win' || result === 'Loss') {
      runLength = result === runResult ? runLength + 1 : 1;
      runResult = result;
      if (result === 'Win') maxWinStreak = Math.max(maxWinStreak, runLength);
      else maxLossStreak = Math.max(maxLossStreak, runLength);
    } else {
      runResult = null;
      runLength = 0;
    }
  }
  return { maxWinStreak, maxLossStreak, current: { result: runResult, length: runLength } };
}

/**
 * Oldest first in the trading order (src/domain/trades/trading-order.ts): day, entry, exit, creation, id; keys a trade
 * lacks keep the input order (stable). The API lists trades newest first, so streaks must not read that order.
 */
export function sortTradesChronologically<T extends Pick<StatTrade, 'tradeDate' | 'createdAt' | 'entryTime' | 'exitTime' | 'id'>>(
  trades: Iterable<T>,
): T[] {
  return [...trades].sort(compareTradingOrder);
}

export function calculateTradeStreaks(
  trades: Iterable<Pick<StatTrade, 'tradeDate' | 'status' | 'createdAt' | 'entryTime' | 'exitTime' | 'id'>>,
): Streaks {
  return calculateStreaks(sortTradesChronologically(trades).map((trade) => trade.status));
}
