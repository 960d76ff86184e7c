import { getHourInZone } from '../dates/time-zone';

export type DerivedSession = 'AM' | 'Lunch' | 'PM' | 'Overnight';

/**
 * The one session rule of Edgebook (manual trades here, imported trades through src/domain/importers/market-time.ts).
 * Spec part 1 §9 "Session from hour: before 12 AM, 12 to 14 Lunch, 14 to 20 PM, otherwise Overnight", read as:
 * hour < 12 -> AM, 12 <= hour < 14 -> Lunch, 14 <= hour < 20 -> PM, hour >= 20 -> Overnight (12:00 is Lunch, 14:00 is
 * PM, 20:00 is Overnight). Part 2 §7's "AM or PM derived from the time" is the older two-value form of the same rule;
 * part 1's four values are the table-level fallback sessions of part 2 §3 (AM, Lunch, PM, Overnight), so that is the
 * rule we apply. Taken literally as the spec writes it, 03:00 is AM, not Overnight.
 */
export function deriveSessionFromHour(hour: number): DerivedSession {
  if (hour < 12) return 'AM';
  if (hour < 14) return 'Lunch';
  if (hour < 20) return 'PM';
  return 'Overnight';
}

/** Session of a fill or entry timestamp (with offset) in the user's zone; null if the timestamp is unreadable. */
export function deriveSessionAt(instant: Date | string, timeZone: string): DerivedSession | null {
  const hour = getHourInZone(instant, timeZone);
  return hour === null ? null : deriveSessionFromHour(hour);
}
