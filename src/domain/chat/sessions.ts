import { addDays } from '../dates/calendar-day';
import { getTodayInZone, getTradingDayInZone } from '../dates/clock';

/** The ReflectAI page's greeting: Good morning before 12, afternoon before 17, else evening. */
export function chatGreeting(hour: number): 'Good morning' | 'Good afternoon' | 'Good evening' {
  if (hour < 12) return 'Good morning';
  if (hour < 17) return 'Good afternoon';
  return 'Good evening';
}

export type SessionGroupLabel = 'Today' | 'Yesterday' | 'Older';

/**
 * The Chat History dialog groups sessions Today / Yesterday / Older by their last
 * activity, in the trader's zone. Empty groups are left out; order within a group is kept.
 */
export function groupChatSessions<T extends { updatedAt: string }>(
  sessions: readonly T[],
  now: Date,
  timeZone: string,
): Array<{ label: SessionGroupLabel; sessions: T[] }> {
  const today = getTodayInZone(now, timeZone);
  const yesterday = addDays(today, -1);
  const groups: Record<SessionGroupLabel, T[]> = { Today: [], Yesterday: [], Older: [] };
  for (const session of sessions) {
    const day = getTradingDayInZone(session.updatedAt, timeZone);
    groups[day === today ? 'Today' : day === yesterday ? 'Yesterday' : 'Older'].push(session);
  }
  return (['Today', 'Yesterday', 'Older'] as const).filter((label) => groups[label].length > 0).map((label) => ({ label, sessions: groups[label] }));
}
