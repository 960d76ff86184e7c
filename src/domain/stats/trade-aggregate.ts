import type { Cents } from '../cents';
import type { CalendarDay } from '../dates/calendar-day';
import { getDayFromTradeDate } from '../dates/trade-date';

/**
 * The least a statistic needs from a trade. `tradeDate` is the trading day 'yyyy-MM-dd' (use `getDayFromTradeDate`
 * on a stored 12:00 UTC timestamp); `pnlCents` is NET of commission, as stored. The times and the id only order the
 * trades of one day (streaks), in the trading order (src/domain/trades/trading-order.ts).
 */
export interface StatTrade {
  tradeDate: CalendarDay;
  status: string;
  pnlCents: Cents;
  entryTime?: string | null;
  exitTime?: string | null;
  createdAt?: string;
  id?: string;
}

/**
 * Counts and sums that merge by addition, so the server can compute the same numbers from SQL rows grouped by day
 * and the domain can combine them (`combineStats`). Per day, in SQL:
 *
 *   select (trade_date at time zone 'UTC')::date as date,
 *          count(*)                                  as trades,
 *          count(*) filter (where status = 'Win')    as wins,
 *          count(*) filter (where status = 'Loss')   as losses,
 *          count(*) filter (where status = 'BE')     as break_evens,
 *          coalesce(sum(pnl), 0)                     as pnl,
 *          coalesce(sum(pnl) filter (where pnl > 0), 0) as gross_profit,
 *          coalesce(sum(pnl) filter (where pnl < 0), 0) as gross_loss
 *   from trades where user_id = $1 group by 1
 *
 * (pnl columns converted to cents with `toCents`). Counts follow the stored status; profit and loss follow the sign
 * of the net pnl, which is the same thing for every trade saved through `normalizeTradeInput`.
 */
export interface TradeAggregate {
  trades: number;
  wins: number;
  losses: number;
  breakEvens: number;
  pnlCents: Cents;
  /** Sum of positive net pnl (>= 0). */
  grossProfitCents: Cents;
  /** Sum of negative net pnl (<= 0). */
  grossLossCents: Cents;
}

export interface DailyAggregate extends TradeAggregate {
  date: CalendarDay;
}

export function createEmptyAggregate(): TradeAggregate {
  return { trades: 0, wins: 0, losses: 0, breakEvens: 0, pnlCents: 0, grossProfitCents: 0, grossLossCents: 0 };
}

function addTrade(into: TradeAggregate, trade: Pick<StatTrade, 'status' | 'pnlCents'>): void {
  into.trades += 1;
  if (trade.status === 'Win') into.wins += 1;
  else if (trade.status === 'Loss') into.losses += 1;
  else if (trade.status === 'BE') into.breakEvens += 1;
  into.pnlCents += trade.pnlCents;
  if (trade.pnlCents > 0) into.grossProfitCents += trade.pnlCents;
  else if (trade.pnlCents < 0) into.grossLossCents += trade.pnlCents;
}

export function aggregateTrades(trades: Iterable<Pick<StatTrade, 'status' | 'pnlCents'>>): TradeAggregate {
  const total = createEmptyAggregate();
  for (const trade of trades) addTrade(total, trade);
  return total;
}

/** Sums aggregates (per day, per account, per SQL row); the result equals `aggregateTrades` over all their trades. */
export function combineStats(aggregates: Iterable<TradeAggregate>): TradeAggregate {
  const total = createEmptyAggregate();
  for (const part of aggregates) {
    total.trades += part.trades;
    total.wins += part.wins;
    total.losses += part.losses;
    total.breakEvens += part.breakEvens;
    total.pnlCents += part.pnlCents;
    total.grossProfitCents += part.grossProfitCents;
    total.grossLossCents += part.grossLossCents;
  }
  return total;
}

/** One aggregate per trading day, in ascending date order. */
export function aggregateTradesByDay(trades: Iterable<Pick<StatTrade, 'tradeDate' | 'status' | 'pnlCents'>>): DailyAggregate[] {
  const byDay = new Map<CalendarDay, DailyAggregate>();
  for (const trade of trades) {
    let day = byDay.get(trade.tradeDate);
    if (!day) {
      day = { date: trade.tradeDate, ...createEmptyAggregate() };
      byDay.set(trade.tradeDate, day);
    }
    addTrade(day, trade);
  }
  return [...byDay.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/** A stored trade (trade_date at 12:00 UTC) as a StatTrade; null when the date cannot be read. */
export function toStatTrade(
  trade: Pick<StatTrade, 'status' | 'pnlCents' | 'entryTime' | 'exitTime' | 'createdAt' | 'id'> & { tradeDate: string },
): StatTrade | null {
  const day = getDayFromTradeDate(trade.tradeDate);
  if (!day) return null;
  const stat: StatTrade = { tradeDate: day, status: trade.status, pnlCents: trade.pnlCents };
  if (trade.entryTime !== undefined) stat.entryTime = trade.entryTime;
  if (trade.exitTime !== undefined) stat.exitTime = trade.exitTime;
  if (trade.createdAt !== undefined) stat.createdAt = trade.createdAt;
  if (trade.id !== undefined) stat.id = trade.id;
  return stat;
}
