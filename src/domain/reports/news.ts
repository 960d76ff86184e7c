/**
 * Trades taken near high-impact news. Several prop firms forbid trading within minutes of a high-impact USD release, so
 * a trader filters their trades by how far the entry lay from one. The events come in as instants (milliseconds since
 * the epoch, UTC): no zone or daylight saving plays a part.
 */

/** The minutes either side of an event a filter may ask for. */
export const NEWS_WINDOWS = [5, 15, 30, 60] as const;
export type NewsWindow = (typeof NEWS_WINDOWS)[number];

/** 'near': entries within the window of an event; 'away': entries outside every event's window. */
export const NEWS_MODES = ['near', 'away'] as const;
export type NewsMode = (typeof NEWS_MODES)[number];

/** Event instants sorted ascending, for `isNearEvent`'s binary search. */
export function sortEventInstants(instants: Iterable<number>): Float64Array {
  return Float64Array.from(instants).sort();
}

/**
 * Whether `at` lies within `windowMs` of one of `events` (sorted ascending), both ends included: an entry exactly N
 * minutes before or after an event is near it, one millisecond more is not. The first event at or after
 * `at - windowMs` is the only one that can be near: any earlier one is too early, and if this one is too late, so are
 * the rest.
 */
export function isNearEvent(events: ArrayLike<number>, at: number, windowMs: number): boolean {
  const from = at - windowMs;
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (events[mid]! < from) lo = mid + 1;
    else hi = mid;
  }
  return lo < events.length && events[lo]! <= at + windowMs;
}
