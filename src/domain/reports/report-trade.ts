import type { Cents } from '../cents';
import { parseCalendarDay, type CalendarDay } from '../dates/calendar-day';
import type { FilterableTrade, ReportFilter, ResolvedRange, TradeClock } from './filter';
import { matchesReportFilter } from './filter';
import { getHourOfInstant } from './zone-clock';

/**
 * A trade as every report reads it: the stored columns a report needs, money in integer cents, times as epoch
 * milliseconds. Reports take their trades in the trading order (day, entry, exit, creation, id), which the server
 * reads them in; every order-dependent figure (streaks, equity by trade, drawdown and its dates) relies on it.
 */
export interface ReportTrade extends FilterableTrade {
  id: string;
  /** ISO weekday of the trading day, 1 = Monday. */
  weekday: number;
  /** Net of commission. */
  pnlCents: Cents;
  /** Absolute. */
  commissionCents: Cents;
  entryMs: number | null;
  exitMs: number | null;
  /** Exit minus entry; null without both times (or an exit before the entry, which no report can place). */
  holdSeconds: number | null;
}

export type ReportTradeInput = Omit<ReportTrade, 'weekday' | 'holdSeconds'>;

/** ISO weekday (Monday 1 ... Sunday 7) of a calendar day. */
export function getIsoWeekday(day: CalendarDay): number {
  const parts = parseCalendarDay(day);
  if (!parts) throw new RangeError(`Not a calendar day (yyyy-MM-dd): ${day}`);
  const sunday0 = new Date(Date.UTC(parts.year, parts.month - 1, parts.day)).getUTCDay();
  return sunday0 === 0 ? 7 : sunday0;
}

export function getHoldSeconds(entryMs: number | null, exitMs: number | null): number | null {
  if (entryMs === null || exitMs === null || exitMs < entryMs) return null;
  return Math.round((exitMs - entryMs) / 1000);
}

export function createReportTrade(input: ReportTradeInput): ReportTrade {
  return {
    ...input,
    weekday: getIsoWeekday(input.tradeDate),
    holdSeconds: getHoldSeconds(input.entryMs, input.exitMs),
  };
}

/** Hour of entry in the trader's zone (issue 26: hour buckets are the trader's clock); null without an entry time. */
export function getEntryHour(trade: Pick<ReportTrade, 'entryMs'>, timeZone: string): number | null {
  return trade.entryMs === null ? null : getHourOfInstant(trade.entryMs, timeZone);
}

export function getTradeClock(trade: ReportTrade, timeZone: string): TradeClock {
  return { weekday: trade.weekday, entryHour: getEntryHour(trade, timeZone), holdSeconds: trade.holdSeconds };
}

/** The trades of a filter, keeping their (trading) order. */
export function selectReportTrades(
  trades: readonly ReportTrade[],
  filter: ReportFilter,
  range: ResolvedRange,
  timeZone: string,
): ReportTrade[] {
  const needsHour = filter.hour.length > 0;
  const selected: ReportTrade[] = [];
  for (const trade of trades) {
    const clock: TradeClock = {
      weekday: trade.weekday,
      entryHour: needsHour ? getEntryHour(trade, timeZone) : null,
      holdSeconds: trade.holdSeconds,
    };
    if (matchesReportFilter(trade, clock, filter, range)) selected.push(trade);
  }
  return selected;
}
