import type { MentorView } from '../../../contract/mentors';

/** How the trader's clock shows an instant: its trading-zone day (yyyy-MM-dd) and a short date for other days. */
export interface ViewClock {
  today: string;
  dayOf(instant: string): string;
  label(instant: string): string;
}

/**
 * The new views in words, one line per mentor from their latest read: "Alex viewed your journal today", or "... on
 * Mar 3" for an earlier day, in the trader's zone. Mentors in the order of their latest read.
 */
export function newViewLines(views: readonly MentorView[], clock: ViewClock): string[] {
  const latest = new Map<string, MentorView>();
  for (const view of views) {
    if (!view.new) continue;
    const known = latest.get(view.mentor_id);
    if (!known || view.last_seen_at > known.last_seen_at) latest.set(view.mentor_id, view);
  }
  return [...latest.values()]
    .sort((a, b) => (a.last_seen_at < b.last_seen_at ? 1 : a.last_seen_at > b.last_seen_at ? -1 : 0))
    .map(
      (v) => `${v.mentor_name} viewed your journal ${clock.dayOf(v.last_seen_at) === clock.today ? 'today' : `on ${clock.label(v.last_seen_at)}`}`,
    );
}

/** The header's one count and its words: the new comments, then who viewed. */
export function notificationsLabel(newComments: number, viewLines: readonly string[]): string {
  const parts = newComments > 0 ? [`${newComments} new comment${newComments === 1 ? '' : 's'} from your mentors`] : [];
  return [...parts, ...viewLines].join('; ');
}
