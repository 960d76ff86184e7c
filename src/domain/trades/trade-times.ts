import { formatInZone, getTradingDayInZone, type CalendarDay } from '../dates';
import { formatDay } from '../dates/calendar-day';
import { toCents, type Cents } from '../cents';
import { trimDecimalZeros } from '../money';
import { toGrossPnlCents } from './trade-form';

/**
 * An execution time as the Trade Log, the day dialog and the journal show it: 'HH:mm:ss' in the trader's
 * zone, with the date in front ('Mar 8 18:05:10') when that falls on another day than the trade's trading day (a
 * CME entry after 18:00 New York counts for the next day; an overnight hold exits on another). Null without a time.
 */
export function formatExecutionTime(instant: string | null | undefined, timeZone: string, tradingDay?: CalendarDay): string | null {
  if (!instant) return null;
  const time = formatInZone(instant, timeZone, 'HH:mm:ss');
  const day = getTradingDayInZone(instant, timeZone);
  if (time === null || day === null) return null;
  return tradingDay === undefined || day === tradingDay ? time : `${formatDay(day, 'MMM d')} ${time}`;
}

/** A stored quantity as typed: '3.00000000' -> '3', '0.50000000' -> '0.5'. Null without one. */
export function formatQuantity(quantity: string | null | undefined): string | null {
  if (quantity === null || quantity === undefined || quantity === '') return null;
  return trimDecimalZeros(quantity);
}

/**
 * The pnl before fees. Imports store it (gross_pnl); for a trade typed by hand it is the form's "PnL (before
 * commission)", the stored net plus the commission: exact either way.
 */
export function grossPnlCentsOf(trade: { pnl: string; commission: string; gross_pnl: string | null }): Cents {
  return trade.gross_pnl !== null ? toCents(trade.gross_pnl) : toGrossPnlCents(toCents(trade.pnl), toCents(trade.commission));
}
