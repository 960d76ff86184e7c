import { getHourInZone } from '../dates/time-zone';

export type DerivedSession = 'AM' | 'Lunch' | 'PM' | 'Overnight';

/**
 * Spec part 1 §9: before 12 is AM, 12 to 14 Lunch, 14 to 20 PM, otherwise Overnight. Bounds are [12, 14) and
 * [14, 20): 12:00 is Lunch, 14:00 is PM, 20:00 is Overnight. The hour is in the user's time zone.
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
