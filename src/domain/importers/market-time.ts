import { deriveSessionFromHour } from '../trades/sessions';
import { wallClockOf } from './time-zone';
import type { Session } from './types';

/**
 * Day, week and session of an imported trade come from the exchange-local time of its entry (issue 4). The futures we
 * import trade on CME Globex, whose clock is Chicago, but US traders, the spec's session names (AM, Lunch, PM) and the
 * cash session they describe (9:30-16:00) all speak New York time, so New York is the market clock. The server may
 * pass another zone (e.g. for a trader of European index futures).
 */
export const MARKET_TIME_ZONE = 'America/New_York';

/** Default zone for naive times in a file until the trader picks theirs in the import dialog. */
export const DEFAULT_FILE_TIME_ZONE = 'America/New_York';

/**
 * The session rule (spec part 1 §9) lives in src/domain/trades/sessions.ts, so that manual trades and imported trades
 * cannot drift apart; imported trades apply it to the entry hour in the market zone.
 */
export const sessionFromHour: (hour: number) => Session = deriveSessionFromHour;

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export interface MarketDay {
  /** yyyy-MM-dd */
  tradingDay: string;
  dayOfWeek: string;
  /** The trading day at 12:00 UTC (spec part 2 §9: "Trade date stored at 12:00 UTC"). */
  tradeDate: string;
  session: Session;
}

/**
 * The calendar day of the instant in the market zone. This is the calendar day, not CME's session date: an entry at
 * 19:00 New York time on Monday is Monday's trade (TopstepX would file it under Tuesday's TradeDay), as the spec
 * derives day and session from the time itself.
 */
export function marketDayOf(epochMs: number, marketTimeZone: string = MARKET_TIME_ZONE): MarketDay {
  const local = wallClockOf(epochMs, marketTimeZone);
  const tradingDay = `${String(local.year).padStart(4, '0')}-${pad(local.month)}-${pad(local.day)}`;
  return { ...dayFromString(tradingDay)!, session: sessionFromHour(local.hour) };
}

/** For trades that carry a day but no time (generic P&L): day of week and trade date of a yyyy-MM-dd day. */
export function dayFromString(tradingDay: string): Omit<MarketDay, 'session'> | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(tradingDay);
  if (!match) return null;
  const noon = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 12);
  const date = new Date(noon);
  return { tradingDay, dayOfWeek: WEEKDAYS[date.getUTCDay()]!, tradeDate: date.toISOString() };
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}
