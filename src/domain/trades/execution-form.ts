import { addDays, parseCalendarDay, type CalendarDay } from '../dates/calendar-day';
import { getZoneAbbreviation, wallClockOf, wallClockToInstant } from '../dates/clock';
import { computeRoundTripPnlCents, getFuturesRoot, isFuturesInstrument, POINT_VALUES } from '../instruments';
import { parseDecimal, type Cents } from '../money';
import type { TradeSide } from './side';

/**
 * The Add/Edit Trade dialog's execution and plan: side, quantity, prices, entry and exit times on the
 * trader's clock, and a stop price or a dollar risk with a target. The boxes hold text as typed; this module says
 * what it becomes on the wire and what the prices make.
 */
export type RiskKind = 'stop' | 'amount';

export interface ExecutionFormValues {
  side: TradeSide | null;
  quantity: string;
  entryPrice: string;
  exitPrice: string;
  /** 'HH:mm' on the trader's clock, '' for none. */
  entryTime: string;
  exitTime: string;
  riskKind: RiskKind;
  stopPrice: string;
  riskAmount: string;
  targetPrice: string;
}

export const EMPTY_EXECUTION_FORM: ExecutionFormValues = Object.freeze({
  side: null,
  quantity: '',
  entryPrice: '',
  exitPrice: '',
  entryTime: '',
  exitTime: '',
  riskKind: 'stop',
  stopPrice: '',
  riskAmount: '',
  targetPrice: '',
}) as ExecutionFormValues;

/** A stored trade's execution and plan as the API gives them. */
export interface StoredExecution {
  side: TradeSide | null;
  quantity: string | null;
  entry_price: string | null;
  exit_price: string | null;
  entry_time: string | null;
  exit_time: string | null;
  stop_price: string | null;
  risk_amount: string | null;
  target_price: string | null;
}

/** '18250.25000000' -> '18250.25': what a trader would have typed. */
function trimDecimal(value: string | null): string {
  if (value === null) return '';
  const parsed = parseDecimal(value);
  return parsed ? parsed.toFixed() : value;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as 'HH:mm' on the trader's clock. */
export function formatClockTime(instant: string, timeZone: string): string {
  const wall = wallClockOf(Date.parse(instant), timeZone);
  return `${pad(wall.hour)}:${pad(wall.minute)}`;
}

/** The trader's calendar day of an instant. */
export function getClockDay(instant: string, timeZone: string): CalendarDay {
  const wall = wallClockOf(Date.parse(instant), timeZone);
  return `${String(wall.year).padStart(4, '0')}-${pad(wall.month)}-${pad(wall.day)}`;
}

export function createExecutionForm(trade: StoredExecution, timeZone: string): ExecutionFormValues {
  return {
    side: trade.side,
    quantity: trimDecimal(trade.quantity),
    entryPrice: trimDecimal(trade.entry_price),
    exitPrice: trimDecimal(trade.exit_price),
    entryTime: trade.entry_time ? formatClockTime(trade.entry_time, timeZone) : '',
    exitTime: trade.exit_time ? formatClockTime(trade.exit_time, timeZone) : '',
    riskKind: trade.risk_amount !== null ? 'amount' : 'stop',
    stopPrice: trimDecimal(trade.stop_price),
    riskAmount: trimDecimal(trade.risk_amount),
    targetPrice: trimDecimal(trade.target_price),
  };
}

const CLOCK = /^([01]?\d|2[0-3]):([0-5]\d)$/;

/** 'HH:mm' on a day in a zone as an ISO instant, or null for no time or one that is not a time. */
export function toInstantOnDay(day: CalendarDay, time: string, timeZone: string): string | null {
  const clock = CLOCK.exec(time.trim());
  const parts = parseCalendarDay(day);
  if (!clock || !parts) return null;
  const wall = new Date(0);
  wall.setUTCFullYear(parts.year, parts.month - 1, parts.day);
  wall.setUTCHours(Number(clock[1]), Number(clock[2]), 0, 0);
  return new Date(wallClockToInstant(wall.getTime(), timeZone)).toISOString();
}

/**
 * The entry and exit instants of typed times. The entry is on `entryDay` (the trade's date for a new trade, the day
 * the stored entry was on when editing: an overnight session's 18:30 entry belongs to the evening before its trading
 * day); an exit earlier on the clock than the entry is the next day (a trade held over midnight).
 */
export function toExecutionTimes(
  values: Pick<ExecutionFormValues, 'entryTime' | 'exitTime'>,
  entryDay: CalendarDay,
  timeZone: string,
): { entry_time: string | null; exit_time: string | null } {
  const entry = toInstantOnDay(entryDay, values.entryTime, timeZone);
  let exit = toInstantOnDay(entryDay, values.exitTime, timeZone);
  if (entry && exit && exit < entry) exit = toInstantOnDay(addDays(entryDay, 1), values.exitTime, timeZone);
  return { entry_time: entry, exit_time: exit };
}

/** Whether a typed time is empty or a time ('9:30', '14:05'). */
export const isClockTime = (text: string) => text.trim() === '' || CLOCK.test(text.trim());

/**
 * The zone's name beside the typed times: the trader's zone at the entry on the trade's day (EDT for a June trade, EST
 * for a January one, whatever today is), at the day's noon while no time is typed; null without a day.
 */
export function zoneNameOfEntry(day: string, entryTime: string, timeZone: string): string | null {
  if (!parseCalendarDay(day)) return null;
  const at = toInstantOnDay(day, CLOCK.test(entryTime.trim()) ? entryTime : '12:00', timeZone);
  return at === null ? null : getZoneAbbreviation(at, timeZone);
}

/** The API's execution and plan fields of the form: blanks clear, the plan not chosen is cleared. */
export function toExecutionInput(values: ExecutionFormValues) {
  const text = (value: string) => (value.trim() === '' ? null : value.trim().replace(/,/g, ''));
  return {
    side: values.side,
    quantity: text(values.quantity),
    entry_price: text(values.entryPrice),
    exit_price: text(values.exitPrice),
    stop_price: values.riskKind === 'stop' ? text(values.stopPrice) : null,
    risk_amount: values.riskKind === 'amount' ? text(values.riskAmount) : null,
    target_price: text(values.targetPrice),
  };
}

/** A futures instrument whose point value we know (NQ, MESZ5): its P&L follows from prices and size. */
export function isKnownFutures(symbol: string): boolean {
  return isFuturesInstrument(symbol) && POINT_VALUES[getFuturesRoot(symbol)] !== undefined;
}

/**
 * The P&L before commission the prices make, for a known futures instrument with a side, both prices and a size; null
 * otherwise (the trader types it). NQ long 2 from 18250.25 to 18271.50 makes 21.25 x 2 x $20 = $850.00.
 */
export function computeFormGrossCents(
  symbol: string,
  values: Pick<ExecutionFormValues, 'side' | 'quantity' | 'entryPrice' | 'exitPrice'>,
): Cents | null {
  if (!values.side || !isKnownFutures(symbol)) return null;
  const quantity = parseDecimal(values.quantity.replace(/,/g, ''));
  const entry = parseDecimal(values.entryPrice.replace(/,/g, ''));
  const exit = parseDecimal(values.exitPrice.replace(/,/g, ''));
  if (!quantity || !entry || !exit || quantity.lte(0)) return null;
  return computeRoundTripPnlCents({
    side: values.side,
    entryPrice: entry.toFixed(),
    exitPrice: exit.toFixed(),
    quantity: quantity.toFixed(),
    symbol,
  });
}
