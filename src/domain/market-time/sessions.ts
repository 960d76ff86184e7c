import { getHourInZone, type InstantInput } from '../dates/clock';

export type Session = 'AM' | 'Lunch' | 'PM' | 'After Hours' | 'Overnight';

/**
 * The session from the hour alone: before 12 AM, 12 to 14 Lunch, 14 to 20 PM, otherwise Overnight, read as
 * hour < 12 -> AM, 12 <= hour < 14 -> Lunch, 14 <= hour < 20 -> PM, hour >= 20 -> Overnight. Futures follow the
 * exchange's clock instead (deriveExchangeSession); this rule stays for stocks and spot crypto, which have no
 * overnight session of their own.
 */
export function deriveSessionFromHour(hour: number): Session {
  if (hour < 12) return 'AM';
  if (hour < 14) return 'Lunch';
  if (hour < 20) return 'PM';
  return 'Overnight';
}

/** Minutes after midnight, New York time, where each exchange session starts. */
const CASH_OPEN = 9 * 60 + 30;
const LUNCH = 12 * 60;
const AFTERNOON = 14 * 60;
const CASH_CLOSE = 16 * 60;
const GLOBEX_OPEN = 18 * 60;

/**
 * The session of a futures trade by the exchange's clock, from the New York wall-clock time of its entry: Overnight
 * 18:00-09:30, AM 09:30-12:00, Lunch 12:00-14:00, PM 14:00-16:00, After Hours 16:00-18:00. Each boundary belongs to the
 * later session (09:30 is AM, 16:00 After Hours, 18:00 Overnight). An entry at 02:15 is the overnight session, not the
 * morning beside the 09:30 open.
 */
export function deriveExchangeSession(hour: number, minute: number): Session {
  const at = hour * 60 + minute;
  if (at >= GLOBEX_OPEN || at < CASH_OPEN) return 'Overnight';
  if (at < LUNCH) return 'AM';
  if (at < AFTERNOON) return 'Lunch';
  if (at < CASH_CLOSE) return 'PM';
  return 'After Hours';
}

/** The session of a wall-clock time in the market zone: the exchange's for futures, the hour's rule for the rest. */
export function sessionOf(hour: number, minute: number, futures: boolean): Session {
  return futures ? deriveExchangeSession(hour, minute) : deriveSessionFromHour(hour);
}

/** Session of a fill or entry timestamp (with offset) in the user's zone; null if the timestamp is unreadable. */
export function deriveSessionAt(instant: InstantInput, timeZone: string): Session | null {
  const hour = getHourInZone(instant, timeZone);
  return hour === null ? null : deriveSessionFromHour(hour);
}
