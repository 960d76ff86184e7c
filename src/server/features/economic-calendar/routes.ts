import { Hono } from 'hono';
import type { EconomicCalendarEvent, EconomicCalendarResponse, NewsFilterStatus } from '../../../contract/economic-calendar';
import { countNewsEvents, isStoredNews, storeNewsEvents } from '../../core/news/repo';
import type { Database } from '../../db/client';
import type { AppDeps, AppEnv } from '../../http/context';
import { createEconomicCalendar } from './service';

/**
 * A week has a couple of dozen high-impact USD releases: a feed that lists thousands is not a weekly calendar, and
 * keeping them all on every read would grow the table without end.
 */
const MAX_KEPT_PER_READ = 200;

/**
 * What a good read of the feed leaves behind: its high-impact USD events, kept for the news filter. Public news, no
 * trader's: written on the server's own connection (the app role may only read them).
 */
export const keepNewsEvents = (database: Database) => (events: readonly EconomicCalendarEvent[]) =>
  storeNewsEvents(database.db, events.filter(isStoredNews).slice(0, MAX_KEPT_PER_READ));

/**
 * /api/economic-calendar: the configured feed's week, or `{ source: 'sample' }` when there is no feed. Every good read
 * of the feed keeps its high-impact USD events for the reports' news filter; /news says whether that filter has any.
 */
export function economicCalendarRoutes({ config, logger, database }: AppDeps) {
  const url = config.ECONOMIC_CALENDAR_URL;
  const calendar = url ? createEconomicCalendar({ url, logger, onRead: keepNewsEvents(database) }) : null;
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json<EconomicCalendarResponse>(calendar ? await calendar.week() : { source: 'sample' }))
    .get('/news', async (c) => {
      const userId = c.get('user').id;
      let events = await database.withUser(userId, countNewsEvents);
      if (calendar && events === 0) {
        // Nothing kept yet (no one opened the calendar since the server started): read the feed now. A feed that
        // cannot be read leaves the filter without events, which is what the answer then says.
        await calendar.week().catch(() => undefined);
        events = await database.withUser(userId, countNewsEvents);
      }
      return c.json<NewsFilterStatus>({ feed: calendar !== null, events });
    });
}
