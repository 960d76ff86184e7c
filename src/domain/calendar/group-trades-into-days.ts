import type { Cents } from '../money';
import { resolveTradeDay } from '../dates/trade-date';
import { aggregateTradesByDay, type DailyAggregate } from '../stats/trade-aggregate';

export interface DatedTrade {
  /**
   * 'yyyy-MM-dd', a stored 12:00 UTC trade_date, a timestamp with an offset (an import's fill or exit time) or a
   * Date. Timestamps are placed on the day they fall on in the user's zone.
   */
  date: unknown;
  status: string;
  pnlCents: Cents | null;
}

/**
 * Trades into per-day aggregates for the calendar, in the user's time zone (DESIGN: each user has a zone). Trades
 * without a readable date or with a null pnl are left out.
 */
export function groupTradesIntoDays(trades: Iterable<DatedTrade>, timeZone: string): DailyAggregate[] {
  const dated: { tradeDate: string; status: string; pnlCents: Cents }[] = [];
  for (const trade of trades) {
    if (trade.pnlCents === null || !Number.isFinite(trade.pnlCents)) continue;
    const day = resolveTradeDay(trade.date, timeZone);
    if (day) dated.push({ tradeDate: day, status: trade.status, pnlCents: trade.pnlCents });
  }
  return aggregateTradesByDay(dated);
}
