import { z } from 'zod';

/** GET /api/economic-calendar: the week's economic events from the configured feed, or word that there is none. */

/** The words the dashboard's card shows when the calendar cannot be read. */
export const ECONOMIC_CALENDAR_ERROR = 'Failed to fetch economic calendar data';

export const economicImpact = z.enum(['high', 'medium', 'low', 'holiday', 'none']);
export type EconomicImpact = z.infer<typeof economicImpact>;

export const economicCalendarEvent = z.object({
  id: z.string(),
  title: z.string(),
  /** The currency the event moves ('USD', 'EUR', ...), as the feed names it. */
  country: z.string(),
  /** When it is released, an ISO instant with its offset. */
  at: z.string(),
  impact: economicImpact,
  forecast: z.string(),
  previous: z.string(),
});
export type EconomicCalendarEvent = z.infer<typeof economicCalendarEvent>;

export const economicCalendarResponse = z.discriminatedUnion('source', [
  /** No feed configured: the dashboard shows its sample week, labelled as mock data. */
  z.object({ source: z.literal('sample') }),
  z.object({
    source: z.literal('feed'),
    events: z.array(economicCalendarEvent),
    /** When the feed was last read. */
    fetched_at: z.string(),
    /** True when the last read failed and these are the events of an earlier one. */
    stale: z.boolean(),
  }),
]);
export type EconomicCalendarResponse = z.infer<typeof economicCalendarResponse>;

/**
 * GET /api/economic-calendar/news: whether the reports' news filter can find anything. `feed`: a calendar feed is
 * configured; `events`: how many high-impact USD events are stored for it to match trades with.
 */
export const newsFilterStatus = z.strictObject({ feed: z.boolean(), events: z.number().int().nonnegative() });
export type NewsFilterStatus = z.infer<typeof newsFilterStatus>;
