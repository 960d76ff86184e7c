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
 * configured; `events`: how many high-impact USD events the trader's filter has to match trades with (the feed's and
 * those the trader imported, each once).
 */
export const newsFilterStatus = z.strictObject({ feed: z.boolean(), events: z.number().int().nonnegative() });
export type NewsFilterStatus = z.infer<typeof newsFilterStatus>;

/**
 * POST /api/economic-calendar/events: a file of past calendar weeks (the body is the file itself: the JSON list the
 * feed answers, or a CSV with its columns title, country, date, impact, forecast, previous). Its high-impact USD events
 * join the trader's own for the news filter; other traders' filters never see them.
 */
export const newsImportResult = z.strictObject({
  /** The file's events, of every currency and impact. */
  read: z.number().int().nonnegative(),
  /** Of those, the high-impact USD ones: the only ones the news filter matches trades with. */
  kept: z.number().int().nonnegative(),
  /** Of those, the ones stored now: not from an earlier file, nor known from the feed already. */
  added: z.number().int().nonnegative(),
  /** The first and last kept event's instants (ISO, UTC); null when the file has none. */
  from: z.string().nullable(),
  to: z.string().nullable(),
});
export type NewsImportResult = z.infer<typeof newsImportResult>;

/** GET /api/economic-calendar/events: the trader's imported events, how many and from when to when (ISO, UTC). */
export const importedNewsEvents = z.strictObject({
  count: z.number().int().nonnegative(),
  from: z.string().nullable(),
  to: z.string().nullable(),
});
export type ImportedNewsEvents = z.infer<typeof importedNewsEvents>;

/** DELETE /api/economic-calendar/events: the trader's imported events are gone (the feed's stay); how many went. */
export const importedNewsDeleted = z.strictObject({ deleted: z.number().int().nonnegative() });
export type ImportedNewsDeleted = z.infer<typeof importedNewsDeleted>;
